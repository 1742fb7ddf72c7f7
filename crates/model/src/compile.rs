//! Compiling: raw tiles → per-tile petgraph model (segments as nodes, connections as edges),
//! features as connected components with their facts; topology checks; rulebook fact checks.
//!
//! OWNER: compiler helper. The signatures below are the contract other modules rely on.

use crate::diag::Diagnostic;
use crate::load::Loaded;
use crate::raw::TileSetFile;

/// A compiled tile set (one file).
#[derive(Clone, Debug, Default)]
pub struct CompiledSet {
    /// Set id.
    pub set: String,
}

/// Compile one loaded tile-set file: topology checks and fact checks; every problem reported.
pub fn compile_tileset(file: &Loaded<TileSetFile>) -> (CompiledSet, Vec<Diagnostic>) {
    (
        CompiledSet {
            set: file.doc.set.id.value.clone(),
        },
        Vec::new(),
    )
}
