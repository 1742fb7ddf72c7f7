//! Loading: file → [`Source`] → TOML syntax check → JSON Schema check (errors mapped back to TOML
//! positions) → raw types with spans. Reports every problem, never panics, bounded in size.
//!
//! OWNER: loader helper. The signatures below are the contract other modules rely on.

use std::path::Path;

use crate::diag::{Diagnostic, Source};
use crate::raw::{TileSetFile, VariantFile};

/// A successfully parsed document with its source.
#[derive(Clone, Debug)]
pub struct Loaded<T> {
    /// The source text (for positions).
    pub source: Source,
    /// The parsed document.
    pub doc: T,
}

/// Read and parse a tile-set file. `None` when it cannot be used; diagnostics either way
/// (warnings may come with a `Some`).
pub fn load_tileset(path: &Path) -> (Option<Loaded<TileSetFile>>, Vec<Diagnostic>) {
    let _ = path;
    (None, Vec::new())
}

/// Read and parse a variant file.
pub fn load_variant(path: &Path) -> (Option<Loaded<VariantFile>>, Vec<Diagnostic>) {
    let _ = path;
    (None, Vec::new())
}
