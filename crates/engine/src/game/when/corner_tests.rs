//! Corner figures through the one rule form (AM-7..AM-9): the payments the model lowers from a
//! figure's `corner` short form run as rules, and a corner figure's field scoring raises
//! `feature-scored` with its winners like any other scoring (AM-8 too, as a whole field or field
//! by field), so a rule on fields sees it. The board: the start tile D at (0, 0), the straight
//! road U east of it, two cloister tiles B south of both; the four cells meet at point (1, 1),
//! all four field there (AM-6).

use std::sync::Arc;

use tegula_ruleset::{
    Act, AfterScore, CornerScoring, Expr, FeatureKind, FollowerType, Quantity, RuleEvent, Ruleset,
    ScoredAt, Seat, Site, Strength, When,
};

use super::super::{Action, FollowerOption, Game, Phase, Placement};
use crate::event::Event;
use crate::rules::Rules;
use crate::testkit::base_ruleset;

/// A rule with one automatic effect.
fn rule(id: &str, event: RuleEvent, act: Act) -> When {
    When {
        rule: id.into(),
        event,
        test: None,
        then: vec![act],
        offer: None,
        tile: None,
    }
}

/// The base game with a corner figure `c` (figure type 1) paying 2 + `cities` on placement and
/// 7 at the end, its two payments as the model lowers them, and `field-seen`: 5 points to each
/// winner of a field scored during the game.
fn corner_ruleset() -> Ruleset {
    let mut rs = base_ruleset();
    let cities = || Expr::Count(Quantity::Cities);
    let place = Expr::Add(Box::new(Expr::Int(2)), Box::new(cities()));
    rs.followers.push(FollowerType {
        strength: Strength::Fixed(0),
        sites: vec![Site::Corner],
        after_score: AfterScore::Stay,
        corner: Some(CornerScoring {
            place: place.clone(),
            join: cities(),
            final_: Expr::Int(7),
            place_rule: "am-7".into(),
            join_rule: "am-8".into(),
            final_rule: "am-9".into(),
        }),
        ..FollowerType::standard("c", "Corner figure", 1, 0)
    });
    let figure = Some(1);
    rs.when = vec![
        rule(
            "am-7",
            RuleEvent::FigurePlaced { figure },
            Act::ScoreFeature {
                value: place,
                each_part: false,
            },
        ),
        rule(
            "am-9",
            RuleEvent::FigureAtEnd { figure },
            Act::ScoreFigure {
                value: Expr::Int(7),
            },
        ),
        rule(
            "field-seen",
            RuleEvent::FeatureScored {
                kinds: vec![FeatureKind::Field],
                at: ScoredAt::Game,
            },
            Act::Score {
                value: Expr::Int(5),
                to: Seat::Winners,
            },
        ),
    ];
    rs
}

/// Place the drawn tile `tile` at `(x, y)`, turned the fewest times that fits.
fn place(g: &mut Game, tile: &str, (x, y): (i32, i32)) {
    let tile = g.rules().tile_index(tile).unwrap();
    let fits = (0..4).map(|rotation| Placement {
        tile,
        x,
        y,
        rotation,
    });
    let p = fits.clone().find(|&p| g.check_placement(p).is_ok());
    g.apply(Action::Place(p.expect("the tile fits"))).unwrap();
}

/// The figure option of type `follower` on the field of the tile just placed.
fn on_field(g: &Game, follower: u8) -> Action {
    let field = |o: &&FollowerOption| {
        o.follower == follower && {
            let t = g.current_tile() as usize;
            let feats = &g.rules().ruleset().tiles[t].features;
            feats[o.feature as usize].kind == FeatureKind::Field
        }
    };
    let o = g.follower_options().iter().find(field).copied();
    Action::Follower(o.expect("a figure option on the field"))
}

/// The score events citing `rule`: (players, points).
fn scores(g: &Game, rule: &str) -> Vec<(Vec<u8>, u32)> {
    let of = |e: &Event| match e {
        Event::Score {
            rule: r,
            players,
            points,
            ..
        } if r == rule => Some((players.clone(), *points)),
        _ => None,
    };
    g.events().iter().filter_map(of).collect()
}

/// The first three turns both corner tests play (draws U, B, B).
fn opening(g: &mut Game) {
    // Turn 1, seat 0: U east of the start tile, no figure.
    place(g, "U", (1, 0));
    g.apply(Action::Pass).unwrap();
    // Turn 2, seat 1: B south of the start tile, a farmer on its field.
    place(g, "B", (0, 1));
    let farmer = on_field(g, 0);
    g.apply(farmer).unwrap();
    // Turn 3, seat 0: B at (1, 1) closes the point (1, 1); seat 0's corner figure goes there.
    place(g, "B", (1, 1));
    let corner = on_field(g, 1);
    g.apply(corner).unwrap();
}

#[test]
fn a_corner_figure_scores_its_field_through_the_rules_and_raises_feature_scored() {
    let rules = Arc::new(Rules::new(corner_ruleset()).expect("a valid ruleset"));
    let draws = ["U", "B", "B"]
        .map(|t| rules.tile_index(t).unwrap())
        .to_vec();
    let mut g = Game::scripted(rules, 2, draws).unwrap();
    opening(&mut g);
    // AM-7: the field borders no completed city (D's city is open): 2 + 0 = 2 to its only
    // farmer's seat, 1; `feature-scored` for that field pays its winner, seat 1, 5 more; the
    // farmer returns. Seat 0's corner figure is in no majority.
    assert_eq!(scores(&g, "am-7"), [(vec![1], 2)]);
    assert_eq!(scores(&g, "field-seen"), [(vec![1], 5)]);
    let returned = g.events().iter().any(|e| {
        matches!(
            e,
            Event::Return {
                player: 1,
                turn: 3,
                ..
            }
        )
    });
    assert!(returned, "the farmer returns");
    // The pile is empty: final scoring. AM-9: seat 0's corner figure scores 7; the field
    // holds no farmer any more and the cloisters hold no figure: nothing else scores.
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(scores(&g, "am-9"), [(vec![0], 7)]);
    assert_eq!(g.scores(), [7, 7]);
}

#[test]
fn a_feature_scored_rule_that_scores_a_feature_is_refused() {
    // Its scoring would raise `feature-scored` again, for ever: refused, not a stack overflow.
    let mut rs = corner_ruleset();
    rs.when.push(rule(
        "loop",
        RuleEvent::FeatureScored {
            kinds: Vec::new(),
            at: ScoredAt::Any,
        },
        Act::ScoreFeature {
            value: Expr::Int(1),
            each_part: false,
        },
    ));
    let err = Rules::new(rs).expect_err("a loop").to_string();
    assert!(
        err.contains("rule loop: a feature-scored rule may not score a feature"),
        "{err}"
    );
}

/// The corner ruleset with AM-8's join paying 4 (field by field with `each_part`).
fn join_ruleset(each_part: bool) -> Ruleset {
    let mut rs = corner_ruleset();
    let join = rule(
        "am-8",
        RuleEvent::Joined { figure: Some(1) },
        Act::ScoreFeature {
            value: Expr::Int(4),
            each_part,
        },
    );
    rs.when.insert(1, join);
    rs
}

#[test]
fn a_field_joined_to_a_corner_figures_field_scores_through_the_rules_and_raises_feature_scored() {
    for each_part in [false, true] {
        let rules = Arc::new(Rules::new(join_ruleset(each_part)).expect("a valid ruleset"));
        let draws = ["U", "B", "B", "U", "A"];
        let draws = draws.map(|t| rules.tile_index(t).unwrap()).to_vec();
        let mut g = Game::scripted(rules, 2, draws).unwrap();
        // Turns 1-3 as above: seat 0's corner figure on the field south of the road (AM-7
        // pays seat 1's farmer, who returns).
        opening(&mut g);
        // Turn 4, seat 1: U west of the start tile; its south field joins the corner figure's
        // (no farmer there: nothing scores); a farmer on its north field (the only field open).
        place(&mut g, "U", (-1, 0));
        let farmer = on_field(&g, 0);
        g.apply(farmer).unwrap();
        assert_eq!(scores(&g, "am-8"), []);
        // Turn 5, seat 0: A's road ends west of U, so its field joins U's north field (seat 1's
        // farmer) to the south one (AM-8): 4 to seat 1, `feature-scored` pays it 5, the farmer
        // returns — as the tile is placed (before seat 0's figure step).
        place(&mut g, "A", (-2, 0));
        assert_eq!(scores(&g, "am-8"), [(vec![1], 4)], "each_part {each_part}");
        assert_eq!(scores(&g, "field-seen"), [(vec![1], 5), (vec![1], 5)]);
        let back = |e: &Event| {
            matches!(
                e,
                Event::Return {
                    player: 1,
                    turn: 5,
                    ..
                }
            )
        };
        assert!(g.events().iter().any(back), "the farmer returns");
        assert_eq!(g.phase(), Phase::Follower);
    }
}
