//! `tegula board LOG`: draw the board of a logged game at any turn (SVG or a terminal picture),
//! with the figures in their seats' colours, the completed features, the last placed tile and the
//! score table. Also the helpers that `play --board` and `replay --html` share: loading a variant
//! with its tile drawings, and replaying a log.
//!
//! Exit codes: 0 drawn; 1 the log does not replay against the variant; 2 usage or I/O error (an
//! unreadable log, an unknown variant, a turn the game never reached, an unwritable output).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context as _;
use tegula_engine::log::{self, ReplayError, ReplayErrorKind};
use tegula_engine::{Game, Rules};
use tegula_model::compile::CompiledTile;
use tegula_model::raw::is_id;
use tegula_render::board::{timeline_each, BoardView};
use tegula_render::{ascii, svg};

use super::fsio::{InputError, LogLines};
use super::out::{self, emit};
use super::play::load_rules;

/// Picture format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// An SVG picture (the default).
    Svg,
    /// A terminal picture: 9×5 characters per cell, figures as seat letters, then the scores.
    Ascii,
}

/// Arguments of `tegula board`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 drawn, 1 the log does not replay against the variant, \
                        2 usage or I/O error.\n\nExample: tegula board game.jsonl --turn 12 \
                        --out board.svg"
)]
pub struct Args {
    /// Game log (JSON Lines) written by `tegula play --log`.
    pub log: PathBuf,
    /// Variant file the game was played with (default: ID.toml, ID being the variant named in
    /// the log's first line, looked for in variants/ and variants/house/ here, beside the log,
    /// and in variants/ and variants/house/ of each folder above the log).
    #[arg(long, value_name = "FILE")]
    pub variant: Option<PathBuf>,
    /// Turn to show: 0 is the start tile alone (default: the end of the game, final scores).
    #[arg(long)]
    pub turn: Option<u32>,
    /// Picture format.
    #[arg(long, value_enum, default_value_t = Format::Svg)]
    pub format: Format,
    /// Write to this file (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// A variant ready to play and to draw: its rules and its compiled tiles (ruleset order).
pub(crate) struct Drawable {
    /// The rules.
    pub rules: Arc<Rules>,
    /// The compiled tiles, index = ruleset tile index.
    pub drawings: Vec<CompiledTile>,
}

/// Load a variant with its tile drawings; `Err(code)` after printing why it cannot be played.
pub(crate) fn load_drawable(path: &Path) -> anyhow::Result<Result<Drawable, u8>> {
    let rules = match load_rules(path)? {
        Ok(r) => r,
        Err(code) => return Ok(Err(code)),
    };
    let (compiled, _) = tegula_model::variant::compile_variant(path);
    let drawings = compiled.map(|v| v.tiles).unwrap_or_default();
    if drawings.len() != rules.ruleset().tiles.len() {
        anyhow::bail!("{}: cannot draw the variant's tiles", path.display());
    }
    Ok(Ok(Drawable { rules, drawings }))
}

/// The variant of a log: `explicit` if given, else the first of these files that exists, ID
/// being the id in its setup line: `variants/ID.toml` and `variants/house/ID.toml` in the
/// current folder, `ID.toml` beside the log, and `variants/ID.toml` and `variants/house/ID.toml`
/// in each folder above the log. `Ok(Err)` (exit 1, located) when the setup line names
/// something that is no variant id: a path (`../../x`, `/etc/x`) is never followed.
pub(crate) fn log_variant(
    log: &OpenLog,
    log_path: &Path,
    explicit: Option<&Path>,
) -> anyhow::Result<Result<PathBuf, ReplayError>> {
    if let Some(p) = explicit {
        return Ok(Ok(p.to_path_buf()));
    }
    let id = serde_json::from_str::<serde_json::Value>(log.first_line())
        .ok()
        .and_then(|v| v.get("variant")?.as_str().map(str::to_string))
        .context("the log's first line names no variant; give --variant FILE")?;
    if !is_id(&id) {
        return Ok(Err(ReplayError {
            kind: ReplayErrorKind::Setup,
            line: log.first.as_ref().map_or(1, |(n, _)| *n),
            move_number: None,
            message: format!(
                "the variant `{id}` is not a variant id (letters, digits, `-`, `_` and `.`; \
                 no path); give --variant FILE"
            ),
        }));
    }
    let candidates = variant_candidates(&id, log_path);
    match candidates.iter().find(|p| p.is_file()) {
        Some(found) => Ok(Ok(found.clone())),
        None => anyhow::bail!(
            "the log is for variant `{id}`, but no {id}.toml was found in variants/ or \
             variants/house/ here, beside the log, or in variants/ or variants/house/ of a \
             folder above it; give --variant FILE"
        ),
    }
}

/// Where a log's variant `id` may be, in the order looked at (see [`log_variant`]).
fn variant_candidates(id: &str, log_path: &Path) -> Vec<PathBuf> {
    let file = format!("{id}.toml");
    let in_variants = |base: &Path| {
        [
            base.join("variants").join(&file),
            base.join("variants").join("house").join(&file),
        ]
    };
    let mut out: Vec<PathBuf> = in_variants(Path::new("")).into();
    let log_dir = std::path::absolute(log_path)
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf));
    if let Some(dir) = log_dir {
        out.push(dir.join(&file));
        for above in dir.ancestors() {
            out.extend(in_variants(above));
        }
    }
    out
}

/// A game log opened for a streaming replay, its first line already read (it names the
/// variant).
pub(crate) struct OpenLog {
    lines: LogLines,
    first: Option<(usize, String)>,
}

/// A line the log reader refused (too long, not UTF-8) as a replay failure at that line.
fn corrupt(e: InputError) -> ReplayError {
    ReplayError {
        kind: ReplayErrorKind::Corrupt,
        line: e.line.unwrap_or(1),
        move_number: None,
        message: e.reason,
    }
}

impl OpenLog {
    /// Open the log at `path` and read its first line. `Err` (exit 2) when the file cannot be
    /// opened; `Ok(Err)` (exit 1) when its first line is refused.
    pub(crate) fn open(path: &Path) -> anyhow::Result<Result<Self, ReplayError>> {
        let mut lines = LogLines::open(path)?;
        Ok(match lines.next_line() {
            Ok(first) => Ok(OpenLog { lines, first }),
            Err(e) => Err(corrupt(e)),
        })
    }

    /// The first line ("" for an empty log).
    pub(crate) fn first_line(&self) -> &str {
        self.first.as_ref().map_or("", |(_, l)| l.as_str())
    }

    /// Replay the log against `rules` as it is read, stopping at the first bad line.
    pub(crate) fn replay(mut self, rules: Arc<Rules>) -> Result<Game, ReplayError> {
        let mut replayer = log::Replayer::new(rules);
        let mut next = self.first.take();
        while let Some((n, line)) = next {
            replayer.line(n, &line)?;
            next = self.lines.next_line().map_err(corrupt)?;
        }
        replayer.finish()
    }
}

/// Seat names for pictures: `seat N`, with the agent when known (`seat 0 (random)`).
pub(crate) fn seat_names(players: u8, agents: &[&str]) -> Vec<String> {
    (0..players as usize)
        .map(|p| match agents.get(p) {
            Some(a) => format!("seat {p} ({a})"),
            None => format!("seat {p}"),
        })
        .collect()
}

/// Print why the log at `path` does not replay; the exit code (1).
pub(crate) fn report_failure(path: &Path, e: &ReplayError) -> u8 {
    out::eprintln(&format!("error: {}: {e}", path.display()));
    1
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let log = match OpenLog::open(&args.log)? {
        Ok(log) => log,
        Err(e) => return Ok(report_failure(&args.log, &e)),
    };
    let variant = match log_variant(&log, &args.log, args.variant.as_deref())? {
        Ok(v) => v,
        Err(e) => return Ok(report_failure(&args.log, &e)),
    };
    let d = match load_drawable(&variant)? {
        Ok(d) => d,
        Err(code) => return Ok(code),
    };
    let game = match log.replay(d.rules.clone()) {
        Ok(g) => g,
        Err(e) => return Ok(report_failure(&args.log, &e)),
    };
    let names = seat_names(game.players(), &[]);
    let view = match args.turn {
        None => BoardView::from_game(&game, &d.drawings, &names),
        Some(turn) => {
            // One position at a time (a long game's positions would not fit in memory); the
            // last one of that turn is shown.
            let (mut shown, mut last) = (None, 0);
            timeline_each(&game, &d.drawings, &names, |v| {
                last = v.turn;
                if v.turn == turn {
                    shown = Some(v.clone());
                }
                Ok(())
            })
            .map_err(anyhow::Error::msg)?;
            match shown {
                Some(v) => v,
                None => anyhow::bail!("--turn {turn}: the game has turns 0 to {last}"),
            }
        }
    };
    let text = match args.format {
        Format::Svg => svg::board::board_svg(&view),
        Format::Ascii => out::terminal_picture(&ascii::board_ascii(&view)),
    };
    emit(args.out.as_deref(), &text)?;
    Ok(0)
}
