//! `tegula simulate`: many games between built-in agents; prints games/s, decisions/s, mean
//! total score and win rates. Game `i` uses seeds derived from `--seed` and `i`, so the results do
//! not depend on `--jobs`.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use tegula_engine::sim;

use tegula_render::view::plural;

use super::fsio::write_output_atomically;
use super::out;
use super::play::{load_rules, parse_agents, Format};
use super::progress::{check_interval, interrupt_flag, Progress, EXIT_INTERRUPTED};

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
    /// Allow more than 10,000,000 games (1,000,000 with `--compare`): hours of work, and `--out`
    /// and `--compare` hold every game's figures in memory.
    #[arg(long)]
    pub allow_many_games: bool,
    /// When stderr is not a terminal, print a progress line every SECONDS (0: never). A
    /// terminal gets a progress bar instead.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub progress_every: f64,
}

/// Most games without `--allow-many-games`.
pub const MAX_GAMES: u64 = 10_000_000;

/// Most games per variant of `--compare` without `--allow-many-games`.
pub const MAX_COMPARE_GAMES: u64 = 1_000_000;

/// One JSON line per game: the same games as `sim::simulate` (same seeds), played again.
fn game_lines(
    rules: &Arc<tegula_engine::Rules>,
    args: &Args,
    agents: &[tegula_engine::AgentKind],
    stop: &Arc<AtomicBool>,
) -> anyhow::Result<Option<String>> {
    let mut out = String::new();
    let mut game = tegula_engine::Game::new(
        rules.clone(),
        args.players,
        tegula_engine::PileOrder::Shuffled(args.seed),
        false,
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    for i in 0..args.games {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let (g, seeds) = sim::game_seeds(args.seed, i, args.players);
        game.restart(tegula_engine::PileOrder::Shuffled(g))
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut ags = sim::build_agents(agents, &seeds);
        if sim::play_out_until(&mut game, &mut ags, stop).is_none() {
            return Ok(None);
        }
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
    Ok(Some(out))
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let agents = parse_agents(&args.agents)?;
    if args.jobs == 0 || args.jobs > 1024 {
        anyhow::bail!("--jobs must be between 1 and 1024");
    }
    // A comparison keeps every game's figures in memory: a lower bound.
    let limit = if args.compare.is_empty() {
        MAX_GAMES
    } else {
        MAX_COMPARE_GAMES
    };
    if args.games > limit && !args.allow_many_games {
        anyhow::bail!(
            "--games {} is more than {limit}: add --allow-many-games if you mean it",
            args.games
        );
    }
    check_interval(args.progress_every)?;
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
            progress_every: args.progress_every,
        });
    };
    let rules = match load_rules(variant)? {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    let stop = interrupt_flag()?;
    let progress = Progress::new(args.games, args.progress_every);
    let start = Instant::now();
    let stats = sim::simulate_until(
        &rules,
        args.players,
        args.games,
        args.seed,
        args.jobs,
        &agents,
        &|done| progress.update(done),
        &stop,
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    progress.finish();
    let interrupted = stop.load(Ordering::Relaxed);
    let mut report = Report {
        args: &args,
        rules: &rules,
        agents: &agents,
        stats: &stats,
        secs,
        interrupted,
        out: None,
    };
    if interrupted {
        out::eprintln(&format!(
            "interrupted: the figures cover the {} of {} games finished{}",
            stats.games,
            args.games,
            if args.out.is_some() {
                "; --out not written"
            } else {
                ""
            }
        ));
    } else if let Some(path) = &args.out {
        match game_lines(&rules, &args, &agents, &stop)? {
            Some(lines) => {
                write_output_atomically(path, lines.as_bytes())?;
                report.out = Some(path);
            }
            None => {
                out::eprintln("interrupted while writing --out: not written");
                report.interrupted = true;
            }
        }
    }
    match args.format {
        Format::Json => out::println(&serde_json::to_string_pretty(&report.json())?)?,
        Format::Human => out::print(&report.human())?,
    }
    Ok(if report.interrupted {
        EXIT_INTERRUPTED
    } else {
        0
    })
}

/// What a simulation found, for printing.
struct Report<'a> {
    args: &'a Args,
    rules: &'a tegula_engine::Rules,
    agents: &'a [tegula_engine::AgentKind],
    stats: &'a sim::SimStats,
    secs: f64,
    interrupted: bool,
    /// The `--out` file, once written.
    out: Option<&'a PathBuf>,
}

impl Report<'_> {
    fn agent_names(&self) -> Vec<String> {
        (0..self.args.players as usize)
            .map(|p| self.agents[p % self.agents.len()].name())
            .collect()
    }

    fn mean_scores(&self) -> Vec<f64> {
        let games = self.stats.games.max(1) as f64;
        self.stats
            .seat_scores
            .iter()
            .map(|&s| s as f64 / games)
            .collect()
    }

    fn json(&self) -> serde_json::Value {
        let (stats, args) = (self.stats, self.args);
        serde_json::json!({
            "variant": self.rules.ruleset().id,
            "players": args.players,
            "games": stats.games,
            "games_requested": args.games,
            "interrupted": self.interrupted,
            "seed": args.seed,
            "jobs": args.jobs,
            "agents": self.agent_names(),
            "seconds": self.secs,
            "games_per_second": stats.games as f64 / self.secs,
            "decisions": stats.decisions,
            "decisions_per_second": stats.decisions as f64 / self.secs,
            "mean_total_score": stats.mean_total_score(),
            "mean_scores": self.mean_scores(),
            "win_rates": stats.win_rates(),
            "pool_tiles": pool_json(self.rules, stats),
            "out": self.out.map(|p| p.display().to_string()),
        })
    }

    fn human(&self) -> String {
        let (stats, args) = (self.stats, self.args);
        let agent_names = self.agent_names();
        let mut s = String::new();
        let of = if self.interrupted {
            format!(" (interrupted: {} requested)", args.games)
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "{} game{}{of} of {} ({} player{}, agents {}) in {:.3}s",
            stats.games,
            plural(stats.games as usize),
            self.rules.ruleset().id,
            args.players,
            plural(usize::from(args.players)),
            agent_names.join(","),
            self.secs
        );
        let _ = writeln!(
            s,
            "games/s: {:.0}   decisions/s: {:.0}",
            stats.games as f64 / self.secs,
            stats.decisions as f64 / self.secs
        );
        let _ = writeln!(s, "mean total score: {:.3}", stats.mean_total_score());
        let names = super::board::seat_names(
            args.players,
            &agent_names.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        let (rates, means) = (stats.win_rates(), self.mean_scores());
        for (p, name) in names.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {name:<width$}  mean score {:>7.2}  wins {:>5.1}%",
                means[p],
                rates[p] * 100.0
            );
        }
        let _ = writeln!(s, "(wins: a tie shares the win among the tied seats)");
        if let Some(p) = self.out {
            let _ = writeln!(s, "games: {}", p.display());
        }
        for (&t, p) in &stats.pool {
            let _ = writeln!(
                s,
                "{}: placed in {} games, owner won {:.1}%, ability {:.2} points a game",
                self.rules.tile_id(t),
                p.games,
                p.win_rate() * 100.0,
                p.mean_ability_points()
            );
        }
        s
    }
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
