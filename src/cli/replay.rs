//! `tegula replay`: re-run a game log against a variant; fails (exit 1) at the first divergence,
//! illegal move or corrupt line, naming the line and move number.

use std::path::PathBuf;

use anyhow::Context as _;
use tegula_engine::log;

use super::play::{load_rules, Format};

/// Arguments of `tegula replay`.
#[derive(clap::Args)]
pub struct Args {
    /// Game log (JSON Lines) written by `tegula play --log`.
    pub log: PathBuf,
    /// Variant file the game was played with.
    #[arg(long, value_name = "FILE")]
    pub variant: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let bytes =
        std::fs::read(&args.log).with_context(|| format!("cannot read {}", args.log.display()))?;
    let rules = match load_rules(&args.variant)? {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(_) => {
            eprintln!("error: {}: not UTF-8 text", args.log.display());
            return Ok(1);
        }
    };
    match log::replay(rules, &text) {
        Ok(game) => {
            match args.format {
                Format::Json => {
                    let v = serde_json::json!({
                        "ok": true,
                        "moves": game.events().iter().filter(|e| e.is_decision()).count(),
                        "scores": game.scores(),
                        "winners": game.winners(),
                    });
                    println!("{}", serde_json::to_string_pretty(&v)?);
                }
                Format::Human => {
                    let scores: Vec<String> = game.scores().iter().map(|s| s.to_string()).collect();
                    println!(
                        "ok: {} replays identically; scores {}",
                        args.log.display(),
                        scores.join(" ")
                    );
                }
            }
            Ok(0)
        }
        Err(e) => {
            match args.format {
                Format::Json => {
                    let v = serde_json::json!({
                        "ok": false,
                        "line": e.line,
                        "move": e.move_number,
                        "error": e.to_string(),
                    });
                    println!("{}", serde_json::to_string_pretty(&v)?);
                }
                Format::Human => {}
            }
            eprintln!("error: {}: {e}", args.log.display());
            Ok(1)
        }
    }
}
