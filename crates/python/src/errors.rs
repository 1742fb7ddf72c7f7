//! Python exceptions: every failure of the engine or the loader becomes one of these (or a
//! standard `FileNotFoundError` / `ValueError`), never a crash of the interpreter.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use tegula_engine::{Game, MoveError};

create_exception!(
    _tegula,
    TegulaError,
    PyException,
    "Base class of tegula's errors."
);
create_exception!(
    _tegula,
    VariantError,
    TegulaError,
    "A variant file that cannot be played; the message lists its diagnostics."
);
create_exception!(
    _tegula,
    SetupError,
    TegulaError,
    "A game that cannot be set up (player count, scripted draw)."
);
create_exception!(
    _tegula,
    IllegalActionError,
    TegulaError,
    "An action the engine refuses. Attributes: `kind` (the engine's stable error kind, e.g. \
     `edge-mismatch`, or `unknown-action` for an id outside the encoding), `rule` (the rule id \
     it breaks, or None) and `action` (the id)."
);
create_exception!(
    _tegula,
    SnapshotError,
    TegulaError,
    "A snapshot (`Game.to_json` text) that cannot be restored."
);

/// An [`IllegalActionError`] with its `kind`, `rule` and `action` attributes set.
pub fn illegal(py: Python<'_>, action: i64, kind: &str, rule: Option<&str>, msg: String) -> PyErr {
    let err = IllegalActionError::new_err(msg);
    let value = err.value(py);
    // Setting attributes on a fresh exception object cannot fail but for memory exhaustion;
    // the error is raised either way.
    let _ = value.setattr("kind", kind);
    let _ = value.setattr("rule", rule);
    let _ = value.setattr("action", action);
    err
}

/// The exception for an action the engine refused.
pub fn refused(py: Python<'_>, game: &Game, action: i64, text: &str, e: &MoveError) -> PyErr {
    let rule = Some(game.rule_of(e)).filter(|r| !r.is_empty());
    let msg = format!("illegal action {action} ({text}): {e}");
    illegal(py, action, e.kind(), rule, msg)
}

/// Register the exception classes in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TegulaError", py.get_type::<TegulaError>())?;
    m.add("VariantError", py.get_type::<VariantError>())?;
    m.add("SetupError", py.get_type::<SetupError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("SnapshotError", py.get_type::<SnapshotError>())?;
    Ok(())
}
