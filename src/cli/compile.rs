//! `tegula compile`: a tile-set file → its compiled model (cells, segments, connections,
//! features) as JSON or Graphviz DOT; a variant file → its lowered ruleset as JSON (or DOT over
//! its tiles).
//!
//! Exit codes: 0 compiled cleanly; 1 problems found (diagnostics on stderr; the output is still
//! written when something could be compiled); 2 usage or I/O error.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::out::{emit, print_diags};
use tegula_model::compile::{kind_name, CompiledTile};
use tegula_model::diag::Diagnostic;
use tegula_model::validate::FileKind;
use tegula_model::variant::{build_variant, compile_tileset_file, compile_variant};

use super::play::read_kind;

/// Output format of `tegula compile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The compiled model (tile set) or the lowered ruleset (variant) as JSON.
    Json,
    /// Graphviz: one cluster per tile, segments coloured by feature, connections as edges
    /// (joined solid, kept apart dashed red).
    Dot,
}

/// Arguments of `tegula compile`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 compiled cleanly, 1 problems found (diagnostics on \
                        stderr; the output is still written when something compiled), 2 usage \
                        or I/O error.\n\nExample: tegula compile variants/base.toml --format json"
)]
pub struct Args {
    /// A tile-set file (`tiles/base.toml`) or a variant file (`variants/base.toml`).
    pub path: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
    /// Only this tile (its id as written in the tile file).
    #[arg(long, value_name = "ID")]
    pub tile: Option<String>,
    /// Write to this file (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    let (text, diags) = if read_kind(&args.path)? == FileKind::Variant {
        compile_variant_output(&args)?
    } else {
        compile_set_output(&args)?
    };
    print_diags(&diags, 1);
    if let Some(text) = text {
        emit(args.out.as_deref(), &text)?;
    }
    Ok(if diags.iter().any(Diagnostic::is_error) {
        1
    } else {
        0
    })
}

type Output = (Option<String>, Vec<Diagnostic>);

fn compile_set_output(args: &Args) -> anyhow::Result<Output> {
    let (set, diags) = compile_tileset_file(&args.path);
    let Some((_, mut set)) = set else {
        return Ok((None, diags));
    };
    if let Some(id) = &args.tile {
        set.tiles.retain(|t| &t.id == id);
        if set.tiles.is_empty() {
            print_diags(&diags, 1);
            anyhow::bail!("no tile `{id}` in {}", args.path.display());
        }
    }
    let text = match args.format {
        Format::Json => json(&set)?,
        Format::Dot => dot(&set.tiles),
    };
    Ok((Some(text), diags))
}

fn compile_variant_output(args: &Args) -> anyhow::Result<Output> {
    match args.format {
        Format::Json => {
            let (rs, diags) = build_variant(&args.path);
            let Some(rs) = rs else {
                return Ok((None, diags));
            };
            let text = match &args.tile {
                None => json(&rs)?,
                Some(id) => match rs.tiles.iter().find(|t| &t.id == id) {
                    Some(t) => json(t)?,
                    None => {
                        print_diags(&diags, 1);
                        anyhow::bail!("no tile `{id}` in variant {}", args.path.display());
                    }
                },
            };
            Ok((Some(text), diags))
        }
        Format::Dot => {
            let (v, diags) = compile_variant(&args.path);
            let Some(mut v) = v else {
                return Ok((None, diags));
            };
            if let Some(id) = &args.tile {
                v.tiles.retain(|t| &t.id == id);
                if v.tiles.is_empty() {
                    print_diags(&diags, 1);
                    anyhow::bail!("no tile `{id}` in variant {}", args.path.display());
                }
            }
            Ok((Some(dot(&v.tiles)), diags))
        }
    }
}

fn json<T: serde::Serialize>(value: &T) -> anyhow::Result<String> {
    let mut s = serde_json::to_string_pretty(value)?;
    s.push('\n');
    Ok(s)
}

/// Fill colours for features (cycled by feature index).
const PALETTE: [&str; 10] = [
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
    "#d9d9d9", "#bc80bd",
];

fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}

/// Graphviz DOT of the tiles: one cluster per tile (and one per cell of a mega tile), a node
/// per segment labelled `id (kind)` and filled with its feature's colour, an edge per
/// connection (joined: solid; kept apart: dashed red).
pub(crate) fn dot(tiles: &[CompiledTile]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "graph tegula {{");
    let _ = writeln!(
        s,
        "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];"
    );
    for (ti, t) in tiles.iter().enumerate() {
        let node = |seg: usize| quote(&format!("{}/{}", t.id, t.segments[seg].id));
        let _ = writeln!(s, "  subgraph cluster_{ti} {{");
        let _ = writeln!(
            s,
            "    label={};",
            quote(&format!("{} — {} ({})", t.id, t.name, t.set))
        );
        for (ci, cell) in t.cells.iter().enumerate() {
            let mega = t.cells.len() > 1;
            if mega {
                let _ = writeln!(s, "    subgraph cluster_{ti}_{ci} {{");
                let _ = writeln!(
                    s,
                    "      label={}; style=dashed;",
                    quote(&format!("cell {} [{}, {}]", cell.id, cell.at.0, cell.at.1))
                );
            }
            for (i, seg) in t.segments.iter().enumerate().filter(|(_, x)| x.cell == ci) {
                let colour = PALETTE[seg.feature % PALETTE.len()];
                let _ = writeln!(
                    s,
                    "      {} [label={}, fillcolor={}];",
                    node(i),
                    quote(&format!("{} ({})", seg.id, kind_name(seg.kind))),
                    quote(colour)
                );
            }
            if mega {
                let _ = writeln!(s, "    }}");
            }
        }
        let _ = writeln!(s, "  }}");
        for c in &t.connections {
            let style = if c.joined {
                "style=solid"
            } else {
                "style=dashed, color=red"
            };
            let _ = writeln!(
                s,
                "  {} -- {} [label={}, {style}];",
                node(c.ends[0]),
                node(c.ends[1]),
                quote(&c.id)
            );
        }
    }
    let _ = writeln!(s, "}}");
    s
}
