//! `tegula check SCENARIO…`: run scenario files (scripted moves with expected events and scores)
//! through the engine and report every failed expectation.
//!
//! Exit codes: 0 every expectation holds, 1 some expectation failed, 2 a scenario file is
//! unreadable or invalid (or a path does not exist).

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
    pub scores: Vec<u32>,
    /// Failed expectations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<Failure>,
    /// Loading problems (errors make the file invalid; warnings are kept).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
}

/// Load and run every scenario of `paths`. The second value holds diagnostics about the paths
/// themselves (missing files).
pub fn check_paths(paths: &[PathBuf]) -> (Vec<FileReport>, Vec<Diagnostic>) {
    let mut path_diags = Vec::new();
    let files = tegula_model::validate::collect_files(paths, &mut path_diags);
    let mut cache = VariantCache::default();
    let mut reports = Vec::new();
    for file in files {
        let (scenario, diags) = tegula_scenario::load(&file, &mut cache);
        let Some(sc) = scenario else {
            reports.push(FileReport {
                file,
                name: None,
                status: Status::Invalid,
                steps: 0,
                scores: Vec::new(),
                failures: Vec::new(),
                diagnostics: diags,
            });
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
    s.push_str(&format!(
        "{} scenario{}: {} ok, {} failed, {} invalid\n",
        reports.len(),
        plural(reports.len()),
        count(Status::Ok),
        count(Status::Failed),
        count(Status::Invalid)
    ));
    s
}

/// JSON report.
pub fn render_json(reports: &[FileReport], path_diags: &[Diagnostic]) -> String {
    let count = |st: Status| reports.iter().filter(|r| r.status == st).count();
    let v = serde_json::json!({
        "passed": count(Status::Ok),
        "failed": count(Status::Failed),
        "invalid": count(Status::Invalid),
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
