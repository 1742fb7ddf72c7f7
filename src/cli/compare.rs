//! `tegula simulate --compare A B …`: the same games (same seeds, same agents) under each
//! variant, side by side: mean score per seat, first-player win rate, score spread, game length
//! and points by feature kind, each with a 95 % confidence interval, and a plain-language line
//! for every metric in which a variant differs significantly from the first one.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use tegula_engine::stats::{paired, Sample};
use tegula_engine::{points, sim, AgentKind, Game, PileOrder, Rules};
use tegula_render::board::points_by_kind;

use super::fsio::write_output_atomically;
use super::out;
use super::play::{load_rules, Format};
use super::progress::{interrupt_flag, Progress, EXIT_INTERRUPTED};

/// The feature kinds reported, as `points_by_kind` names them.
const KINDS: [&str; 5] = ["roads", "cities", "cloisters", "fields", "abilities"];

/// What one game gave.
#[derive(Clone)]
struct Record {
    scores: Vec<u32>,
    winners: Vec<u8>,
    turns: u32,
    kinds: [u32; 5],
}

/// One metric: a name, a stable key, and a sample per variant.
struct Metric {
    key: String,
    name: String,
    /// Shown as a percentage.
    percent: bool,
    /// Per variant, the value of each game (game `i` has the same seeds in every variant).
    values: Vec<Vec<f64>>,
    samples: Vec<Sample>,
}

/// What to compare and how.
pub struct Compare<'a> {
    /// Variant files, the first one the reference.
    pub variants: &'a [PathBuf],
    /// Seats.
    pub players: u8,
    /// Games per variant.
    pub games: u64,
    /// Base seed (game `i` uses the seeds `sim::game_seeds(seed, i)` under every variant).
    pub seed: u64,
    /// Worker threads.
    pub jobs: usize,
    /// Agents by seat.
    pub agents: &'a [AgentKind],
    /// Output format.
    pub format: Format,
    /// An SVG chart of the score distributions.
    pub chart: Option<&'a PathBuf>,
    /// Seconds between progress lines when stderr is not a terminal (0: none).
    pub progress_every: f64,
}

/// Run the comparison; the exit code (130 when Ctrl-C stopped it: the figures then cover the
/// games finished under every variant).
pub fn run(c: &Compare<'_>) -> anyhow::Result<u8> {
    let mut ids = Vec::new();
    let mut rules = Vec::new();
    for path in c.variants {
        match load_rules(path)? {
            Ok(r) => {
                ids.push(r.ruleset().id.clone());
                rules.push(r);
            }
            Err(code) => return Ok(code),
        }
    }
    let stop = interrupt_flag()?;
    let progress = Progress::new(c.games, c.progress_every);
    let games = play_all(&rules, c, &stop, &progress)?;
    progress.finish();
    let interrupted = stop.load(Ordering::Relaxed);
    if interrupted {
        out::eprintln(&format!(
            "interrupted: the figures cover the {} of {} games finished under every variant{}",
            games.len(),
            c.games,
            if c.chart.is_some() {
                "; --chart not written"
            } else {
                ""
            }
        ));
        if games.is_empty() {
            return Ok(EXIT_INTERRUPTED);
        }
    }
    // Per variant, its record of every finished game (in game order).
    let records: Vec<Vec<Record>> = (0..rules.len())
        .map(|v| games.iter().map(|g| g[v].clone()).collect())
        .collect();
    let metrics = metrics(&records, c.players);
    let played = games.len() as u64;
    if let (Some(path), false) = (c.chart, interrupted) {
        let scores: Vec<Vec<&[u32]>> = records
            .iter()
            .map(|rs| rs.iter().map(|r| r.scores.as_slice()).collect())
            .collect();
        let inputs: Vec<&Path> = c.variants.iter().map(PathBuf::as_path).collect();
        let svg = super::chart::score_distributions(&ids, &scores);
        write_output_atomically(path, svg.as_bytes(), &inputs)?;
    }
    match c.format {
        Format::Json => out::println(&serde_json::to_string_pretty(&json(
            &ids, &metrics, c, played,
        ))?)?,
        Format::Human => out::print(&table(&ids, &metrics, c, played))?,
    }
    Ok(if interrupted { EXIT_INTERRUPTED } else { 0 })
}

/// Game `i` and its record under each variant.
type Numbered = (u64, Vec<Record>);

/// Every game, each played under every variant (so that a Ctrl-C leaves whole pairs), split
/// over the worker threads; the finished games in game order, one record per variant.
fn play_all(
    rules: &[Arc<Rules>],
    c: &Compare<'_>,
    stop: &AtomicBool,
    progress: &Progress,
) -> anyhow::Result<Vec<Vec<Record>>> {
    let jobs = c.jobs.max(1) as u64;
    let done = AtomicU64::new(0);
    let parts: Vec<anyhow::Result<Vec<Numbered>>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                let done = &done;
                s.spawn(move || {
                    let mut out = Vec::new();
                    for i in (j..c.games).step_by(jobs as usize) {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let game: anyhow::Result<Vec<Record>> =
                            rules.iter().map(|r| play_one(r, c, i)).collect();
                        out.push((i, game?));
                        progress.update(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a worker panicked")))
            })
            .collect()
    });
    let mut all = Vec::new();
    for p in parts {
        all.extend(p?);
    }
    all.sort_by_key(|(i, _)| *i);
    Ok(all.into_iter().map(|(_, r)| r).collect())
}

fn play_one(rules: &Arc<Rules>, c: &Compare<'_>, i: u64) -> anyhow::Result<Record> {
    let (g, seeds) = sim::game_seeds(c.seed, i, c.players);
    let mut game = Game::new(rules.clone(), c.players, PileOrder::Shuffled(g), true)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut agents = sim::build_agents(c.agents, &seeds);
    sim::play_out(&mut game, &mut agents);
    let seats = points_by_kind(&game);
    let kinds = KINDS.map(|k| points::sum(seats.iter().map(|s| s.get(k).copied().unwrap_or(0))));
    Ok(Record {
        scores: game.scores().to_vec(),
        winners: game.winners(),
        turns: game.turn(),
        kinds,
    })
}

/// The metrics, each sampled per variant.
fn metrics(records: &[Vec<Record>], players: u8) -> Vec<Metric> {
    let metric = |key: String, name: String, percent: bool, f: &dyn Fn(&Record) -> f64| {
        let values: Vec<Vec<f64>> = records
            .iter()
            .map(|rs| rs.iter().map(f).collect())
            .collect();
        Metric {
            key,
            name,
            percent,
            samples: values
                .iter()
                .map(|v| Sample::of(v.iter().copied()))
                .collect(),
            values,
        }
    };
    let mut out = Vec::new();
    for p in 0..usize::from(players) {
        let f = move |r: &Record| f64::from(r.scores[p]);
        out.push(metric(
            format!("score.seat{}", p + 1),
            format!("mean score of seat {}", p + 1),
            false,
            &f,
        ));
    }
    // A tie shares the win among the tied seats.
    let first = |r: &Record| {
        if r.winners.contains(&0) {
            1.0 / r.winners.len() as f64
        } else {
            0.0
        }
    };
    out.push(metric(
        "first_player_win".into(),
        "first-player win rate".into(),
        true,
        &first,
    ));
    let spread = |r: &Record| {
        let hi = r.scores.iter().max().copied().unwrap_or(0);
        let lo = r.scores.iter().min().copied().unwrap_or(0);
        f64::from(hi - lo)
    };
    out.push(metric(
        "spread".into(),
        "score spread (best minus worst seat)".into(),
        false,
        &spread,
    ));
    out.push(metric(
        "turns".into(),
        "game length in turns".into(),
        false,
        &|r: &Record| f64::from(r.turns),
    ));
    for (k, kind) in KINDS.iter().enumerate() {
        let f = move |r: &Record| f64::from(r.kinds[k]);
        out.push(metric(
            format!("points.{kind}"),
            format!("points from {kind} (all seats)"),
            false,
            &f,
        ));
    }
    out
}

fn shown(x: f64, percent: bool) -> String {
    if percent {
        format!("{:.1} %", x * 100.0)
    } else {
        format!("{x:.2}")
    }
}

/// The plain-language lines: every metric in which a variant differs from the first one (the
/// paired test: game `i` is played with the same seeds under every variant).
fn findings(
    ids: &[String],
    metrics: &[Metric],
) -> Vec<(String, String, tegula_engine::stats::Difference, String)> {
    let mut out = Vec::new();
    for m in metrics {
        let a = &m.samples[0];
        for (v, b) in m.samples.iter().enumerate().skip(1) {
            let d = paired(&m.values[0], &m.values[v]);
            if !d.significant() {
                continue;
            }
            let text = format!(
                "{}: {} is {} {} than in {} ({} against {}; 95 % interval of the difference {} to {})",
                ids[v],
                m.name,
                shown(d.diff.abs(), m.percent),
                if d.diff > 0.0 { "higher" } else { "lower" },
                ids[0],
                shown(b.mean(), m.percent),
                shown(a.mean(), m.percent),
                shown(d.low, m.percent),
                shown(d.high, m.percent),
            );
            out.push((m.key.clone(), ids[v].clone(), d, text));
        }
    }
    out
}

fn table(ids: &[String], metrics: &[Metric], c: &Compare<'_>, played: u64) -> String {
    let mut out = format!(
        "{} games per variant, {} players, seed {}, the same seeds and agents for every variant; \
         mean ± half-width of the 95 % confidence interval\n\n",
        played, c.players, c.seed
    );
    let name_w = metrics
        .iter()
        .map(|m| m.name.chars().count())
        .max()
        .unwrap_or(0);
    let cells: Vec<Vec<String>> = metrics
        .iter()
        .map(|m| {
            m.samples
                .iter()
                .map(|s| {
                    let (lo, hi) = s.ci95();
                    format!(
                        "{} ± {}",
                        shown(s.mean(), m.percent),
                        shown((hi - lo) / 2.0, m.percent)
                    )
                })
                .collect()
        })
        .collect();
    let col_w: Vec<usize> = (0..ids.len())
        .map(|v| {
            cells
                .iter()
                .map(|r| r[v].chars().count())
                .chain([ids[v].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    out.push_str(&format!("{:<name_w$}", "metric"));
    for (id, w) in ids.iter().zip(&col_w) {
        out.push_str(&format!("  {id:>w$}"));
    }
    out.push('\n');
    for (m, row) in metrics.iter().zip(&cells) {
        out.push_str(&format!("{:<name_w$}", m.name));
        for (cell, w) in row.iter().zip(&col_w) {
            out.push_str(&format!("  {cell:>w$}"));
        }
        out.push('\n');
    }
    let f = findings(ids, metrics);
    out.push_str(&format!(
        "\nsignificant differences from {} (5 % level):\n",
        ids[0]
    ));
    if f.is_empty() {
        out.push_str("  none\n");
    }
    for (_, _, _, text) in f {
        out.push_str(&format!("  {text}\n"));
    }
    out
}

fn json(ids: &[String], metrics: &[Metric], c: &Compare<'_>, played: u64) -> serde_json::Value {
    let ms: Vec<serde_json::Value> = metrics
        .iter()
        .map(|m| {
            let values: Vec<serde_json::Value> = m
                .samples
                .iter()
                .zip(ids)
                .map(|(s, id)| {
                    let (lo, hi) = s.ci95();
                    serde_json::json!({ "variant": id, "mean": s.mean(), "ci95": [lo, hi], "n": s.n() })
                })
                .collect();
            serde_json::json!({ "key": m.key, "name": m.name, "values": values })
        })
        .collect();
    let diffs: Vec<serde_json::Value> = findings(ids, metrics)
        .into_iter()
        .map(|(key, variant, d, text)| {
            serde_json::json!({
                "metric": key, "variant": variant, "reference": ids[0],
                "difference": d.diff, "ci95": [d.low, d.high], "text": text,
            })
        })
        .collect();
    let agents: Vec<String> = c.agents.iter().map(|a| a.name()).collect();
    serde_json::json!({
        "variants": ids,
        "players": c.players,
        "games": played,
        "games_requested": c.games,
        "interrupted": played < c.games,
        "seed": c.seed,
        "agents": agents,
        "metrics": ms,
        "significant": diffs,
    })
}
