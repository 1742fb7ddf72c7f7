//! `tegula simulate`: many games between built-in agents; prints games/s, decisions/s, mean
//! total score and win rates. Game `i` uses seeds derived from `--seed` and `i`, so the results do
//! not depend on `--jobs`.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::time::Instant;

use tegula_engine::sim;

use tegula_render::view::plural;

use super::out::write_atomic;
use super::play::{load_rules, parse_agents, Format};

/// Arguments of `tegula simulate`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 simulated, 2 usage or I/O error (or a variant that \
                        cannot be played).\n\nExample: tegula simulate --variant \
                        variants/base.toml --games 1000 --seed 1 --out games.jsonl\n\nCompare \
                        house rules: tegula simulate --compare variants/base.toml \
                        variants/house/farms-4.toml --games 2000 --seed 1 --chart scores.svg"
)]
pub struct Args {
    /// Variant file (e.g. `variants/base.toml`).
    #[arg(long, value_name = "FILE", required_unless_present = "compare")]
    pub variant: Option<PathBuf>,
    /// Compare variants instead: the same games (seeds, agents) under each, side by side with
    /// 95 % confidence intervals; the first is the reference (src/cli/compare.rs).
    #[arg(long, value_name = "FILE", num_args = 2.., conflicts_with_all = ["variant", "out"])]
    pub compare: Vec<PathBuf>,
    /// With `--compare`: draw the distributions of the seats' final scores to this SVG file.
    #[arg(long, value_name = "FILE")]
    pub chart: Option<PathBuf>,
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
    /// Agents by seat, comma-separated (`random`, `greedy`, `mcts:N`: tree search with N playouts per
    /// decision), cycled over the seats.
    #[arg(long, default_value = "random", value_delimiter = ',')]
    pub agents: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Also write one JSON line per game to this file (index, seed, scores, winners, turns), for
    /// analysis elsewhere. The games are played a second time for it, after the timing.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// One JSON line per game: the same games as `sim::simulate` (same seeds), played again.
fn game_lines(
    rules: &std::sync::Arc<tegula_engine::Rules>,
    args: &Args,
    agents: &[tegula_engine::AgentKind],
) -> anyhow::Result<String> {
    let mut out = String::new();
    let mut game = tegula_engine::Game::new(
        rules.clone(),
        args.players,
        tegula_engine::PileOrder::Shuffled(args.seed),
        false,
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    for i in 0..args.games {
        let (g, seeds) = sim::game_seeds(args.seed, i, args.players);
        game.restart(tegula_engine::PileOrder::Shuffled(g))
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut ags = sim::build_agents(agents, &seeds);
        sim::play_out(&mut game, &mut ags);
        let line = serde_json::json!({
            "game": i,
            "seed": g,
            "scores": game.scores(),
            "winners": game.winners(),
            "turns": game.turn(),
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    Ok(out)
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let agents = parse_agents(&args.agents)?;
    if args.jobs == 0 || args.jobs > 1024 {
        anyhow::bail!("--jobs must be between 1 and 1024");
    }
    if args.chart.is_some() && args.compare.is_empty() {
        anyhow::bail!("--chart draws a comparison: give it with --compare");
    }
    let Some(variant) = &args.variant else {
        return super::compare::run(&super::compare::Compare {
            variants: &args.compare,
            players: args.players,
            games: args.games,
            seed: args.seed,
            jobs: args.jobs,
            agents: &agents,
            format: args.format,
            chart: args.chart.as_ref(),
        });
    };
    let rules = match load_rules(variant)? {
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
    let agent_names: Vec<String> = (0..args.players as usize)
        .map(|p| agents[p % agents.len()].name())
        .collect();
    if let Some(path) = &args.out {
        write_atomic(path, &game_lines(&rules, &args, &agents)?)?;
    }
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
                "out": args.out.as_ref().map(|p| p.display().to_string()),
            });
            println!("{}", serde_json::to_string_pretty(&v)?);
        }
        Format::Human => {
            println!(
                "{} game{} of {} ({} player{}, agents {}) in {:.3}s",
                stats.games,
                plural(stats.games as usize),
                rules.ruleset().id,
                args.players,
                plural(usize::from(args.players)),
                agent_names.join(","),
                secs
            );
            println!("games/s: {gps:.0}   decisions/s: {dps:.0}");
            println!("mean total score: {:.3}", stats.mean_total_score());
            let names = super::board::seat_names(
                args.players,
                &agent_names.iter().map(String::as_str).collect::<Vec<_>>(),
            );
            let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
            let rates = stats.win_rates();
            for (p, name) in names.iter().enumerate() {
                println!(
                    "  {name:<width$}  mean score {:>7.2}  wins {:>5.1}%",
                    mean_scores[p],
                    rates[p] * 100.0
                );
            }
            println!("(wins: a tie shares the win among the tied seats)");
            if let Some(p) = &args.out {
                println!("games: {}", p.display());
            }
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
