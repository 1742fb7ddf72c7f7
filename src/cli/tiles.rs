//! `tegula tiles`: list the tiles of tile-set files, variants, or folders of them (searched
//! recursively): id, name, set, count, start, cells, cities, roads, fields, pennants.
//!
//! Exit codes: 0 listed; 1 the compiler found problems (diagnostics on stderr; what compiled is
//! still listed); 2 usage or I/O error.

use std::path::{Path, PathBuf};

use serde::Serialize;
use tegula_model::compile::CompiledTile;
use tegula_model::diag::Diagnostic;
use tegula_model::validate::FileKind;
use tegula_model::variant::{compile_tileset_file, compile_variant};
use tegula_ruleset::FeatureKind;

use super::out::{self, print_diags};
use super::play::read_kind;

/// Output format of `tegula tiles`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// An aligned table.
    Human,
    /// One JSON array of objects.
    Json,
}

/// Arguments of `tegula tiles`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 listed, 1 some files have problems (run `tegula \
                        validate` on them), 2 usage or I/O error.\n\nExample: tegula tiles \
                        tiles/base.toml"
)]
pub struct Args {
    /// Tile-set files, variant files, or folders of them (searched recursively).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// One row of the listing.
#[derive(Debug, Serialize)]
struct Row {
    id: String,
    name: String,
    set: String,
    /// Draw-pile copies (times the variant's `copies`, for a variant).
    count: u64,
    start: bool,
    cells: usize,
    cities: usize,
    roads: usize,
    fields: usize,
    /// Pennants on one copy.
    pennants: u64,
    /// The file the listing came from (tile set or variant).
    #[serde(serialize_with = "tegula_model::diag::lossy_path")]
    file: PathBuf,
}

fn row(t: &CompiledTile, file: &Path) -> Row {
    let n = |k: FeatureKind| t.features_of(k).count();
    Row {
        id: t.id.clone(),
        name: t.name.clone(),
        set: t.set.clone(),
        count: t.count,
        start: t.start,
        cells: t.cells.len(),
        cities: n(FeatureKind::City),
        roads: n(FeatureKind::Road),
        fields: n(FeatureKind::Field),
        pennants: t.pennants(),
        file: file.to_path_buf(),
    }
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    // Files and folders (recursively) as `tegula validate` finds them; what the walk skipped
    // is a warning, an unreadable path a usage error.
    let mut walk = Vec::new();
    let files = tegula_model::validate::collect_files(&args.paths, &mut walk);
    let mut unreadable = walk.iter().any(Diagnostic::is_error);
    let mut rows = Vec::new();
    let mut diags: Vec<Diagnostic> = walk;
    for f in &files {
        let kind = match read_kind(f) {
            Ok(kind) => kind,
            Err(e) => {
                out::eprintln(&format!("error: {e}"));
                unreadable = true;
                continue;
            }
        };
        if kind == FileKind::Variant {
            let (v, d) = compile_variant(f);
            diags.extend(d);
            if let Some(v) = v {
                rows.extend(v.tiles.iter().map(|t| row(t, f)));
            }
        } else {
            let (set, d) = compile_tileset_file(f);
            diags.extend(d);
            if let Some((_, set)) = set {
                rows.extend(set.tiles.iter().map(|t| row(t, f)));
            }
        }
    }
    print_diags(&diags, files.len());
    let text = match args.format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&rows)?;
            s.push('\n');
            s
        }
        Format::Human => table(&rows),
    };
    out::print(&text)?;
    Ok(if unreadable {
        2
    } else if diags.iter().any(Diagnostic::is_error) {
        1
    } else {
        0
    })
}

fn table(rows: &[Row]) -> String {
    let head = [
        "id", "name", "set", "count", "start", "cells", "cities", "roads", "fields", "pennants",
    ];
    let mut cells: Vec<[String; 10]> = vec![head.map(String::from)];
    for r in rows {
        cells.push([
            r.id.clone(),
            r.name.clone(),
            r.set.clone(),
            r.count.to_string(),
            if r.start { "yes" } else { "" }.to_string(),
            r.cells.to_string(),
            r.cities.to_string(),
            r.roads.to_string(),
            r.fields.to_string(),
            r.pennants.to_string(),
        ]);
    }
    let mut width = [0usize; 10];
    for c in &cells {
        for (i, v) in c.iter().enumerate() {
            width[i] = width[i].max(v.chars().count());
        }
    }
    let mut s = String::new();
    for c in &cells {
        let mut line = String::new();
        for (i, v) in c.iter().enumerate() {
            let pad = width[i] - v.chars().count();
            // Text columns left-aligned, numbers right-aligned.
            if i < 3 {
                line.push_str(v);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str(&" ".repeat(pad));
                line.push_str(v);
            }
            line.push_str("  ");
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    let total: u64 = rows.iter().map(|r| r.count + u64::from(r.start)).sum();
    s.push_str(&format!(
        "{} tile type{}, {} tile{} (start copies included)\n",
        rows.len(),
        tegula_render::view::plural(rows.len()),
        total,
        tegula_render::view::plural(total as usize)
    ));
    s
}
