//! Chance nodes: the draws. Games made from Python have the engine's chance steps on, so every
//! draw is a chance node whose outcomes are the remaining tile types weighted by their counts;
//! the seeded order stays available (`Game.apply_default_draw`) for reproducible play.

use pyo3::prelude::*;
use tegula_engine::Game;

use crate::errors::{illegal, refused};

/// Whether the next step is a draw.
pub fn is_chance_node(game: &Game) -> bool {
    game.is_chance_node()
}

/// `(tile index, probability)` of the next draw (empty when not a chance node).
pub fn outcomes(game: &Game) -> Vec<(i64, f64)> {
    let o = game.chance_outcomes();
    o.into_iter().map(|(t, p)| (i64::from(t), p)).collect()
}

/// Draw `tile` at a chance node; on error the game is unchanged.
pub fn apply_draw(py: Python<'_>, game: &mut Game, tile: i64) -> PyResult<()> {
    let Ok(t) = u16::try_from(tile) else {
        let msg = format!("draw {tile}: not a tile index");
        return Err(illegal(py, tile, "not-in-pile", None, msg));
    };
    let text = outcome_text(py, game, tile)?;
    game.apply_draw(t)
        .map_err(|e| refused(py, game, tile, &text, &e))
}

/// A readable name of a chance outcome: `draw TILE`.
pub fn outcome_text(py: Python<'_>, game: &Game, tile: i64) -> PyResult<String> {
    let rules = game.rules();
    match u16::try_from(tile) {
        Ok(t) if (t as usize) < rules.ruleset().tiles.len() => {
            Ok(format!("draw {}", rules.tile_id(t)))
        }
        _ => Err(illegal(
            py,
            tile,
            "not-in-pile",
            None,
            format!("no tile {tile}"),
        )),
    }
}
