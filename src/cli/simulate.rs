//! `tegula simulate`: many games between built-in agents; prints games/s, decisions/s, mean
//! total score and win rates. Game `i` uses seeds derived from `--seed` and `i`, so the results do
//! not depend on `--jobs`.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::time::Instant;

use tegula_engine::sim;

use super::play::{load_rules, parse_agents, Format};

/// Arguments of `tegula simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// Variant file (e.g. `variants/base.toml`).
    #[arg(long, value_name = "FILE")]
    pub variant: PathBuf,
    /// Number of players.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Base seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Agents by seat, comma-separated (`random`, `greedy`), cycled over the seats.
    #[arg(long, default_value = "random", value_delimiter = ',')]
    pub agents: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let agents = parse_agents(&args.agents)?;
    if args.jobs == 0 || args.jobs > 1024 {
        anyhow::bail!("--jobs must be between 1 and 1024");
    }
    let rules = match load_rules(&args.variant)? {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(args.games);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games ({per_sec}, eta {eta})",
        ) {
            b.set_style(style);
        }
        Some(b)
    } else {
        None
    };
    let progress = |done: u64| {
        if let Some(b) = &bar {
            b.set_position(done);
        }
    };
    let start = Instant::now();
    let stats = sim::simulate(
        &rules,
        args.players,
        args.games,
        args.seed,
        args.jobs,
        &agents,
        &progress,
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let gps = stats.games as f64 / secs;
    let dps = stats.decisions as f64 / secs;
    let mean_scores: Vec<f64> = stats
        .seat_scores
        .iter()
        .map(|&s| s as f64 / stats.games.max(1) as f64)
        .collect();
    let agent_names: Vec<&str> = (0..args.players as usize)
        .map(|p| agents[p % agents.len()].name())
        .collect();
    match args.format {
        Format::Json => {
            let v = serde_json::json!({
                "variant": rules.ruleset().id,
                "players": args.players,
                "games": stats.games,
                "seed": args.seed,
                "jobs": args.jobs,
                "agents": agent_names,
                "seconds": secs,
                "games_per_second": gps,
                "decisions": stats.decisions,
                "decisions_per_second": dps,
                "mean_total_score": stats.mean_total_score(),
                "mean_scores": mean_scores,
                "win_rates": stats.win_rates(),
                "pool_tiles": pool_json(&rules, &stats),
            });
            println!("{}", serde_json::to_string_pretty(&v)?);
        }
        Format::Human => {
            println!(
                "{} games of {} ({} players, agents {}) in {:.3}s",
                stats.games,
                rules.ruleset().id,
                args.players,
                agent_names.join(","),
                secs
            );
            println!("games/s: {gps:.0}   decisions/s: {dps:.0}");
            println!("mean total score: {:.3}", stats.mean_total_score());
            let rates: Vec<String> = stats
                .win_rates()
                .iter()
                .enumerate()
                .map(|(p, r)| format!("seat {p}: {:.1}%", r * 100.0))
                .collect();
            println!("win rates (ties shared): {}", rates.join(", "));
            for (&t, p) in &stats.pool {
                println!(
                    "{}: placed in {} games, owner won {:.1}%, ability {:.2} points a game",
                    rules.tile_id(t),
                    p.games,
                    p.win_rate() * 100.0,
                    p.mean_ability_points()
                );
            }
        }
    }
    Ok(0)
}

/// Per pool tile (the wonders): games placed, owner win rate, mean ability points, mean owner
/// score.
fn pool_json(rules: &tegula_engine::Rules, stats: &sim::SimStats) -> serde_json::Value {
    let rows: serde_json::Map<String, serde_json::Value> = stats
        .pool
        .iter()
        .map(|(&t, p)| {
            let v = serde_json::json!({
                "games": p.games,
                "owner_win_rate": p.win_rate(),
                "mean_ability_points": p.mean_ability_points(),
                "mean_owner_score": p.owner_scores as f64 / p.games.max(1) as f64,
            });
            (rules.tile_id(t).to_string(), v)
        })
        .collect();
    serde_json::Value::Object(rows)
}
