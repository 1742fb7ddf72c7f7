//! Benchmark (not a test): random 2-player base games on one core.
//!
//! `cargo bench -p tegula-engine --bench random_games -- [GAMES]`
//! Uses the testkit base ruleset (the 72 base tiles transcribed from the catalogue), so it runs
//! without the TOML compiler; `tegula simulate` measures the same loop on `variants/base.toml`.

use std::sync::Arc;
use std::time::Instant;

use tegula_engine::{sim, testkit, AgentKind, Rules};

fn main() {
    let games: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(100_000);
    let rules = Arc::new(Rules::new(testkit::base_ruleset()).expect("base ruleset"));
    let t = Instant::now();
    let stats =
        sim::simulate(&rules, 2, games, 1, 1, &[AgentKind::Random], &|_| {}).expect("simulate");
    let secs = t.elapsed().as_secs_f64();
    println!(
        "games {} in {:.3}s: {:.0} games/s, {:.0} decisions/s, mean total score {:.3}",
        stats.games,
        secs,
        stats.games as f64 / secs,
        stats.decisions as f64 / secs,
        stats.mean_total_score()
    );
}
