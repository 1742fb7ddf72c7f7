//! `tegula replay`: re-run a game log against a variant; fails (exit 1) at the first divergence,
//! illegal move or corrupt line, naming the line and move number.

use std::path::PathBuf;

use tegula_engine::log::ReplayError;

use super::board::{report_failure, OpenLog};
use super::fsio::write_output_atomically;
use super::out;
use super::play::{load_rules, Format};

/// Arguments of `tegula replay`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 the log replays identically, 1 it diverges (or is \
                        corrupt; the line is named), 2 usage or I/O error.\n\nExample: tegula \
                        replay game.jsonl --html replay.html"
)]
pub struct Args {
    /// Game log (JSON Lines) written by `tegula play --log`.
    pub log: PathBuf,
    /// Variant file the game was played with (default: ID.toml, ID being the variant named in
    /// the log's first line, looked for in variants/ and variants/house/ here, beside the log,
    /// and in variants/ and variants/house/ of each folder above the log).
    #[arg(long, value_name = "FILE")]
    pub variant: Option<PathBuf>,
    /// Also write a replay viewer: one self-contained HTML file (turn slider, arrow keys, the
    /// board at each turn, events with rule ids, score track, final breakdown by feature kind).
    /// Games of more than 2,000 turns are refused (exit 2; `tegula_render::html::MAX_REPLAY_TURNS`).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let log = match OpenLog::open(&args.log)? {
        Ok(log) => log,
        Err(e) => return failed(&args, &e),
    };
    let variant = match super::board::log_variant(&log, &args.log, args.variant.as_deref())? {
        Ok(v) => v,
        Err(e) => return failed(&args, &e),
    };
    let rules = match load_rules(&variant)? {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    let game = match log.replay(rules) {
        Ok(game) => game,
        Err(e) => return failed(&args, &e),
    };
    if let Some(path) = &args.html {
        write_html(path, &args.log, &variant, &game)?;
    }
    match args.format {
        Format::Json => {
            let v = serde_json::json!({
                "ok": true,
                "moves": game.events().iter().filter(|e| e.is_decision()).count(),
                "scores": game.scores(),
                "winners": game.winners(),
                "html": args.html.as_ref().map(|p| p.display().to_string()),
            });
            out::println(&serde_json::to_string_pretty(&v)?)?;
        }
        Format::Human => {
            let scores: Vec<String> = game.scores().iter().map(|s| s.to_string()).collect();
            let mut text = format!(
                "ok: {} replays identically; scores {}\n",
                args.log.display(),
                scores.join(" ")
            );
            if let Some(p) = &args.html {
                text.push_str(&format!("replay viewer: {}\n", p.display()));
            }
            out::print(&text)?;
        }
    }
    Ok(0)
}

/// Report a log that does not replay (the JSON object on stdout too); exit code 1.
fn failed(args: &Args, e: &ReplayError) -> anyhow::Result<u8> {
    if args.format == Format::Json {
        let v = serde_json::json!({
            "ok": false,
            "line": e.line,
            "move": e.move_number,
            "error": e.to_string(),
        });
        out::println(&serde_json::to_string_pretty(&v)?)?;
    }
    Ok(report_failure(&args.log, e))
}

/// Write the HTML replay viewer of `game` (replayed from `log`, played with `variant`).
fn write_html(
    path: &std::path::Path,
    log: &std::path::Path,
    variant: &std::path::Path,
    game: &tegula_engine::Game,
) -> anyhow::Result<()> {
    let (compiled, _) = tegula_model::variant::compile_variant(variant);
    let drawings = compiled.map(|v| v.tiles).unwrap_or_default();
    let names = super::board::seat_names(game.players(), &[]);
    let title = format!(
        "{} — {} ({} players)",
        log.file_name().map_or_else(
            || log.display().to_string(),
            |n| n.to_string_lossy().into_owned()
        ),
        game.rules().ruleset().name,
        game.players()
    );
    let html = tegula_render::html::replay_html(&title, game, &drawings, &names)
        .map_err(|why| anyhow::anyhow!("--html {}: {why}", path.display()))?;
    write_output_atomically(path, html.as_bytes())
}
