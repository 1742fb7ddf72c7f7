//! `tegula schema [--out DIR] [--check]`: write (or check) the JSON Schemas of the file formats.
//!
//! The schemas are generated from the Rust types; `schema/*.schema.json` in the repository are
//! their committed copies (a test fails when they drift). Files are written atomically.

use std::path::PathBuf;

use serde_json::Value;

use super::fsio::{read_own_output, write_output_atomically};
use super::out;

/// Output format of the list of files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per file.
    #[default]
    Human,
    /// One JSON array of `{ "file", "status" }` objects.
    Json,
}

/// Arguments of `tegula schema`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 ok, 1 --check found stale files, 2 usage or I/O \
                        error.\n\n--out is a folder here: the verb writes one file per format."
)]
pub struct Args {
    /// Folder to write the schemas into.
    #[arg(long, value_name = "DIR", default_value = "schema")]
    pub out: PathBuf,
    /// Write nothing; exit 1 if any file in DIR is missing or differs from the generated schema.
    #[arg(long)]
    pub check: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Every schema the `tegula` formats have: the model's, then other crates' (append here).
pub fn all_schemas() -> Vec<(&'static str, Value)> {
    let mut all = tegula_model::schema::schemas();
    all.push((
        tegula_scenario::SCENARIO_SCHEMA,
        tegula_scenario::schema_json(),
    ));
    all.push((
        tegula_model::schema::RULESET_SCHEMA,
        tegula_model::schema::generate_json::<tegula_ruleset::Ruleset>(),
    ));
    all
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let mut results: Vec<(PathBuf, &'static str)> = Vec::new();
    let mut stale = false;
    if !args.check {
        std::fs::create_dir_all(&args.out)
            .map_err(|e| anyhow::anyhow!("cannot create `{}`: {e}", args.out.display()))?;
    }
    for (name, schema) in all_schemas() {
        let path = args.out.join(name);
        let text = tegula_model::schema::to_pretty(&schema);
        // Bounded like every input (a FIFO or a huge file here is simply "differs").
        let current = read_own_output(&path).ok();
        let status = if current.as_deref() == Some(text.as_str()) {
            "unchanged"
        } else if args.check {
            stale = true;
            if current.is_none() {
                "missing"
            } else {
                "differs"
            }
        } else {
            write_output_atomically(&path, text.as_bytes())?;
            "written"
        };
        results.push((path, status));
    }
    let mut text = String::new();
    match args.format {
        Format::Human => {
            for (path, status) in &results {
                text.push_str(&format!("{status:>9}  {}\n", path.display()));
            }
            if stale {
                text.push_str("schemas are stale: run `cargo run -- schema`\n");
            }
        }
        Format::Json => {
            let list: Vec<Value> = results
                .iter()
                .map(|(p, s)| serde_json::json!({ "file": p.to_string_lossy(), "status": s }))
                .collect();
            text = serde_json::to_string_pretty(&list)? + "\n";
        }
    }
    out::print(&text)?;
    Ok(u8::from(stale))
}
