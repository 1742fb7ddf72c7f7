//! The bodies of tegula's fuzz targets (docs/FUZZING.md), one function per target, each taking
//! arbitrary bytes and panicking exactly when it finds a bug. Two callers share them: the
//! cargo-fuzz targets in `fuzz/fuzz_targets/` (nightly, libFuzzer) and the bounded runs of the
//! normal test suite (`tests/fuzz_inputs.rs`: the regression corpus plus proptest mutations).
//!
//! | target | what it checks |
//! |---|---|
//! | [`tileset`] | the loader and compiler return diagnostics (never panic) for any text |
//! | [`variant`] | any variant text: diagnostics, and a variant that validates can be played |
//! | [`scenario`] | any scenario text: diagnostics, and a scenario that loads runs to its end |
//! | [`log`] | any log text replays to a game or a located error, never a panic |
//! | [`ruleset`] | any compiled ruleset artefact: an error, or rules that set up and play |
//! | [`shard`] | any shard file of `simulate --shard`: a header or a refusal, then its lines' sums, the merge and the figures, never a panic |
//! | [`engine_actions`] | `apply(a)` succeeds exactly for the actions `legal_actions()` lists, and a refused action changes nothing |

mod actions;
mod artefact;
mod data;
mod inputs;
mod shard;

pub use actions::engine_actions;
pub use artefact::ruleset;
pub use data::{repo_root, shipped_variants};
pub use inputs::{log, scenario, tileset, variant};
pub use shard::shard;

/// A fuzz target's body: takes the fuzzer's bytes, panics only on a bug.
pub type Body = fn(&[u8]);

/// The fuzz targets by name (the folder names of `fuzz/corpus/`) with their bodies.
pub const TARGETS: &[(&str, Body)] = &[
    ("parse_tileset", tileset),
    ("variant", variant),
    ("scenario", scenario),
    ("log", log),
    ("ruleset", ruleset),
    ("shard", shard),
    ("engine_actions", engine_actions),
];
