//! Rules a tile carries and the board-wide words (what `[[ability]]` lowers to), on the base
//! tiles (`testkit::BASE_TILES`): every expected number is worked out by hand from the board
//! laid below. Rule ids are lower-case test fixtures (as in `tests.rs`).

use std::sync::Arc;

use tegula_ruleset::{
    Act, Compare, Expr, FeatureKind, Owner, Quantity, RuleEvent, Ruleset, Seat, State, Test, When,
};

use super::super::{Action, FollowerOption, Game, Placement};
use crate::rules::Rules;
use crate::testkit::base_ruleset;

fn int(n: u32) -> Expr {
    Expr::Int(n)
}

fn count(q: Quantity) -> Expr {
    Expr::Count(q)
}

/// `Σ weight × word`.
fn weighted(parts: &[(u32, Quantity)]) -> Expr {
    let term = |&(w, q): &(u32, Quantity)| Expr::Mul(Box::new(int(w)), Box::new(count(q)));
    let mut it = parts.iter().map(term);
    let first = it.next().unwrap_or(int(0));
    it.fold(first, |a, b| Expr::Add(Box::new(a), Box::new(b)))
}

/// A rule scoring `value` to `to` at `event`, carried by `tile` (a tile id) or by none.
fn rule(rs: &Ruleset, id: &str, event: RuleEvent, value: Expr, tile: Option<&str>) -> When {
    let tile = tile.map(|t| rs.tiles.iter().position(|x| x.id == t).unwrap() as u16);
    When {
        rule: id.into(),
        event,
        test: None,
        then: vec![Act::Score {
            value,
            to: if tile.is_some() {
                Seat::Owner
            } else {
                Seat::Actor
            },
        }],
        offer: None,
        tile,
    }
}

fn game(rs: Ruleset, tiles: &[&str]) -> Game {
    let rules = Arc::new(Rules::new(rs).expect("a valid ruleset"));
    let draws = tiles.iter().map(|t| rules.tile_index(t).unwrap()).collect();
    Game::scripted(rules, 2, draws).unwrap()
}

/// Place the drawn `tile` at `(x, y)` (rotation 0), then a meeple on its feature `meeple`.
fn play(g: &mut Game, tile: &str, (x, y): (i32, i32), meeple: Option<u8>) {
    let t = g.rules().tile_index(tile).unwrap();
    assert_eq!(g.current_tile(), t, "the draw is {tile}");
    let p = Placement {
        tile: t,
        x,
        y,
        rotation: 0,
    };
    g.apply(Action::Place(p)).unwrap();
    let f = meeple.map(|feature| FollowerOption {
        feature,
        follower: 0,
    });
    g.apply(f.map_or(Action::Pass, Action::Follower)).unwrap();
}

/// The points of the events citing `rule`, with their turns and seats.
fn paid(g: &Game, rule: &str) -> Vec<(u32, Vec<u8>, u32)> {
    let of = |e: &crate::event::Event| match e {
        crate::event::Event::Score {
            turn,
            players,
            points,
            rule: r,
            ..
        }
        | crate::event::Event::Points {
            turn,
            players,
            points,
            rule: r,
        } if r == rule => Some((*turn, players.clone(), *points)),
        _ => None,
    };
    g.events().iter().filter_map(of).collect()
}

/// Turn 1, seat 0: the cloister tile B south of the start tile, a meeple on the cloister.
/// Turn 2, seat 1: the straight road U east of the start tile, a meeple on the road (which now
/// runs over the start tile and U: 2 tiles). U's cell (1, 0) is diagonal to the cloister's
/// (0, 1); the cloister's own cell has no cloister around it.
#[test]
fn the_words_of_a_figure_placed() {
    let rs = base_ruleset();
    let value = weighted(&[
        (1000, Quantity::Near(None)),
        (100, Quantity::OwnerFigure),
        (10, Quantity::Occupants),
        (1, Quantity::OwnerFigures),
    ]);
    let owner = weighted(&[
        (10, Quantity::OwnerActs),
        (
            1,
            Quantity::Figures {
                whose: Owner::Own,
                kind: None,
                state: State::Any,
            },
        ),
        (
            100,
            Quantity::Figures {
                whose: Owner::Others,
                kind: None,
                state: State::Any,
            },
        ),
    ]);
    let placed = RuleEvent::FigurePlaced { figure: None };
    let mut rs2 = rs.clone();
    rs2.when = vec![
        rule(&rs, "n-1", placed.clone(), value, None),
        rule(&rs, "n-2", placed, owner, None),
    ];
    let mut g = game(rs2, &["B", "U"]);
    play(&mut g, "B", (0, 1), Some(0));
    play(&mut g, "U", (1, 0), Some(0));
    // Turn 1: not near (its own cell), the placer's figure, 1 figure on the cloister, 1 its.
    // Turn 2: near the cloister (diagonal), the placer's, 1 on the road, 1 its.
    assert_eq!(paid(&g, "n-1"), [(1, vec![0], 111), (2, vec![1], 1111)]);
    // The placer is the actor; own figures 1 each turn; others' 0, then seat 0's cloister 1.
    assert_eq!(paid(&g, "n-2"), [(1, vec![0], 11), (2, vec![1], 111)]);
}

/// The board after each turn of [`the_words_of_a_figure_placed`]'s game: figures anywhere,
/// roads of 2 tiles or more, rows and columns with a run of 2, seats and tiles in the game.
#[test]
fn the_words_of_the_board() {
    let rs = base_ruleset();
    let board = weighted(&[
        (
            1000,
            Quantity::Figures {
                whose: Owner::Anyone,
                kind: None,
                state: State::Any,
            },
        ),
        (
            100,
            Quantity::Features {
                kind: FeatureKind::Road,
                min_tiles: 2,
                state: State::Any,
                tag: None,
            },
        ),
        (10, Quantity::Lines(2)),
        (1, Quantity::PlacedThisTurn),
    ]);
    let seats = weighted(&[(100, Quantity::Players), (1, Quantity::GameTiles)]);
    let mut rs2 = rs.clone();
    rs2.when = vec![
        rule(&rs, "n-3", RuleEvent::TurnEnd, board, None),
        rule(&rs, "n-4", RuleEvent::TurnEnd, seats, None),
    ];
    let mut g = game(rs2, &["B", "U"]);
    play(&mut g, "B", (0, 1), Some(0));
    play(&mut g, "U", (1, 0), Some(0));
    // Turn 1: 1 figure; the road is the start tile's alone (1 tile); column x = 0 holds 2
    // cells in a run, rows y = 0 and y = 1 one each: 1 line; no tile carries the rule: 0.
    // Turn 2: 2 figures; the road covers 2 tiles; row y = 0 and column x = 0: 2 lines.
    assert_eq!(paid(&g, "n-3"), [(1, vec![0], 1010), (2, vec![1], 2120)]);
    // 2 seats; the base game deals 72 tiles, the start tile included.
    assert_eq!(paid(&g, "n-4"), [(1, vec![0], 272), (2, vec![1], 272)]);
}

/// A rule tile B carries acts once per owned B, in the order the Bs were placed, for each B's
/// owner; `placed_this_turn` is 1 in the turn its B was placed; the points are reported per
/// tile type and owner (the simulator's ability points).
#[test]
fn a_carried_rule_acts_per_owned_tile_in_ownership_order() {
    let rs = base_ruleset();
    let value = Expr::Add(
        Box::new(int(1)),
        Box::new(Expr::Mul(
            Box::new(int(10)),
            Box::new(count(Quantity::PlacedThisTurn)),
        )),
    );
    let mut rs2 = rs.clone();
    rs2.when = vec![rule(&rs, "n-5", RuleEvent::TurnEnd, value, Some("B"))];
    let mut g = game(rs2, &["B", "B", "U"]);
    play(&mut g, "B", (0, 1), None);
    play(&mut g, "B", (1, 1), None);
    play(&mut g, "U", (1, 0), None);
    assert_eq!(
        paid(&g, "n-5"),
        [
            (1, vec![0], 11),
            (2, vec![0], 1),
            (2, vec![1], 11),
            (3, vec![0], 1),
            (3, vec![1], 1),
        ]
    );
    let b = g.rules().tile_index("B").unwrap();
    assert_eq!(g.ability_points(), [(b, 0, 13), (b, 1, 12)]);
}

/// A carried rule's test reads its own tile's owner: `owner_acts` holds only in the owner's
/// turn, so seat 0's B pays in turns 1 and 3, never in seat 1's turn 2.
#[test]
fn owner_acts_is_the_carrying_tiles_owner() {
    let rs = base_ruleset();
    let mut w = rule(&rs, "n-6", RuleEvent::TurnEnd, int(1), Some("B"));
    w.test = Some(Test::Cmp(
        Compare::Gt,
        Box::new(count(Quantity::OwnerActs)),
        Box::new(int(0)),
    ));
    let mut rs2 = rs.clone();
    rs2.when = vec![w];
    let mut g = game(rs2, &["B", "U", "U"]);
    play(&mut g, "B", (0, 1), None);
    play(&mut g, "U", (1, 0), None);
    play(&mut g, "U", (2, 0), None);
    assert_eq!(paid(&g, "n-6"), [(1, vec![0], 1), (3, vec![0], 1)]);
}

/// A `draw` rule's `hand` sets how many tiles the seat holds (W-12): seat 0, who owns a B,
/// draws up to 2 from its next turn; seat 1, who owns none, keeps 1.
#[test]
fn a_draw_rule_sets_the_owners_hand() {
    let rs = base_ruleset();
    let mut rs2 = rs.clone();
    let b = rs.tiles.iter().position(|t| t.id == "B").unwrap() as u16;
    rs2.when = vec![When {
        rule: "n-7".into(),
        event: RuleEvent::Draw { tag: None },
        test: None,
        then: vec![Act::Hand {
            size: 2,
            to: Seat::Owner,
        }],
        offer: None,
        tile: Some(b),
    }];
    let mut g = game(rs2, &["B", "U", "U", "U", "U"]);
    assert_eq!(g.hand_size(0), 1, "nobody owns a B yet");
    play(&mut g, "B", (0, 1), None);
    assert_eq!((g.hand_size(0), g.hand_size(1)), (2, 1));
}
