//! Variants by value: a variant pickles as its compiled artefact (`Ruleset::to_json`, the JSON
//! `tegula compile` writes), so unpickling needs neither the TOML files nor the working
//! directory. A registry keyed by the artefact's text keeps one [`Loaded`] per variant while any
//! game of it lives, so unpickling many games builds the rules once.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, Weak};

use pyo3::prelude::*;
use tegula_engine::Rules;

use crate::codec::Codec;
use crate::errors::VariantError;
use crate::variant::Loaded;

/// One registered variant: the hash of its artefact, the artefact (compared on a hash match),
/// the variant while something holds it.
type Entry = (u64, Arc<str>, Weak<Loaded>);

/// Loaded variants by their artefact.
static LOADED: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

fn key(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// The artefact of a loaded variant.
pub fn artefact(loaded: &Loaded) -> String {
    loaded.rules.ruleset().to_json()
}

/// The variant of an artefact: the registered one if a live game or variant has it, else built
/// from the text (a malformed or unplayable artefact raises `VariantError`). `path` is the file
/// the variant was first loaded from, kept for messages.
pub fn from_artefact(text: &str, path: PathBuf) -> PyResult<Arc<Loaded>> {
    let k = key(text);
    let mut reg = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    reg.retain(|e| e.2.strong_count() > 0);
    let found = reg.iter().find(|e| e.0 == k && &*e.1 == text);
    if let Some(loaded) = found.and_then(|e| e.2.upgrade()) {
        return Ok(loaded);
    }
    let rules = Rules::from_json(text)
        .map_err(|e| VariantError::new_err(format!("{}: artefact refused: {e}", path.display())))?;
    let loaded = Arc::new(Loaded {
        path,
        codec: Codec::new(&rules),
        rules: Arc::new(rules),
    });
    reg.push((k, Arc::from(text), Arc::downgrade(&loaded)));
    Ok(loaded)
}
