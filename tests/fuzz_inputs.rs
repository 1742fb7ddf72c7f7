//! Bounded runs of the fuzz targets (docs/FUZZING.md) in the normal test suite: each target's
//! body (`tegula-fuzz-support`, shared with `fuzz/fuzz_targets/`) over
//! (a) every file of its regression corpus `fuzz/corpus/<target>/` (every input that ever failed),
//! (b) a few hundred proptest mutations of shipped files (tile sets, variants, scenarios, logs,
//!     the variants compiled to ruleset artefacts)
//!     and random byte strings for the engine-actions target.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use tegula_engine::{log::log_text, Game, Phase, Rng};
use tegula_fuzz_support::{repo_root, shipped_variants, TARGETS};

#[test]
fn every_regression_input_passes_its_target() {
    let mut ran = 0;
    for (name, body) in TARGETS {
        let dir = repo_root().join("fuzz/corpus").join(name);
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let data = std::fs::read(e.path()).unwrap();
            println!("{name}: {}", e.path().display());
            body(&data);
            ran += 1;
        }
    }
    assert!(ran > 0, "no regression corpus found under fuzz/corpus/");
}

/// The `.toml` files of the shipped folders, read once.
fn files_in(dirs: &[&str]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for d in dirs {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(repo_root().join(d))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        paths.sort();
        out.extend(paths.iter().map(|p| std::fs::read(p).unwrap()));
    }
    assert!(!out.is_empty());
    out
}

fn tilesets() -> &'static [Vec<u8>] {
    static F: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    F.get_or_init(|| {
        files_in(&[
            "tiles",
            "tiles/wonders-1",
            "tiles/wonders-2",
            "tiles/fan-made",
        ])
    })
}

fn variants() -> &'static [Vec<u8>] {
    static F: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    F.get_or_init(|| files_in(&["variants"]))
}

fn scenarios() -> &'static [Vec<u8>] {
    static F: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    F.get_or_init(|| files_in(&["scenarios"]))
}

/// One random game's log per shipped variant.
fn logs() -> &'static [Vec<u8>] {
    static F: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    F.get_or_init(|| {
        shipped_variants()
            .iter()
            .map(|(_, rules)| {
                let mut g = Game::seeded(Arc::clone(rules), 2, 7).unwrap();
                let mut rng = Rng::new(7);
                while g.phase() != Phase::Over {
                    let legal = g.legal_actions();
                    g.apply(legal[rng.below(legal.len() as u32) as usize])
                        .unwrap();
                }
                log_text(&g).into_bytes()
            })
            .collect()
    })
}

/// The shipped variants as compiled ruleset artefacts (`tegula compile --format json`).
fn artefacts() -> &'static [Vec<u8>] {
    static F: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    F.get_or_init(|| {
        shipped_variants()
            .iter()
            .map(|(_, rules)| rules.ruleset().to_json().into_bytes())
            .collect()
    })
}

/// One change to an input.
#[derive(Clone, Debug)]
enum Edit {
    /// Replace the byte at a position.
    Byte(usize, u8),
    /// Delete bytes from a position.
    Delete(usize, usize),
    /// Insert a piece of text.
    Insert(usize, &'static str),
    /// Repeat the line at a position.
    DupLine(usize),
}

/// Texts likely to reach edge cases: extreme numbers, TOML and JSON punctuation, names.
const PIECES: &[&str] = &[
    "0",
    "-1",
    "4294967295",
    "18446744073709551616",
    "1e999",
    "\"",
    "[",
    "]",
    "{",
    "}",
    ",",
    "=",
    "\n",
    "[[tile]]\n",
    "[[step]]\n",
    "start = true",
    "count = 1000",
    "copies = 16",
    "\"pennants\"",
    "null",
    "true",
    "\u{fffd}",
    "😀",
    "\\u0000",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Edit::Byte(p, b)),
        (any::<usize>(), 1usize..64).prop_map(|(p, n)| Edit::Delete(p, n)),
        (any::<usize>(), proptest::sample::select(PIECES)).prop_map(|(p, s)| Edit::Insert(p, s)),
        any::<usize>().prop_map(Edit::DupLine),
    ]
}

fn mutate(seed: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for e in edits {
        let n = v.len().max(1);
        match *e {
            Edit::Byte(p, b) if !v.is_empty() => v[p % n] = b,
            Edit::Byte(..) => {}
            Edit::Delete(p, k) => {
                let at = p % n;
                let end = (at + k).min(v.len());
                v.drain(at.min(end)..end);
            }
            Edit::Insert(p, s) => {
                let at = p % (v.len() + 1);
                v.splice(at..at, s.bytes());
            }
            Edit::DupLine(p) => {
                let at = p % n;
                let start = v[..at.min(v.len())]
                    .iter()
                    .rposition(|&c| c == b'\n')
                    .map_or(0, |i| i + 1);
                let end = v[start..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(v.len(), |i| start + i + 1);
                let line: Vec<u8> = v[start..end].to_vec();
                v.splice(end..end, line);
            }
        }
    }
    v
}

fn mutations(seeds: fn() -> &'static [Vec<u8>]) -> impl Strategy<Value = Vec<u8>> {
    (
        any::<prop::sample::Index>(),
        prop::collection::vec(edit(), 1..6),
    )
        .prop_map(move |(i, edits)| mutate(i.get::<Vec<u8>>(seeds()), &edits))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_tile_sets_give_diagnostics(data in mutations(tilesets)) {
        tegula_fuzz_support::tileset(&data);
    }

    #[test]
    fn mutated_logs_replay_or_fail_cleanly(data in mutations(logs)) {
        tegula_fuzz_support::log(&data);
    }

    #[test]
    fn random_actions_are_accepted_exactly_when_listed(data in prop::collection::vec(any::<u8>(), 8..600)) {
        tegula_fuzz_support::engine_actions(&data);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_variants_give_diagnostics_or_play(data in mutations(variants)) {
        tegula_fuzz_support::variant(&data);
    }

    #[test]
    fn mutated_scenarios_give_diagnostics_or_run(data in mutations(scenarios)) {
        tegula_fuzz_support::scenario(&data);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_artefacts_are_refused_or_play(data in mutations(artefacts)) {
        tegula_fuzz_support::ruleset(&data);
    }
}
