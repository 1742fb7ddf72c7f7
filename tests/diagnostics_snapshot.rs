//! Snapshot of rendered diagnostics (issue 2, item 10): the human output for a fixed invalid file,
//! colour off, must equal `tests/snapshots/broken.txt`. After an intended change of messages or
//! layout, regenerate with `UPDATE_SNAPSHOTS=1 cargo test --test diagnostics_snapshot` and review
//! the diff.

use std::path::{Path, PathBuf};

use tegula_model::report::{render_to_string, to_json};
use tegula_model::validate::validate_paths;
use tegula_model::Code;

fn check(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == actual,
        "{} differs from the rendered output (run with UPDATE_SNAPSHOTS=1 to accept):\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}

fn diagnostics() -> Vec<tegula_model::Diagnostic> {
    // Relative path, as a user would type it (integration tests run in the package root).
    let file = PathBuf::from("tests/fixtures/snapshot/broken.toml");
    let mut diags = validate_paths(std::slice::from_ref(&file));
    // Schema errors stop the file before the compiler, so add one rule-carrying diagnostic by
    // hand to cover the "rule:" note (W-18: the wonder's marker rule is only a label here).
    let source = tegula_model::load::read_source(&file).unwrap();
    let start = source.text.find("[[fact]]").unwrap();
    diags.push(
        source
            .diag(
                Code::FactMismatch,
                start..start + 8,
                "example of a rule-carrying diagnostic",
            )
            .with_rule("W-18")
            .with_note("made up by the snapshot test"),
    );
    diags
}

#[test]
fn human_rendering_matches_snapshot() {
    let diags = diagnostics();
    assert!(diags.len() >= 8, "{diags:#?}");
    check("broken.txt", &render_to_string(&diags, 1));
}

#[test]
fn json_rendering_matches_snapshot() {
    check("broken.json", &(to_json(&diagnostics()) + "\n"));
}

/// Compiler diagnostics with secondary locations (a repeated half-edge, a separating wall) and a
/// root cause with its folded consequence: `tests/snapshots/labels.txt` and `labels.json`.
fn labelled() -> Vec<tegula_model::Diagnostic> {
    let files: Vec<PathBuf> = [
        "half-coverage.toml",
        "bad-border-across-road.toml",
        "dangling-reference-connection-typo.toml",
    ]
    .iter()
    .map(|f| PathBuf::from("tests/fixtures/invalid").join(f))
    .collect();
    validate_paths(&files)
}

#[test]
fn labelled_human_rendering_matches_snapshot() {
    let diags = labelled();
    assert!(diags.iter().filter(|d| !d.labels.is_empty()).count() >= 2);
    check("labels.txt", &render_to_string(&diags, 3));
}

#[test]
fn labelled_json_rendering_matches_snapshot() {
    check("labels.json", &(to_json(&labelled()) + "\n"));
}
