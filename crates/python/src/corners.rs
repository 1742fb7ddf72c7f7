//! Named corners of corner figures (AM-6) in the Python API: `Game.corner_points(action)` lists
//! where a follower action may put its corner figure, `Game.apply(action, corner=(x, y))` puts
//! it on one of them. The compact action ids are unchanged: an id puts the figure on the first
//! corner, and no id names another one.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tegula_engine::{Action, CornerChoice, FollowerOption};

use crate::chance;
use crate::codec::action_text;
use crate::errors::{illegal, refused};
use crate::game::PyGame;

/// The follower option action id `id` names in `g`'s state, if it names one.
fn option(g: &PyGame, id: i64) -> PyResult<Option<FollowerOption>> {
    if chance::is_chance_node(&g.game) {
        return Ok(None);
    }
    match g.loaded.codec.decode(&g.frame(), id) {
        Some(Action::Follower(o)) => Ok(Some(o)),
        Some(_) => Ok(None),
        None => Err(PyValueError::new_err(format!(
            "action {id} is not an action of this state"
        ))),
    }
}

/// `Game.corner_points`: the board points of follower action `id`'s corners, first the one
/// the id itself takes; empty for any other action.
pub fn points(g: &PyGame, id: i64) -> PyResult<Vec<(i32, i32)>> {
    let Some(o) = option(g, id)? else {
        return Ok(Vec::new());
    };
    Ok(g.game
        .corner_points(o)
        .iter()
        .map(|p| (p[0], p[1]))
        .collect())
}

/// `Game.apply(id, corner=(x, y))`: the follower action `id` on the named corner. The step is
/// kept as id -1 (no id names it, as the history of a restored game shows it), unless the
/// corner is the first, which the id itself names.
pub fn apply(g: &mut PyGame, py: Python<'_>, id: i64, (x, y): (i32, i32)) -> PyResult<()> {
    let Some(option) = option(g, id)? else {
        let msg = format!("action {id} is not a follower action: only a follower takes a corner");
        return Err(illegal(py, id, "not-a-follower-action", None, msg));
    };
    let point = [x, y];
    if g.game.corner_points(option).first() == Some(&point) {
        return g.apply_id(py, id);
    }
    let seat = crate::replay::seat(&g.game);
    let action = Action::Corner(CornerChoice { option, point });
    let text = action_text(&g.loaded.rules, action, g.last_tile());
    g.game
        .apply(action)
        .map_err(|e| refused(py, &g.game, id, &text, &e))?;
    g.steps.push((-1, seat));
    Ok(())
}
