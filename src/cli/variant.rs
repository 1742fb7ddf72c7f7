//! `tegula variant explain FILE` (the effective rules in plain words, each with the file and line
//! that set it) and `tegula variant diff A B` (what differs between two variants, rule by rule).

use std::path::{Path, PathBuf};

use tegula_model::explain::{diff, explain, Difference, Explanation, Origin, RuleLine};

use super::out::{self, print_diags};
use super::play::Format;

/// Arguments of `tegula variant`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 explained or compared, 1 a variant has errors (printed), \
                        2 usage or I/O error.\n\nExamples: tegula variant explain \
                        variants/house/farms-4.toml; tegula variant diff variants/base.toml \
                        variants/house/hand-3.toml --format json"
)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// The effective rules of a variant, one line a rule: value, plain words, where it was set.
    #[command(
        after_help = "Exit status: 0 explained, 1 the variant has errors (printed), 2 usage \
                            or I/O error.\n\nExample: tegula variant explain \
                            variants/house/farms-4.toml"
    )]
    Explain {
        /// Variant file.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// The rules that differ between two variants.
    #[command(
        after_help = "Exit status: 0 compared (whether or not they differ), 1 a variant \
                            has errors (printed), 2 usage or I/O error.\n\nExample: tegula \
                            variant diff variants/base.toml variants/house/farms-4.toml"
    )]
    Diff {
        /// First variant file.
        a: PathBuf,
        /// Second variant file.
        b: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    match args.command {
        Command::Explain { file, format } => {
            let Some(e) = load(&file)? else { return Ok(1) };
            match format {
                Format::Json => out::println(&serde_json::to_string_pretty(&e)?)?,
                Format::Human => out::print(&explain_text(&e))?,
            }
        }
        Command::Diff { a, b, format } => {
            let (Some(x), Some(y)) = (load(&a)?, load(&b)?) else {
                return Ok(1);
            };
            let d = diff(&x, &y);
            match format {
                Format::Json => {
                    let v = serde_json::json!({ "a": x.id, "b": y.id, "differences": d });
                    out::println(&serde_json::to_string_pretty(&v)?)?;
                }
                Format::Human => out::print(&diff_text(&x, &y, &d))?,
            }
        }
    }
    Ok(0)
}

/// Explain one variant; its diagnostics go to stderr when it has errors.
fn load(path: &Path) -> anyhow::Result<Option<Explanation>> {
    // Read bounded, like every input (a FIFO or device is refused, not waited on); a tile set or
    // scenario given by mistake gets one sentence, not a page of schema errors.
    super::file_kind::require_variant(path)?;
    let (e, diags) = explain(path);
    if e.is_none() {
        print_diags(&diags, 1);
    }
    Ok(e)
}

fn place(o: Option<&Origin>) -> String {
    o.map_or_else(
        || "default (rulebook)".to_string(),
        |o| format!("{}:{}", o.file.display(), o.line),
    )
}

fn rule_words(r: &RuleLine) -> String {
    match &r.rule {
        Some(id) => format!("{} ({id})", r.text),
        None => r.text.clone(),
    }
}

/// One line a rule: key, plain words with the rule id, where it was set.
pub fn explain_text(e: &Explanation) -> String {
    let mut out = format!("{} — {}\n", e.id, e.name);
    let chain: Vec<String> = e.chain.iter().map(|p| p.display().to_string()).collect();
    out.push_str(&format!("read from: {}\n", chain.join(" → ")));
    let width = e.rules.iter().map(|r| r.key.len()).max().unwrap_or(0);
    for r in &e.rules {
        out.push_str(&format!(
            "  {:<width$}  {}  [{}]\n",
            r.key,
            rule_words(r),
            place(r.origin.as_ref())
        ));
    }
    out
}

/// One block per differing rule: the words on each side and where each was set.
pub fn diff_text(a: &Explanation, b: &Explanation, d: &[Difference]) -> String {
    if d.is_empty() {
        return format!("{} and {}: the same rules\n", a.id, b.id);
    }
    let mut out = format!(
        "{} rule{} differ{} between {} and {}:\n",
        d.len(),
        if d.len() == 1 { "" } else { "s" },
        if d.len() == 1 { "s" } else { "" },
        a.id,
        b.id
    );
    let side = |id: &str, r: Option<&RuleLine>| match r {
        Some(r) => format!(
            "    {id}: {}  [{}]\n",
            rule_words(r),
            place(r.origin.as_ref())
        ),
        None => format!("    {id}: (no such rule)\n"),
    };
    for x in d {
        out.push_str(&format!("  {}\n", x.key));
        out.push_str(&side(&a.id, x.a.as_ref()));
        out.push_str(&side(&b.id, x.b.as_ref()));
    }
    out
}
