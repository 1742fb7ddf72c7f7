//! Abilities on tiles that are not pool tiles (issue 21, item 6): the seat that placed a tile
//! owns its abilities, whichever way the tile came to the board; ability effects gain a seat
//! resource, give an extra turn, and count features by tag. The fan-made Guilds house set
//! (tiles/fan-made/guilds/guilds.toml, variants/house/guilds.toml) shows each one in a
//! hand-worked scenario; here each scenario is shown to fail without its mechanism, and logged
//! games of the variant replay and survive snapshots.

mod common;

use std::path::Path;
use std::sync::Arc;

use common::{assert_exit, root, tegula};
use tegula_engine::{Game, Phase, PileOrder};
use tegula_ruleset::{Act, Effect, Expr, Quantity, Ruleset, When};
use tegula_scenario::{load, run, VariantCache};

const GU1: &str = "scenarios/house-guilds.toml";
const GU2: &str = "scenarios/house-guilds-gu2-waystation-extra-turn.toml";
const GU3: &str = "scenarios/house-guilds-gu3-exchange-market-cities.toml";
const GU5: &str = "scenarios/house-guilds-gu5-toll-house-per-tile.toml";

/// Run the scenario at `rel` with its ruleset changed by `change`; the failures' messages.
fn failures_with(rel: &str, change: impl Fn(&mut Ruleset)) -> Vec<String> {
    let mut cache = VariantCache::default();
    let (sc, diags) = load(&root().join(rel), &mut cache);
    let mut sc = sc.unwrap_or_else(|| panic!("{rel}: {diags:?}"));
    let mut rs = (*sc.ruleset).clone();
    change(&mut rs);
    sc.ruleset = Arc::new(rs);
    run(&sc).failures.iter().map(|f| format!("{f:?}")).collect()
}

/// Play one legal action picked by a xorshift step of `rng`.
fn random_action(g: &mut Game, rng: &mut u64) {
    let actions = g.legal_actions();
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    g.apply(actions[(*rng % actions.len() as u64) as usize])
        .unwrap();
}

fn tile(rs: &Ruleset, id: &str) -> usize {
    rs.tiles.iter().position(|t| t.id == id).expect(id)
}

/// The rule tile `id` carries (its one ability, lowered).
fn carried<'a>(rs: &'a mut Ruleset, id: &str) -> &'a mut When {
    let t = tile(rs, id) as u16;
    rs.when.iter_mut().find(|w| w.tile == Some(t)).expect(id)
}

#[test]
fn the_guilds_scenarios_hold() {
    for rel in [GU1, GU2, GU3, GU5] {
        assert!(failures_with(rel, |_| {}).is_empty(), "{rel}");
    }
}

/// The scenario `rel` fails when tile `id`'s ability (whose effect `is` accepts) is silent.
fn fails_silent(rel: &str, id: &str, is: impl Fn(&Effect) -> bool) -> bool {
    !failures_with(rel, |rs| {
        let t = tile(rs, id);
        assert!(is(&rs.tiles[t].abilities[0].effect), "{id}");
        rs.without_tile_rules(t as u16);
    })
    .is_empty()
}

/// Before pile tiles had owners, the guildhall's ability never acted: no coin, no award.
#[test]
fn gu1_fails_when_the_pile_tile_ability_does_not_act() {
    assert!(fails_silent(GU1, "guildhall", |e| matches!(
        e,
        Effect::Gain { .. }
    )));
}

/// Without the extra turn, step 6 is seat 1's turn, not seat 0's.
#[test]
fn gu2_fails_without_the_extra_turn() {
    assert!(fails_silent(GU2, "waystation", |e| *e == Effect::ExtraTurn));
}

/// Without the tag filter both completed cities count: 6 points, not 3.
#[test]
fn gu3_fails_without_the_tag_filter() {
    let f = failures_with(GU3, |rs| {
        let Act::Score { value, .. } = &mut carried(rs, "exchange").then[0] else {
            panic!("GU-3 scores");
        };
        let Expr::Mul(_, count) = value else {
            panic!("GU-3 scores per feature");
        };
        let Expr::Count(Quantity::Features { tag, .. }) = &mut **count else {
            panic!("GU-3 counts features");
        };
        assert!(tag.is_some());
        *tag = None;
    });
    assert!(!f.is_empty());
}

/// With a constant in place of the value over the road (what `per` could say), GU-5 pays 1,
/// not 4.
#[test]
fn gu5_fails_with_a_constant_per() {
    let f = failures_with(GU5, |rs| {
        let Act::Score { value, .. } = &mut carried(rs, "toll-house").then[0] else {
            panic!("GU-5 scores");
        };
        assert_eq!(*value, Expr::Count(Quantity::Tiles));
        *value = Expr::Int(1);
    });
    assert!(!f.is_empty());
}

/// Random games of the Guilds variant: a snapshot read back is the same state (hash, scores,
/// holdings), at every tenth decision and at the end.
#[test]
fn snapshots_of_guilds_games_are_faithful() {
    let rules = common::variant_rules("variants/house/guilds.toml");
    for seed in 0..12u64 {
        let mut g = Game::new(rules.clone(), 3, PileOrder::Shuffled(seed), true).unwrap();
        let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut n = 0;
        while g.phase() != Phase::Over {
            random_action(&mut g, &mut rng);
            n += 1;
            if n % 10 == 0 || g.phase() == Phase::Over {
                let back = Game::from_json(&g.to_json(), rules.clone()).unwrap();
                assert_eq!(back.state_hash(), g.state_hash(), "seed {seed} at {n}");
                assert_eq!(back.scores(), g.scores());
                assert_eq!(back.holdings(), g.holdings());
            }
        }
    }
}

/// `tegula play` logs games of the Guilds variant whose events cite GU-1..GU-4, and
/// `tegula replay` re-runs each log to the same end.
#[test]
fn guilds_games_log_their_abilities_and_replay() {
    let dir = std::env::temp_dir().join(format!("tegula-guilds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cited = std::collections::BTreeSet::new();
    for seed in 0..24 {
        let log = dir.join(format!("g{seed}.jsonl"));
        let seed = seed.to_string();
        let out = tegula(&[
            "play",
            "--variant",
            "variants/house/guilds.toml",
            "--players",
            "3",
            "--seed",
            &seed,
            "--agents",
            "greedy,greedy,greedy",
            "--log",
            log.to_str().unwrap(),
        ]);
        assert_exit(&out, 0);
        assert_exit(&tegula(&["replay", log.to_str().unwrap()]), 0);
        let text = std::fs::read_to_string(&log).unwrap();
        for rule in ["GU-1", "GU-2", "GU-3", "GU-4"] {
            if text.contains(&format!("\"rule\":\"{rule}\"")) {
                cited.insert(rule);
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(cited.len(), 4, "only {cited:?} cited in 24 games");
}

#[test]
fn scenarios_named_here_exist() {
    for rel in [GU1, GU2, GU3, GU5] {
        assert!(Path::new(&root().join(rel)).is_file(), "{rel}");
    }
}

/// Two positions with the same board, scores and pile but the guildhall placed by different
/// seats hash differently: its owner is part of the state (GU-1 pays that seat).
#[test]
fn the_owner_of_a_pile_tile_is_in_the_state_hash() {
    let rules = common::variant_rules("variants/house/guilds.toml");
    let rs = rules.ruleset();
    let (hall, b) = (tile(rs, "guildhall") as u16, tile(rs, "B") as u16);
    let rest: Vec<u16> = vec![b; 4];
    // Seat 0 places the first tile drawn, seat 1 the second: swap which one is the guildhall.
    let play = |first: u16, second: u16, at: [(i32, i32); 2]| {
        let pile = [vec![first, second], rest.clone()].concat();
        let mut g = Game::new(rules.clone(), 2, PileOrder::Scripted(pile), true).unwrap();
        for (x, y) in at {
            let rot = if g.current_tile() == hall { 2 } else { 0 };
            g.place(x, y, rot).unwrap();
            g.apply(tegula_engine::Action::Pass).unwrap();
        }
        g
    };
    // The guildhall closes the start tile's city from the north (no market: no coin); B lies
    // south of the start tile.
    let (hall_at, b_at) = ((0, -1), (0, 1));
    let a = play(hall, b, [hall_at, b_at]);
    let z = play(b, hall, [b_at, hall_at]);
    assert_eq!(a.scores(), z.scores());
    assert_ne!(a.state_hash(), z.state_hash());
    assert_eq!(a.state_hash(), a.state_hash_from_scratch());
}

/// A player tile (the abbey, placed from a seat's hand) is owned by the seat that placed it:
/// in random games each seat that placed its abbey scores FX-2 once at the end, and no other.
#[test]
fn a_player_tile_is_owned_by_the_seat_that_placed_it() {
    let rules = common::variant_rules("tests/fixtures/valid/abbey-owned-ability.toml");
    let abbey = tile(rules.ruleset(), "abbey");
    let mut placed_some = false;
    for seed in 0..16u64 {
        let mut g = Game::new(rules.clone(), 3, PileOrder::Shuffled(seed), true).unwrap();
        let mut rng = seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
        while g.phase() != Phase::Over {
            random_action(&mut g, &mut rng);
        }
        let mut placers: Vec<u8> = Vec::new();
        let mut paid: Vec<u8> = Vec::new();
        for e in g.events() {
            match e {
                tegula_engine::Event::Place { player, tile, .. } if *tile == "abbey" => {
                    placers.push(*player)
                }
                tegula_engine::Event::Score { rule, players, .. } if rule == "FX-2" => {
                    paid.extend(players)
                }
                _ => {}
            }
        }
        placers.sort_unstable();
        paid.sort_unstable();
        assert_eq!(placers, paid, "seed {seed}");
        placed_some |= !placers.is_empty();
    }
    assert!(placed_some, "no abbey {abbey} placed in 16 games");
}
