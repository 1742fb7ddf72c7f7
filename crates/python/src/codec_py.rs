//! Actions as Python dicts (`Game.decode_action` / `Game.encode_action`).

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tegula_engine::{Action, FollowerOption, MoveTarget, Placement};

/// The dict of an action.
pub fn action_dict(py: Python<'_>, action: Action) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    match action {
        Action::Pass => d.set_item("kind", "pass")?,
        Action::Take(t) => {
            d.set_item("kind", "take")?;
            d.set_item("tile", t)?;
        }
        Action::Seat(s) => {
            d.set_item("kind", "seat")?;
            d.set_item("seat", s)?;
        }
        Action::Follower(o) => {
            d.set_item("kind", "follower")?;
            d.set_item("feature", o.feature)?;
            d.set_item("follower", o.follower)?;
        }
        Action::Move(m) => {
            d.set_item("kind", "move")?;
            d.set_item("x", m.x)?;
            d.set_item("y", m.y)?;
            d.set_item("feature", m.feature)?;
        }
        Action::Place(p) => {
            d.set_item("kind", "place")?;
            d.set_item("tile", p.tile)?;
            d.set_item("x", p.x)?;
            d.set_item("y", p.y)?;
            d.set_item("rotation", p.rotation)?;
        }
        Action::Choose(n) => {
            d.set_item("kind", "choose")?;
            d.set_item("option", n)?;
        }
        other => return Err(PyValueError::new_err(format!("{other:?} has no dict form"))),
    }
    Ok(d)
}

/// A required field of an action dict.
fn field<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(key)?
        .ok_or_else(|| PyKeyError::new_err(format!("action dict lacks `{key}`")))
}

/// The action of a dict.
pub fn dict_action(d: &Bound<'_, PyDict>) -> PyResult<Action> {
    let kind: String = field(d, "kind")?.extract()?;
    Ok(match kind.as_str() {
        "pass" => Action::Pass,
        "take" => Action::Take(field(d, "tile")?.extract()?),
        "seat" => Action::Seat(field(d, "seat")?.extract()?),
        "follower" => Action::Follower(FollowerOption {
            feature: field(d, "feature")?.extract()?,
            follower: field(d, "follower")?.extract()?,
        }),
        "move" => Action::Move(MoveTarget {
            x: field(d, "x")?.extract()?,
            y: field(d, "y")?.extract()?,
            feature: field(d, "feature")?.extract()?,
        }),
        "choose" => Action::Choose(field(d, "option")?.extract()?),
        "place" => Action::Place(Placement {
            tile: field(d, "tile")?.extract()?,
            x: field(d, "x")?.extract()?,
            y: field(d, "y")?.extract()?,
            rotation: field(d, "rotation")?.extract()?,
        }),
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown action kind `{other}`"
            )))
        }
    })
}
