//! `tegula rules [ID] [--data PATH]…`: the rule registry (crates/ruleset/rules.toml), and the
//! rules that tile sets and variants declare for themselves (`[[rule]]`): every rule id that
//! tile data, diagnostics, scenarios and events cite, with its title, statement and source.
//!
//! Exit codes: 0 printed; 1 the data's rules clash or cannot be read; 2 the id names no rule
//! (with a "did you mean"), or a usage error.

use std::path::PathBuf;

use tegula_model::rules::{self, Rule, Scope};
use tegula_model::Diagnostic;

use super::out;

/// Output format of `tegula rules`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Id, title, statement and source of each rule, as text.
    Human,
    /// A JSON array of objects `id`, `title`, `statement`, `source` (one object for an id).
    Json,
}

/// Arguments of `tegula rules`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 printed, 1 the data's own rules clash or cannot be read, 2 \
                  unknown rule id or usage error.\n\nExamples: tegula rules; tegula rules B-6; \
                  tegula rules W-18 --format json; tegula rules FM-1 --data tiles"
)]
pub struct Args {
    /// A rule id (`B-6`, `AM-7`, `W-18`); absent: every rule.
    pub id: Option<String>,
    /// Also the rules these tile sets and variants declare for themselves (`[[rule]]`; files,
    /// or folders searched for `*.toml`), after the registry's. Repeatable.
    #[arg(long, value_name = "PATH")]
    pub data: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Run `tegula rules`.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let (declared, problems) = tegula_model::validate::declared_rules(&args.data);
    report(&problems);
    if problems.iter().any(Diagnostic::is_error) {
        return Ok(1);
    }
    let scope = Scope::with(declared);
    let chosen: Vec<&Rule> = match &args.id {
        None => rules::all().iter().chain(scope.declared()).collect(),
        Some(id) => match scope.find(id) {
            Some(r) => vec![r],
            None => {
                out::eprintln(&format!("error: `{id}` is not a rule of the registry"));
                let ids = rules::all().iter().chain(scope.declared());
                if let Some(near) = tegula_model::load::suggest(id, ids.map(|r| r.id.as_str())) {
                    out::eprintln(&format!("  did you mean `{near}`?"));
                }
                out::eprintln(
                    "  `tegula rules` lists them all; `--data FOLDER` adds the rules tile sets \
                     and variants declare with `[[rule]]`",
                );
                return Ok(2);
            }
        },
    };
    let text = match (args.format, &args.id) {
        (Format::Json, Some(_)) => serde_json::to_string_pretty(chosen[0])? + "\n",
        (Format::Json, None) => serde_json::to_string_pretty(&chosen)? + "\n",
        (Format::Human, _) => chosen
            .iter()
            .map(|r| human(r))
            .collect::<Vec<_>>()
            .join("\n"),
    };
    out::print(&text)?;
    Ok(0)
}

/// The problems met reading the data's rules, on stderr.
fn report(problems: &[Diagnostic]) {
    for d in problems {
        let severity = if d.is_error() { "error" } else { "warning" };
        out::eprintln(&format!(
            "{severity}[{}]: {}: {}",
            d.code.as_str(),
            d.at.file.display(),
            d.message
        ));
    }
}

/// One rule as text: `ID  Title`, the statement wrapped at 96 columns, then its source.
fn human(r: &Rule) -> String {
    let mut out = format!("{}  {}\n", r.id, r.title);
    for line in wrap(&r.statement, 92) {
        out.push_str(&format!("    {line}\n"));
    }
    out.push_str(&format!("    source: {}\n", r.source));
    out
}

/// Greedy word wrap.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
