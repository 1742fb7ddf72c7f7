//! Author mode (`tegula serve --watch DIR`): the tile sets and variants under DIR are validated
//! again whenever one of their files changes (polled four times a second, so a save shows in
//! the page within a second), and their tiles drawn as a contact sheet.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use serde_json::{json, Value};
use tegula_model::validate::{classify, FileKind, Hook};
use tegula_render::TileView;

/// How often the folder is looked at.
const POLL: Duration = Duration::from_millis(250);
/// Most tiles drawn on the contact sheet.
const MAX_SHEET_TILES: usize = 400;

/// The latest check of the watched folder.
#[derive(Default)]
pub struct Report {
    /// Counts the checks (the page redraws when it changes).
    pub generation: u64,
    /// `tegula validate --format json`'s object for the folder, with `generation` and `dir`.
    pub json: Value,
    /// The contact sheet of the folder's tiles (SVG), empty when there are none.
    pub sheet: String,
}

/// A folder being watched, and its latest report.
pub struct Watch {
    /// The folder.
    pub dir: PathBuf,
    /// What the page shows.
    pub report: RwLock<Report>,
}

/// What the folder's files look like now: each `.toml` file with its size and time.
fn fingerprint(dir: &Path) -> Vec<(PathBuf, u64, SystemTime)> {
    let files = tegula_render::files::tileset_files(dir).unwrap_or_default();
    files
        .into_iter()
        .filter_map(|p| {
            let m = std::fs::metadata(&p).ok()?;
            Some((p, m.len(), m.modified().unwrap_or(SystemTime::UNIX_EPOCH)))
        })
        .collect()
}

/// Check the folder: diagnostics and facts as `tegula validate` finds them, and the sheet.
fn check(dir: &Path, generation: u64) -> Report {
    let hooks: Vec<Hook<'static>> = vec![(
        tegula_scenario::SCENARIO_SCHEMA,
        &tegula_scenario::validate_file,
    )];
    let outcome = tegula_model::validate::run(&[dir.to_path_buf()], &hooks);
    let text = tegula_model::report::validation_to_json(&outcome.diagnostics, &outcome.facts);
    let mut json: Value = serde_json::from_str(&text).unwrap_or_else(|_| json!({}));
    json["generation"] = json!(generation);
    json["dir"] = json!(dir.display().to_string());
    json["files"] = json!(outcome.files.len());
    Report {
        generation,
        json,
        sheet: sheet(dir, &outcome.files),
    }
}

/// A contact sheet of the tiles of every tile-set file among `files`.
fn sheet(dir: &Path, files: &[PathBuf]) -> String {
    let mut views = Vec::new();
    for f in files {
        let is_set = std::fs::read_to_string(f).is_ok_and(|t| classify(&t) == FileKind::TileSet);
        if !is_set {
            continue;
        }
        if let (Some((_, set)), _) = tegula_model::variant::compile_tileset_file(f) {
            views.extend(set.tiles.iter().map(|t| TileView::from_compiled(t, 0)));
        }
        if views.len() >= MAX_SHEET_TILES {
            views.truncate(MAX_SHEET_TILES);
            break;
        }
    }
    if views.is_empty() {
        return String::new();
    }
    tegula_render::svg::sheet_svg(&format!("tiles under {}", dir.display()), &views)
}

/// Start watching `dir` on a thread of its own, which stops once `stop` is set.
pub fn start(dir: PathBuf, stop: Arc<AtomicBool>) -> Arc<Watch> {
    let first = check(&dir, 1);
    let watch = Arc::new(Watch {
        dir,
        report: RwLock::new(first),
    });
    let w = watch.clone();
    std::thread::spawn(move || {
        let mut seen = fingerprint(&w.dir);
        let mut generation = 1;
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(POLL);
            let now = fingerprint(&w.dir);
            if now != seen {
                seen = now;
                generation += 1;
                let report = check(&w.dir, generation);
                if let Ok(mut r) = w.report.write() {
                    *r = report;
                }
            }
        }
    });
    watch
}
