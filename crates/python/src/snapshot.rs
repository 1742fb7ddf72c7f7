//! `Game.to_json` / `Game.from_json`: a snapshot of a game as JSON text.
//!
//! The snapshot names the variant (its id), the players, the seed and every action id and chance
//! outcome applied; restoring sets the game up again and replays them, each checked, so a
//! snapshot that does not fit the variant raises `SnapshotError` rather than giving a wrong game.

use std::sync::Arc;

use pyo3::prelude::*;
use serde_json::{json, Value};

use crate::errors::SnapshotError;
use crate::game::PyGame;
use crate::variant::{self, Loaded, PyVariant};

/// Format tag of the snapshot text.
const FORMAT: &str = "tegula-python-snapshot/1";

/// The snapshot text of a game.
pub fn take(g: &PyGame) -> String {
    json!({
        "format": FORMAT,
        "variant": g.loaded.rules.ruleset().id,
        "players": g.game.players(),
        "seed": g.seed,
        "history": g.history,
    })
    .to_string()
}

fn bad(msg: impl Into<String>) -> PyErr {
    SnapshotError::new_err(msg.into())
}

/// The variant argument: a `tegula.Variant` or a path.
fn variant_of(v: &Bound<'_, PyAny>) -> PyResult<Arc<Loaded>> {
    if let Ok(pv) = v.cast::<PyVariant>() {
        return Ok(pv.get().inner.clone());
    }
    let path: std::path::PathBuf = v.extract()?;
    Ok(Arc::new(variant::load(&path)?))
}

/// Restore a game from its snapshot text.
pub fn restore(py: Python<'_>, text: &str, v: &Bound<'_, PyAny>) -> PyResult<PyGame> {
    let loaded = variant_of(v)?;
    let snap: Value = serde_json::from_str(text).map_err(|e| bad(format!("not JSON: {e}")))?;
    if snap["format"] != FORMAT {
        return Err(bad(format!("not a {FORMAT} snapshot")));
    }
    let id = &loaded.rules.ruleset().id;
    if snap["variant"].as_str() != Some(id.as_str()) {
        return Err(bad(format!(
            "snapshot of variant {}, not {id}",
            snap["variant"]
        )));
    }
    let players = snap["players"].as_u64().and_then(|p| u8::try_from(p).ok());
    let players = players.ok_or_else(|| bad("`players` missing or not a small integer"))?;
    let seed = snap["seed"].as_u64().ok_or_else(|| bad("`seed` missing"))?;
    let history = snap["history"]
        .as_array()
        .ok_or_else(|| bad("`history` missing"))?;
    let mut g = variant::new_game(&loaded, players, seed)?;
    for (i, a) in history.iter().enumerate() {
        let id = a
            .as_i64()
            .ok_or_else(|| bad(format!("history[{i}] is not an integer")))?;
        g.apply_id(py, id)
            .map_err(|e| bad(format!("history[{i}] = {id} cannot be replayed: {e}")))?;
    }
    Ok(g)
}
