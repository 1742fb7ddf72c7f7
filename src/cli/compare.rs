//! `tegula simulate --compare A B …`: the same games (same seeds, same agents; greedy unless
//! `--agents` says otherwise) under each variant, side by side: mean score per seat,
//! first-player win rate, score spread, game length, points by feature kind and what the players
//! did (features completed, figures placed by site, abilities fired), each with a 95 %
//! confidence interval, and a plain-language line for every metric in which a variant differs
//! from the first one after the Holm–Bonferroni correction for the many comparisons.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use tegula_engine::stats::{holm, paired, Difference, Sample};
use tegula_engine::{points, sim, AgentKind, Game, PileOrder, Rules};
use tegula_render::board::points_by_kind;
use tegula_ruleset::Site;

use super::behaviour::{Behaviour, COMPLETED};
use super::fsio::write_output_atomically;
use super::out;
use super::play::{agents_by_seat, load_rules, Format};
use super::progress::{interrupt_flag, Progress, EXIT_INTERRUPTED};

/// The feature kinds reported, as `points_by_kind` names them.
const KINDS: [&str; 5] = ["roads", "cities", "cloisters", "fields", "abilities"];

/// What one game gave.
#[derive(Clone)]
struct Record {
    scores: Vec<i64>,
    winners: Vec<u8>,
    turns: u32,
    kinds: [u32; 5],
    behaviour: Behaviour,
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
    /// Whether `agents` is the default (no `--agents`), said in the output.
    pub default_agents: bool,
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
        let scores: Vec<Vec<&[i64]>> = records
            .iter()
            .map(|rs| rs.iter().map(|r| r.scores.as_slice()).collect())
            .collect();
        let caption = format!(
            "{played} games per variant, {} players ({}), seed {}",
            c.players,
            seats_line(c),
            c.seed
        );
        let svg = super::chart::score_distributions(&ids, &scores, &caption);
        write_output_atomically(path, svg.as_bytes())?;
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
    stop: &Arc<AtomicBool>,
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
                        let game: anyhow::Result<Option<Vec<Record>>> =
                            rules.iter().map(|r| play_one(r, c, i, stop)).collect();
                        // Given up under some variant (Ctrl-C): no whole pair, not counted.
                        let Some(game) = game? else { break };
                        out.push((i, game));
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

/// Game `i` under `rules`; `None` when Ctrl-C gave it up.
fn play_one(
    rules: &Arc<Rules>,
    c: &Compare<'_>,
    i: u64,
    stop: &Arc<AtomicBool>,
) -> anyhow::Result<Option<Record>> {
    let (g, seeds) = sim::game_seeds(c.seed, i, c.players);
    let mut game = Game::new(rules.clone(), c.players, PileOrder::Shuffled(g), true)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut agents = sim::build_agents(c.agents, &seeds);
    if sim::play_out_until(&mut game, &mut agents, stop).is_none() {
        return Ok(None);
    }
    let seats = points_by_kind(&game);
    let kinds = KINDS.map(|k| points::sum(seats.iter().map(|s| s.get(k).copied().unwrap_or(0))));
    Ok(Some(Record {
        scores: game.scores().to_vec(),
        winners: game.winners(),
        turns: game.turn(),
        kinds,
        behaviour: super::behaviour::of(&game),
    }))
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
    // Seats numbered from 0, as every verb prints them.
    for p in 0..usize::from(players) {
        let f = move |r: &Record| r.scores[p] as f64;
        out.push(metric(
            format!("score.seat{p}"),
            format!("mean score of seat {p}"),
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
        "first-player (seat 0) win rate".into(),
        true,
        &first,
    ));
    let spread = |r: &Record| {
        let hi = r.scores.iter().max().copied().unwrap_or(0);
        let lo = r.scores.iter().min().copied().unwrap_or(0);
        (hi - lo) as f64
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
    behaviour_metrics(&mut out, &metric);
    out
}

/// The metric constructor of [`metrics`].
type MakeMetric<'a> = dyn Fn(String, String, bool, &dyn Fn(&Record) -> f64) -> Metric + 'a;

/// What the players did: features completed by kind (and their tiles), figures placed from
/// supply by site, abilities fired.
fn behaviour_metrics(out: &mut Vec<Metric>, metric: &MakeMetric<'_>) {
    for (k, (_, kind)) in COMPLETED.iter().enumerate() {
        let n = move |r: &Record| f64::from(r.behaviour.completed[k]);
        out.push(metric(
            format!("completed.{kind}"),
            format!("{kind} completed"),
            false,
            &n,
        ));
        let tiles = move |r: &Record| f64::from(r.behaviour.completed_tiles[k]);
        out.push(metric(
            format!("completed_tiles.{kind}"),
            format!("tiles in completed {kind}"),
            false,
            &tiles,
        ));
    }
    for (i, site) in Site::ALL.iter().enumerate() {
        let f = move |r: &Record| f64::from(r.behaviour.placed[i]);
        out.push(metric(
            format!("placed.{}", site.name()),
            format!("figures placed on a {}", site.name()),
            false,
            &f,
        ));
    }
    out.push(metric(
        "abilities_fired".into(),
        "ability scorings".into(),
        false,
        &|r: &Record| f64::from(r.behaviour.abilities_fired),
    ));
}

/// Per variant, `(kind, mean tiles of a completed feature of that kind)` over all its games
/// (`None` when none was completed): the ratio of the two completed-feature metrics.
fn mean_sizes(metrics: &[Metric], variant: usize) -> Vec<(&'static str, Option<f64>)> {
    let total = |key: &str| {
        metrics
            .iter()
            .find(|m| m.key == key)
            .map_or(0.0, |m| m.values[variant].iter().sum::<f64>())
    };
    COMPLETED
        .iter()
        .map(|(_, kind)| {
            let n = total(&format!("completed.{kind}"));
            let tiles = total(&format!("completed_tiles.{kind}"));
            (*kind, (n > 0.0).then(|| tiles / n))
        })
        .collect()
}

fn shown(x: f64, percent: bool) -> String {
    if percent {
        format!("{:.1} %", x * 100.0)
    } else {
        format!("{x:.2}")
    }
}

/// One difference from the reference: metric key, variant, the difference, its raw and
/// Holm-adjusted p-values, and the plain-language line.
struct Finding {
    significant: bool,
    key: String,
    variant: String,
    d: Difference,
    p: f64,
    p_holm: f64,
    text: String,
}

/// Every paired difference of a variant from the first one (game `i` is played with the same
/// seeds under every variant), with its p-value adjusted by Holm–Bonferroni over the whole
/// family (every metric of every variant): a difference is significant when that is below 5 %,
/// so that twenty metrics do not give one false finding by chance.
fn findings(ids: &[String], metrics: &[Metric]) -> Vec<Finding> {
    let mut all = Vec::new();
    for m in metrics {
        for v in 1..m.samples.len() {
            all.push((m, v, paired(&m.values[0], &m.values[v])));
        }
    }
    let p: Vec<f64> = all.iter().map(|(_, _, d)| d.p_value()).collect();
    let adjusted = holm(&p);
    let mut out = Vec::new();
    for (((m, v, d), p), p_holm) in all.into_iter().zip(p).zip(adjusted) {
        let text = format!(
            "{}: {} is {} {} than in {} ({} against {}; 95 % interval of the difference {} to {}; \
             p {}, Holm-adjusted {})",
            ids[v],
            m.name,
            shown(d.diff.abs(), m.percent),
            if d.diff > 0.0 { "higher" } else { "lower" },
            ids[0],
            shown(m.samples[v].mean(), m.percent),
            shown(m.samples[0].mean(), m.percent),
            shown(d.low, m.percent),
            shown(d.high, m.percent),
            p_shown(p),
            p_shown(p_holm),
        );
        out.push(Finding {
            significant: p_holm < 0.05,
            key: m.key.clone(),
            variant: ids[v].clone(),
            d,
            p,
            p_holm,
            text,
        });
    }
    out
}

/// A p-value for reading: three decimals, or `< 0.001`.
fn p_shown(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".into()
    } else {
        format!("{p:.3}")
    }
}

/// Who played: `seat 0 random, seat 1 greedy`.
fn seats_line(c: &Compare<'_>) -> String {
    let seats = agents_by_seat(c.agents, c.players)
        .iter()
        .enumerate()
        .map(|(p, a)| format!("seat {p} {a}"))
        .collect::<Vec<_>>()
        .join(", ");
    if c.default_agents {
        format!("{seats}; the default agents of --compare, choose with --agents")
    } else {
        seats
    }
}

fn table(ids: &[String], metrics: &[Metric], c: &Compare<'_>, played: u64) -> String {
    let mut out = format!(
        "{} games per variant, {} players ({}), seed {}, the same seeds and agents for every \
         variant; mean ± half-width of the 95 % confidence interval\n\n",
        played,
        c.players,
        seats_line(c),
        c.seed
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
    out.push_str("\nmean size of a completed feature (tiles):");
    for (v, id) in ids.iter().enumerate() {
        let sizes: Vec<String> = mean_sizes(metrics, v)
            .into_iter()
            .map(|(kind, s)| format!("{kind} {}", s.map_or("-".into(), |s| format!("{s:.2}"))))
            .collect();
        out.push_str(&format!("\n  {id}: {}", sizes.join(", ")));
    }
    let all = findings(ids, metrics);
    let tested = all.len();
    let f: Vec<Finding> = all.into_iter().filter(|f| f.significant).collect();
    out.push_str(&format!(
        "\n\nsignificant differences from {} (5 % family-wise level: Holm–Bonferroni over {tested} \
         comparisons):\n",
        ids[0]
    ));
    if f.is_empty() {
        out.push_str("  none\n");
    }
    for finding in f {
        out.push_str(&format!("  {}\n", finding.text));
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
    let all = findings(ids, metrics);
    let entry = |f: &Finding| {
        serde_json::json!({
            "metric": f.key, "variant": f.variant, "reference": ids[0],
            "difference": f.d.diff, "ci95": [f.d.low, f.d.high],
            "p": f.p, "p_holm": f.p_holm, "significant": f.significant, "text": f.text,
        })
    };
    let diffs: Vec<serde_json::Value> = all.iter().filter(|f| f.significant).map(entry).collect();
    let tested: Vec<serde_json::Value> = all.iter().map(entry).collect();
    let sizes: Vec<serde_json::Value> = ids
        .iter()
        .enumerate()
        .map(|(v, id)| {
            let m: serde_json::Map<String, serde_json::Value> = mean_sizes(metrics, v)
                .into_iter()
                .map(|(k, s)| (k.to_string(), serde_json::json!(s)))
                .collect();
            serde_json::json!({ "variant": id, "mean_tiles": m })
        })
        .collect();
    let agents = agents_by_seat(c.agents, c.players);
    serde_json::json!({
        "variants": ids,
        "players": c.players,
        "games": played,
        "games_requested": c.games,
        "interrupted": played < c.games,
        "seed": c.seed,
        "agents": agents,
        "default_agents": c.default_agents,
        "metrics": ms,
        "completed_sizes": sizes,
        "comparisons": tested,
        "correction": "holm-bonferroni",
        "significant": diffs,
    })
}
