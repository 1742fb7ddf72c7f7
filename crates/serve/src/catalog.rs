//! The variants the server may play: every variant file under its data roots, found by walking
//! them (never by a path a request names). A request names a variant by its *key* (`base`,
//! `house/farms-4`, `mydata/notre-dame-only`), which is looked up in the catalog: a key that is
//! not listed is refused, so no request reaches a file outside the roots.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use tegula_engine::Rules;
use tegula_model::compile::CompiledTile;
use tegula_model::validate::{classify, FileKind};
use tegula_model::Diagnostic;

/// Largest variant file the catalog classifies (a hostile root cannot make it read more).
const MAX_FILE: u64 = 1 << 20;
/// Most variant files listed (over all roots).
const MAX_VARIANTS: usize = 500;
/// Loaded variants kept in memory.
const MAX_LOADED: usize = 16;

/// A data root: a folder whose variants can be played.
#[derive(Clone, Debug)]
pub struct Root {
    /// The folder, canonical.
    pub dir: PathBuf,
    /// Prefix of its variants' keys (empty for the shipped `variants/`).
    pub prefix: String,
    /// Whether author mode watches it.
    pub watched: bool,
}

/// One playable (or at least listed) variant file.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Entry {
    /// What requests call it.
    pub key: String,
    /// The file (inside its root).
    #[serde(skip)]
    pub path: PathBuf,
    /// The file as shown to the user (relative to the server's working folder when it can be).
    pub file: String,
    /// Whether it lies in the folder author mode watches.
    pub watched: bool,
}

/// A variant ready to play: its rules and its tiles' drawings.
pub struct Loaded {
    /// The checked, precomputed rules.
    pub rules: Arc<Rules>,
    /// Compiled tiles in ruleset order, for the pictures.
    pub drawings: Vec<CompiledTile>,
}

/// Why a variant cannot be played.
#[derive(Debug)]
pub enum LoadError {
    /// No variant has this key.
    Unknown(String),
    /// The variant has errors (its diagnostics).
    Invalid(Vec<Diagnostic>),
    /// The lowered rules were refused by the engine.
    Rules(String),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Unknown(k) => write!(f, "no variant `{k}` in the server's data roots"),
            LoadError::Invalid(d) => write!(f, "the variant has {} error(s)", d.len()),
            LoadError::Rules(e) => write!(f, "the engine refuses the variant: {e}"),
        }
    }
}

/// The data roots and a small cache of loaded variants.
pub struct Catalog {
    roots: Vec<Root>,
    loaded: Mutex<HashMap<PathBuf, (SystemTime, Arc<Loaded>)>>,
}

impl Catalog {
    /// A catalog of `roots` (each must be an existing folder; checked by [`root`]).
    pub fn new(roots: Vec<Root>) -> Catalog {
        Catalog {
            roots,
            loaded: Mutex::new(HashMap::new()),
        }
    }

    /// The roots, in the order given.
    pub fn roots(&self) -> &[Root] {
        &self.roots
    }

    /// Every variant file under the roots, walked anew (files added or removed since show),
    /// sorted by key; a key met twice keeps its first root's file.
    pub fn entries(&self) -> Vec<Entry> {
        let mut out: Vec<Entry> = Vec::new();
        for root in &self.roots {
            let files = tegula_render::files::tileset_files(&root.dir).unwrap_or_default();
            for path in files {
                if out.len() >= MAX_VARIANTS {
                    return out;
                }
                if let Some(e) = entry(root, &path) {
                    if !out.iter().any(|o| o.key == e.key) {
                        out.push(e);
                    }
                }
            }
        }
        out.sort_by(|a, b| a.key.cmp(&b.key));
        out
    }

    /// The entry called `key`.
    pub fn find(&self, key: &str) -> Option<Entry> {
        self.entries().into_iter().find(|e| e.key == key)
    }

    /// Load (or take from the cache, while the file is unchanged) the variant called `key`.
    pub fn load(&self, key: &str) -> Result<(Entry, Arc<Loaded>), LoadError> {
        let entry = self
            .find(key)
            .ok_or_else(|| LoadError::Unknown(key.to_string()))?;
        let stamp = modified(&entry.path);
        if let Ok(cache) = self.loaded.lock() {
            if let Some((t, l)) = cache.get(&entry.path) {
                if *t == stamp {
                    return Ok((entry, l.clone()));
                }
            }
        }
        let loaded = Arc::new(load_file(&entry.path)?);
        if let Ok(mut cache) = self.loaded.lock() {
            if cache.len() >= MAX_LOADED {
                cache.clear();
            }
            cache.insert(entry.path.clone(), (stamp, loaded.clone()));
        }
        Ok((entry, loaded))
    }
}

/// The time `path` was last changed (the epoch when unknown: then never cached twice wrongly,
/// since a file whose time cannot be read compares equal only to another such read).
fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// Compile, lower and check the variant at `path`.
pub fn load_file(path: &Path) -> Result<Loaded, LoadError> {
    let (compiled, mut diags) = tegula_model::variant::compile_variant(path);
    let compiled = match compiled {
        Some(c) if !diags.iter().any(Diagnostic::is_error) => c,
        _ => return Err(LoadError::Invalid(diags)),
    };
    let (ruleset, more) = tegula_model::variant::lower_variant(&compiled);
    diags.extend(more);
    let Some(ruleset) = ruleset else {
        return Err(LoadError::Invalid(diags));
    };
    let rules = Rules::new(ruleset).map_err(|e| LoadError::Rules(e.to_string()))?;
    Ok(Loaded {
        rules: Arc::new(rules),
        drawings: compiled.tiles,
    })
}

/// The catalog entry of `path` under `root`, if it is a variant file that stays inside the
/// root once links are resolved.
fn entry(root: &Root, path: &Path) -> Option<Entry> {
    let real = path.canonicalize().ok()?;
    if !real.starts_with(&root.dir) || path.extension()? != "toml" {
        return None;
    }
    let meta = std::fs::metadata(&real).ok()?;
    if !meta.is_file() || meta.len() > MAX_FILE {
        return None;
    }
    let text = std::fs::read_to_string(&real).ok()?;
    if classify(&text) != FileKind::Variant {
        return None;
    }
    let rel = real.strip_prefix(&root.dir).ok()?.with_extension("");
    let rel: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let mut key = rel.join("/");
    if !root.prefix.is_empty() {
        key = format!("{}/{key}", root.prefix);
    }
    let file = std::env::current_dir()
        .ok()
        .and_then(|cwd| real.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| real.clone());
    Some(Entry {
        key,
        path: real,
        file: file.display().to_string(),
        watched: root.watched,
    })
}

/// A data root for folder `dir`: canonical, and named `prefix` in keys. Refused when `dir` is
/// not a folder.
pub fn root(dir: &Path, prefix: &str) -> Result<Root, String> {
    let real = dir
        .canonicalize()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    if !real.is_dir() {
        return Err(format!("{}: not a folder", dir.display()));
    }
    Ok(Root {
        dir: real,
        prefix: prefix.to_string(),
        watched: false,
    })
}
