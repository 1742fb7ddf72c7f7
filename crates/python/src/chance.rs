//! Chance nodes: the draws.
//!
//! The engine in this build draws inside the move (the seeded pile), so no state is a chance
//! node yet: `is_chance_node` is always false and the draw order comes from the seed. This module
//! is the one place that changes when the engine exposes the draw as a step.

use pyo3::prelude::*;
use tegula_engine::Game;

use crate::errors::illegal;

/// Whether the next step is a draw.
pub fn is_chance_node(_game: &Game) -> bool {
    false
}

/// `(tile index, probability)` of the next draw (empty when not a chance node).
pub fn outcomes(_game: &Game) -> Vec<(i64, f64)> {
    Vec::new()
}

/// Draw `tile` at a chance node.
pub fn apply_draw(py: Python<'_>, _game: &mut Game, tile: i64) -> PyResult<()> {
    let msg = format!("draw {tile}: not a chance node");
    Err(illegal(py, tile, "not-a-chance-node", None, msg))
}

/// A readable name of a chance outcome.
pub fn outcome_text(py: Python<'_>, game: &Game, tile: i64) -> PyResult<String> {
    let rules = game.rules();
    match u16::try_from(tile) {
        Ok(t) if (t as usize) < rules.ruleset().tiles.len() => {
            Ok(format!("draw {}", rules.tile_id(t)))
        }
        _ => Err(illegal(
            py,
            tile,
            "unknown-action",
            None,
            format!("no tile {tile}"),
        )),
    }
}
