//! The one rule form's automatic side, on hand-built rulesets (docs/design/rule-form.md): every
//! event kind, every effect, every seat selector, tokens (KR-2, KR-4), tile counters (GM-2,
//! GM-3, GM-4) and sites by tag (AB-1). Boards are laid tile by tile from the base tiles
//! (`testkit::BASE_TILES`); every expected number is worked out from the rule text. The rules
//! here are test fixtures, so their ids are lower-case (`kr-2` plays KR-2): the registry
//! (`tests/rules.rs`) holds only real rule ids.

use std::sync::Arc;

use tegula_ruleset::{
    Act, CounterType, Expr, FeatureKind, PieceKind, Quantity, Resource, RuleEvent, Ruleset,
    ScoredAt, Seat, Test, TileRef, TokenType, When,
};

use super::super::{Action, FollowerOption, Game, MoveError, Phase, Placement};
use super::{Chosen, Ctx, FigureRef};
use crate::event::Event;
use crate::rules::{Rules, RulesReason};
use crate::testkit::{base_ruleset, play_random};

fn when(rule: &str, event: RuleEvent, test: Option<Test>, then: Vec<Act>) -> When {
    When {
        rule: rule.into(),
        event,
        test,
        then,
        offer: None,
        tile: None,
    }
}

fn int(n: u32) -> Expr {
    Expr::Int(n)
}

fn count(q: Quantity) -> Expr {
    Expr::Count(q)
}

fn gt(a: Expr, b: Expr) -> Test {
    Test::Cmp(tegula_ruleset::Compare::Gt, Box::new(a), Box::new(b))
}

fn resource(id: &str) -> Resource {
    Resource {
        id: id.into(),
        name: id.into(),
        start: Vec::new(),
    }
}

/// The base game with `rules`, tokens `king`, counter `gold`, resource `ingots`, and the tag
/// `gold` on the cities of tiles E and R (GM-1's gold tiles, for these tests).
fn ruleset(rules: Vec<When>) -> Ruleset {
    let mut rs = base_ruleset();
    rs.tags = vec!["gold".into()];
    for t in rs.tiles.iter_mut().filter(|t| t.id == "E" || t.id == "R") {
        t.features[0].tags = 1;
    }
    rs.tokens = vec![TokenType {
        id: "king".into(),
        name: "King".into(),
    }];
    rs.counters = vec![CounterType {
        id: "gold".into(),
        name: "Gold".into(),
    }];
    rs.resources = vec![resource("ingots")];
    rs.when = rules;
    rs
}

/// A two-seat game drawing `tiles` (ids) in order.
fn game(rs: Ruleset, tiles: &[&str]) -> Game {
    let rules = Arc::new(Rules::new(rs).expect("a valid ruleset"));
    let draws = tiles.iter().map(|t| rules.tile_index(t).unwrap()).collect();
    Game::scripted(rules, 2, draws).unwrap()
}

/// Place the drawn tile `tile` at `(x, y)` turned `rotation` times, then a meeple on its
/// feature `meeple` or no figure.
fn play(g: &mut Game, tile: &str, (x, y, rotation): (i32, i32, u8), meeple: Option<u8>) {
    let t = g.rules().tile_index(tile).unwrap();
    assert_eq!(g.current_tile(), t, "the draw is {tile}");
    let p = Placement {
        tile: t,
        x,
        y,
        rotation,
    };
    g.apply(Action::Place(p)).unwrap();
    let follower = meeple.map(|feature| FollowerOption {
        feature,
        follower: 0,
    });
    g.apply(follower.map_or(Action::Pass, Action::Follower))
        .unwrap();
}

/// The events citing `rule`.
fn cited<'a>(g: &'a Game, rule: &str) -> Vec<&'a Event> {
    g.events()
        .iter()
        .filter(|e| e.rule() == Some(rule))
        .collect()
}

/// The token events of a game: (turn, seat, record).
fn takes(g: &Game) -> Vec<(u32, u8, u32)> {
    let token = |e: &Event| match e {
        Event::Token {
            turn,
            player,
            record,
            ..
        } => Some((*turn, *player, *record)),
        _ => None,
    };
    g.events().iter().filter_map(token).collect()
}

/// KR-2: a completed city of more tiles than the king's record takes the king for the seat
/// that placed the completing tile.
fn kr2() -> When {
    when(
        "kr-2",
        RuleEvent::FeatureCompleted {
            kinds: vec![FeatureKind::City],
        },
        Some(gt(count(Quantity::Tiles), count(Quantity::Record(0)))),
        vec![Act::Token {
            token: 0,
            to: Seat::Placer,
            record: count(Quantity::Tiles),
        }],
    )
}

/// KR-4: the king's holder scores 1 per completed city on the board.
fn kr4() -> When {
    when(
        "kr-4",
        RuleEvent::GameEnd,
        None,
        vec![Act::Score {
            value: count(Quantity::Completed(FeatureKind::City)),
            to: Seat::Holder(0),
        }],
    )
}

#[test]
fn kr2_first_city_takes_equal_does_not_bigger_does() {
    let tiles = ["E", "E", "E", "E", "F", "E"];
    let mut g = game(ruleset(vec![kr2(), kr4()]), &tiles);
    // Turn 1, seat 0: E's city south onto the start tile's: the first city (2 tiles).
    play(&mut g, "E", (0, -1, 2), None);
    assert_eq!(takes(&g), [(1, 0, 2)]);
    assert_eq!((g.token_holder(0), g.token_record(0)), (Some(0), 2));
    // Turns 2, 3: a second city of 2 tiles, completed by seat 0: equal, no take.
    play(&mut g, "E", (1, -1, 0), None);
    play(&mut g, "E", (1, -2, 2), None);
    assert_eq!(takes(&g).len(), 1);
    // Turns 4-6: E facing east, F, E facing west: a city of 3 tiles completed by seat 1.
    play(&mut g, "E", (2, -1, 1), None);
    play(&mut g, "F", (3, -1, 0), None);
    play(&mut g, "E", (4, -1, 3), None);
    assert_eq!(takes(&g), [(1, 0, 2), (6, 1, 3)]);
    assert_eq!((g.token_holder(0), g.token_record(0)), (Some(1), 3));
    // KR-4 at the end: 3 completed cities, 1 point each, to seat 1 (no figure scored).
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.scores(), [0, 3]);
    let kr4 = cited(&g, "kr-4");
    assert!(matches!(kr4[..], [Event::Points { players, points: 3, .. }] if *players == [1]));
}

#[test]
fn kr2_two_cities_in_one_turn_compare_with_the_record_at_turn_start() {
    // Turn 3: tile I closes the start tile's city (2 tiles) and the city of E at (1, -1)
    // (2 tiles) at once. Both are compared with the record before the turn (0), so both take;
    // a record read live would refuse the second (2 is not more than 2).
    let mut g = game(ruleset(vec![kr2()]), &["U", "E", "I"]);
    play(&mut g, "U", (1, 0, 0), None);
    play(&mut g, "E", (1, -1, 3), None);
    play(&mut g, "I", (0, -1, 2), None);
    assert_eq!(takes(&g), [(3, 0, 2), (3, 0, 2)]);
    assert_eq!((g.token_holder(0), g.token_record(0)), (Some(0), 2));
}

/// GM-2's first ingot, GM-3's take by the winners, GM-5's score per ingot held.
fn gold_rules() -> Vec<When> {
    vec![
        when(
            "gm-2",
            RuleEvent::TilePlaced { tag: Some(0) },
            None,
            vec![Act::Counters {
                counter: 0,
                add: int(1),
                on: TileRef::Subject,
            }],
        ),
        when(
            "gm-3",
            RuleEvent::FeatureScored {
                kinds: vec![FeatureKind::Road, FeatureKind::City, FeatureKind::Cloister],
                at: ScoredAt::Game,
            },
            None,
            vec![Act::Take {
                counter: 0,
                into: 0,
                to: Seat::Winners,
            }],
        ),
        when(
            "gm-5",
            RuleEvent::GameEnd,
            None,
            vec![Act::Score {
                value: count(Quantity::Held(0)),
                to: Seat::Every,
            }],
        ),
    ]
}

#[test]
fn gm2_gm3_the_winner_takes_the_ingot_of_the_completed_city() {
    let mut g = game(ruleset(gold_rules()), &["E", "U"]);
    // E is a gold tile: an ingot on it (GM-2); its city (2 tiles) completes with seat 0's
    // meeple: B-4 pays 4, and seat 0 takes the ingot (GM-3).
    let t = g.rules().tile_index("E").unwrap();
    g.apply(Action::Place(Placement {
        tile: t,
        x: 0,
        y: -1,
        rotation: 2,
    }))
    .unwrap();
    assert_eq!(g.counters_at(0, 0, -1), 1);
    assert_eq!(g.tile_counters(), [(0, 0, -1, 1)]);
    let added = cited(&g, "gm-2");
    assert!(matches!(
        added[..],
        [Event::Counters {
            added: 1,
            total: 1,
            x: 0,
            y: -1,
            ..
        }]
    ));
    g.apply(Action::Follower(FollowerOption {
        feature: 0,
        follower: 0,
    }))
    .unwrap();
    assert_eq!(g.counters_at(0, 0, -1), 0);
    assert_eq!(g.holding(0, 0), 1);
    let taken = cited(&g, "gm-3");
    assert!(matches!(
        taken[..],
        [Event::Collect {
            player: 0,
            amount: 1,
            ..
        }]
    ));
    // A tile of no gold gets none; at the end seat 0 scores 1 for its ingot (GM-5).
    play(&mut g, "U", (1, 0, 0), None);
    assert!(g.tile_counters().is_empty());
    assert_eq!(g.scores(), [4 + 1, 0]);
}

#[test]
fn gm4_tied_winners_take_one_at_a_time_from_the_actor() {
    // Seat 1's meeple on E at (1, -1) (an ingot), seat 0's on E at (-1, -1) (an ingot); seat
    // 0's R joins both with the start tile's city: 4 tiles, complete, tied. R is gold too: 3
    // ingots, taken one at a time from the actor (seat 0): seat 0 takes 2, seat 1 takes 1.
    let tiles = ["U", "E", "U", "U", "E", "U", "R"];
    let mut g = game(ruleset(gold_rules()), &tiles);
    play(&mut g, "U", (1, 0, 0), None);
    play(&mut g, "E", (1, -1, 3), Some(0));
    play(&mut g, "U", (-1, 0, 0), None);
    play(&mut g, "U", (2, 0, 0), None);
    play(&mut g, "E", (-1, -1, 1), Some(0));
    play(&mut g, "U", (3, 0, 0), None);
    play(&mut g, "R", (0, -1, 2), None);
    let taken: Vec<(u8, u32)> = cited(&g, "gm-3")
        .iter()
        .filter_map(|e| match e {
            Event::Collect { player, amount, .. } => Some((*player, *amount)),
            _ => None,
        })
        .collect();
    assert_eq!(taken, [(0, 2), (1, 1)]);
    assert_eq!((g.holding(0, 0), g.holding(1, 0)), (2, 1));
    assert!(g.tile_counters().is_empty());
    // B-4: 4 tiles × 2 each to both; GM-5: 2 and 1.
    assert_eq!(g.scores(), [8 + 2, 8 + 1]);
}

#[test]
fn gold_stays_without_a_winner() {
    // The city completes with nobody on it: no winner, the ingot stays (GM-3).
    let mut g = game(ruleset(gold_rules()), &["E"]);
    play(&mut g, "E", (0, -1, 2), None);
    assert_eq!(g.counters_at(0, 0, -1), 1);
    assert!(cited(&g, "gm-3").is_empty());
}

/// A rule that pays 1 point to `to` on `event`, cited as `rule`.
fn point(rule: &str, event: RuleEvent, to: Seat) -> When {
    when(rule, event, None, vec![Act::Score { value: int(1), to }])
}

/// The (turn, seats) of the events citing `rule`.
fn paid(g: &Game, rule: &str) -> Vec<(u32, Vec<u8>)> {
    let of = |e: &&Event| match e {
        Event::Score { turn, players, .. } | Event::Points { turn, players, .. } => {
            Some((*turn, players.clone()))
        }
        _ => None,
    };
    cited(g, rule).iter().filter_map(of).collect()
}

#[test]
fn every_event_kind_is_raised_where_the_engine_acts() {
    let city = vec![FeatureKind::City];
    let rules = vec![
        point("ev-1", RuleEvent::TilePlaced { tag: None }, Seat::Actor),
        point("ev-2", RuleEvent::TilePlaced { tag: Some(0) }, Seat::Actor),
        point(
            "ev-3",
            RuleEvent::FigurePlaced { figure: None },
            Seat::Actor,
        ),
        point(
            "ev-4",
            RuleEvent::FeatureCompleted {
                kinds: city.clone(),
            },
            Seat::Placer,
        ),
        point(
            "ev-5",
            RuleEvent::FeatureScored {
                kinds: city.clone(),
                at: ScoredAt::Game,
            },
            Seat::Winners,
        ),
        point(
            "ev-6",
            RuleEvent::FeatureScored {
                kinds: vec![],
                at: ScoredAt::End,
            },
            Seat::Winners,
        ),
        point("ev-7", RuleEvent::TurnStart, Seat::Actor),
        point("ev-8", RuleEvent::TurnEnd, Seat::Actor),
        point("ev-9", RuleEvent::GameEnd, Seat::Every),
        point("ev-10", RuleEvent::FigureStep, Seat::Actor),
    ];
    let mut g = game(ruleset(rules), &["U", "E"]);
    // Turn 1, seat 0: a road tile (no gold), a meeple on its road (open: scored at the end).
    play(&mut g, "U", (1, 0, 0), Some(0));
    // Turn 2, seat 1: E (gold) closes the start tile's city, nobody on it: no winners.
    play(&mut g, "E", (0, -1, 2), None);
    assert_eq!(paid(&g, "ev-1"), [(1, vec![0]), (2, vec![1])]);
    assert_eq!(paid(&g, "ev-2"), [(2, vec![1])]);
    assert_eq!(paid(&g, "ev-3"), [(1, vec![0])]);
    assert_eq!(paid(&g, "ev-4"), [(2, vec![1])]);
    assert_eq!(paid(&g, "ev-5"), []);
    // Final scoring: the road (start tile and U) of seat 0's meeple.
    assert_eq!(paid(&g, "ev-6"), [(2, vec![0])]);
    // Turn starts are counted before the tile's turn number moves on.
    assert_eq!(paid(&g, "ev-7"), [(0, vec![0]), (1, vec![1])]);
    assert_eq!(paid(&g, "ev-8"), [(1, vec![0]), (2, vec![1])]);
    assert_eq!(paid(&g, "ev-9"), [(2, vec![0]), (2, vec![1])]);
    assert_eq!(paid(&g, "ev-10"), [(1, vec![0]), (2, vec![1])]);
    // Events in their order within turn 2: tile placed, figure step, completion, turn end.
    let order: Vec<&str> = g.events().iter().filter_map(Event::rule).collect();
    let at = |r: &str| order.iter().rposition(|&x| x == r).unwrap();
    assert!(at("ev-2") < at("ev-10") && at("ev-10") < at("ev-4"));
    // 1 (EV-1) + 1 (EV-3) + 1 (EV-7) + 1 (EV-8) + 1 (EV-10) + 1 (EV-6) + 1 (EV-9) + B-6's road
    // of 2 tiles, 2 points, for seat 0; seat 1: EV-1, EV-2, EV-4, EV-7, EV-8, EV-10, EV-9.
    assert_eq!(g.scores(), [7 + 2, 7]);
}

#[test]
fn a_scored_winner_is_paid_during_the_game() {
    let rules = vec![point(
        "ev-5",
        RuleEvent::FeatureScored {
            kinds: vec![FeatureKind::City],
            at: ScoredAt::Game,
        },
        Seat::Winners,
    )];
    let mut g = game(ruleset(rules), &["E"]);
    play(&mut g, "E", (0, -1, 2), Some(0));
    assert_eq!(paid(&g, "ev-5"), [(1, vec![0])]);
    // The event is a score event on the city (the subject feature).
    let ev = cited(&g, "ev-5");
    assert!(matches!(ev[..], [Event::Score { feature, .. }] if feature.kind == FeatureKind::City));
    assert_eq!(g.scores(), [4 + 1, 0]);
}

#[test]
fn a_test_that_fails_runs_nothing() {
    let rules = vec![when(
        "t-1",
        RuleEvent::FeatureCompleted { kinds: vec![] },
        Some(gt(count(Quantity::Tiles), int(2))),
        vec![Act::Score {
            value: int(5),
            to: Seat::Placer,
        }],
    )];
    let mut g = game(ruleset(rules), &["E"]);
    play(&mut g, "E", (0, -1, 2), None);
    assert!(cited(&g, "t-1").is_empty());
    assert_eq!(g.scores(), [0, 0]);
}

#[test]
fn gains_and_spending_never_go_below_zero() {
    let rules = vec![
        when(
            "g-1",
            RuleEvent::TilePlaced { tag: None },
            None,
            vec![Act::Gain {
                resource: 0,
                amount: int(2),
                to: Seat::Actor,
                spend: false,
            }],
        ),
        when(
            "g-2",
            RuleEvent::FigurePlaced { figure: Some(0) },
            None,
            vec![Act::Gain {
                resource: 0,
                amount: int(5),
                to: Seat::Actor,
                spend: true,
            }],
        ),
    ];
    let mut g = game(ruleset(rules), &["U", "U"]);
    play(&mut g, "U", (1, 0, 0), Some(0));
    assert_eq!(g.holding(0, 0), 0);
    let spent = cited(&g, "g-2");
    assert!(matches!(
        spent[..],
        [Event::Gain {
            amount: 2,
            spent: true,
            feature: Some(_),
            player: 0,
            ..
        }]
    ));
    play(&mut g, "U", (2, 0, 0), None);
    assert_eq!((g.holding(0, 0), g.holding(1, 0)), (0, 2));
}

#[test]
fn an_extra_turn_keeps_today_s_limits() {
    // Completing a city gives one more turn; the extra turn grants none (TB-5's limits).
    let rules = vec![when(
        "x-1",
        RuleEvent::FeatureCompleted { kinds: vec![] },
        None,
        vec![Act::ExtraTurn],
    )];
    let mut g = game(ruleset(rules), &["E", "U", "U"]);
    play(&mut g, "E", (0, -1, 2), None);
    assert_eq!(g.current_player(), 0, "seat 0 plays again");
    let extra = cited(&g, "x-1");
    assert!(matches!(extra[..], [Event::ExtraTurn { player: 0, .. }]));
    play(&mut g, "U", (1, 0, 0), None);
    assert_eq!(g.current_player(), 1);
}

#[test]
fn turn_start_fires_once_per_turn_unless_each_part() {
    // Completing a city gives one more turn (TB-5's form): `turn-start` is raised for the first
    // part of the double turn only; `parts = "each"` (TurnStartEach) for the second part too.
    let rules = vec![
        when(
            "x-1",
            RuleEvent::FeatureCompleted { kinds: vec![] },
            None,
            vec![Act::ExtraTurn],
        ),
        point("ts-first", RuleEvent::TurnStart, Seat::Actor),
        point("ts-each", RuleEvent::TurnStartEach, Seat::Actor),
    ];
    let mut g = game(ruleset(rules), &["E", "U", "U"]);
    // Seat 0's first turn started before: both rules paid it.
    assert_eq!(paid(&g, "ts-first").len(), 1);
    play(&mut g, "E", (0, -1, 2), None);
    assert_eq!(g.current_player(), 0, "seat 0 plays again");
    assert_eq!(
        paid(&g, "ts-first").len(),
        1,
        "not again in the second part"
    );
    assert_eq!(paid(&g, "ts-each").len(), 2, "each part");
    play(&mut g, "U", (1, 0, 0), None);
    assert_eq!(g.current_player(), 1);
    assert_eq!(paid(&g, "ts-first").len(), 2, "seat 1's turn");
    assert_eq!(paid(&g, "ts-each").len(), 3);
}

/// A context of seat 0's turn about instance `tile` (placed by seat 1 in these games).
fn ctx(tile: u32) -> Ctx {
    Ctx {
        tile: Some(tile),
        ..Ctx::of(0)
    }
}

#[test]
fn every_seat_selector_names_its_seats() {
    let mut g = game(ruleset(vec![kr2()]), &["E", "U", "U", "U"]);
    // Seat 0 takes the king; seat 1 places tile instance 2.
    play(&mut g, "E", (0, -1, 2), None);
    play(&mut g, "U", (1, 0, 0), None);
    let mut c = ctx(2);
    c.winners = 0b10;
    c.chooser = Some(1);
    let seats = |g: &Game, s: Seat| g.in_turn_order(g.seat_bits(&s, &c), c.actor);
    assert_eq!(seats(&g, Seat::Actor), [0]);
    assert_eq!(seats(&g, Seat::Placer), [1], "the last tile's placer");
    assert_eq!(seats(&g, Seat::Owner), [1], "the subject tile's placer");
    assert_eq!(seats(&g, Seat::Winners), [1]);
    assert_eq!(seats(&g, Seat::Every), [0, 1]);
    assert_eq!(seats(&g, Seat::Holder(0)), [0]);
    assert_eq!(seats(&g, Seat::Chooser), [1]);
    // The start tile has no owner; every seat in turn order from the actor.
    let start = ctx(0);
    assert!(g
        .in_turn_order(g.seat_bits(&Seat::Owner, &start), 0)
        .is_empty());
    assert_eq!(g.in_turn_order(0b11, 1), [1, 0]);
    // Each selector through an effect: 1 point to the chooser.
    let act = [Act::Score {
        value: int(1),
        to: Seat::Chooser,
    }];
    g.run_acts(0, &act, &c);
    assert_eq!(g.scores(), [0, 1]);
}

#[test]
fn offered_effects_act_on_the_chosen_tile_kind_and_figure() {
    let mut rs = ruleset(vec![]);
    rs.resources.push(resource("sheds"));
    rs.counters.push(CounterType {
        id: "shed".into(),
        name: "Shed".into(),
    });
    let mut offer = kr2();
    offer.offer = Some(tegula_ruleset::Offer {
        to: Seat::Actor,
        options: tegula_ruleset::Options::NeighbourTile { diagonals: true },
        may_decline: false,
        uses_figure_step: false,
        then: vec![Act::Counters {
            counter: 0,
            add: int(1),
            on: TileRef::Chosen,
        }],
        repeat: false,
        order: tegula_ruleset::SeatOrder::TurnOrder,
    });
    rs.when = vec![offer];
    let mut g = game(rs, &["U", "U", "U"]);
    play(&mut g, "U", (1, 0, 0), Some(0));
    // GM-2's second ingot on the chosen tile (instance 1, at (1, 0)).
    let chosen = Ctx {
        chooser: Some(0),
        chosen: Some(Chosen::Tile(1)),
        ..ctx(1)
    };
    g.run_offered(0, &chosen);
    assert_eq!(g.counters_at(0, 1, 0), 1);
    // LB-2: a kind of piece, from the chooser's supply onto the subject tile.
    let kind = PieceKind {
        resource: 1,
        counter: 1,
    };
    let lb = [
        Act::Gain {
            resource: tegula_ruleset::CHOSEN,
            amount: int(1),
            to: Seat::Chooser,
            spend: false,
        },
        Act::Counters {
            counter: tegula_ruleset::CHOSEN,
            add: int(1),
            on: TileRef::Subject,
        },
    ];
    let by_kind = Ctx {
        chosen: Some(Chosen::Kind(kind)),
        ..chosen
    };
    g.run_acts(0, &lb, &by_kind);
    assert_eq!((g.holding(0, 1), g.counters_at(1, 1, 0)), (1, 1));
    // AB-4: the chosen figure returns to supply (seat 0's meeple on the road of U).
    let m = g.board.meeples[0];
    assert_eq!(g.supply(0, 0), 6);
    let back = Ctx {
        chosen: Some(Chosen::Figure(FigureRef {
            player: m.player,
            ftype: m.ftype,
            seg: m.seg,
        })),
        ..chosen
    };
    g.run_acts(0, &[Act::ReturnChosen], &back);
    assert_eq!(g.supply(0, 0), 7);
    assert!(g.followers().is_empty());
    let root = g.find_ro(m.seg);
    assert_eq!(g.board.segs[root as usize].occ, 0);
    assert!(matches!(g.events().last(), Some(Event::Return { rule: Some(r), .. }) if r == "kr-2"));
    // A figure already gone is left alone.
    g.run_acts(0, &[Act::ReturnChosen], &back);
    assert_eq!(g.supply(0, 0), 7);
}

#[test]
fn offers_are_left_for_the_choices_after_the_automatic_effects() {
    let mut rule = point("o-1", RuleEvent::FigureStep, Seat::Actor);
    rule.offer = Some(tegula_ruleset::Offer {
        to: Seat::Actor,
        options: tegula_ruleset::Options::Kind { of: vec![] },
        may_decline: true,
        uses_figure_step: true,
        then: vec![],
        repeat: false,
        order: tegula_ruleset::SeatOrder::TurnOrder,
    });
    let mut g = game(ruleset(vec![rule]), &["U"]);
    let t = g.rules().tile_index("U").unwrap();
    g.apply(Action::Place(Placement {
        tile: t,
        x: 1,
        y: 0,
        rotation: 0,
    }))
    .unwrap();
    assert_eq!(g.scores(), [1, 0]);
    // The choices took the offer off (game/choice.rs); with no option it is not made.
    assert!(g.rf.offers.is_empty());
    assert_eq!((g.phase(), g.choice_count()), (Phase::Follower, 0));
}

/// AB-1: a base game with an abbot (cloisters only) and gardens (a copy of tile B whose
/// cloister carries the tag `garden`); the meeple never stands in a garden.
fn garden_ruleset() -> Ruleset {
    let mut rs = base_ruleset();
    rs.tags = vec!["garden".into()];
    let mut garden = rs.tiles.iter().find(|t| t.id == "B").unwrap().clone();
    garden.id = "GARDEN".into();
    garden.features[0].tags = 1;
    rs.tiles.push(garden);
    rs.followers[0].never_tags = vec![0];
    let mut abbot = tegula_ruleset::FollowerType::standard("abbot", "Abbot", 1, 1);
    abbot.sites = vec![tegula_ruleset::Site::Cloister];
    rs.followers.push(abbot);
    rs
}

#[test]
fn ab1_only_the_abbot_stands_in_a_garden() {
    let rules = Arc::new(Rules::new(garden_ruleset()).unwrap());
    let draws = ["GARDEN", "B"]
        .map(|t| rules.tile_index(t).unwrap())
        .to_vec();
    let mut g = Game::scripted(rules, 2, draws).unwrap();
    let garden = g.current_tile();
    let at = |tile, x| Placement {
        tile,
        x,
        y: 1,
        rotation: 0,
    };
    g.apply(Action::Place(at(garden, 0))).unwrap();
    // The garden (feature 0): the abbot only; the field (feature 1): the meeple only.
    let opts: Vec<(u8, u8)> = g
        .follower_options()
        .iter()
        .map(|o| (o.feature, o.follower))
        .collect();
    assert_eq!(opts, [(0, 1), (1, 0)]);
    let meeple_in_garden = FollowerOption {
        feature: 0,
        follower: 0,
    };
    let refused = g.check_follower(meeple_in_garden);
    assert!(matches!(refused, Err(MoveError::WrongSite { .. })));
    g.apply(Action::Pass).unwrap();
    // A plain cloister takes both.
    let b = g.current_tile();
    g.apply(Action::Place(at(b, 1))).unwrap();
    let opts: Vec<(u8, u8)> = g
        .follower_options()
        .iter()
        .map(|o| (o.feature, o.follower))
        .collect();
    assert_eq!(opts, [(0, 0), (0, 1), (1, 0)]);
}

#[test]
fn rules_naming_what_the_ruleset_lacks_are_refused() {
    let mut bad = kr2();
    bad.then = vec![Act::Token {
        token: 3,
        to: Seat::Holder(7),
        record: int(0),
    }];
    let err = Rules::new(ruleset(vec![bad])).unwrap_err();
    let named: Vec<(&str, u32)> = err
        .reasons
        .iter()
        .filter_map(|r| match r {
            RulesReason::RuleFormIndex { what, index, .. } => Some((*what, *index)),
            _ => None,
        })
        .collect();
    assert_eq!(named, [("token", 3), ("token", 7)]);
    let mut rs = garden_ruleset();
    rs.followers[0].never_tags = vec![5];
    let err = Rules::new(rs).unwrap_err();
    assert!(matches!(
        err.reasons[..],
        [RulesReason::SiteTag { tag: 5, .. }]
    ));
}

#[test]
fn rule_state_is_hashed_cloned_restarted_and_replayed() {
    let mut rules = gold_rules();
    rules.extend([kr2(), kr4()]);
    let rs = ruleset(rules);
    let arc = Arc::new(Rules::new(rs).unwrap());
    for seed in 0..4 {
        let mut g = Game::seeded(arc.clone(), 2, seed).unwrap();
        let mut moves = 0;
        play_random(&mut g, seed, |g| {
            moves += 1;
            if moves % 30 == 0 {
                let back = Game::from_json(&g.to_json(), g.rules().clone()).unwrap();
                assert_eq!(&back, g, "a snapshot after {moves} moves");
            }
            assert_eq!(g.state_hash(), g.state_hash_from_scratch());
            let mut copy = Game::seeded(g.rules().clone(), 2, 99).unwrap();
            copy.clone_from(g);
            assert_eq!(&copy, g);
        });
        // The log replays (its new events read back) and gives the same game.
        let log = crate::log::log_text(&g);
        let again = crate::log::replay(arc.clone(), &log).unwrap();
        assert_eq!(again.scores(), g.scores());
        assert_eq!(again.token_holder(0), g.token_holder(0));
        // A snapshot gives an equal game (tokens and counters rebuilt by its decisions).
        let back = Game::from_json(&g.to_json(), arc.clone()).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.state_hash(), g.state_hash());
        g.restart(crate::PileOrder::Shuffled(seed)).unwrap();
        assert_eq!((g.token_holder(0), g.token_record(0)), (None, 0));
        assert!(g.tile_counters().is_empty());
    }
    // A token's holder is part of the hash.
    let mut g = game(ruleset(vec![kr2()]), &["E", "U"]);
    let before = g.clone();
    play(&mut g, "E", (0, -1, 2), None);
    let mut h = g.clone();
    h.rf.tokens[0].holder = Some(1);
    assert_ne!(g.state_hash(), h.state_hash());
    assert_ne!(before.state_hash(), g.state_hash());
}

#[test]
fn touching_and_counters_read_the_subject_s_tiles() {
    // A cloister south of the start tile; the city closed by E is next to it (the start tile's
    // cell), but its gold segment (on E, two cells away) is not.
    let score_if = |rule: &str, q: Quantity| {
        when(
            rule,
            RuleEvent::FeatureCompleted {
                kinds: vec![FeatureKind::City],
            },
            Some(gt(count(q), int(0))),
            vec![Act::Score {
                value: count(q),
                to: Seat::Placer,
            }],
        )
    };
    let mut rules = gold_rules();
    rules.push(score_if(
        "ca-a",
        Quantity::Touching(FeatureKind::Cloister, None),
    ));
    rules.push(score_if(
        "ca-b",
        Quantity::Touching(FeatureKind::Cloister, Some(0)),
    ));
    rules.push(score_if("lb-a", Quantity::Counters(0)));
    let mut g = game(ruleset(rules), &["B", "U", "E"]);
    play(&mut g, "B", (0, 1, 0), Some(0));
    play(&mut g, "U", (1, 0, 0), None);
    play(&mut g, "E", (0, -1, 2), None);
    assert_eq!(paid(&g, "ca-a"), [(3, vec![0])]);
    assert!(paid(&g, "ca-b").is_empty());
    // The ingot GM-2 put on E lies on the city's tiles (nobody won it: it stays).
    assert_eq!(paid(&g, "lb-a"), [(3, vec![0])]);
    // A cloister's tiles are its own and the placed ones of its 8 neighbours (GM-3); a road's,
    // the tiles holding part of it.
    let cloister = g.board.insts[1].seg_base;
    let on = |f| Ctx {
        feature: Some(f),
        ..Ctx::of(0)
    };
    assert_eq!(g.subject_tiles(&on(cloister)), [0, 1, 2]);
    let road = g.board.insts[2].seg_base;
    let road = road
        + (0..3)
            .find(|&f| g.board.segs[(road + f) as usize].kind == FeatureKind::Road)
            .unwrap();
    assert_eq!(g.subject_tiles(&on(road)), [0, 2]);
    assert_eq!(g.subject_tiles(&ctx(3)), [3]);
}

#[test]
fn a_tile_level_tag_fires_tile_placed_and_a_chosen_figure_is_the_subject() {
    // The tag on tile U itself (not on a feature): `tile-placed` with that tag fires for U only.
    let mut rs = ruleset(vec![point(
        "tt-1",
        RuleEvent::TilePlaced { tag: Some(0) },
        Seat::Actor,
    )]);
    for t in rs.tiles.iter_mut() {
        t.features.iter_mut().for_each(|f| f.tags = 0);
        t.tags = u32::from(t.id == "U");
    }
    let mut g = game(rs, &["B", "U", "E"]);
    play(&mut g, "B", (0, 1, 0), Some(0));
    play(&mut g, "U", (1, 0, 0), None);
    play(&mut g, "E", (0, -1, 2), None);
    assert_eq!(paid(&g, "tt-1"), [(2, vec![1])]);
    // AB-4's `1 + neighbours` after a choice reads the chosen figure's cloister (the start
    // tile and U around it: 2), not the tile just placed.
    let m = g.board.meeples[0];
    let chosen = Ctx {
        chooser: Some(0),
        chosen: Some(Chosen::Figure(FigureRef {
            player: m.player,
            ftype: m.ftype,
            seg: m.seg,
        })),
        ..ctx(3)
    };
    let value = Expr::plus(int(1), count(Quantity::Neighbours));
    let act = [Act::Score {
        value,
        to: Seat::Chooser,
    }];
    // (The game is over: B-6 paid the cloister 3 to seat 0, TT-1 paid seat 1.)
    assert_eq!(g.scores(), [3, 1]);
    g.run_acts(0, &act, &chosen);
    assert_eq!(g.scores(), [3 + 3, 1]);
    let last = g.events().last();
    assert!(matches!(last, Some(Event::Score { feature, points: 3, .. })
        if feature.kind == FeatureKind::Cloister && feature.tiles == 2));
}

#[test]
fn gm4_several_features_scored_in_one_turn_share_their_counters() {
    // Seat 0's meeple on the road of the start tile (through W at (1, 0)); seat 1's on a city
    // of N tiles at (0, -1) and (-1, -1) with the start tile's. Seat 0's L at (-1, 0) completes
    // both: the road (start tile, W, L: 3 tiles) for seat 0, the city (start tile, both N, L: 4
    // tiles) for seat 1. Counters: 1 on the start tile and 1 on L (both features), 1 on W (the
    // road only), 1 on the first N (the city only). From the actor (seat 0), one at a time,
    // the most contested tile first: seat 0 the start tile, seat 1 L, seat 0 W, seat 1 N.
    let mut rs = ruleset(gold_rules());
    for t in rs.tiles.iter_mut() {
        t.features.iter_mut().for_each(|f| f.tags = 0);
        t.tags = u32::from(t.id == "L");
    }
    let mut g = game(rs, &["W", "N", "N", "U", "L"]);
    play(&mut g, "W", (1, 0, 0), Some(2));
    play(&mut g, "N", (0, -1, 3), Some(0));
    play(&mut g, "N", (-1, -1, 2), None);
    play(&mut g, "U", (2, 0, 0), None);
    for inst in [0, 1, 2] {
        g.rf.set_counters(0, inst, 1);
    }
    play(&mut g, "L", (-1, 0, 0), None);
    let taken: Vec<(u8, u32, bool)> = cited(&g, "gm-3")
        .iter()
        .filter_map(|e| match e {
            Event::Collect {
                player,
                amount,
                feature,
                ..
            } => Some((*player, *amount, feature.is_some())),
            _ => None,
        })
        .collect();
    assert_eq!(taken, [(0, 2), (1, 2)].map(|(p, n)| (p, n, true)));
    assert!(g.tile_counters().is_empty());
    // B-4: road 3 to seat 0, city 8 to seat 1; GM-5: 2 each.
    assert_eq!(g.scores(), [3 + 2, 8 + 2]);
}

/// The rules the model lowers a resource's gain and award to (TB-2, TB-3), the gain to `to`.
fn goods(to: Seat) -> Vec<When> {
    vec![
        when(
            "x-2",
            RuleEvent::FeatureCompleted {
                kinds: vec![FeatureKind::City],
            },
            None,
            vec![Act::Gain {
                resource: 0,
                amount: int(1),
                to,
                spend: false,
            }],
        ),
        when(
            "x-3",
            RuleEvent::GameOver,
            None,
            vec![Act::Score {
                value: int(10),
                to: Seat::Most(0),
            }],
        ),
    ]
}

/// The (seats, most held, points) of the award events.
fn awards(g: &Game) -> Vec<(Vec<u8>, u32, u32)> {
    let award = |e: &Event| match e {
        Event::Award {
            players,
            held,
            points,
            rule,
            ..
        } if rule == "x-3" => Some((players.clone(), *held, *points)),
        _ => None,
    };
    g.events().iter().filter_map(award).collect()
}

#[test]
fn the_seats_holding_the_most_score_once_the_game_is_over() {
    // Seat 0 completes the start tile's city (no figure: 0 points); the gain goes to the
    // placer: seat 0 holds 1, seat 1 none. After final scoring, TB-3: seat 0 alone, one line.
    let mut g = game(ruleset(goods(Seat::Placer)), &["E"]);
    play(&mut g, "E", (0, -1, 2), None);
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(awards(&g), [(vec![0], 1, 10)]);
    assert_eq!(g.scores(), [10, 0]);
    // A tie (both gain 1): both score, one line naming both in seat order.
    let mut g = game(ruleset(goods(Seat::Every)), &["E"]);
    play(&mut g, "E", (0, -1, 2), None);
    assert_eq!(awards(&g), [(vec![0, 1], 1, 10)]);
    assert_eq!(g.scores(), [10, 10]);
    // Nobody holds any: nobody scores, no line.
    let mut g = game(ruleset(goods(Seat::Every)), &["U"]);
    play(&mut g, "U", (1, 0, 0), None);
    assert!(awards(&g).is_empty());
    assert_eq!(g.scores(), [0, 0]);
}

#[test]
fn a_payment_reaches_the_winners_with_the_figure_once_per_figure() {
    // TB-8's form: each majority payment pays 2 more to each winner per meeple (type 0) of
    // theirs on the feature. Seat 0 completes the 2-tile city with a meeple: B-4 4, then 2.
    let pay = when(
        "x-8",
        RuleEvent::FeaturePaid { kinds: vec![] },
        None,
        vec![Act::Score {
            value: int(2),
            to: Seat::Has(0),
        }],
    );
    let mut g = game(ruleset(vec![pay]), &["E", "U", "U"]);
    play(&mut g, "E", (0, -1, 2), Some(0));
    assert_eq!(paid(&g, "x-8"), [(1, vec![0])]);
    assert_eq!(g.scores(), [4 + 2, 0]);
    // Seat 1's meeple on the road: the figure's owner must be among the winners.
    play(&mut g, "U", (1, 0, 0), Some(0));
    let seg = g.board.meeples[0].seg;
    let on = |winners| Ctx {
        feature: Some(seg),
        winners,
        ..Ctx::of(0)
    };
    assert_eq!(g.seat_bits(&Seat::Has(0), &on(0b10)), 0b10);
    assert_eq!(g.seat_bits(&Seat::Has(0), &on(0b01)), 0);
    assert_eq!(
        g.seat_bits(&Seat::Has(1), &on(0b10)),
        0,
        "no figure of type 1"
    );
}

/// TB-5's form: an extra turn when the placer's tile extends a feature holding its meeple
/// (`extends`), or only one still open after the placement (`extends_open`).
fn extension(open: bool) -> Vec<When> {
    let q = if open {
        Quantity::ExtendsOpen(0)
    } else {
        Quantity::Extends(0)
    };
    vec![when(
        "x-5",
        RuleEvent::TilePlaced { tag: None },
        Some(gt(count(q), int(0))),
        vec![Act::ExtraTurn],
    )]
}

#[test]
fn extending_the_placer_s_feature_gives_the_extra_turn() {
    for open in [false, true] {
        let mut g = game(ruleset(extension(open)), &["U", "W", "W", "U"]);
        // Seat 0's meeple on the start road, extended east; seat 1's junction closes its west
        // end (seat 1 has no figure there: no extra turn).
        play(&mut g, "U", (1, 0, 0), Some(0));
        play(&mut g, "W", (-1, 0, 0), None);
        assert!(cited(&g, "x-5").is_empty());
        // Seat 0's junction closes the east end: it extends and completes the road.
        play(&mut g, "W", (2, 0, 0), None);
        let extra = cited(&g, "x-5");
        if open {
            assert!(
                extra.is_empty(),
                "a completing placement extends no open road"
            );
            assert_eq!(g.current_player(), 1);
        } else {
            assert!(matches!(extra[..], [Event::ExtraTurn { player: 0, .. }]));
            assert_eq!(g.current_player(), 0, "seat 0 plays again");
        }
    }
}
