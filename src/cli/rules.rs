//! `tegula rules [ID]`: the rule registry (crates/ruleset/rules.toml): every rule id that tile
//! data, diagnostics, scenarios and events cite, with its title, statement and source.
//!
//! Exit codes: 0 printed; 2 the id names no rule (with a "did you mean"), or a usage error.

use tegula_model::rules::{self, Rule};

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
    after_help = "Exit status: 0 printed, 2 unknown rule id or usage error.\n\nExamples: tegula \
                  rules; tegula rules B-6; tegula rules W-18 --format json"
)]
pub struct Args {
    /// A rule id (`B-6`, `AM-7`, `W-18`); absent: every rule.
    pub id: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Run `tegula rules`.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let chosen: Vec<&Rule> = match &args.id {
        None => rules::all().iter().collect(),
        Some(id) => match rules::find(id) {
            Some(r) => vec![r],
            None => {
                out::eprintln(&format!("error: `{id}` is not a rule of the registry"));
                if let Some(near) = rules::closest(id) {
                    out::eprintln(&format!("  did you mean `{near}`?"));
                }
                out::eprintln("  `tegula rules` lists them all");
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
