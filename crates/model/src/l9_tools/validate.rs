//! Validating files and folders: every tile-set and variant file found is loaded, compiled and
//! checked; tile ids must be unique across all tile-set files validated together. The result is
//! one deduplicated, sorted list of diagnostics.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::compile::compile_tileset;
use crate::diag::{Code, Diagnostic, Related, Severity, Source};
use crate::facts::FactOutcome;
use crate::load;
use crate::rules::Rule;
use crate::schema::{TILESET_SCHEMA, VARIANT_SCHEMA};
use crate::variant::{compile_variant_with, lower_variant};

/// At most this many files are taken from the folders given (a bound on hostile trees).
pub const MAX_FILES: usize = 10_000;
/// Folders deeper than this below a given folder are not searched.
pub const MAX_DEPTH: usize = 16;

/// Schema names of kinds that other tools check (`tegula validate` passes hooks for them); without
/// a hook such files are skipped silently rather than reported as unknown.
pub const HANDLED_ELSEWHERE: &[&str] = &["scenario.schema.json"];

/// What a data file is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A tile-set file (`[set]`, `[[tile]]`).
    TileSet,
    /// A variant file (`sets = …`).
    Variant,
    /// Another kind, named by the file name of its `#:schema` line (e.g. `scenario.schema.json`).
    Other(String),
}

/// A checker for another kind of file, keyed by its schema file name (e.g. scenarios, whose
/// crate the model cannot depend on). It returns the file's diagnostics.
pub type Hook<'a> = (&'a str, &'a dyn Fn(&Path) -> Vec<Diagnostic>);

/// The outcome of a validation run.
#[derive(Clone, Debug, Default)]
pub struct Validation {
    /// The files examined (folders expanded), in order.
    pub files: Vec<PathBuf>,
    /// Every problem found, deduplicated and sorted by file, line, column.
    pub diagnostics: Vec<Diagnostic>,
    /// Every `[[fact]]` checked (those of the files given and of the tile sets their variants
    /// read), each once, sorted by file, line, column.
    pub facts: Vec<FactOutcome>,
}

/// Validate files and folders (searched recursively for `*.toml`). See [`validate_paths_with`].
pub fn validate_paths(paths: &[PathBuf]) -> Vec<Diagnostic> {
    validate_paths_with(paths, &[])
}

/// Validate files and folders; files of other kinds go to the matching hook, or are skipped
/// silently when there is none. A path that does not exist gives an `io` diagnostic.
pub fn validate_paths_with(paths: &[PathBuf], hooks: &[Hook<'_>]) -> Vec<Diagnostic> {
    run(paths, hooks).diagnostics
}

/// [`validate_paths_with`], also returning the list of files examined.
pub fn run(paths: &[PathBuf], hooks: &[Hook<'_>]) -> Validation {
    let mut diags = Vec::new();
    let mut facts = Vec::new();
    let files = collect_files(paths, &mut diags);
    // Tile sets shared by the variants are compiled once in the run.
    let mut sets = crate::variant::SetCache::default();
    // First definition of each tile id, as a secondary location for a later duplicate.
    let mut tile_ids: HashMap<String, Related> = HashMap::new();
    for file in &files {
        // Read once, bounded; unreadable, too large or non-UTF-8 files stop here.
        let source = match load::read_source(file) {
            Ok(source) => source,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        let kind = match classify(&source.text) {
            FileKind::Other(name) => {
                let (kind, more) = other_kind(file, &source, &name, hooks);
                diags.extend(more);
                match kind {
                    Some(kind) => kind,
                    None => continue,
                }
            }
            kind => kind,
        };
        match kind {
            FileKind::TileSet => {
                diags.extend(validate_tileset(source, &mut tile_ids, &mut facts));
            }
            FileKind::Variant => {
                // As `build_variant`, keeping the compiled variant's fact outcomes.
                let (compiled, mut variant_diags) = compile_variant_with(file, &mut sets);
                if let Some(v) = compiled {
                    if !variant_diags.iter().any(Diagnostic::is_error) {
                        variant_diags.extend(lower_variant(&v).1);
                    }
                    facts.extend(v.facts);
                }
                diags.extend(variant_diags);
            }
            FileKind::Other(_) => {}
        }
    }
    Validation {
        diagnostics: finish(diags),
        facts: finish_facts(facts),
        files,
    }
}

/// A file whose `#:schema` line names `name`, no tegula schema: its hook's diagnostics (the
/// file is then done, `None`), nothing for a file another command checks, else a diagnostic
/// and the kind its keys say.
fn other_kind(
    file: &Path,
    source: &Source,
    name: &str,
    hooks: &[Hook<'_>],
) -> (Option<FileKind>, Vec<Diagnostic>) {
    if let Some((_, hook)) = hooks.iter().find(|(n, _)| *n == name) {
        return (None, hook(file));
    }
    if HANDLED_ELSEWHERE.contains(&name) {
        return (None, Vec::new());
    }
    // A typo in the schema line must not make the file silently skipped.
    let d = load::schema_line_diag(
        source,
        format!("the `#:schema` line names `{name}`, which is not a tegula schema"),
    )
    .with_note(format!(
        "expected `{TILESET_SCHEMA}` or `{VARIANT_SCHEMA}`; the file is checked by its keys"
    ));
    (Some(classify_by_keys(&source.text)), vec![d])
}

/// A tile-set file parsed and compiled, its facts kept, its tile ids checked against those of
/// the files before it (`tile_ids`).
fn validate_tileset(
    source: Source,
    tile_ids: &mut HashMap<String, Related>,
    facts: &mut Vec<FactOutcome>,
) -> Vec<Diagnostic> {
    let (loaded, mut file_diags) = load::parse_tileset(source);
    if let Some(loaded) = loaded {
        let (set, compile_diags) = compile_tileset(&loaded);
        file_diags.extend(compile_diags);
        facts.extend(set.facts);
        duplicate_tile_ids(&loaded, tile_ids, &mut file_diags);
    }
    file_diags
}

/// A tile id already used by another tile set is reported at its second use.
fn duplicate_tile_ids(
    loaded: &load::Loaded<crate::raw::TileSetFile>,
    tile_ids: &mut HashMap<String, Related>,
    file_diags: &mut Vec<Diagnostic>,
) {
    let mut seen_here = HashSet::new();
    for tile in &loaded.doc.tile {
        let id = &tile.value.id;
        if !seen_here.insert(id.value.clone()) {
            continue; // duplicates inside one file are the compiler's to report
        }
        match tile_ids.get(&id.value) {
            Some(first) => file_diags.push(
                loaded
                    .source
                    .diag(
                        Code::DuplicateId,
                        id.span.clone(),
                        format!("tile id `{}` is already used by another tile set", id.value),
                    )
                    .with_note(format!(
                        "first defined at {}:{}:{}",
                        first.at.file.display(),
                        first.at.line,
                        first.at.column
                    ))
                    .with_note("tile ids must be unique across everything loaded together")
                    .with_label(first.clone()),
            ),
            None => {
                let first = loaded.source.label(id.span.clone(), "first defined here");
                tile_ids.insert(id.value.clone(), first);
            }
        }
    }
}

/// Classify a document by its `#:schema` line, else by its top-level keys (`[set]` → tile set,
/// `sets` → variant; anything else is treated as a tile set so that its problems are reported).
pub fn classify(text: &str) -> FileKind {
    if let Some(name) = load::schema_line_target(text) {
        return match name {
            TILESET_SCHEMA => FileKind::TileSet,
            VARIANT_SCHEMA => FileKind::Variant,
            other => FileKind::Other(other.to_string()),
        };
    }
    classify_by_keys(text)
}

/// Classify by the top-level keys alone: `sets = …` or `extends = …` → variant, anything else →
/// tile set.
fn classify_by_keys(text: &str) -> FileKind {
    // A cheap look at the top-level keys, without parsing (the file may not be TOML at all).
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            break; // tables start: top-level keys are over
        }
        if let Some((key, _)) = line.split_once('=') {
            if matches!(key.trim(), "sets" | crate::inherit::EXTENDS) {
                return FileKind::Variant;
            }
        }
    }
    FileKind::TileSet
}

/// Expand files and folders to the `*.toml` files to check: folders recursively (sorted, at most
/// [`MAX_DEPTH`] deep and [`MAX_FILES`] files), files given twice once. Paths that cannot be
/// read become [`Code::Io`] diagnostics.
pub fn collect_files(paths: &[PathBuf], diags: &mut Vec<Diagnostic>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        match std::fs::metadata(path) {
            Err(e) => diags.push(Diagnostic::file_level(
                Code::Io,
                path,
                format!("cannot read `{}`: {e}", path.display()),
            )),
            Ok(meta) if meta.is_dir() => walk(path, 0, &mut out, diags),
            Ok(_) => out.push(path.clone()),
        }
    }
    let mut seen = HashSet::new();
    out.retain(|p| seen.insert(std::fs::canonicalize(p).unwrap_or_else(|_| normalize(p))));
    if out.len() > MAX_FILES {
        if let Some(first) = paths.first() {
            diags.push(Diagnostic::file_level(
                Code::Io,
                first,
                format!("too many files: only the first {MAX_FILES} are validated"),
            ));
        }
        out.truncate(MAX_FILES);
    }
    out
}

/// A warning about a path the folder walk did not search or check (nothing is skipped silently).
fn skipped(path: &Path, why: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        ..Diagnostic::file_level(Code::Io, path, why)
    }
}

fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>, diags: &mut Vec<Diagnostic>) {
    if out.len() > MAX_FILES {
        return;
    }
    if depth > MAX_DEPTH {
        let why = format!(
            "`{}` is more than {MAX_DEPTH} folders deep: not searched",
            dir.display()
        );
        diags.push(skipped(dir, why));
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            diags.push(Diagnostic::file_level(
                Code::Io,
                dir,
                format!("cannot read folder `{}`: {e}", dir.display()),
            ));
            return;
        }
    };
    let mut entries: Vec<_> = entries
        .filter_map(|e| {
            e.map_err(|e| {
                diags.push(skipped(
                    dir,
                    format!("an entry of `{}`: {e}", dir.display()),
                ))
            })
            .ok()
        })
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let Ok(file_type) = entry.file_type() else {
            diags.push(skipped(
                &path,
                format!("`{}`: type unknown, skipped", path.display()),
            ));
            continue;
        };
        if file_type.is_dir() {
            walk(&path, depth + 1, out, diags);
        } else if path.extension().is_some_and(|e| e == "toml") {
            if file_type.is_file() || path.is_file() {
                out.push(path);
            } else {
                let why = format!("`{}` is not a regular file: skipped", path.display());
                diags.push(skipped(&path, why));
            }
        }
    }
}

pub use crate::reach::normalize;

/// Normalise file paths, keep each fact once (a variant re-checks its tile sets' facts), and sort
/// by file, line, column.
fn finish_facts(facts: Vec<FactOutcome>) -> Vec<FactOutcome> {
    let mut canonical: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for mut f in facts {
        f.file = normalize(&f.file);
        let key_path = canonical
            .entry(f.file.clone())
            .or_insert_with(|| std::fs::canonicalize(&f.file).unwrap_or_else(|_| f.file.clone()))
            .clone();
        if seen.insert((key_path, f.line, f.column)) {
            out.push(f);
        }
    }
    out.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    out
}

/// Normalise file paths, drop repeated diagnostics (a variant re-validates its tile sets), sort
/// by file, line, column, and keep at most so many per file.
fn finish(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut canonical: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for mut d in diags {
        d.at.file = normalize(&d.at.file);
        for l in &mut d.labels {
            l.at.file = normalize(&l.at.file);
        }
        let key_path = canonical
            .entry(d.at.file.clone())
            .or_insert_with(|| {
                std::fs::canonicalize(&d.at.file).unwrap_or_else(|_| d.at.file.clone())
            })
            .clone();
        if seen.insert((key_path, d.at.line, d.at.column, d.code, d.message.clone())) {
            out.push(d);
        }
    }
    out.sort_by(|a, b| {
        (&a.at.file, a.at.line, a.at.column, a.code, &a.message).cmp(&(
            &b.at.file,
            b.at.line,
            b.at.column,
            b.code,
            &b.message,
        ))
    });
    crate::diag::cap_per_file(out)
}

/// The rules declared (`[[rule]]`) by the tile sets and variants among `paths` (files, and
/// folders searched for `*.toml`), each once, in file order; with the problems met reading them
/// (unreadable files, clashing declarations). Files that do not compile still give the rules
/// they declare where they can be read.
pub fn declared_rules(paths: &[PathBuf]) -> (Vec<Rule>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut scope = crate::rules::Scope::default();
    for file in collect_files(paths, &mut diags) {
        let kind = match crate::load::read_source(&file) {
            Ok(source) => classify(&source.text),
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        let (rules, source) = match kind {
            FileKind::TileSet => match crate::variant::compile_tileset_file(&file).0 {
                Some((source, set)) => (set.rules, source),
                None => continue,
            },
            FileKind::Variant => match crate::variant::compile_variant(&file).0 {
                Some(v) => (v.rules, Source::new(&file, String::new())),
                None => continue,
            },
            FileKind::Other(_) => continue,
        };
        scope.merge(rules, &source, &mut diags);
    }
    (scope.into_declared(), diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_by_schema_line_then_keys() {
        assert_eq!(
            classify("#:schema ../schema/variant.schema.json\n"),
            FileKind::Variant
        );
        assert_eq!(
            classify("#:schema ../schema/tileset.schema.json\n"),
            FileKind::TileSet
        );
        assert_eq!(
            classify("#:schema ../schema/scenario.schema.json\n"),
            FileKind::Other("scenario.schema.json".into())
        );
        assert_eq!(classify("id = \"x\"\nsets = []\n"), FileKind::Variant);
        assert_eq!(classify("[set]\nid = \"x\"\n"), FileKind::TileSet);
    }

    #[test]
    fn unknown_schema_name_is_a_warning_not_a_skip() {
        let dir =
            std::env::temp_dir().join(format!("tegula-unknown-schema-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("typo.toml");
        std::fs::write(
            &file,
            "#:schema ../schema/tilset.schema.json\n[set]\nid = 5\nname = \"T\"\n",
        )
        .unwrap();
        let d = validate_paths(std::slice::from_ref(&file));
        std::fs::remove_dir_all(&dir).ok();
        assert!(
            d.iter()
                .any(|d| d.code == Code::MissingSchemaLine && d.at.line == 1 && !d.is_error()),
            "{d:?}"
        );
        // ... and the file is still checked (as a tile set, by its keys).
        assert!(
            d.iter().any(|d| d.code == Code::Schema && d.at.line == 3),
            "{d:?}"
        );
    }

    #[test]
    fn normalize_removes_dot_dot() {
        assert_eq!(
            normalize(Path::new("variants/../tiles/a.toml")),
            PathBuf::from("tiles/a.toml")
        );
        assert_eq!(normalize(Path::new("./a/./b")), PathBuf::from("a/b"));
        assert_eq!(normalize(Path::new("../x")), PathBuf::from("../x"));
    }

    /// A FIFO named `*.toml` must not block the validator (issue 2, item 9: never hang).
    #[cfg(unix)]
    #[test]
    fn fifo_is_refused_without_blocking() {
        let dir = std::env::temp_dir().join(format!("tegula-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("pipe.toml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            std::fs::remove_dir_all(&dir).ok();
            return; // no mkfifo here: nothing to test
        }
        let explicit = validate_paths(std::slice::from_ref(&fifo));
        let folder = validate_paths(std::slice::from_ref(&dir));
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(explicit.len(), 1, "{explicit:?}");
        assert_eq!(explicit[0].code, Code::Io);
        assert!(explicit[0].message.contains("not a regular file"));
        // Inside a folder it is skipped, and the walk says so (a warning, not an error).
        assert_eq!(folder.len(), 1, "{folder:?}");
        assert!(!folder[0].is_error() && folder[0].message.contains("not a regular file"));
    }

    #[test]
    fn missing_path_is_io() {
        let d = validate_paths(&[PathBuf::from("/nonexistent/tegula/x.toml")]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, Code::Io);
    }
}
