//! Benchmark (not a test): the cost of cloning a mid-game base state, as tree search does.
//!
//! `cargo bench -p tegula-engine --bench clone -- [CLONES]`
//! Plays 36 random turns of a 2-player base game (testkit ruleset), then times `clone()` (fresh
//! buffers) and `clone_from` (reused buffers) of that state, reporting nanoseconds per copy.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use tegula_engine::{testkit, Game, Phase, Rng, Rules};

fn mid_game(rules: Arc<Rules>) -> Game {
    let mut g = Game::new(rules, 2, tegula_engine::PileOrder::Shuffled(7), false).expect("setup");
    let mut rng = Rng::new(3);
    while g.turn() < 36 && g.phase() != Phase::Over {
        let legal = g.legal_actions();
        g.play_unchecked(legal[rng.below(legal.len() as u32) as usize]);
    }
    g
}

fn main() {
    let n: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let rules = Arc::new(Rules::new(testkit::base_ruleset()).expect("base ruleset"));
    let g = mid_game(rules);
    let t = Instant::now();
    for _ in 0..n {
        black_box(black_box(&g).clone());
    }
    let fresh = t.elapsed().as_secs_f64() * 1e9 / f64::from(n);
    let mut into = g.clone();
    let t = Instant::now();
    for _ in 0..n {
        into.clone_from(black_box(&g));
        black_box(&into);
    }
    let reused = t.elapsed().as_secs_f64() * 1e9 / f64::from(n);
    println!(
        "mid-game base state (turn {}, {} tiles): clone {fresh:.0} ns, clone_from {reused:.0} ns",
        g.turn(),
        g.tile_count()
    );
}
