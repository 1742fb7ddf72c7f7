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
use super::game_where::Cond;
use super::out;
use super::play::{agents_by_seat, load_rules, parse_agents, Format};
use super::progress::{check_interval, interrupt_flag, Progress, EXIT_INTERRUPTED};
use super::sim_games::{prepare_log_dir, second_pass, Extras, Found, Run};

/// Arguments of `tegula simulate`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 simulated, 2 usage or I/O error (or a variant that \
                        cannot be played).\n\nExample: tegula simulate --variant \
                        variants/base.toml --games 1000 --seed 1 --out games.jsonl\n\nThe \
                        games where W-17 scored, with their logs: tegula simulate --variant \
                        variants/wonders.toml --games 200 --seed 1 --where 'rule == \"W-17\"' \
                        --logs found/ --out found.jsonl\n\nEach line of --out carries the \
                        `tegula play ... --game N` command that plays its game again.\n\nCompare \
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
    /// decision), cycled over the seats [default: random; with --compare, greedy: random play
    /// hides what a rule does].
    #[arg(long, value_delimiter = ',')]
    pub agents: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Also write one JSON line per game to this file, for analysis elsewhere: index, seed,
    /// scores, points by kind per seat, winners, turns, the rule ids its events cite, and the
    /// `tegula play` command that plays it again. The games are played a second time for it
    /// (and for `--where`, `--logs`, `--log-game`), after the timing, on `--jobs` threads.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Keep only the games matching this condition, for `--out` and `--logs`; e.g.
    /// `rule == "W-13" and winner == 1`. Fields: rule, tile (an id, with == or !=), winner (a
    /// seat, from 0), `score[SEAT]`, total, turns (numbers, with == != < <= > >=); and, or, not,
    /// parentheses (docs/GUIDE.md, "Finding a game").
    #[arg(long = "where", value_name = "EXPR", conflicts_with = "compare")]
    pub where_expr: Option<String>,
    /// Write the log of each game kept (every game without `--where`) to DIR/game-N.jsonl,
    /// replayable with `tegula replay`; DIR is created if missing.
    #[arg(long, value_name = "DIR", conflicts_with = "compare")]
    pub logs: Option<PathBuf>,
    /// With `--logs`: write at most this many logs (the first games kept).
    #[arg(long, value_name = "K", default_value_t = 100, requires = "logs")]
    pub max_logs: u64,
    /// Write the log of game N of the run to `--log FILE` (the game `tegula play --seed S
    /// --game N` plays).
    #[arg(long, value_name = "N", requires = "log", conflicts_with = "compare")]
    pub log_game: Option<u64>,
    /// The file `--log-game` writes.
    #[arg(long, value_name = "FILE", requires = "log_game")]
    pub log: Option<PathBuf>,
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

/// Refuse bad run options before any work.
fn check_args(args: &Args) -> anyhow::Result<()> {
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
    if let Some(n) = args.log_game.filter(|&n| n >= args.games) {
        anyhow::bail!(
            "--log-game {n}: the run has games 0 to {} (--games {})",
            args.games.saturating_sub(1),
            args.games
        );
    }
    Ok(())
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    // A comparison of rules needs players who play: random agents hide what a rule does.
    let default_agents = args.agents.is_empty();
    let agents = if default_agents && !args.compare.is_empty() {
        vec![tegula_engine::AgentKind::Greedy]
    } else {
        parse_agents(&args.agents)?
    };
    check_args(&args)?;
    let Some(variant) = &args.variant else {
        return super::compare::run(&super::compare::Compare {
            variants: &args.compare,
            players: args.players,
            games: args.games,
            seed: args.seed,
            jobs: args.jobs,
            agents: &agents,
            default_agents,
            format: args.format,
            chart: args.chart.as_ref(),
            progress_every: args.progress_every,
        });
    };
    let cond = args.where_expr.as_deref().map(Cond::parse).transpose()?;
    let rules = match load_rules(variant)? {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    if let (Some(c), Some(e)) = (&cond, &args.where_expr) {
        c.check(e, &rules, args.players)?;
    }
    if let Some(dir) = &args.logs {
        prepare_log_dir(dir)?;
    }
    let stop = interrupt_flag()?;
    let (stats, secs) = timed_pass(&rules, &args, &agents, &stop)?;
    let mut report = Report {
        args: &args,
        rules: &rules,
        agents: &agents,
        stats: &stats,
        secs,
        interrupted: stop.load(Ordering::Relaxed),
        found: None,
    };
    let run = Run {
        rules: &rules,
        variant,
        players: args.players,
        games: args.games,
        seed: args.seed,
        agents: &agents,
    };
    extras(&run, &args, cond.as_ref(), &stop, &mut report)?;
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

/// The games themselves, timed (nothing else is done while the clock runs): the figures and the
/// seconds taken.
fn timed_pass(
    rules: &Arc<tegula_engine::Rules>,
    args: &Args,
    agents: &[tegula_engine::AgentKind],
    stop: &Arc<AtomicBool>,
) -> anyhow::Result<(sim::SimStats, f64)> {
    let progress = Progress::new(args.games, args.progress_every);
    let start = Instant::now();
    let stats = sim::simulate_until(
        rules,
        args.players,
        args.games,
        args.seed,
        args.jobs,
        agents,
        &|done| progress.update(done),
        stop,
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    progress.finish();
    Ok((stats, secs))
}

/// After the timed pass: the second pass (`--out`, `--where`, `--logs`, `--log-game`), unless
/// interrupted.
fn extras(
    run: &Run,
    args: &Args,
    cond: Option<&Cond>,
    stop: &Arc<AtomicBool>,
    report: &mut Report,
) -> anyhow::Result<()> {
    let extras = Extras {
        cond,
        out: args.out.is_some(),
        logs: args.logs.as_deref(),
        max_logs: args.max_logs,
        log_game: args.log_game.zip(args.log.as_deref()),
    };
    let wanted = extras.any();
    if report.interrupted {
        out::eprintln(&format!(
            "interrupted: the figures cover the {} of {} games finished{}",
            report.stats.games,
            args.games,
            if wanted {
                "; --out, --where and the logs skipped"
            } else {
                ""
            }
        ));
        return Ok(());
    }
    if !wanted {
        return Ok(());
    }
    match second_pass(run, &extras, args.jobs, stop, args.progress_every)? {
        Some(found) => {
            if let Some(path) = &args.out {
                write_output_atomically(path, found.lines.as_bytes())?;
            }
            report.found = Some(found);
        }
        None => {
            out::eprintln(
                "interrupted while playing the games again: --out not written, the logs \
                 written so far kept",
            );
            report.interrupted = true;
        }
    }
    Ok(())
}

/// What a simulation found, for printing.
struct Report<'a> {
    args: &'a Args,
    rules: &'a tegula_engine::Rules,
    agents: &'a [tegula_engine::AgentKind],
    stats: &'a sim::SimStats,
    secs: f64,
    interrupted: bool,
    /// What the second pass found, once it finished.
    found: Option<Found>,
}

impl Report<'_> {
    fn agent_names(&self) -> Vec<String> {
        agents_by_seat(self.agents, self.args.players)
    }

    fn mean_scores(&self) -> Vec<f64> {
        let games = self.stats.games.max(1) as f64;
        self.stats
            .seat_scores
            .iter()
            .map(|&s| s as f64 / games)
            .collect()
    }

    /// Mean final holding of each seat resource by seat: `(resource id, means by seat)`, in the
    /// variant's order; empty without resources.
    fn mean_holdings(&self) -> Vec<(String, Vec<f64>)> {
        let games = self.stats.games.max(1) as f64;
        let list = &self.rules.ruleset().resources;
        let seats = usize::from(self.args.players);
        let held = |r: usize, p: usize| {
            let sum = self.stats.seat_holdings.get(p * list.len() + r).copied();
            sum.unwrap_or(0) as f64 / games
        };
        (list.iter().enumerate())
            .map(|(r, res)| (res.id.clone(), (0..seats).map(|p| held(r, p)).collect()))
            .collect()
    }

    fn json(&self) -> serde_json::Value {
        let mut v = self.json_without_resources();
        // Seat resources only where the variant declares them (other outputs unchanged).
        let held = self.mean_holdings();
        if !held.is_empty() {
            let map: serde_json::Map<String, serde_json::Value> = (held.into_iter())
                .map(|(id, means)| (id, serde_json::json!(means)))
                .collect();
            v["mean_resources"] = serde_json::Value::Object(map);
        }
        v
    }

    fn json_without_resources(&self) -> serde_json::Value {
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
            "out": self.found.as_ref().and(self.args.out.as_ref()).map(|p| p.display().to_string()),
            "where": self.args.where_expr,
            "matched": self.found.as_ref().filter(|_| self.args.where_expr.is_some()).map(|f| f.matched),
            "logs": self.found.as_ref().and(self.args.logs.as_ref()).map(|p| p.display().to_string()),
            "logs_written": self.found.as_ref().filter(|_| self.args.logs.is_some()).map(|f| f.logged),
            "log_game": self.found.as_ref().and(self.args.log_game),
            "log": self.found.as_ref().and(self.args.log.as_ref()).map(|p| p.display().to_string()),
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
        for (id, means) in self.mean_holdings() {
            let by_seat: Vec<String> = means.iter().map(|m| format!("{m:.2}")).collect();
            let _ = writeln!(
                s,
                "mean {id} held at the end, by seat: {}",
                by_seat.join("  ")
            );
        }
        if let Some(found) = &self.found {
            self.human_extras(found, &mut s);
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

impl Report<'_> {
    /// The second pass's lines of the summary: games matched, where they went.
    fn human_extras(&self, found: &Found, s: &mut String) {
        let args = self.args;
        if let Some(e) = &args.where_expr {
            let _ = writeln!(
                s,
                "--where {e}: {} of {} game{} matched",
                found.matched,
                args.games,
                plural(args.games as usize)
            );
        }
        if let Some(p) = &args.out {
            let _ = writeln!(s, "games: {}", p.display());
        }
        if let Some(dir) = &args.logs {
            let _ = writeln!(
                s,
                "logs: {} written to {} (game-N.jsonl)",
                found.logged,
                dir.display()
            );
            if found.matched > found.logged {
                let _ = writeln!(
                    s,
                    "note: {} games were kept but only the first {} logs written (--max-logs)",
                    found.matched, found.logged
                );
            }
        }
        if let (Some(n), Some(p)) = (args.log_game, &args.log) {
            let _ = writeln!(s, "log of game {n}: {}", p.display());
        }
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
