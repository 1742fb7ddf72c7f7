//! `tegula check SCENARIO…`: run scenario files (scripted moves with expected events and scores)
//! through the engine and report every failed expectation.
//!
//! Exit codes: 0 every expectation holds, 1 some expectation failed, 2 a scenario file is
//! unreadable or invalid (or a path does not exist). Files whose `#:schema` line names another
//! kind (variants, tile sets found in a folder) are skipped and reported as what they are.

use std::path::PathBuf;
use tegula_render::view::plural;

use serde::Serialize;
use tegula_model::report;
use tegula_model::Diagnostic;
use tegula_scenario::{Failure, VariantCache};

use super::out;

/// Output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per scenario, failures with expected vs actual, diagnostics with source excerpts.
    #[default]
    Human,
    /// One JSON object: `passed`, `failed`, `invalid` counts and a `scenarios` array.
    Json,
}

/// Arguments of `tegula check`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 every expectation holds, 1 an expectation failed, \
                        2 a scenario file is unreadable or invalid.\n\n\
                        Example: tegula check scenarios/"
)]
pub struct Args {
    /// Scenario files, or folders (every `*.toml` in them, recursively, sorted).
    #[arg(required = true, value_name = "SCENARIO")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Status of one scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every expectation held.
    Ok,
    /// Some expectation failed.
    Failed,
    /// The file could not be read or is invalid.
    Invalid,
    /// The file is not a scenario (its `#:schema` line names a tile set, a variant, …): found in
    /// a folder beside scenarios, it is neither run nor counted as invalid.
    Skipped,
}

/// The result of one scenario file.
#[derive(Clone, Debug, Serialize)]
pub struct FileReport {
    /// The file (a name that is not UTF-8 is shown lossily).
    #[serde(serialize_with = "tegula_model::diag::lossy_path")]
    pub file: PathBuf,
    /// Scenario title (when it could be read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Status.
    pub status: Status,
    /// Steps executed.
    pub steps: usize,
    /// Final scores the engine reached.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<i64>,
    /// Failed expectations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<Failure>,
    /// Loading problems (errors make the file invalid; warnings are kept).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
    /// For a skipped file: what it is instead (`a variant`, `a tile set`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

impl FileReport {
    /// A report with no run behind it (an invalid or skipped file).
    fn not_run(file: PathBuf, status: Status, diagnostics: Vec<Diagnostic>) -> FileReport {
        FileReport {
            file,
            name: None,
            status,
            steps: 0,
            scores: Vec::new(),
            failures: Vec::new(),
            diagnostics,
            kind: None,
        }
    }
}

/// What `file` is when its `#:schema` line names another kind than scenarios (`a variant`,
/// `a tile set`, …); `None` for scenarios, files without the line and unreadable files (the
/// scenario loader reports those).
fn not_a_scenario(file: &std::path::Path) -> Option<String> {
    use tegula_model::validate::{classify, FileKind};
    let source = tegula_model::load::read_source(file).ok()?;
    let schema = tegula_model::load::schema_line_target(&source.text)?;
    if schema == tegula_scenario::SCENARIO_SCHEMA {
        return None;
    }
    Some(match classify(&source.text) {
        FileKind::TileSet => "a tile set".to_string(),
        FileKind::Variant => "a variant".to_string(),
        FileKind::Other(name) => format!("a `{name}` file"),
    })
}

/// Load and run every scenario of `paths`. The second value holds diagnostics about the paths
/// themselves (missing files).
pub fn check_paths(paths: &[PathBuf]) -> (Vec<FileReport>, Vec<Diagnostic>) {
    let mut path_diags = Vec::new();
    let files = tegula_model::validate::collect_files(paths, &mut path_diags);
    let mut cache = VariantCache::default();
    let mut reports = Vec::new();
    for file in files {
        if let Some(kind) = not_a_scenario(&file) {
            let mut r = FileReport::not_run(file, Status::Skipped, Vec::new());
            r.kind = Some(kind);
            reports.push(r);
            continue;
        }
        let (scenario, diags) = tegula_scenario::load(&file, &mut cache);
        let Some(sc) = scenario else {
            reports.push(FileReport::not_run(file, Status::Invalid, diags));
            continue;
        };
        let outcome = tegula_scenario::run(&sc);
        reports.push(FileReport {
            file,
            name: Some(sc.name.clone()),
            status: if outcome.passed() {
                Status::Ok
            } else {
                Status::Failed
            },
            steps: outcome.steps_run,
            scores: outcome.scores,
            failures: outcome.failures,
            diagnostics: diags,
            kind: None,
        });
    }
    (reports, path_diags)
}

/// Exit code for a set of reports: 2 if any file is invalid or missing, else 1 if any failed.
pub fn exit_code(reports: &[FileReport], path_diags: &[Diagnostic]) -> u8 {
    let unreadable = path_diags.iter().any(Diagnostic::is_error);
    if unreadable || reports.iter().any(|r| r.status == Status::Invalid) {
        2
    } else if reports.iter().any(|r| r.status == Status::Failed) {
        1
    } else {
        0
    }
}

/// Human-readable report (no colour).
pub fn render_human(reports: &[FileReport], path_diags: &[Diagnostic]) -> String {
    let mut s = String::new();
    for d in path_diags {
        let severity = if d.is_error() { "error" } else { "warning" };
        s.push_str(&format!(
            "{severity}: {}: {}\n",
            d.at.file.display(),
            d.message
        ));
    }
    for r in reports {
        let file = r.file.display();
        match r.status {
            Status::Ok => s.push_str(&format!(
                "ok      {file} ({} step{}, scores {:?})\n",
                r.steps,
                plural(r.steps),
                r.scores
            )),
            Status::Failed => {
                s.push_str(&format!(
                    "FAILED  {file} — {}\n",
                    r.name.as_deref().unwrap_or("")
                ));
                for f in &r.failures {
                    s.push_str(&format!("  {file}:{}:{}: {f}\n", f.line, f.column));
                }
            }
            Status::Skipped => s.push_str(&format!(
                "skipped {file} ({}, not a scenario)\n",
                r.kind.as_deref().unwrap_or("not a scenario")
            )),
            Status::Invalid => {
                s.push_str(&format!("INVALID {file}\n"));
                let errors: Vec<Diagnostic> = r
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .cloned()
                    .collect();
                let text = report::render_to_string(&errors, 1);
                for line in text.lines() {
                    s.push_str(&format!("  {line}\n"));
                }
            }
        }
    }
    let count = |st: Status| reports.iter().filter(|r| r.status == st).count();
    let scenarios = reports.len() - count(Status::Skipped);
    s.push_str(&format!(
        "{scenarios} scenario{}: {} ok, {} failed, {} invalid",
        plural(scenarios),
        count(Status::Ok),
        count(Status::Failed),
        count(Status::Invalid)
    ));
    // Only folders beside other data have skipped files: other summaries stay as they were.
    if count(Status::Skipped) > 0 {
        s.push_str(&format!(", {} skipped", count(Status::Skipped)));
    }
    s.push('\n');
    s
}

/// JSON report.
pub fn render_json(reports: &[FileReport], path_diags: &[Diagnostic]) -> String {
    let count = |st: Status| reports.iter().filter(|r| r.status == st).count();
    let v = serde_json::json!({
        "passed": count(Status::Ok),
        "failed": count(Status::Failed),
        "invalid": count(Status::Invalid),
        "skipped": count(Status::Skipped),
        "errors": path_diags,
        "scenarios": reports,
    });
    serde_json::to_string_pretty(&v).unwrap_or_else(|_| "{}".into())
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let (reports, path_diags) = check_paths(&args.paths);
    match args.format {
        Format::Json => out::println(&render_json(&reports, &path_diags))?,
        Format::Human => out::print(&render_human(&reports, &path_diags))?,
    }
    Ok(exit_code(&reports, &path_diags))
}
