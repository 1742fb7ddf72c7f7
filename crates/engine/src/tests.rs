//! Unit tests on hand-built rulesets (testkit), citing rule ids.

use std::sync::Arc;

use crate::testkit::{base_ruleset, ruleset, BASE_TILES, DOMINO};
use crate::*;

fn base() -> Arc<Rules> {
    Arc::new(Rules::new(base_ruleset()).unwrap())
}

fn with_domino() -> Arc<Rules> {
    let mut specs: Vec<&str> = BASE_TILES.to_vec();
    specs.push(DOMINO);
    let many = DOMINO.replace("DOM 1", "DOM4 4");
    specs.push(&many);
    Arc::new(Rules::new(ruleset("kit-domino", &specs).unwrap()).unwrap())
}

fn idx(r: &Rules, id: &str) -> u16 {
    r.tile_index(id).unwrap()
}

fn scripted(rules: &Arc<Rules>, draws: &[&str]) -> Game {
    let d = draws.iter().map(|t| idx(rules, t)).collect();
    Game::scripted(rules.clone(), 2, d).unwrap()
}

fn feature(g: &Game, seg: &str) -> u8 {
    g.rules()
        .feature_index(g.current_tile_placed(), seg)
        .unwrap()
}

impl Game {
    /// Test helper: tile type of the tile just placed.
    fn current_tile_placed(&self) -> u16 {
        self.tiles().last().unwrap().tile
    }
}

fn follow(g: &mut Game, seg: &str) {
    let f = feature(g, seg);
    g.apply(Action::Follower(FollowerOption {
        feature: f,
        follower: 0,
    }))
    .unwrap();
}

fn scores_of(g: &Game) -> Vec<(String, Vec<u8>, u32, u32)> {
    g.events()
        .iter()
        .filter_map(|e| match e {
            Event::Score {
                rule,
                players,
                points,
                feature,
                ..
            } => Some((rule.clone(), players.clone(), *points, feature.tiles)),
            _ => None,
        })
        .collect()
}

#[test]
fn random_games_finish_with_sane_scores() {
    // B-2..B-6: random 2-player base games; peers report mean total ≈ 39–43.
    let rules = base();
    let stats = sim::simulate(&rules, 2, 2000, 1, 1, &[AgentKind::Random], &|_| {}).unwrap();
    let mean = stats.mean_total_score();
    assert!((30.0..55.0).contains(&mean), "mean {mean}");
}

#[test]
fn b4_city_of_two_tiles_scores_four() {
    // B-4: D's city cap closed by E turned south: 2 tiles × 2 = 4 for the knight.
    let r = base();
    let mut g = scripted(&r, &["E"]);
    g.place(0, -1, 2).unwrap();
    follow(&mut g, "city");
    assert_eq!(g.scores(), &[4, 0]);
    assert_eq!(scores_of(&g)[0], ("B-4".to_string(), vec![0], 4, 2));
    // The knight came back (B-4).
    assert_eq!(g.supply(0, 0), 7);
    assert_eq!(g.phase(), Phase::Over);
}

#[test]
fn b4_road_between_two_junctions_scores_three() {
    // B-3/B-4: a road closed at both ends by junctions; 3 tiles.
    let r = base();
    let mut g = scripted(&r, &["L", "L"]);
    g.place(1, 0, 0).unwrap();
    follow(&mut g, "west");
    assert_eq!(g.scores(), &[0, 0]);
    g.place(-1, 0, 2).unwrap();
    g.apply(Action::Pass).unwrap();
    assert_eq!(g.scores(), &[3, 0]);
    let s = scores_of(&g);
    assert_eq!(s[0], ("B-4".to_string(), vec![0], 3, 3));
}

#[test]
fn b6_incomplete_cloister_and_field() {
    // B-6: cloister below the start tile has 1 neighbour → 1 + 1 = 2.
    let r = base();
    let mut g = scripted(&r, &["B", "E"]);
    g.place(0, 1, 0).unwrap();
    follow(&mut g, "cloister");
    // Player 1 closes the start city and puts a farmer on E's field (borders the city).
    g.place(0, -1, 2).unwrap();
    follow(&mut g, "field");
    assert_eq!(g.phase(), Phase::Over);
    // City completed unoccupied: scored for nobody (B-5), then cloister 2, field 3.
    let s = scores_of(&g);
    assert_eq!(s[0], ("B-4".to_string(), vec![], 4, 2));
    assert!(s.contains(&("B-6".to_string(), vec![0], 2, 1)), "{s:?}");
    assert!(s.iter().any(|x| x.0 == "B-6" && x.1 == vec![1] && x.2 == 3));
    assert_eq!(g.scores(), &[2, 3]);
}

#[test]
fn w18_two_cell_city_counts_as_two_tiles() {
    // W-18 / B-7: the domino's city spans 2 cells: D + domino (2) + J = 4 tiles → 8.
    let r = with_domino();
    let mut g = scripted(&r, &["DOM", "J"]);
    // Rotation 2 puts cell 1 west of the anchor and the city on the south sides.
    g.place(0, -1, 2).unwrap();
    follow(&mut g, "city");
    g.place(-1, 0, 0).unwrap();
    g.apply(Action::Pass).unwrap();
    assert_eq!(g.scores(), &[8, 0]);
    assert_eq!(scores_of(&g)[0].3, 4);
}

#[test]
fn b2_illegal_placements_are_explained() {
    let r = base();
    let mut g = scripted(&r, &["E", "E"]);
    // E's field south against D's city north.
    match g.place(0, -1, 0) {
        Err(MoveError::EdgeMismatch {
            side,
            tile,
            neighbour,
            ..
        }) => {
            assert_eq!(side, Side::S);
            assert_eq!(tile, SideKind::Field);
            assert_eq!(neighbour, SideKind::City);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(g.place(0, 0, 0), Err(MoveError::Occupied { x: 0, y: 0 }));
    assert_eq!(g.place(5, 5, 0), Err(MoveError::NotAdjacent));
    assert_eq!(g.place(0, -1, 7), Err(MoveError::BadRotation(7)));
    assert_eq!(
        g.apply(Action::Pass),
        Err(MoveError::WrongPhase {
            phase: Phase::Place
        })
    );
    assert!(g.place(0, -1, 2).is_ok());
}

#[test]
fn b2_follower_on_occupied_feature_is_refused() {
    let r = base();
    let mut g = scripted(&r, &["U", "U", "U"]);
    g.place(1, 0, 0).unwrap();
    follow(&mut g, "road");
    g.place(-1, 0, 0).unwrap();
    let f = feature(&g, "road");
    let err = g
        .apply(Action::Follower(FollowerOption {
            feature: f,
            follower: 0,
        }))
        .unwrap_err();
    assert_eq!(err, MoveError::FeatureOccupied { feature: f });
    assert_eq!(g.rule_of(&err), "B-2");
    assert_eq!(
        g.apply(Action::Follower(FollowerOption {
            feature: 9,
            follower: 0
        })),
        Err(MoveError::NoSuchFeature(9))
    );
    // The road is not among the options; the two fields are.
    assert_eq!(g.follower_options().len(), 2);
    // A field is still free.
    follow(&mut g, "north");
}

#[test]
fn b2_unplaceable_tile_is_discarded() {
    let rs = ruleset(
        "kit-discard",
        &[
            "S 0 start FFFF | f:F:Nw,Ne,En,Es,Se,Sw,Ws,Wn",
            "CC 1 - CCCC | city:C:N,E,S,W",
            "G 1 - FFFF | f:F:Nw,Ne,En,Es,Se,Sw,Ws,Wn",
        ],
    )
    .unwrap();
    let r = Arc::new(Rules::new(rs).unwrap());
    let g = Game::scripted(r.clone(), 2, vec![1, 2]).unwrap();
    let kinds: Vec<&str> = g.events().iter().map(|e| e.kind()).collect();
    assert_eq!(kinds, ["draw", "discard", "draw"]);
    assert_eq!(g.events()[1].rule(), Some("B-2"));
    assert_eq!(g.current_tile(), 2);
}

#[test]
fn b5_majority_strength_comes_from_the_follower_type() {
    // B-5 / B-6: two roads claimed separately are joined; the incomplete road (5 tiles) scores
    // 5 at the end. Seat 0 stands there with follower type 1: strength 1 → tie, both score;
    // strength 2 → seat 0 alone.
    for (strength, expected) in [(1u8, [5i64, 5]), (2, [5, 0])] {
        let mut rs = base_ruleset();
        rs.followers.push(tegula_ruleset::FollowerType::standard(
            "large", "Large", 1, strength,
        ));
        let r = Arc::new(Rules::new(rs).unwrap());
        let mut g = scripted(&r, &["U", "V", "V", "V"]);
        // Seat 0: U east of the start tile extends its road; follower type 1 on it.
        g.place(1, 0, 0).unwrap();
        let f = feature(&g, "road");
        g.apply(Action::Follower(FollowerOption {
            feature: f,
            follower: 1,
        }))
        .unwrap();
        // Seat 1: V south of the start tile (road west–south), a separate road; meeple on it.
        g.place(0, 1, 0).unwrap();
        follow(&mut g, "road");
        // Seat 0: V at (-1,0) turned 3 (road east–south) continues the start road southwards.
        g.place(-1, 0, 3).unwrap();
        g.apply(Action::Pass).unwrap();
        // Seat 1: V at (-1,1) turned 2 (road north–east) joins both roads.
        g.place(-1, 1, 2).unwrap();
        g.apply(Action::Pass).unwrap();
        assert_eq!(g.phase(), Phase::Over);
        assert_eq!(g.scores(), &expected, "strength {strength}");
        let s = scores_of(&g);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(s[0].0, "B-6");
        assert_eq!(s[0].3, 5);
    }
}

#[test]
fn b5_city_joined_from_two_claims_scores_both() {
    // B-4 / B-5: seat 0 claims the start city (extended by N), seat 1 claims K's city cap;
    // a second N joins them: 4 tiles, no pennant → 8 each (tie).
    let r = base();
    let mut g = scripted(&r, &["N", "K", "N"]);
    // N (city N+W) turned 2: city south (joins D) and east.
    g.place(0, -1, 2).unwrap();
    follow(&mut g, "city");
    // K (city N, road S–W) east of the start tile: road west meets D's road, city faces north.
    g.place(1, 0, 0).unwrap();
    follow(&mut g, "city");
    // N turned 3: city west and south, closing both.
    g.place(1, -1, 3).unwrap();
    g.apply(Action::Pass).unwrap();
    assert_eq!(g.scores(), &[8, 8]);
    let s = scores_of(&g);
    assert_eq!(s[0], ("B-4".to_string(), vec![0, 1], 8, 4));
    // Both knights came back (B-4).
    assert_eq!((g.supply(0, 0), g.supply(1, 0)), (7, 7));
}

#[test]
fn rules_reject_broken_rulesets_with_every_reason() {
    let mut rs = base_ruleset();
    rs.start_tile = None;
    rs.tiles[0].rotations.pop();
    rs.tiles[1].features[0].borders.push(200);
    let (id0, id1) = (rs.tiles[0].id.clone(), rs.tiles[1].id.clone());
    let err = Rules::new(rs).unwrap_err();
    assert_eq!(
        err.reasons,
        [
            RulesReason::NoStartTile,
            RulesReason::Tile {
                tile: id0,
                problem: TileProblem::RotationCount(3)
            },
            RulesReason::Tile {
                tile: id1,
                problem: TileProblem::BorderOutOfRange { feature: 0 }
            },
        ],
        "{err}"
    );
    assert!(err.to_string().contains("no start tile"), "{err}");
    // Geometry the engine relies on: outer masks and side features.
    let mut rs = base_ruleset();
    rs.tiles[3].rotations[1].cells[0].outer = 0b0111;
    rs.tiles[4].rotations[0].cells[0].side_feature[0] = tegula_ruleset::NO_FEATURE;
    let err = Rules::new(rs).unwrap_err();
    let problems: Vec<&TileProblem> = err
        .reasons
        .iter()
        .map(|r| match r {
            RulesReason::Tile { problem, .. } => problem,
            other => panic!("not a tile problem: {other}"),
        })
        .collect();
    assert!(
        matches!(
            problems[..],
            [
                TileProblem::OuterMismatch {
                    rotation: 1,
                    cell: 0,
                    side: Side::W,
                    outer: false
                },
                TileProblem::SideWithoutFeature {
                    rotation: 0,
                    cell: 0,
                    side: Side::N,
                    shows: SideKind::City
                },
            ]
        ),
        "{err}"
    );
    assert!(
        err.reasons[0]
            .to_string()
            .contains("side W is marked inner"),
        "{err}"
    );
    assert!(
        err.reasons[1].to_string().contains("side N shows City"),
        "{err}"
    );
}

#[test]
fn rules_reasons_are_typed_for_counts_pool_and_player_tiles() {
    let mut rs = base_ruleset();
    rs.min_players = 3;
    rs.max_players = 2;
    rs.hand = 0;
    let err = Rules::new(rs).unwrap_err();
    assert_eq!(
        err.reasons,
        [
            RulesReason::PlayerRange { min: 3, max: 2 },
            RulesReason::EmptyHand
        ],
        "{err}"
    );
    let err = Rules::from_json("{}").unwrap_err();
    assert!(
        matches!(
            err.reasons[..],
            [RulesReason::Artefact(tegula_ruleset::ArtefactError::Parse(
                _
            ))]
        ),
        "{err}"
    );
}

#[test]
fn greedy_beats_random() {
    // The greedy agent maximises its immediate margin; against random it should win clearly.
    let rules = base();
    let stats = sim::simulate(
        &rules,
        2,
        20,
        3,
        1,
        &[AgentKind::Greedy, AgentKind::Random],
        &|_| {},
    )
    .unwrap();
    assert!(stats.win_rates()[0] > 0.7, "{:?}", stats.win_rates());
}

/// Play a random game, checking after every decision: incremental features = naive recomputation
/// (B-3, B-7, W-18), fast placements = naive placements (B-2), followers conserved, scores never
/// decrease; at the end every completed feature was scored exactly once (B-4).
fn checked_random_game(rules: &Arc<Rules>, seed: u64) {
    let mut g = Game::seeded(rules.clone(), 3, seed).unwrap();
    let mut agent = RandomAgent::new(seed ^ 77);
    let total_followers: u32 = 3 * 7;
    let mut last = g.scores().to_vec();
    while g.phase() != Phase::Over {
        match g.phase() {
            Phase::Place => {
                let mut fast = g.placements().to_vec();
                fast.sort_unstable();
                assert_eq!(fast, g.naive_placements(), "seed {seed} turn {}", g.turn());
                let i = agent.choose_placement(&g, g.placements());
                assert!(g.play_placement(i));
                naive::audit(&g).unwrap_or_else(|e| panic!("seed {seed} turn {}: {e}", g.turn()));
            }
            _ => {
                let c = agent.choose_follower(&g, g.follower_options());
                assert!(g.play_follower(c));
            }
        }
        let supply: u32 = (0..3).map(|p| g.supply(p, 0) as u32).sum();
        assert_eq!(supply + g.followers().len() as u32, total_followers);
        for (a, b) in last.iter().zip(g.scores()) {
            assert!(b >= a, "score decreased");
        }
        last = g.scores().to_vec();
    }
    naive::audit(&g).unwrap();
    let mut scored = std::collections::BTreeMap::new();
    for e in g.events() {
        if let Event::Score { rule, feature, .. } = e {
            if rule == "B-4" {
                assert!(feature.complete);
                *scored.entry(feature.id).or_insert(0) += 1;
            }
        }
    }
    let completed = g.completed_features();
    for id in &completed {
        assert_eq!(scored.get(id), Some(&1), "feature {id:?} seed {seed}");
    }
    assert_eq!(scored.len(), completed.len());
    assert_eq!(g.remaining(), 0);
}

#[test]
fn random_games_agree_with_naive_recomputation() {
    let rules = base();
    for seed in 0..20 {
        checked_random_game(&rules, seed);
    }
    let rules = with_domino();
    for seed in 0..20 {
        checked_random_game(&rules, seed);
    }
}

#[test]
fn am3_any_sides_close_neighbouring_features() {
    // AM-1/AM-3: a tile whose sides are all `any` matches everything and closes the road ends it
    // touches without becoming part of the road: D + U = 2 tiles → 2 points.
    let mut specs: Vec<&str> = BASE_TILES.to_vec();
    specs.push("AB 2 - AAAA | abbey:K");
    let r = Arc::new(Rules::new(ruleset("kit-abbey", &specs).unwrap()).unwrap());
    let mut g = scripted(&r, &["U", "AB", "AB"]);
    g.place(1, 0, 0).unwrap();
    follow(&mut g, "road");
    g.place(2, 0, 0).unwrap();
    g.apply(Action::Pass).unwrap();
    assert_eq!(g.scores(), &[0, 0]);
    // The second one, west of the start tile, closes the road's west end: complete (B-4).
    g.place(-1, 0, 0).unwrap();
    g.apply(Action::Pass).unwrap();
    assert_eq!(g.scores(), &[2, 0]);
    let s = scores_of(&g);
    assert_eq!(s[0], ("B-4".to_string(), vec![0], 2, 2));
    naive::audit(&g).unwrap();
}

#[test]
fn b2_no_follower_left_and_w5_no_follower_on_a_wonder() {
    let mut specs: Vec<&str> = BASE_TILES.to_vec();
    // A one-cell stand-in with a wonder building (W-5: never a follower's feature).
    specs.push("WB 1 - FFFF | building:W | field:F:Nw,Ne,En,Es,Se,Sw,Ws,Wn");
    let mut rs = ruleset("kit-wonder", &specs).unwrap();
    rs.followers[0].count = 1;
    let r = Arc::new(Rules::new(rs).unwrap());
    let mut g = scripted(&r, &["U", "U", "WB"]);
    g.place(1, 0, 0).unwrap();
    follow(&mut g, "north");
    g.place(-1, 0, 0).unwrap();
    g.apply(Action::Pass).unwrap();
    // Seat 0 again, its only meeple is on the board.
    g.place(0, 1, 0).unwrap();
    assert!(g.follower_options().is_empty());
    let building = feature(&g, "building");
    assert_eq!(
        g.apply(Action::Follower(FollowerOption {
            feature: building,
            follower: 0
        })),
        Err(MoveError::NotAFollowerFeature {
            feature: building,
            kind: FeatureKind::Unscored
        })
    );
    let field = feature(&g, "field");
    let err = g
        .apply(Action::Follower(FollowerOption {
            feature: field,
            follower: 0,
        }))
        .unwrap_err();
    assert_eq!(err, MoveError::NoFollowerLeft { follower: 0 });
    assert_eq!(g.rule_of(&err), "B-2");
    assert_eq!(
        g.apply(Action::Follower(FollowerOption {
            feature: field,
            follower: 3
        })),
        Err(MoveError::NoSuchFollower(3))
    );
    g.apply(Action::Pass).unwrap();
}

/// A one-player pool game on a board of fields only: a start tile of fields, cloisters (B) and
/// a city cap (E) in the pile, and a 2-cell pool tile whose every outer side is city, taken at
/// once (threshold 0): it fits nowhere on fields, so W-6 applies.
fn w6_game(pile: &[&str]) -> Game {
    let mut g = pool_game(1, pile);
    // Turn 1: a cloister east of the start tile; at the end of the turn the score 0 reaches the
    // pairs at 0 and the seat takes the pool tile (W-2).
    g.place(1, 0, 0).unwrap();
    g.apply(Action::Pass).unwrap();
    assert_eq!(g.phase(), Phase::Pick);
    let cc = g.pool_choices().0[0];
    assert_eq!(
        g.apply(Action::Take(idx(g.rules(), "B"))),
        Err(MoveError::NotInPool {
            tile: idx(g.rules(), "B")
        })
    );
    g.apply(Action::Take(cc)).unwrap();
    g
}

/// The pool's thresholds as the model lowers them (W-2, W-3 under the `new-position` reading,
/// one take each): a track from `first` to `cap`, and a `turn-finished` rule offering a pool
/// tile to every seat that took none and whose score reached the track, again until none
/// does, the actor choosing who goes first; the chooser gains `gain` figures of type 0 and the
/// track moves on by `step`.
fn threshold_rule(
    first: u32,
    step: u32,
    cap: u32,
    gain: u32,
) -> (tegula_ruleset::TrackType, tegula_ruleset::When) {
    use tegula_ruleset::{
        Act, Compare, Expr, Offer, Options, Quantity, RuleEvent, Seat, SeatOrder, Test, When,
    };
    let cmp = |op, a, b| Test::Cmp(op, Box::new(a), Box::new(b));
    let took_none = cmp(Compare::Eq, Expr::Count(Quantity::Taken), Expr::Int(0));
    let reached = cmp(
        Compare::Ge,
        Expr::Count(Quantity::Score),
        Expr::Count(Quantity::Track(0)),
    );
    let offer = Offer {
        to: Seat::Where(Box::new(Test::And(Box::new(took_none), Box::new(reached)))),
        options: Options::PoolTile,
        may_decline: false,
        uses_figure_step: false,
        then: vec![
            Act::Figures {
                figure: 0,
                add: Expr::Int(gain),
                to: Seat::Chooser,
            },
            Act::Advance {
                track: 0,
                by: Expr::Int(step),
            },
        ],
        repeat: true,
        order: SeatOrder::ActorChooses,
    };
    let track = tegula_ruleset::TrackType {
        id: "pairs".into(),
        name: "pairs".into(),
        start: first,
        max: cap,
    };
    let rule = When {
        rule: "W-2".into(),
        event: RuleEvent::TurnFinished,
        test: None,
        then: Vec::new(),
        offer: Some(offer),
        tile: None,
    };
    (track, rule)
}

/// The W-6 board's rules for `players` seats with the pool's pairs at 0.
fn pool_game(players: u8, pile: &[&str]) -> Game {
    let specs = [
        "ST 0 start FFFF | field:F:Nw,Ne,En,Es,Se,Sw,Ws,Wn",
        "B 4 - FFFF | cloister:K | field:F:Nw,Ne,En,Es,Se,Sw,Ws,Wn",
        "E 5 - CFFF | city:C:N | field:F:En,Es,Se,Sw,Ws,Wn>city",
        "CC 1 - CCCC@0,0;CCCC@1,0 | city:C:0N,0S,0W,1N,1E,1S | gate:W:@0",
    ];
    let mut rs = ruleset("kit-w6", &specs).unwrap();
    let cc = rs.tiles.iter().position(|t| t.id == "CC").unwrap() as u16;
    rs.tiles[cc as usize].count = 0;
    rs.pool = Some(tegula_ruleset::PoolRules {
        tiles: vec![cc],
        pick: 0,
        claim_figure: 0,
        rules: tegula_ruleset::PoolCitations {
            take: "W-2".into(),
            choice: "W-3".into(),
            place: "W-5".into(),
            fit: "W-6".into(),
            follow: "W-7".into(),
        },
    });
    let (track, rule) = threshold_rule(0, 5, 25, 2);
    rs.tracks = vec![track];
    rs.when = vec![rule];
    let r = Arc::new(Rules::new(rs).unwrap());
    let d = pile.iter().map(|t| idx(&r, t)).collect();
    Game::scripted(r, players, d).unwrap()
}

#[test]
fn pool_tile_offers_need_a_pool_and_the_turn_finished_event() {
    let refused = |rs: Ruleset| {
        let reasons = Rules::new(rs).err().map(|e| e.reasons).unwrap_or_default();
        reasons
            .iter()
            .any(|r| matches!(r, RulesReason::OfferPlace { .. }))
    };
    let (track, rule) = threshold_rule(0, 5, 25, 2);
    let mut rs = base_ruleset();
    rs.tracks = vec![track];
    rs.when = vec![rule.clone()];
    assert!(refused(rs.clone()), "no pool");
    let mut at_turn_end = rule;
    at_turn_end.event = tegula_ruleset::RuleEvent::TurnEnd;
    let g = pool_game(1, &["B"]);
    let mut with_pool = g.rules().ruleset().clone();
    with_pool.when = vec![at_turn_end];
    assert!(refused(with_pool), "at turn-end");
    // A track starting past its end.
    rs.tracks[0].start = 30;
    let reasons = Rules::new(rs).err().map(|e| e.reasons).unwrap_or_default();
    assert!(reasons.contains(&RulesReason::TrackRange(0)), "{reasons:?}");
}

#[test]
fn w3_the_active_player_orders_seats_that_reach_the_pairs_together() {
    // W-3 with the pairs at 0: after seat 0's first turn both seats stand at or past them; the
    // active seat 0 lets seat 1 take first (a seat that did not qualify is refused). The pairs
    // then move to 5 (W-2) and seat 0, at 0, no longer reaches them (W-3 reading): nothing more.
    let mut g = pool_game(2, &["B", "B", "B"]);
    g.place(1, 0, 0).unwrap();
    g.apply(Action::Pass).unwrap();
    assert_eq!(g.phase(), Phase::Order);
    assert_eq!(g.current_player(), 0);
    assert_eq!(g.pool_choices().1, &[0, 1]);
    assert_eq!(
        g.apply(Action::Seat(4)),
        Err(MoveError::NotAChoice { seat: 4 })
    );
    g.apply(Action::Seat(1)).unwrap();
    assert_eq!((g.phase(), g.current_player()), (Phase::Pick, 1));
    let cc = g.pool_choices().0[0];
    g.apply(Action::Take(cc)).unwrap();
    assert_eq!(g.pool_taken(), &[0, 1]);
    assert_eq!(g.track_at(0), 5);
    // Seat 1's turn: it must place its pool tile (W-5), which fits nowhere: the W-6 draws.
    assert_eq!(g.current_player(), 1);
}

#[test]
fn w6_drawn_tiles_are_removed_until_one_lets_the_pool_tile_fit_next_to_it() {
    // W-6 (the registry's reading): the pool tile fits nowhere; the next drawn cloister cannot
    // make it fit wherever it goes, so it is removed from the game; the city cap E can (its city
    // side facing an empty cell), so it is placed — with no follower — and the pool tile goes
    // next to it, its marker on it, then up to two followers (W-5, W-7).
    let mut g = w6_game(&["B", "B", "E", "B"]);
    assert_eq!(
        g.phase(),
        Phase::Place,
        "the W-6 draw waits for E's placement"
    );
    assert_eq!(g.current_tile(), idx(g.rules(), "E"));
    let removed: Vec<_> = g
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Discard { tile, rule, .. } => Some((tile.clone(), rule.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(removed, vec![("B".to_string(), "W-6".to_string())]);
    // E west of the start tile, its city facing west (rotation 3).
    g.place(-1, 0, 3).unwrap();
    assert_eq!(g.phase(), Phase::Hand, "no follower on the W-6 tile");
    assert!(g.must_place());
    assert_eq!(g.apply(Action::Pass), Err(MoveError::MustPlace));
    let cc = g.pool_held()[0].1;
    // Every offered placement touches E; a placement elsewhere is refused.
    assert!(!g.placements().is_empty());
    let e_cells = [(-1, 0)];
    for p in g.placements() {
        let cells = [(p.x, p.y), {
            let (dx, dy) = tegula_ruleset::rotate_offset(1, 0, p.rotation);
            (p.x + dx, p.y + dy)
        }];
        let touches = cells.iter().any(|&(x, y)| {
            e_cells
                .iter()
                .any(|&(a, b)| (a - x).abs() + (b - y).abs() == 1)
        });
        assert!(touches, "{p:?} does not touch E");
    }
    g.apply(Action::Place(Placement {
        tile: cc,
        x: -3,
        y: 0,
        rotation: 0,
    }))
    .unwrap();
    assert_eq!(g.pool_owned(), vec![(0, cc, 3)]);
    assert_eq!(g.claims(), vec![(0, 0)]);
    // 7 meeples + the pair's 2 − the marker = 8 (W-2, W-5).
    assert_eq!(g.supply(0, 0), 8);
    assert_eq!(g.phase(), Phase::Follower);
}

#[test]
fn w6_with_the_pile_exhausted_the_pool_tile_is_recorded_unplaceable() {
    // W-6: no drawn tile lets the pool tile fit; both cloisters are removed, the pile runs out,
    // the pool tile is recorded as unplaceable and the game ends with the pile empty.
    let g = w6_game(&["B", "B", "B"]);
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.remaining(), 0);
    let cc = g.rules().tile_index("CC").unwrap();
    assert_eq!(g.pool_unplaceable(), &[(0, cc)]);
    assert!(g.pool_held().is_empty());
    let removed: Vec<&str> = g
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Discard { tile, rule, .. } if rule == "W-6" => Some(tile.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(removed, vec!["B", "B", "CC"]);
}

/// A game ended early with `finish()` — in the middle of a turn (a tile just placed, B-2's
/// follower step open) or between turns — records it, and its log replays to the same final
/// scoring (B-6) instead of diverging where the final scores start.
#[test]
fn logs_of_games_ended_with_finish_replay() {
    let rules = base();
    for decisions in [1usize, 6, 7, 25, 40] {
        let mut g = Game::seeded(rules.clone(), 2, 5).unwrap();
        for _ in 0..decisions {
            let first = g.legal_actions()[0];
            g.apply(first).unwrap();
        }
        g.finish();
        assert_eq!(g.phase(), Phase::Over);
        let finishes = g.events().iter().filter(|e| e.kind() == "finish").count();
        assert_eq!(finishes, 1, "after {decisions} decisions");
        let text = log::log_text(&g);
        let replayed = log::replay(rules.clone(), &text)
            .unwrap_or_else(|e| panic!("after {decisions} decisions: {e}"));
        assert_eq!(replayed.scores(), g.scores());
        assert_eq!(replayed.events(), g.events());
    }
}

/// A game over by the rules records no `finish`; finishing it again changes nothing.
#[test]
fn finish_after_the_end_records_nothing() {
    let rules = base();
    let mut g = Game::seeded(rules, 2, 5).unwrap();
    while g.phase() != Phase::Over {
        let first = g.legal_actions()[0];
        g.apply(first).unwrap();
    }
    let before = g.events().len();
    g.finish();
    assert_eq!(g.events().len(), before);
    assert!(g.events().iter().all(|e| e.kind() != "finish"));
}

/// A game ended right after a draw numbers its `finish` with the draw's turn (the turn under
/// way), not the turn before it.
#[test]
fn a_finish_after_a_draw_carries_the_draws_turn() {
    let rules = base();
    let mut g = Game::seeded(rules, 2, 5).unwrap();
    while g.phase() != Phase::Place || g.turn() < 3 {
        let first = g.legal_actions()[0];
        g.apply(first).unwrap();
    }
    let drawn = match g.events().last() {
        Some(Event::Draw { turn, .. }) => *turn,
        other => panic!("expected a draw last, got {other:?}"),
    };
    g.finish();
    let finish = g.events().iter().find_map(|e| match e {
        Event::Finish { turn } => Some(*turn),
        _ => None,
    });
    assert_eq!(finish, Some(drawn));
}

/// Lines after a finished game's `end` are refused where they stand, whatever they are, and
/// the message does not pretend the engine waits for a decision.
#[test]
fn replay_refuses_lines_after_the_end() {
    let rules = base();
    let mut g = Game::seeded(rules.clone(), 2, 5).unwrap();
    while g.phase() != Phase::Over {
        let first = g.legal_actions()[0];
        g.apply(first).unwrap();
    }
    let text = log::log_text(&g);
    let lines = text.lines().count();
    let end = text.lines().last().unwrap().to_string();
    for extra in [
        format!("{{\"type\":\"finish\",\"turn\":{}}}", g.turn()),
        end,
    ] {
        let forged = format!("{text}{extra}\n{extra}\n");
        let e = log::replay(rules.clone(), &forged).unwrap_err();
        assert_eq!(e.line, lines + 1, "{e}");
        assert!(e.message.contains("after the game's `end` line"), "{e}");
        assert!(!e.message.contains("waits for a decision"), "{e}");
    }
}

#[test]
fn house_rule_points_saturate_instead_of_overflowing() {
    // `tegula_ruleset::limits`: the schema keeps a variant's numbers at 1000 points or less, but
    // a hand-built ruleset may say anything. With every number at u32::MAX the first feature
    // scored passes u32::MAX: scores must stop there (unchecked, debug builds panic and release
    // builds wrap to small numbers).
    let m = u32::MAX;
    let mut rs = base_ruleset();
    use tegula_ruleset::{Expr, Quantity, StateValues};
    let both = |e: Expr| StateValues {
        complete: e.clone(),
        incomplete: e,
    };
    let per = |q| Expr::plus(Expr::Int(m), Expr::per(m, q));
    rs.scoring.values = tegula_ruleset::Values {
        road: both(per(Quantity::Tiles)),
        city: both(Expr::plus(per(Quantity::Tiles), per(Quantity::Pennants))),
        cloister: both(per(Quantity::Neighbours)),
        field: Expr::Mul(
            Box::new(Expr::Int(m)),
            Box::new(Expr::Count(Quantity::Cities)),
        ),
    };
    let rules = Arc::new(Rules::new(rs).unwrap());
    let mut saturated = 0;
    for seed in 0..4 {
        let mut g = Game::seeded(rules.clone(), 2, seed).unwrap();
        let mut agents = sim::build_agents(&[AgentKind::Random], &[seed, seed + 1]);
        sim::play_out(&mut g, &mut agents);
        saturated += g.scores().iter().filter(|&&s| s == i64::from(m)).count();
        for (_, _, points, _) in scores_of(&g) {
            assert!(
                points == 0 || points == m,
                "{points} is neither none nor saturated"
            );
        }
    }
    assert!(saturated > 0, "no seat reached the saturated score");
}

/// A scripted pile past the cell limit is refused at setup, before the `u16` tile counts could
/// wrap (issue #20, defect 1): 65,536 copies of one tile. The variant's whole pile is accepted.
#[test]
fn a_scripted_pile_past_the_cell_limit_is_refused() {
    let rules = base();
    let c = rules.tile_index("C").unwrap();
    match Game::scripted(rules.clone(), 2, vec![c; 65_536]) {
        Err(SetupError::TooManyCells { cells, max }) => assert!(cells > max),
        other => panic!("{:?}", other.map(|g| g.pile().len())),
    }
    assert!(Game::scripted(rules.clone(), 2, rules.pile()).is_ok());
}

/// A log's setup pile must be an order of the variant's pile: one tile short or one tile
/// swapped for another is refused at line 1, naming the tile whose count differs.
#[test]
fn a_log_whose_pile_is_not_the_variants_is_refused() {
    let rules = base();
    let g = Game::seeded(rules.clone(), 2, 5).unwrap();
    let text = log::log_text(&g);
    let setup: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let pile = setup["pile"].as_array().unwrap().clone();
    let mut short = setup.clone();
    short["pile"] = serde_json::Value::Array(pile[1..].to_vec());
    let mut swapped = setup.clone();
    let other = if pile[0] == "C" { "D" } else { "C" };
    swapped["pile"][0] = other.into();
    for bad in [short, swapped] {
        let e = log::replay(rules.clone(), &format!("{bad}\n")).unwrap_err();
        assert_eq!((&e.kind, e.line), (&log::ReplayErrorKind::Setup, 1), "{e}");
        assert!(e.message.contains("the pile is not the variant's"), "{e}");
    }
}

/// `clone_from` copies into the target's buffers (`part!`, game/parts/mod.rs): whatever the
/// target held before — a later position with more tiles, figures and events, or an earlier one
/// — it ends equal to the source, and plays on exactly as the source does.
#[test]
fn clone_from_gives_the_source_state_whatever_the_target_held() {
    let rules = base();
    let mut agents = crate::sim::build_agents(&[AgentKind::Random], &[7, 8]);
    let mut early = Game::new(rules.clone(), 2, PileOrder::Shuffled(3), true).unwrap();
    for _ in 0..20 {
        assert!(crate::sim::play_one(&mut early, &mut agents));
    }
    let mut late = early.clone();
    while late.phase() != Phase::Over {
        assert!(crate::sim::play_one(&mut late, &mut agents));
    }
    let other = Game::new(rules, 3, PileOrder::Shuffled(9), false).unwrap();
    for mut target in [late.clone(), other, Game::clone(&early)] {
        target.clone_from(&early);
        assert_eq!(target, early);
        assert_eq!(target.state_hash(), early.state_hash());
        let (mut a, mut b) = (early.clone(), target);
        let mut again = crate::sim::build_agents(&[AgentKind::Random], &[5, 6]);
        let mut twin = crate::sim::build_agents(&[AgentKind::Random], &[5, 6]);
        while a.phase() != Phase::Over {
            assert!(crate::sim::play_one(&mut a, &mut again));
            assert!(crate::sim::play_one(&mut b, &mut twin));
        }
        assert_eq!(a, b);
    }
    let mut target = early.clone();
    target.clone_from(&late);
    assert_eq!(target, late);
}
