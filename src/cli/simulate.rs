//! `tegula simulate`: many games between built-in agents; prints games/s, decisions/s, mean
//! total score and win rates. Game `i` uses seeds derived from `--seed` and `i`, so the results do
//! not depend on `--jobs` (nor on `--shard`: crates/shard).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use tegula_engine::sim;
use tegula_shard::{variant_digest, Shard, ShardHeader, ShardSums};

use super::fsio::write_output_atomically;
use super::game_where::Cond;
use super::out;
use super::outputs::{refuse_clashes, Output};
use super::play::{agents_by_seat, load_rules, parse_agents, Format};
use super::progress::{check_interval, interrupt_flag, Progress, EXIT_INTERRUPTED};
use super::sim_games::{prepare_log_dir, second_pass, Extras, Run};
use super::sim_report::{Report, RunFacts, Timing};

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
    /// `rule == "W-13" and winner == 1`. Fields: rule, kind (an event kind: score, place, …),
    /// tile (an id, with == or !=), winner (a seat, from 0), `score[SEAT]`, total, turns
    /// (numbers, with == != < <= > >=); and, or, not, parentheses. `kind == "score" and rule ==
    /// "W-17"`: one score event cites W-17 (docs/GUIDE.md, "Finding a game").
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
    /// Play only shard I of N (from 0): the games whose index is I modulo N, each with the
    /// seeds it has in the whole run. `--out` then starts with a header line (the run and the
    /// shard's statistics) for `tegula simulate-merge` (docs/AI.md, "Running on a cluster"; crates/shard).
    #[arg(long, value_name = "I/N", value_parser = Shard::parse, requires = "out",
          conflicts_with_all = ["compare", "where_expr", "logs", "log_game"])]
    pub shard: Option<Shard>,
    /// Leave the timing out of the report (seconds, games/s, decisions/s, jobs), so that it
    /// depends on the games only: the same bytes as `tegula simulate-merge` of its shards.
    #[arg(long)]
    pub no_timing: bool,
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
    refuse_clashes(outputs(args))?;
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

/// The files and the folder the run writes, by option.
fn outputs(args: &Args) -> [Option<Output<'_>>; 4] {
    [
        Output::file("--out", args.out.as_deref()),
        Output::file("--log", args.log.as_deref()),
        Output::file("--chart", args.chart.as_deref()),
        Output::game_logs("--logs", args.logs.as_deref()),
    ]
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
    let run = Run {
        rules: &rules,
        variant,
        players: args.players,
        games: args.games,
        seed: args.seed,
        agents: &agents,
        shard: args.shard,
    };
    if args.shard.is_some() {
        return run_shard(&run, &args, &stop);
    }
    let (stats, secs) = timed_pass(&rules, &args, &agents, &stop)?;
    let interrupted = stop.load(Ordering::Relaxed);
    report_run(&run, &args, (&stats, secs), (interrupted, None), |report| {
        extras(&run, &args, cond.as_ref(), &stop, report)
    })
}

/// Print the report of `run` with its figures and seconds, whether it was interrupted and what
/// its second pass found, after `more` has added to it.
fn report_run(
    run: &Run,
    args: &Args,
    (stats, secs): (&sim::SimStats, f64),
    (interrupted, found): (bool, Option<super::sim_games::Found>),
    more: impl FnOnce(&mut Report) -> anyhow::Result<()>,
) -> anyhow::Result<u8> {
    let tile_id = |t: u16| run.rules.tile_id(t).to_string();
    let resource_ids = tegula_shard::resource_ids(run.rules);
    let mut report = Report {
        run: facts(run, args),
        tile_id: &tile_id,
        resources: &resource_ids,
        stats,
        timing: (!args.no_timing).then_some(Timing {
            secs,
            jobs: args.jobs,
        }),
        interrupted,
        found,
    };
    more(&mut report)?;
    print_report(&report, args.format)
}

/// The options of `run` that the report repeats.
fn facts<'a>(run: &Run<'a>, args: &'a Args) -> RunFacts<'a> {
    RunFacts {
        variant: &run.rules.ruleset().id,
        players: args.players,
        games: args.games,
        seed: args.seed,
        agents: agents_by_seat(run.agents, args.players),
        out: args.out.as_deref(),
        where_expr: args.where_expr.as_deref(),
        logs: args.logs.as_deref(),
        log_game: args.log_game.zip(args.log.as_deref()),
    }
}

/// Print the report; the exit code.
pub(crate) fn print_report(report: &Report, format: Format) -> anyhow::Result<u8> {
    match format {
        Format::Json => out::println(&serde_json::to_string_pretty(&report.json())?)?,
        Format::Human => out::print(&report.human())?,
    }
    Ok(if report.interrupted {
        EXIT_INTERRUPTED
    } else {
        0
    })
}

/// `--shard`: the shard's games played once, recorded (their `--out` lines and statistics),
/// the whole pass timed; `--out` gets the [`ShardHeader`] and the lines.
fn run_shard(run: &Run, args: &Args, stop: &Arc<AtomicBool>) -> anyhow::Result<u8> {
    let (Some(shard), Some(path)) = (run.shard, &args.out) else {
        anyhow::bail!("--shard needs --out: the merge reads the shards' --out files");
    };
    let extras = Extras {
        cond: None,
        out: true,
        logs: None,
        max_logs: 0,
        log_game: None,
        variant: run.variant,
    };
    let start = Instant::now();
    let found = second_pass(run, &extras, args.jobs, stop, args.progress_every)?;
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let sums = found
        .as_ref()
        .and_then(|f| f.sums.clone())
        .unwrap_or_else(|| ShardSums::new(args.players));
    if let Some(found) = &found {
        let header = ShardHeader {
            shard,
            variant: run.rules.ruleset().id.clone(),
            variant_digest: variant_digest(run.rules),
            players: args.players,
            games: args.games,
            seed: args.seed,
            agents: agents_by_seat(run.agents, args.players),
            seconds: secs,
            sums: sums.clone(),
        };
        let text = format!("{}\n{}", header.line(), found.lines);
        write_output_atomically(path, text.as_bytes())?;
    } else {
        out::eprintln("interrupted: the shard's --out not written");
    }
    let stats = sums.stats(args.players);
    let interrupted = found.is_none();
    report_run(run, args, (&stats, secs), (interrupted, found), |_| Ok(()))
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
        variant: run.variant,
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
