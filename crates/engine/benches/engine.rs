//! Benchmark (not a test) of the engine's hot paths on the shipped variants, one core:
//! (a) `draw`: generating the legal placements of the drawn tile, (b) `place`: placing a tile
//! (merging its features; the follower options of the placed tile are computed here too),
//! (c) `follower`: placing a follower, scoring and ending the turn, (d) `game`: a whole random
//! 2-player game, (e) `mcts`: one `mcts:N` decision from scratch (no kept tree).
//!
//! `cargo bench -p tegula-engine --bench engine -- [--quick] [--json] [--mcts N] [FILTER…]`
//!
//! (a)–(c) start from mid-game positions of seeded random games (turns 20 to 50, chance steps
//! on, so a position can stop just before the draw); each measured step first copies its
//! position with `clone_from`, so the `clone` line is printed too and the `net` column
//! subtracts it. Each line is the median over samples of the time per step; `--quick` takes
//! fewer and shorter samples. docs/BENCHMARKS.md says how to compare two checkouts.
//!
//! The variants are read as compiled artefacts (`benches/data/V.json`), not built from TOML.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use tegula_engine::{sim, AgentKind, Game, MctsAgent, Phase, PileOrder, Rng, Rules};

/// The variants of the whole-game line (each shipped variant group).
const GAMES: &[&str] = &[
    "base",
    "abbey-mayor",
    "wonders",
    "inns-cathedrals",
    "traders-builders",
    "river",
];
/// The variants of the per-step lines (the base game and the two heaviest turn structures).
const STEPS: &[&str] = &["base", "abbey-mayor", "wonders"];

/// Command-line options.
struct Opts {
    quick: bool,
    json: bool,
    mcts: u32,
    filters: Vec<String>,
}

impl Opts {
    fn parse() -> Opts {
        let mut o = Opts {
            quick: false,
            json: false,
            mcts: 200,
            filters: Vec::new(),
        };
        let mut args = std::env::args().skip(1);
        while let Some(a) = args.next() {
            match a.as_str() {
                "--quick" => o.quick = true,
                "--json" => o.json = true,
                "--mcts" => match args.next().and_then(|n| n.parse().ok()).filter(|&n| n > 0) {
                    Some(n) => o.mcts = n,
                    None => {
                        eprintln!("error: --mcts takes a number of playouts, at least 1");
                        std::process::exit(2);
                    }
                },
                // `cargo bench` passes `--bench`; other flags are not ours.
                f if f.starts_with('-') => {}
                f => o.filters.push(f.to_string()),
            }
        }
        o
    }

    fn wants(&self, name: &str) -> bool {
        self.filters.is_empty() || self.filters.iter().any(|f| name.contains(f.as_str()))
    }

    /// Samples per line and the least time per sample.
    fn sampling(&self) -> (usize, f64) {
        if self.quick {
            (5, 0.02)
        } else {
            (15, 0.1)
        }
    }
}

/// Median, least and greatest nanoseconds per step of `step(i)`, `i` counting steps.
fn measure(o: &Opts, mut step: impl FnMut(usize)) -> [f64; 3] {
    let (samples, least) = o.sampling();
    // Grow the steps per sample until one sample takes `least` seconds.
    let mut n = 1usize;
    let mut i = 0usize;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            step(i);
            i += 1;
        }
        if t.elapsed().as_secs_f64() >= least || n >= 1 << 30 {
            break;
        }
        n *= 2;
    }
    let mut per: Vec<f64> = (0..samples)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..n {
                step(i);
                i += 1;
            }
            t.elapsed().as_secs_f64() * 1e9 / n as f64
        })
        .collect();
    per.sort_by(f64::total_cmp);
    [per[per.len() / 2], per[0], per[per.len() - 1]]
}

/// Print one line (or one JSON object) of results.
fn report(o: &Opts, name: &str, ns: [f64; 3], net: Option<f64>) {
    if o.json {
        let v = serde_json::json!({"bench": name, "median_ns": ns[0], "min_ns": ns[1],
            "max_ns": ns[2], "net_ns": net});
        println!("{v}");
    } else {
        let net = net.map_or(String::new(), |n| format!("  net {n:>10.0} ns"));
        println!(
            "{name:<28} {:>12.0} ns  ({:.0} .. {:.0}){net}",
            ns[0], ns[1], ns[2]
        );
    }
}

/// The compiled artefact of `variants/V.toml`, checked in as `benches/data/V.json` so that the
/// engine needs no TOML compiler; the root test `engine_bench_data` keeps it equal to what
/// `tegula compile variants/V.toml --format json` writes.
fn rules(variant: &str) -> Arc<Rules> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/data")
        .join(format!("{variant}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rules = Rules::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Arc::new(rules)
}

/// Mid-game positions (turns 20 to 50) of seeded random 2-player games, chance steps on, in
/// `phase`: at least `want` of them.
fn positions(rules: &Arc<Rules>, phase: Phase, want: usize) -> Vec<Game> {
    let mut out = Vec::new();
    let mut rng = Rng::new(11);
    for seed in 0.. {
        let mut g = Game::new(rules.clone(), 2, PileOrder::Shuffled(seed), false).expect("setup");
        g.set_chance_steps(true);
        while g.phase() != Phase::Over && g.turn() <= 50 {
            if g.phase() == phase && g.turn() >= 20 {
                out.push(g.clone());
            }
            let legal = g.legal_actions();
            g.apply(legal[rng.below(legal.len() as u32) as usize])
                .expect("a legal action");
        }
        if out.len() >= want || seed > 1000 {
            return out;
        }
    }
    out
}

/// A per-step case: its name, the phase its positions are in and the step.
type Case = (&'static str, Phase, fn(&mut Game));

/// (a)–(c) on one variant: each step copies a position, then acts in it.
fn steps(o: &Opts, variant: &str, r: &Arc<Rules>) {
    let cases: [Case; 3] = [
        ("draw", Phase::Draw, |g| {
            g.draw_default();
        }),
        ("place", Phase::Place, |g| {
            let n = g.placements().len();
            g.play_placement(n / 2);
        }),
        ("follower", Phase::Follower, |g| {
            let some = (!g.follower_options().is_empty()).then_some(0);
            g.play_follower(some);
        }),
    ];
    for (what, phase, act) in cases {
        let name = format!("{what}/{variant}");
        if !o.wants(&name) {
            continue;
        }
        let pos = positions(r, phase, 64);
        let mut g = pos[0].clone();
        let clone = measure(o, |i| g.clone_from(black_box(&pos[i % pos.len()])));
        let ns = measure(o, |i| {
            g.clone_from(&pos[i % pos.len()]);
            act(black_box(&mut g));
        });
        report(o, &format!("clone/{what}/{variant}"), clone, None);
        report(o, &name, ns, Some(ns[0] - clone[0]));
    }
}

/// (d): whole random 2-player games, a new pile each.
fn games(o: &Opts, variant: &str, r: &Arc<Rules>) {
    let name = format!("game/{variant}");
    if !o.wants(&name) {
        return;
    }
    let mut g = Game::new(r.clone(), 2, PileOrder::Shuffled(0), false).expect("setup");
    let mut agents = sim::build_agents(&[AgentKind::Random], &[1, 2]);
    let ns = measure(o, |i| {
        g.restart(PileOrder::Shuffled(i as u64)).expect("restart");
        sim::play_out(&mut g, &mut agents);
    });
    report(o, &name, ns, None);
}

/// (e): one `mcts:N` decision from scratch on mid-game positions (a new agent each time, so no
/// tree is kept).
fn searches(o: &Opts, variant: &str, r: &Arc<Rules>) {
    let name = format!("mcts{}/{variant}", o.mcts);
    if !o.wants(&name) {
        return;
    }
    let pos = positions(r, Phase::Place, 16);
    let ns = measure(o, |i| {
        let mut agent = MctsAgent::new(o.mcts, i as u64);
        black_box(agent.search(&pos[i % pos.len()]));
    });
    report(o, &name, ns, None);
    if !o.json {
        println!(
            "{:<28} {:>12.0} playouts/s",
            format!("  {name}"),
            f64::from(o.mcts) * 1e9 / ns[0]
        );
    }
}

fn main() {
    let o = Opts::parse();
    for v in GAMES {
        let wanted = |k: &str| o.wants(&format!("{k}/{v}"));
        let any = [
            "game",
            "draw",
            "place",
            "follower",
            &format!("mcts{}", o.mcts),
        ];
        if !any.iter().any(|k| wanted(k)) {
            continue;
        }
        let r = rules(v);
        if STEPS.contains(v) {
            steps(&o, v, &r);
        }
        games(&o, v, &r);
        if STEPS.contains(v) {
            searches(&o, v, &r);
        }
    }
}
