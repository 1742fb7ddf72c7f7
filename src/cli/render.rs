//! `tegula render`: draw a tile (a mega tile as its whole footprint) as SVG or ASCII, or a
//! contact sheet of a whole set as one SVG.
//!
//! Exit codes: 0 drawn; 1 drawn, but the compiler reports problems in the tile (they are printed
//! to stderr; the picture helps to find them) or the tile cannot be drawn; 2 usage or I/O error
//! (unknown tile id or set, unreadable folder, unwritable output).

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use tegula_model::compile::{compile_tileset, CompiledSet};
use tegula_model::diag::Diagnostic;
use tegula_model::load::{parse_tileset, read_source, Loaded};
use tegula_model::raw::TileSetFile;
use tegula_model::validate::{classify, FileKind};
use tegula_render::{ascii, files, svg, TileView};

use super::out::{self, emit, print_diags};

/// Output format of `tegula render`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// An SVG picture (the default).
    Svg,
    /// A terminal picture with a legend.
    Ascii,
    /// What the picture shows, as JSON: cells at their drawing positions, every feature with its
    /// number, colour and segments, every connection with its colour (for tools and tests).
    Json,
}

/// Arguments of `tegula render`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["tile", "sheet"])))]
#[command(
    after_help = "Exit status: 0 drawn, 1 drawn but the compiler reports problems in the \
                        tile (on stderr), 2 usage or I/O error (unknown tile or set, unwritable \
                        output).\n\nExample: tegula render notre-dame --out /tmp/notre-dame.svg"
)]
pub struct Args {
    /// Tile id as written in the tile files (`D`, `am-11`, `notre-dame`).
    pub tile: Option<String>,
    /// Draw a contact sheet instead: every tile of this set id (`base`, `wonders-1`), or of this
    /// tile-set file or folder, in one SVG.
    #[arg(long, value_name = "SET|PATH")]
    pub sheet: Option<String>,
    /// Folder (searched recursively) or file holding the tile sets.
    #[arg(long, value_name = "DIR", default_value = "tiles")]
    pub tiles: PathBuf,
    /// Output format (contact sheets: SVG or JSON).
    #[arg(long, value_enum, default_value_t = Format::Svg)]
    pub format: Format,
    /// Write to this file (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Clockwise rotation: quarter turns 0-3, or degrees 90, 180, 270.
    #[arg(long, short, default_value_t = 0, value_parser = parse_rotation)]
    pub rotation: u8,
}

fn parse_rotation(s: &str) -> Result<u8, String> {
    match s.trim() {
        "0" => Ok(0),
        "1" | "90" => Ok(1),
        "2" | "180" => Ok(2),
        "3" | "270" => Ok(3),
        other => Err(format!(
            "`{other}` is not a rotation: use 0-3 quarter turns or 90, 180, 270 degrees"
        )),
    }
}

/// A loaded and compiled tile-set file.
struct SetFile {
    path: PathBuf,
    loaded: Loaded<TileSetFile>,
    compiled: CompiledSet,
    /// The compiler's errors for this file.
    problems: Vec<Diagnostic>,
}

/// Load every tile-set file under `root`; files that do not load are reported and skipped, and
/// so is what the folder walk skipped (warnings, printed now, as `validate` prints them).
fn load_all(root: &Path) -> anyhow::Result<(Vec<SetFile>, Vec<Diagnostic>)> {
    let (paths, skipped) = files::tileset_files_and_warnings(root)
        .with_context(|| format!("cannot read tile sets under `{}`", root.display()))?;
    print_diags(&skipped, paths.len());
    let mut sets = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        let source = match read_source(&path) {
            Ok(s) => s,
            Err(d) => {
                problems.push(d);
                continue;
            }
        };
        // Variants, scenarios and other data files may share the folder: only tile sets count.
        if classify(&source.text) != FileKind::TileSet {
            continue;
        }
        let (loaded, diags) = parse_tileset(source);
        match loaded {
            Some(loaded) => {
                let (compiled, diags) = compile_tileset(&loaded);
                let problems = diags.into_iter().filter(Diagnostic::is_error).collect();
                sets.push(SetFile {
                    path,
                    loaded,
                    compiled,
                    problems,
                });
            }
            None => problems.extend(diags.into_iter().filter(Diagnostic::is_error)),
        }
    }
    Ok((sets, problems))
}

/// Compiler errors of `file` that lie inside the tile at `index` of the raw file (by span).
fn tile_problems(file: &SetFile, index: usize) -> Vec<&Diagnostic> {
    let span = file.loaded.doc.tile[index].span.clone();
    file.problems
        .iter()
        .filter(|d| {
            d.at.span
                .as_ref()
                .is_some_and(|s| s.start >= span.start && s.end <= span.end)
        })
        .collect()
}

/// Draw the tile at `index` of the raw file from its compiled form, or say why not.
fn view_of(file: &SetFile, index: usize, rotation: u8) -> Result<TileView, String> {
    let id = &file.loaded.doc.tile[index].id.value;
    file.compiled
        .tiles
        .iter()
        .find(|t| &t.id == id)
        .map(|t| TileView::from_compiled(t, rotation))
        .ok_or_else(|| format!("the compiler could not make sense of tile `{id}`"))
}

/// Run the verb.
pub fn run(args: Args) -> anyhow::Result<u8> {
    match (&args.tile, &args.sheet) {
        (Some(tile), None) => render_tile(&args, tile),
        (None, Some(set)) => render_sheet(&args, set),
        _ => anyhow::bail!("give either a TILE id or --sheet SET"),
    }
}

fn render_tile(args: &Args, wanted: &str) -> anyhow::Result<u8> {
    let (sets, load_problems) = load_all(&args.tiles)?;
    let found = sets.iter().find_map(|f| {
        f.loaded
            .doc
            .tile
            .iter()
            .position(|t| t.id.value == wanted)
            .map(|i| (f, i))
    });
    let Some((file, index)) = found else {
        let ids = sets
            .iter()
            .flat_map(|f| f.loaded.doc.tile.iter().map(|t| t.id.value.as_str()));
        let close = files::close_matches(wanted, ids);
        out::eprintln(&format!(
            "error: no tile `{wanted}` in the tile sets under `{}`",
            args.tiles.display()
        ));
        if !close.is_empty() {
            out::eprintln(&format!("  did you mean: {}?", close.join(", ")));
        }
        if !load_problems.is_empty() {
            out::eprintln("  (some files could not be loaded; run `tegula validate` on them)");
            print_diags(&load_problems, load_problems.len());
        }
        return Ok(2);
    };
    let problems: Vec<Diagnostic> = tile_problems(file, index).into_iter().cloned().collect();
    print_diags(&problems, 1);
    let view = match view_of(file, index, args.rotation) {
        Ok(v) => v,
        Err(e) => {
            out::eprintln(&format!(
                "error: cannot draw `{wanted}` ({}): {e}",
                file.path.display()
            ));
            return Ok(1);
        }
    };
    let text = match args.format {
        Format::Svg => svg::tile_svg(&view),
        Format::Ascii => out::terminal_picture(&ascii::tile_ascii(&view)),
        Format::Json => format!("{:#}\n", view_json(&view)),
    };
    emit(args.out.as_deref(), &text)?;
    Ok(if problems.is_empty() { 0 } else { 1 })
}

fn render_sheet(args: &Args, set: &str) -> anyhow::Result<u8> {
    if args.format == Format::Ascii {
        anyhow::bail!("contact sheets are SVG or JSON (use --format svg or --format json)");
    }
    if args.rotation != 0 {
        anyhow::bail!("--rotation applies to one tile, not to a contact sheet");
    }
    // A path names the files directly; otherwise SET is a set id under --tiles.
    let as_path = Path::new(set);
    let (sets, load_problems, title) = if as_path.exists() {
        let (sets, problems) = load_all(as_path)?;
        (sets, problems, set.to_string())
    } else {
        let (all, problems) = load_all(&args.tiles)?;
        let ids: Vec<String> = all
            .iter()
            .map(|f| f.loaded.doc.set.id.value.clone())
            .collect();
        let chosen: Vec<SetFile> = all
            .into_iter()
            .filter(|f| f.loaded.doc.set.id.value == set)
            .collect();
        if chosen.is_empty() {
            let mut unique = ids.clone();
            unique.sort();
            unique.dedup();
            out::eprintln(&format!(
                "error: no set `{set}` (and no such file or folder) under `{}`",
                args.tiles.display()
            ));
            let close = files::close_matches(set, unique.iter().map(String::as_str));
            if !close.is_empty() {
                out::eprintln(&format!("  did you mean: {}?", close.join(", ")));
            } else if !unique.is_empty() {
                out::eprintln(&format!("  sets found: {}", unique.join(", ")));
            }
            return Ok(2);
        }
        let title = format!("{} ({set})", chosen[0].loaded.doc.set.name);
        (chosen, problems, title)
    };
    let mut status = u8::from(!load_problems.is_empty());
    let mut problems = load_problems;
    let mut views = Vec::new();
    for f in &sets {
        for (i, t) in f.loaded.doc.tile.iter().enumerate() {
            problems.extend(tile_problems(f, i).into_iter().cloned());
            match view_of(f, i, 0) {
                Ok(v) => views.push(v),
                Err(e) => {
                    out::eprintln(&format!(
                        "error: cannot draw `{}` ({}): {e}",
                        *t.id,
                        f.path.display()
                    ));
                    status = 1;
                }
            }
        }
    }
    if !problems.is_empty() {
        status = 1;
        print_diags(&problems, sets.len());
    }
    if views.is_empty() {
        out::eprintln(&format!("error: no tiles to draw in `{set}`"));
        return Ok(2);
    }
    let text = match args.format {
        Format::Json => format!(
            "{:#}\n",
            serde_json::json!({
                "title": title,
                "tiles": views.iter().map(view_json).collect::<Vec<_>>(),
            })
        ),
        _ => svg::sheet_svg(&title, &views),
    };
    emit(args.out.as_deref(), &text)?;
    Ok(status)
}

/// The picture's content as JSON (`--format json`).
fn view_json(view: &TileView) -> serde_json::Value {
    use serde_json::json;
    let (w, h) = view.size();
    let side_kind =
        |k: tegula_ruleset::SideKind| serde_json::to_value(k).unwrap_or(serde_json::Value::Null);
    json!({
        "id": view.id,
        "name": view.name,
        "count": view.count,
        "start": view.start,
        "rotation": u32::from(view.rotation) * 90,
        "size": [w, h],
        "cells": view.cells.iter().map(|c| json!({
            "id": c.id,
            "x": c.x,
            "y": c.y,
            "sides": c.sides.iter().map(|k| side_kind(*k)).collect::<Vec<_>>(),
            "outer": c.outer,
        })).collect::<Vec<_>>(),
        "features": view.features.iter().enumerate().map(|(i, f)| json!({
            "number": i,
            "kind": tegula_render::view::kind_name(f.kind),
            "colour": svg::feature_colour(view, i),
            "segments": f.segments.iter().filter_map(|&s| view.segments.get(s)).map(|s| json!({
                "id": s.id,
                "cell": view.cells.get(s.cell).map(|c| c.id.as_str()),
                "sides": s.sides.iter().map(|x| x.name()).collect::<Vec<_>>(),
                "halves": s.halves.iter().map(|x| x.name()).collect::<Vec<_>>(),
                "pennants": s.pennants,
            })).collect::<Vec<_>>(),
            "cells": f.cells,
            "pennants": f.pennants,
            "open_sides": f.open_sides,
            "borders": f.borders,
        })).collect::<Vec<_>>(),
        "connections": view.connections.iter().map(|c| json!({
            "id": c.id,
            "segments": [
                view.segments.get(c.a).map(|s| s.id.as_str()),
                view.segments.get(c.b).map(|s| s.id.as_str()),
            ],
            "joined": c.joined,
            "colour": if c.joined { "blue" } else { "red" },
            "rule": c.rule,
        })).collect::<Vec<_>>(),
        "abilities": view.abilities,
    })
}
