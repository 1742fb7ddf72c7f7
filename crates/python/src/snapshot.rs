//! `Game.to_json` / `Game.from_json`: the engine's snapshot (`tegula-snapshot/1`: the whole
//! state, hidden pile order included; reading it replays every decision, checked).

use std::sync::Arc;

use pyo3::prelude::*;
use tegula_engine::Game;

use crate::errors::SnapshotError;
use crate::game::PyGame;
use crate::variant::{self, Loaded, PyVariant};

/// The variant argument: a `tegula.Variant`, a path or a shipped variant's name.
fn variant_of(v: &Bound<'_, PyAny>) -> PyResult<Arc<Loaded>> {
    if let Ok(pv) = v.cast::<PyVariant>() {
        return Ok(pv.get().inner.clone());
    }
    let path = variant::resolve(v.py(), v.extract()?)?;
    Ok(Arc::new(variant::load(&path)?))
}

/// Restore a game from its snapshot text. The seed of `tegula play` is not in the snapshot
/// (the engine keeps the pile's), so the restored game's `seed` is None.
pub fn restore(text: &str, v: &Bound<'_, PyAny>, radius: u16) -> PyResult<PyGame> {
    restore_loaded(text, variant_of(v)?, radius)
}

/// Restore a game of the variant `loaded` from its snapshot text.
pub fn restore_loaded(text: &str, loaded: Arc<Loaded>, radius: u16) -> PyResult<PyGame> {
    let game = Game::from_json(text, loaded.rules.clone())
        .map_err(|e| SnapshotError::new_err(format!("snapshot refused: {e}")))?;
    crate::variant::check_radius(&loaded, radius)?;
    Ok(PyGame::new(loaded, game, None, radius))
}
