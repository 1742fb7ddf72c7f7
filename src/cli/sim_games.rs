//! The second pass of `tegula simulate`: the same games played again, recorded, for the per-game
//! work the timing must not include — the `--out` lines, the `--where` selection and the logs
//! (`--logs DIR`, `--log-game N --log FILE`). Game `i` is the game `tegula play --seed S --game i`
//! plays (same seeds, same agents, same log), and every line says how to play it again.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tegula_engine::{log, sim, AgentKind, Event, Game, PileOrder, Rules};
use tegula_render::board::points_by_kind;

use super::fsio::write_output_atomically;
use super::game_where::{Cond, GameFacts};
use super::progress::Progress;
use tegula_shard::{Shard, ShardSums};

/// The run whose games are played again.
pub(crate) struct Run<'a> {
    /// The lowered variant.
    pub rules: &'a Arc<Rules>,
    /// The variant file as given (for the `play` command).
    pub variant: &'a Path,
    /// Seats.
    pub players: u8,
    /// Games of the run.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Agents, cycled over the seats.
    pub agents: &'a [AgentKind],
    /// With `--shard`: only this shard's games, and their statistics summed.
    pub shard: Option<Shard>,
}

/// What the second pass produces.
pub(crate) struct Extras<'a> {
    /// Keep only the games matching this condition.
    pub cond: Option<&'a Cond>,
    /// Build the `--out` lines.
    pub out: bool,
    /// Write the matching games' logs into this folder (already created).
    pub logs: Option<&'a Path>,
    /// Most logs written to `logs`.
    pub max_logs: u64,
    /// Write this game's log to this file.
    pub log_game: Option<(u64, &'a Path)>,
    /// The variant file, for the `replay` command of each log written.
    pub variant: &'a Path,
}

/// What the second pass found.
#[derive(Default)]
pub(crate) struct Found {
    /// The `--out` lines, one JSON object per matching game.
    pub lines: String,
    /// Games matching `--where` (all games played when there is none).
    pub matched: u64,
    /// Logs written into the `--logs` folder.
    pub logged: u64,
    /// With `--shard`: the statistics of the shard's games.
    pub sums: Option<ShardSums>,
}

impl Extras<'_> {
    /// Whether there is any per-game work (else no second pass).
    pub(crate) fn any(&self) -> bool {
        self.all_games() || self.log_game.is_some()
    }

    /// Whether every game must be played again (else only `--log-game`'s).
    fn all_games(&self) -> bool {
        self.out || self.cond.is_some() || self.logs.is_some()
    }
}

/// Games per worker thread between two merges (bounds the logs held in memory).
const CHUNK_PER_JOB: usize = 16;

/// Play the run's games again (all of them, or only `--log-game`'s) on `jobs` threads and do the
/// per-game work, in game order whatever the threads. `None` when interrupted (logs written so
/// far stay: each is whole).
pub(crate) fn second_pass(
    run: &Run,
    extras: &Extras,
    jobs: usize,
    stop: &Arc<AtomicBool>,
    progress_every: f64,
) -> anyhow::Result<Option<Found>> {
    let indices: Vec<u64> = match extras.log_game {
        Some((n, _)) if !extras.all_games() => vec![n],
        _ => match run.shard {
            Some(shard) => shard.indices(run.games).collect(),
            None => (0..run.games).collect(),
        },
    };
    let progress = Progress::new(indices.len() as u64, progress_every);
    let mut found = Found {
        sums: run.shard.map(|_| ShardSums::new(run.players)),
        ..Found::default()
    };
    let mut games = (0..jobs.max(1))
        .map(|_| new_game(run, 0))
        .collect::<anyhow::Result<Vec<Game>>>()?;
    let mut done = 0;
    for chunk in indices.chunks(games.len() * CHUNK_PER_JOB) {
        let want_logs = extras.logs.is_some() && found.logged < extras.max_logs;
        let Some(examined) = examine_chunk(run, extras, &mut games, chunk, want_logs, stop)? else {
            progress.finish();
            return Ok(None);
        };
        for e in examined {
            merge(extras, e, &mut found)?;
        }
        done += chunk.len() as u64;
        progress.update(done);
    }
    progress.finish();
    Ok(Some(found))
}

/// What one game gave a worker: whether it matched, its `--out` line (without the log fields),
/// when it may be written its log, and in a shard its statistics.
struct Examined {
    index: u64,
    matched: bool,
    line: Option<serde_json::Map<String, serde_json::Value>>,
    log: Option<String>,
    sums: Option<ShardSums>,
}

/// Play the games of `chunk`, split over the threads (one game buffer each); the results in
/// game order, `None` when interrupted.
fn examine_chunk(
    run: &Run,
    extras: &Extras,
    games: &mut [Game],
    chunk: &[u64],
    want_logs: bool,
    stop: &Arc<AtomicBool>,
) -> anyhow::Result<Option<Vec<Examined>>> {
    let jobs = games.len();
    let parts: Vec<anyhow::Result<Option<Vec<Examined>>>> = std::thread::scope(|s| {
        let handles: Vec<_> = games
            .iter_mut()
            .enumerate()
            .map(|(j, game)| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for &i in chunk.iter().skip(j).step_by(jobs) {
                        if stop.load(Ordering::Relaxed) {
                            return Ok(None);
                        }
                        let Some(decisions) = replay_game(run, game, i, stop)? else {
                            return Ok(None);
                        };
                        let mut e = examine(run, extras, game, i, want_logs);
                        e.sums = run.shard.map(|_| {
                            let mut sums = ShardSums::new(run.players);
                            sums.add_game(game, decisions, run.rules);
                            sums
                        });
                        out.push(e);
                    }
                    Ok(Some(out))
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
    for part in parts {
        match part? {
            Some(p) => all.extend(p),
            None => return Ok(None),
        }
    }
    all.sort_by_key(|e| e.index);
    Ok(Some(all))
}

/// A recorded game of the run, set up as game `index`.
pub(crate) fn new_game(run: &Run, index: u64) -> anyhow::Result<Game> {
    let (pile, _) = sim::game_seeds(run.seed, index, run.players);
    Game::new(
        run.rules.clone(),
        run.players,
        PileOrder::Shuffled(pile),
        true,
    )
    .map_err(|e| anyhow::anyhow!("{e}"))
}

/// Play game `index` of the run in `game`: its decisions, `None` when interrupted.
fn replay_game(
    run: &Run,
    game: &mut Game,
    index: u64,
    stop: &Arc<AtomicBool>,
) -> anyhow::Result<Option<u64>> {
    let (pile, seeds) = sim::game_seeds(run.seed, index, run.players);
    game.restart(PileOrder::Shuffled(pile))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut agents = sim::build_agents(run.agents, &seeds);
    Ok(sim::play_out_until(game, &mut agents, stop))
}

/// The finished game `i`: whether it matches `--where`, its line, its log if it may be written.
fn examine(run: &Run, extras: &Extras, game: &Game, i: u64, want_logs: bool) -> Examined {
    let is_log_game = extras.log_game.is_some_and(|(n, _)| n == i);
    let mut e = Examined {
        index: i,
        matched: false,
        line: None,
        log: is_log_game.then(|| log::log_text(game)),
        sums: None,
    };
    if !extras.all_games() {
        return e;
    }
    let rules = cited_rules(game);
    let tiles: BTreeSet<String> = game
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Place { tile, .. } => Some(tile.clone()),
            _ => None,
        })
        .collect();
    let (scores, winners) = (game.scores(), game.winners());
    // Only a condition reads them (`kind == …`).
    let events: BTreeSet<(&'static str, Vec<String>)> = match extras.cond {
        Some(_) => (game.events().iter())
            .map(|e| (e.kind(), e.cited().map(str::to_string).collect()))
            .collect(),
        None => BTreeSet::new(),
    };
    let facts = GameFacts {
        scores,
        winners: &winners,
        turns: game.turn(),
        rules: &rules,
        tiles: &tiles,
        events: &events,
    };
    e.matched = extras.cond.is_none_or(|c| c.matches(&facts));
    if e.matched {
        if want_logs && e.log.is_none() {
            e.log = Some(log::log_text(game));
        }
        e.line = extras.out.then(|| game_line(run, game, i, &rules));
    }
    e
}

/// Take one examined game, in game order: write its logs, add its line.
fn merge(extras: &Extras, e: Examined, found: &mut Found) -> anyhow::Result<()> {
    if let (Some(all), Some(one)) = (&mut found.sums, &e.sums) {
        // A run's sums stay far below 2^64 (10^7 games of scores below 10^4).
        let _ = all.merge(one);
    }
    let log = e.log.unwrap_or_default();
    if let Some((n, path)) = extras.log_game {
        if n == e.index {
            write_output_atomically(path, log.as_bytes())?;
        }
    }
    if !e.matched {
        return Ok(());
    }
    found.matched += 1;
    let mut log_path = None;
    if let Some(dir) = extras.logs {
        if found.logged < extras.max_logs {
            let path = dir.join(format!("game-{}.jsonl", e.index));
            write_output_atomically(&path, log.as_bytes())?;
            found.logged += 1;
            log_path = Some(path);
        }
    }
    if let Some(mut line) = e.line {
        add_log_fields(&mut line, log_path.as_deref(), extras.variant);
        found
            .lines
            .push_str(&serde_json::Value::Object(line).to_string());
        found.lines.push('\n');
    }
    Ok(())
}

/// The rule ids the game's events cite, distinct and sorted.
pub(crate) fn cited_rules(game: &Game) -> BTreeSet<String> {
    game.events()
        .iter()
        .flat_map(|e| e.cited().map(str::to_string))
        .collect()
}

/// One `--out` line, without the log fields ([`add_log_fields`]).
fn game_line(
    run: &Run,
    game: &Game,
    i: u64,
    rules: &BTreeSet<String>,
) -> serde_json::Map<String, serde_json::Value> {
    let play = play_argv(run, i);
    let (pile, _) = sim::game_seeds(run.seed, i, run.players);
    let line = serde_json::json!({
        "game": i,
        "seed": pile,
        "scores": game.scores(),
        "points_by_kind": points_by_kind(game),
        "winners": game.winners(),
        "turns": game.turn(),
        "rules": rules,
        "play": { "argv": play, "shell": shell_line(&play) },
    });
    match line {
        serde_json::Value::Object(map) => map,
        _ => serde_json::Map::new(),
    }
}

/// `log` (the written log, or null) and `replay` (the `tegula replay LOG --variant FILE --html`
/// command: the variant named, so that it replays wherever the variant file lives).
fn add_log_fields(
    line: &mut serde_json::Map<String, serde_json::Value>,
    log_path: Option<&Path>,
    variant: &Path,
) {
    let replay = log_path.map(|p| {
        let html = p.with_extension("html");
        let argv: Vec<String> = ["tegula", "replay"]
            .iter()
            .map(|s| s.to_string())
            .chain([lossy(p), "--variant".into(), lossy(variant)])
            .chain(["--html".into(), lossy(&html)])
            .collect();
        serde_json::json!({ "argv": argv, "shell": shell_line(&argv) })
    });
    line.insert("log".into(), serde_json::json!(log_path.map(lossy)));
    line.insert("replay".into(), serde_json::json!(replay));
}

fn lossy(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// The `tegula play` command that plays game `i` of the run again.
pub(crate) fn play_argv(run: &Run, i: u64) -> Vec<String> {
    let agents: Vec<String> = run.agents.iter().map(|a| a.name()).collect();
    let mut argv: Vec<String> = vec!["tegula".into(), "play".into(), "--variant".into()];
    argv.push(lossy(run.variant));
    for (flag, value) in [
        ("--players", run.players.to_string()),
        ("--seed", run.seed.to_string()),
        ("--game", i.to_string()),
        ("--agents", agents.join(",")),
    ] {
        argv.push(flag.into());
        argv.push(value);
    }
    argv
}

/// `argv` as one POSIX shell line: words of plain characters as they are, others in single
/// quotes (a quote inside written `'\''`).
pub(crate) fn shell_line(argv: &[String]) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
    argv.iter()
        .map(|w| {
            if !w.is_empty() && w.chars().all(plain) {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Make sure `dir` is a folder logs can go to, creating it if missing.
pub(crate) fn prepare_log_dir(dir: &Path) -> anyhow::Result<PathBuf> {
    let cannot = |why: String| anyhow::anyhow!("cannot write logs into `{}`: {why}", dir.display());
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(cannot("it is not a folder".into())),
        Err(_) => std::fs::create_dir_all(dir).map_err(|e| cannot(e.to_string()))?,
    }
    Ok(dir.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::shell_line;

    #[test]
    fn shell_words_are_quoted_only_when_needed() {
        let argv: Vec<String> = ["tegula", "a b", "it's", "", "x/y.toml", "$HOME"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            shell_line(&argv),
            r#"tegula 'a b' 'it'\''s' '' x/y.toml '$HOME'"#
        );
    }
}
