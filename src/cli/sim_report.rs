//! The report of `tegula simulate` (human lines or one JSON object), shared with
//! `tegula simulate-merge`, which prints what the whole run prints without its timing.

use std::fmt::Write as _;
use std::path::Path;

use tegula_engine::sim;
use tegula_render::view::plural;

use super::sim_games::Found;

/// How long a run took; left out where the report must depend on the games only
/// (`--no-timing`, a merge of shards).
#[derive(Clone, Copy)]
pub(crate) struct Timing {
    /// Wall-clock seconds of the timed pass.
    pub secs: f64,
    /// Worker threads.
    pub jobs: usize,
}

/// The options of a run that the report repeats.
pub(crate) struct RunFacts<'a> {
    /// The variant's id.
    pub variant: &'a str,
    /// Seats.
    pub players: u8,
    /// Games asked for.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Agents by seat.
    pub agents: Vec<String>,
    /// `--out`.
    pub out: Option<&'a Path>,
    /// `--where`.
    pub where_expr: Option<&'a str>,
    /// `--logs`.
    pub logs: Option<&'a Path>,
    /// `--log-game` and `--log`.
    pub log_game: Option<(u64, &'a Path)>,
}

/// What a simulation found, for printing.
pub(crate) struct Report<'a> {
    /// The run.
    pub run: RunFacts<'a>,
    /// A tile's id by index (for the pool tiles).
    pub tile_id: &'a dyn Fn(u16) -> String,
    /// The variant's seat resource ids (empty without resources).
    pub resources: &'a [String],
    /// The figures.
    pub stats: &'a sim::SimStats,
    /// The timing, if reported.
    pub timing: Option<Timing>,
    /// Whether Ctrl-C cut the run short.
    pub interrupted: bool,
    /// What the second pass found, once it finished.
    pub found: Option<Found>,
}

impl Report<'_> {
    /// The report as one JSON object (keys sorted); the timing keys (`seconds`,
    /// `games_per_second`, `decisions_per_second`, `jobs`, and `search` when a tree-search
    /// agent played) only with a timing.
    pub(crate) fn json(&self) -> serde_json::Value {
        let (stats, run) = (self.stats, &self.run);
        let found = self.found.as_ref();
        let path = |p: Option<&Path>| found.and(p).map(|p| p.display().to_string());
        let mut v = serde_json::json!({
            "variant": run.variant,
            "players": run.players,
            "games_requested": run.games,
            "interrupted": self.interrupted,
            "seed": run.seed,
            "agents": run.agents,
            "out": path(run.out),
            "where": run.where_expr,
            "matched": found.filter(|_| run.where_expr.is_some()).map(|f| f.matched),
            "logs": path(run.logs),
            "logs_written": found.filter(|_| run.logs.is_some()).map(|f| f.logged),
            "log_game": found.and(run.log_game).map(|(n, _)| n),
            "log": path(run.log_game.map(|(_, p)| p)),
        });
        if let Some(map) = v.as_object_mut() {
            map.extend(tegula_shard::stats_json(
                stats,
                self.tile_id,
                self.resources,
            ));
        }
        if let (Some(t), Some(map)) = (self.timing, v.as_object_mut()) {
            map.insert("jobs".into(), t.jobs.into());
            map.insert("seconds".into(), t.secs.into());
            map.insert(
                "games_per_second".into(),
                (stats.games as f64 / t.secs).into(),
            );
            map.insert(
                "decisions_per_second".into(),
                (stats.decisions as f64 / t.secs).into(),
            );
            if stats.search.searches > 0 {
                map.insert("search".into(), search_json(stats.search, t.secs));
            }
        }
        v
    }

    /// The report as readable lines.
    pub(crate) fn human(&self) -> String {
        let (stats, run) = (self.stats, &self.run);
        let mut s = String::new();
        let of = if self.interrupted {
            format!(" (interrupted: {} requested)", run.games)
        } else {
            String::new()
        };
        let took = self
            .timing
            .map_or(String::new(), |t| format!(" in {:.3}s", t.secs));
        let _ = writeln!(
            s,
            "{} game{}{of} of {} ({} player{}, agents {}){took}",
            stats.games,
            plural(stats.games as usize),
            run.variant,
            run.players,
            plural(usize::from(run.players)),
            run.agents.join(","),
        );
        if let Some(t) = self.timing {
            let _ = writeln!(
                s,
                "games/s: {:.0}   decisions/s: {:.0}",
                stats.games as f64 / t.secs,
                stats.decisions as f64 / t.secs
            );
            let n = stats.search;
            if n.searches > 0 {
                let _ = writeln!(
                    s,
                    "search: {} decisions searched, {} playouts ({} kept from earlier searches); \
                     searched decisions/s: {:.1}   playouts/s: {:.0}",
                    n.searches,
                    n.playouts,
                    n.reused,
                    n.searches as f64 / t.secs,
                    n.playouts as f64 / t.secs
                );
            }
        }
        let _ = writeln!(s, "mean total score: {:.3}", stats.mean_total_score());
        self.human_seats(&mut s);
        if let Some(found) = &self.found {
            self.human_extras(found, &mut s);
        }
        for (&t, p) in &stats.pool {
            let _ = writeln!(
                s,
                "{}: placed in {} games, owner won {:.1}%, ability {:.2} points a game",
                (self.tile_id)(t),
                p.games,
                p.win_rate() * 100.0,
                p.mean_ability_points()
            );
        }
        s
    }

    /// One line per seat: mean score and wins.
    fn human_seats(&self, s: &mut String) {
        let run = &self.run;
        let names = super::board::seat_names(
            run.players,
            &run.agents.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        let games = self.stats.games.max(1) as f64;
        let means: Vec<f64> = self
            .stats
            .seat_scores
            .iter()
            .map(|&s| s as f64 / games)
            .collect();
        let rates = self.stats.win_rates();
        for (p, name) in names.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {name:<width$}  mean score {:>7.2}  wins {:>5.1}%",
                means[p],
                rates[p] * 100.0
            );
        }
        let _ = writeln!(s, "(wins: a tie shares the win among the tied seats)");
        for (id, means) in tegula_shard::mean_holdings(self.stats, self.resources) {
            let by_seat: Vec<String> = means.iter().map(|m| format!("{m:.2}")).collect();
            let _ = writeln!(
                s,
                "mean {id} held at the end, by seat: {}",
                by_seat.join("  ")
            );
        }
    }

    /// The second pass's lines of the summary: games matched, where they went.
    fn human_extras(&self, found: &Found, s: &mut String) {
        let run = &self.run;
        if let Some(e) = run.where_expr {
            let _ = writeln!(
                s,
                "--where {e}: {} of {} game{} matched",
                found.matched,
                run.games,
                plural(run.games as usize)
            );
        }
        if let Some(p) = run.out {
            let _ = writeln!(s, "games: {}", p.display());
        }
        if let Some(dir) = run.logs {
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
        if let Some((n, p)) = run.log_game {
            let _ = writeln!(s, "log of game {n}: {}", p.display());
        }
    }
}

/// The `search` object of the JSON report: what the `mcts:N` agents did in the timed pass, and
/// how fast (wall-clock, all threads together).
fn search_json(n: tegula_engine::SearchStats, secs: f64) -> serde_json::Value {
    serde_json::json!({
        "decisions": n.searches,
        "playouts": n.playouts,
        "reused_playouts": n.reused,
        "decisions_per_second": n.searches as f64 / secs,
        "playouts_per_second": n.playouts as f64 / secs,
    })
}
