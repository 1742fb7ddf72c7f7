//! The current position as a scenario (docs/SCENARIOS.md): a `[setup] board` that replays the
//! game's log up to this turn, ready for the author to add the steps and the expected events
//! of what just happened.

use std::fmt::Write as _;

use crate::session::Session;

/// A TOML string literal (basic string, escaped).
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// How a scenario saved in a folder just below the variant's data root (as `scenarios/` is: the
/// `#:schema ../schema/…` line says so) names the variant: `../` and its path inside the root. A
/// scenario may read only inside its data root (docs/SCENARIOS.md), so an absolute path would
/// be refused. Without a root above the file, `shown` (the author adjusts it).
pub fn variant_ref(path: &std::path::Path, shown: &str) -> String {
    let root = tegula_model::reach::data_root(path);
    let file = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    match file.strip_prefix(&root) {
        Ok(inside) if root.join("schema").is_dir() => {
            let parts: Vec<String> = inside
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            format!("../{}", parts.join("/"))
        }
        _ => shown.to_string(),
    }
}

/// The scenario of `s`'s position: its board is the first `turn` turns of the log saved as
/// `log_name` beside it; `variant_file` is where the server read the variant.
pub fn scenario_text(s: &Session, variant_file: &str, log_name: &str) -> String {
    let game = &s.game;
    let turn = game.turn();
    let scores: Vec<String> = game.scores().iter().map(i64::to_string).collect();
    let mut out = String::new();
    out.push_str("#:schema ../schema/scenario.schema.json\n");
    let _ = writeln!(
        out,
        "name = {}",
        quoted(&format!(
            "{}: from turn {turn} of a game played in tegula serve",
            s.key
        ))
    );
    out.push_str("rules = []  # the rule ids this scenario checks\n");
    let _ = writeln!(
        out,
        "variant = {}  # relative to this file, saved in a folder below the data root (as scenarios/)",
        quoted(variant_file)
    );
    let _ = writeln!(out, "players = {}", game.players());
    let _ = writeln!(
        out,
        "description = \"\"\"\nThe position after {turn} turns (scores {}), exported by `tegula serve`. Work out\nthe expected events of the next steps from the rule text, then add them below.\n\"\"\"\n",
        scores.join(", ")
    );
    out.push_str("[setup]\n");
    let _ = writeln!(
        out,
        "board = {{ log = {}, turns = {turn} }}",
        quoted(log_name)
    );
    out.push_str("\n# [[step]]\n# tile = \"…\"\n# at = [x, y]\n# rotation = 0\n# expect = []\n");
    out
}
