//! `tegula validate PATH…`: check tile sets and variants (TOML syntax, JSON Schema, topology,
//! rulebook facts) and report every problem.
//!
//! Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 usage or I/O error (e.g. a path
//! that does not exist or a file that cannot be read).

use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;

use tegula_model::report::{self, termcolor};
use tegula_model::validate::{self, Hook};
use tegula_model::Code;

use super::out::{self, Escaping, StdoutError};

/// Output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Source excerpts and a summary line (colour when printing to a terminal).
    #[default]
    Human,
    /// One JSON object: `diagnostics` (an array of objects: code, severity, message, file,
    /// line, column, end position, rule, notes and labelled secondary locations; docs/FORMAT.md
    /// lists the keys) and `facts` (counts by source and status, and `list`, one object per
    /// fact).
    Json,
}

/// Arguments of `tegula validate`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 no errors (warnings allowed), 1 errors found, \
                        2 usage or I/O error.\n\nExample: tegula validate tiles variants"
)]
pub struct Args {
    /// Tile-set, variant or scenario files, or folders searched recursively for `*.toml`.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Checkers for other kinds of files, keyed by their schema file name (see
/// [`tegula_model::validate::Hook`]). Files of kinds not listed are skipped.
fn hooks() -> Vec<Hook<'static>> {
    vec![(
        tegula_scenario::SCENARIO_SCHEMA,
        &tegula_scenario::validate_file,
    )]
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let hooks = hooks();
    let outcome = validate::run(&args.paths, &hooks);
    let diags = &outcome.diagnostics;
    match args.format {
        Format::Json => out::println(&report::validation_to_json(diags, &outcome.facts))?,
        Format::Human => {
            let choice = if std::io::stdout().is_terminal() {
                termcolor::ColorChoice::Auto
            } else {
                termcolor::ColorChoice::Never
            };
            let mut w = Escaping::new(termcolor::StandardStream::stdout(choice));
            report::render_human_with_facts(diags, outcome.files.len(), &outcome.facts, &mut w)
                .and_then(|()| w.flush())
                .map_err(StdoutError)?;
        }
    }
    Ok(exit_code(diags))
}

fn exit_code(diags: &[tegula_model::Diagnostic]) -> u8 {
    if diags.iter().any(|d| d.code == Code::Io && d.is_error()) {
        2
    } else if diags.iter().any(|d| d.is_error()) {
        1
    } else {
        0
    }
}
