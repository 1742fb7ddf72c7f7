//! Property tests of the engine on the real base ruleset (`variants/base.toml`, B-1…B-7):
//! random games never panic and empty the pile (B-2), followers are conserved, scores never
//! decrease, every completed feature is scored exactly once (B-3/B-4), the incremental features
//! equal a from-scratch recomputation (B-7), the fast placement generator equals the naive checker
//! (B-2), clone + same moves = same state, and logs replay.

mod common;
use common::base;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use tegula_engine::{log, naive, Agent, Event, Game, Phase, PileOrder, RandomAgent, Rules};

/// One decision of a random agent, returned as what was done (for replaying on a clone).
#[derive(Clone, Copy, Debug)]
enum Step {
    Place(usize),
    Follower(Option<usize>),
    Own(Option<usize>),
    Move(Option<usize>),
    Choice(usize),
}

fn step(g: &mut Game, agent: &mut RandomAgent) -> Step {
    let s = match g.phase() {
        Phase::Place => Step::Place(agent.choose_placement(g, g.placements())),
        Phase::Hand if g.must_place() => Step::Place(agent.choose_placement(g, g.placements())),
        Phase::Pick | Phase::Order => {
            let (tiles, seats) = g.pool_choices();
            Step::Choice(agent.choose_pool(g, tiles.len().max(seats.len())))
        }
        Phase::Hand => Step::Own(agent.choose_own_tile(g, g.placements())),
        Phase::Move => Step::Move(agent.choose_move(g, &g.move_targets())),
        _ => Step::Follower(agent.choose_follower(g, g.follower_options())),
    };
    redo(g, s);
    s
}

fn redo(g: &mut Game, s: Step) {
    match s {
        Step::Place(i) | Step::Own(Some(i)) => assert!(g.play_placement(i)),
        Step::Own(None) => g.play_pass(),
        Step::Follower(c) => assert!(g.play_follower(c)),
        Step::Move(c) => assert!(g.play_move(c)),
        Step::Choice(i) => assert!(g.play_choice(i)),
    }
}

fn followers_total(g: &Game) -> u32 {
    let rs = g.rules().ruleset();
    let per: u32 = rs.followers.iter().map(|f| f.count as u32).sum();
    per * g.players() as u32
}

fn in_supply(g: &Game) -> u32 {
    let n = g.rules().ruleset().followers.len() as u8;
    (0..g.players())
        .flat_map(|p| (0..n).map(move |f| (p, f)))
        .map(|(p, f)| g.supply(p, f) as u32)
        .sum()
}

/// A scored feature's counts as its score event reports them (a cloister's `tiles` there are its
/// neighbours; it covers one cell). The variants played here read no tag.
struct EventCounts<'a>(&'a tegula_engine::FeatureInfo);

impl tegula_ruleset::Counts for EventCounts<'_> {
    fn count(&mut self, q: tegula_ruleset::Quantity) -> u32 {
        use tegula_ruleset::Quantity;
        let f = self.0;
        let cloister = f.kind == tegula_engine::FeatureKind::Cloister;
        match q {
            Quantity::Tiles if cloister => 1,
            Quantity::Tiles => f.tiles,
            Quantity::Pennants => f.pennants,
            Quantity::Neighbours if cloister => f.tiles,
            Quantity::Cities => f.cities,
            // Base-game values read nothing else.
            _ => {
                unreachable!("{q:?} on {f:?}")
            }
        }
    }
}

/// The turn's B-4 score events: value from the variant's value expressions over the event's counts,
/// scorers = the seats of greatest strength among the followers on the feature (B-5), those
/// followers back in supply.
fn check_turn_scoring(
    g: &Game,
    before: &[tegula_engine::BoardFollower],
    first_new: usize,
) -> Result<(), TestCaseError> {
    let rs = g.rules().ruleset();
    let sc = &rs.scoring;
    let mut on_board: Vec<(u8, u8, tegula_engine::FeatureId)> = before
        .iter()
        .map(|f| (f.player, f.follower, f.feature_id))
        .collect();
    for e in &g.events()[first_new..] {
        match e {
            Event::Follower {
                player,
                follower,
                x,
                y,
                segment,
                ..
            } => {
                let id = g.feature_id(*x, *y, segment).expect("placed feature");
                let k = g.rules().follower_index(follower).expect("known follower");
                on_board.push((*player, k, id));
            }
            Event::Score {
                rule,
                players,
                points,
                feature,
                ..
            } if rule == "B-4" => {
                let want = sc
                    .values
                    .of(feature.kind, true)
                    .map_or(0, |e| e.eval(&mut EventCounts(feature)));
                prop_assert_eq!(*points, want, "{:?}", feature);
                let mut strength = vec![0u32; g.players() as usize];
                for &(p, k, id) in &on_board {
                    if id == feature.id {
                        strength[p as usize] +=
                            rs.followers[k as usize].strength_on(&mut EventCounts(feature));
                    }
                }
                let best = strength.iter().copied().max().unwrap_or(0);
                let expect: Vec<u8> = (0..g.players())
                    .filter(|&p| best > 0 && strength[p as usize] == best)
                    .collect();
                prop_assert_eq!(players, &expect, "{:?}", feature);
                // Those followers went home (B-4).
                prop_assert!(g.followers().iter().all(|f| f.feature_id != feature.id));
            }
            _ => {}
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// B-2..B-6 invariants over whole random games.
    #[test]
    fn random_games_keep_invariants(seed in any::<u64>(), players in 2u8..=5) {
        let rules = base();
        let mut g = Game::new(rules.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
        let mut agent = RandomAgent::new(seed.wrapping_add(1));
        let total = followers_total(&g);
        let mut last = g.scores().to_vec();
        let mut guard = 0;
        while g.phase() != Phase::Over {
            let follower_phase = g.phase() == Phase::Follower;
            let before = g.followers();
            let first_new = g.events().len();
            step(&mut g, &mut agent);
            guard += 1;
            prop_assert!(guard < 10_000, "game does not end");
            if follower_phase {
                check_turn_scoring(&g, &before, first_new)?;
            }
            // Followers conserved: supply + board = constant.
            prop_assert_eq!(in_supply(&g) + g.followers().len() as u32, total);
            // Scores never decrease.
            for (a, b) in last.iter().zip(g.scores()) {
                prop_assert!(b >= a);
            }
            last = g.scores().to_vec();
        }
        prop_assert_eq!(g.remaining(), 0);
        // The incremental union-find equals a from-scratch recomputation (B-3, B-7).
        if let Err(e) = naive::audit(&g) { prop_assert!(false, "{}", e); }
        // Every completed feature scored exactly once (B-4), nothing else scored as complete.
        let mut scored = BTreeMap::new();
        for e in g.events() {
            if let Event::Score { rule, feature, .. } = e {
                if rule == "B-4" {
                    prop_assert!(feature.complete);
                    *scored.entry(feature.id).or_insert(0u32) += 1;
                }
            }
        }
        let completed = g.completed_features();
        for id in &completed {
            prop_assert_eq!(scored.get(id).copied(), Some(1), "feature {:?}", id);
        }
        prop_assert_eq!(scored.len(), completed.len());
        // Final scoring (B-6) equals a from-scratch recomputation (B-5 majorities, B-6 values).
        let mut finals = vec![0u32; players as usize];
        for e in g.events() {
            if let Event::Score { rule, players: ps, points, .. } = e {
                if rule == "B-6" {
                    for &p in ps { finals[p as usize] += points; }
                }
            }
        }
        prop_assert_eq!(finals, naive::final_scores(&g));
        // Score events add up to the scores.
        let mut sum = vec![0i64; players as usize];
        for e in g.events() {
            if let Event::Score { players: ps, points, .. } = e {
                for &p in ps { sum[p as usize] += i64::from(*points); }
            }
        }
        prop_assert_eq!(&sum[..], g.scores());
    }

    /// The fast generator equals the naive checker on random positions (B-2).
    #[test]
    fn fast_placements_equal_naive(seed in any::<u64>(), stop in 0usize..140) {
        let rules = base();
        let mut g = Game::new(rules.clone(), 2, PileOrder::Shuffled(seed), false).unwrap();
        let mut agent = RandomAgent::new(seed);
        let mut checked = 0;
        for k in 0..stop {
            if g.phase() == Phase::Over { break; }
            if g.phase() == Phase::Place && (k % 7 == 0 || k + 2 >= stop) {
                let mut fast = g.placements().to_vec();
                fast.sort_unstable();
                prop_assert_eq!(&fast, &g.naive_placements());
                checked += 1;
            }
            step(&mut g, &mut agent);
        }
        prop_assert!(checked > 0 || g.phase() == Phase::Over || stop < 2);
        if let Err(e) = naive::audit(&g) { prop_assert!(false, "{}", e); }
    }

    /// Clone + the same moves = the same state; the log replays to the same game.
    #[test]
    fn clone_and_replay_are_faithful(seed in any::<u64>(), split in 0usize..140) {
        let rules = base();
        let mut g = Game::new(rules.clone(), 3, PileOrder::Shuffled(seed), true).unwrap();
        let mut agent = RandomAgent::new(!seed);
        for _ in 0..split {
            if g.phase() == Phase::Over { break; }
            step(&mut g, &mut agent);
        }
        let mut copy = g.clone();
        let mut rest = Vec::new();
        while g.phase() != Phase::Over {
            rest.push(step(&mut g, &mut agent));
        }
        for s in rest { redo(&mut copy, s); }
        prop_assert_eq!(copy.scores(), g.scores());
        prop_assert_eq!(copy.events(), g.events());
        prop_assert_eq!(copy.tiles(), g.tiles());
        prop_assert_eq!(copy.followers(), g.followers());
        let text = log::log_text(&g);
        let replayed = log::replay(rules.clone(), &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(replayed.scores(), g.scores());
        // Replay regenerates every event line byte for byte (setup aside: its seed is the pile's).
        let a: Vec<&str> = text.lines().skip(1).collect();
        let again = log::log_text(&replayed);
        let b: Vec<&str> = again.lines().skip(1).collect();
        prop_assert_eq!(a, b);
    }
}

/// Same seed and decisions → byte-identical log.
#[test]
fn same_seed_same_log() {
    let rules = base();
    let run = || {
        let mut g = Game::seeded(rules.clone(), 2, 99).unwrap();
        let mut a = RandomAgent::new(5);
        while g.phase() != Phase::Over {
            step(&mut g, &mut a);
        }
        log::log_text(&g)
    };
    assert_eq!(run(), run());
}

/// The testkit's hand-transcribed base set and the compiled `variants/base.toml` give the same
/// mean score over the same seeds — an independent cross-check of tile data and lowering.
#[test]
fn compiled_base_agrees_with_testkit_statistics() {
    use tegula_engine::{sim, testkit, AgentKind};
    let compiled = base();
    let kit = Arc::new(Rules::new(testkit::base_ruleset()).unwrap());
    let a = sim::simulate(&compiled, 2, 3000, 7, 1, &[AgentKind::Random], &|_| {}).unwrap();
    let b = sim::simulate(&kit, 2, 3000, 7, 1, &[AgentKind::Random], &|_| {}).unwrap();
    let (ma, mb) = (a.mean_total_score(), b.mean_total_score());
    // Different feature order changes individual games, not the distribution.
    assert!((ma - mb).abs() < 1.0, "compiled {ma} vs testkit {mb}");
}

/// The variant's rules with its pool tiles dealt into the pile as ordinary tiles, so that the
/// geometry of every mega tile is exercised in every game (placement and features only).
fn variant(name: &str) -> Arc<Rules> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    let (rs, diags) = tegula_model::variant::build_variant(&path);
    let mut rs = rs.unwrap_or_else(|| panic!("{name} does not build: {diags:?}"));
    if let Some(pool) = rs.pool.take() {
        for t in pool.tiles {
            rs.tiles[t as usize].count = 1;
            rs.without_tile_rules(t);
        }
        // Nothing to take from: the rule offering pool tiles (W-2) goes with the pool.
        let pool_tile = |w: &tegula_ruleset::When| {
            (w.offer.as_ref()).is_some_and(|o| o.options == tegula_ruleset::Options::PoolTile)
        };
        rs.when.retain(|w| !pool_tile(w));
    }
    Arc::new(Rules::new(rs).expect("playable"))
}

/// The wonders (5-cell mega tiles, features across cells, W-18) and Abbey & Mayor tiles (the
/// abbey's `any` sides close neighbours, AM-3): after every placement the incremental features
/// equal the recomputation and the fast generator equals the naive checker.
#[test]
fn mega_tiles_and_any_sides_agree_with_naive() {
    for name in ["variants/wonders.toml", "variants/abbey-mayor.toml"] {
        let rules = variant(name);
        for seed in 0..6u64 {
            let mut g = Game::new(rules.clone(), 2, PileOrder::Shuffled(seed), true).unwrap();
            let mut agent = RandomAgent::new(seed);
            let mut megas = 0;
            while g.phase() != Phase::Over {
                if g.phase() == Phase::Place {
                    let mut fast = g.placements().to_vec();
                    fast.sort_unstable();
                    assert_eq!(fast, g.naive_placements(), "{name} seed {seed}");
                    if rules.ruleset().tiles[g.current_tile() as usize].cell_count > 1 {
                        megas += 1;
                    }
                }
                step(&mut g, &mut agent);
                if let Err(e) = naive::audit(&g) {
                    panic!("{name} seed {seed} turn {}: {e}", g.turn());
                }
            }
            if name.contains("wonders") {
                assert!(megas > 0, "the wonders were drawn and placed");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Arbitrary (mostly illegal) actions never panic; a refused action leaves the game
    /// unchanged (B-2 errors are values, not crashes).
    #[test]
    fn arbitrary_actions_never_panic(
        seed in any::<u64>(),
        actions in proptest::collection::vec(
            (0u8..3, -80i32..80, -80i32..80, 0u8..6, 0u8..12, 0u8..3), 1..200),
    ) {
        use tegula_engine::{Action, FollowerOption, Placement};
        let rules = base();
        let mut g = Game::new(rules.clone(), 2, PileOrder::Shuffled(seed), true).unwrap();
        for (kind, x, y, rotation, feature, follower) in actions {
            let action = match kind {
                0 => Action::Place(Placement { tile: g.current_tile(), x, y, rotation }),
                1 => Action::Follower(FollowerOption { feature, follower }),
                _ => Action::Pass,
            };
            let before = (g.scores().to_vec(), g.events().len(), g.tiles().len(), g.phase());
            if g.apply(action).is_err() {
                let after = (g.scores().to_vec(), g.events().len(), g.tiles().len(), g.phase());
                prop_assert_eq!(before, after);
            }
        }
        if let Err(e) = naive::audit(&g) { prop_assert!(false, "{}", e); }
        g.finish();
        prop_assert_eq!(g.phase(), Phase::Over);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A damaged log never panics the replayer: it replays (the damage was harmless) or fails
    /// with a line number inside the log (or just past its end).
    #[test]
    fn damaged_logs_never_panic(seed in 0u64..4, edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        let rules = base();
        let mut g = Game::seeded(rules.clone(), 2, seed).unwrap();
        let mut a = RandomAgent::new(seed);
        while g.phase() != Phase::Over {
            step(&mut g, &mut a);
        }
        let mut bytes = log::log_text(&g).into_bytes();
        for (pos, b) in edits {
            let i = pos % bytes.len();
            bytes[i] = b;
        }
        let text = String::from_utf8_lossy(&bytes);
        let lines = text.lines().count();
        if let Err(e) = log::replay(rules.clone(), &text) {
            prop_assert!(e.line >= 1 && e.line <= lines + 1, "{}", e);
        }
    }
}

/// Tag counts (`count(TAG)`, `any(TAG)` in value expressions, docs/FORMAT.md "Values") are the
/// sums over the segments merged into a feature: with the features of every other tile type
/// tagged, the fast engine's final scoring equals the naive recomputation, which counts the
/// tagged members of each feature from scratch. Values that read the tag differently from the
/// cells make a wrong count visible.
#[test]
fn tag_counts_are_summed_over_the_merged_segments() {
    use tegula_engine::FeatureKind;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/base.toml");
    let mut rs = tegula_model::variant::build_variant(&path)
        .0
        .expect("base builds");
    rs.tags.push("marked".into());
    let bit = 1 << (rs.tags.len() - 1);
    for tile in rs.tiles.iter_mut().step_by(2) {
        for f in &mut tile.features {
            f.tags |= bit;
        }
    }
    let parse = |text: &str, kind| tegula_model::values::parse(text, kind, &rs.tags).unwrap();
    let values = tegula_ruleset::Values {
        road: tegula_ruleset::StateValues {
            complete: parse(
                "if any(marked) then 3 * tiles else tiles",
                FeatureKind::Road,
            ),
            incomplete: parse(
                "if any(marked) then 3 * tiles else tiles",
                FeatureKind::Road,
            ),
        },
        city: tegula_ruleset::StateValues {
            complete: parse("7 * count(marked) + tiles", FeatureKind::City),
            incomplete: parse("5 * count(marked) + tiles - 1", FeatureKind::City),
        },
        cloister: rs.scoring.values.cloister.clone(),
        field: parse("cities + 2 * count(marked)", FeatureKind::Field),
    };
    rs.scoring.values = values;
    let rules = Arc::new(Rules::new(rs).expect("playable"));
    let mut tagged_scores = 0;
    for seed in 0..12u64 {
        let players = 2 + (seed % 4) as u8;
        let mut g = Game::new(rules.clone(), players, PileOrder::Shuffled(seed), true).unwrap();
        let mut agent = RandomAgent::new(seed);
        while g.phase() != Phase::Over {
            step(&mut g, &mut agent);
        }
        let mut finals = vec![0u32; players as usize];
        for e in g.events() {
            if let Event::Score {
                rule,
                players: ps,
                points,
                feature,
                ..
            } = e
            {
                if rule == "B-6" {
                    for &p in ps {
                        finals[p as usize] += points;
                    }
                }
                if feature.kind == FeatureKind::City && *points > feature.tiles + 1 {
                    tagged_scores += 1;
                }
            }
        }
        assert_eq!(finals, naive::final_scores(&g), "seed {seed}");
    }
    assert!(tagged_scores > 0, "some city scored its tagged segments");
}
