//! Action ids as Python passes them: one id as any integer (a Python `int`, a NumPy or torch
//! integer scalar, a 0-d integer array: anything with `__index__`), and one id per game as any
//! 1-D integer array (every NumPy integer dtype; JAX's and torch's int32 through NumPy) or a
//! list. A value that is no integer, a wrong shape or an id beyond `int64` is refused with the
//! position it stands at, never cast silently (a float id is a bug in the caller's policy).

use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use crate::errors::IllegalActionError;

/// One action id from any Python integer. `what` names the argument in messages. A bool is
/// refused (it is an int to Python, never an id); an integer beyond `int64` raises
/// `IllegalActionError` (kind `unknown-action`, `action` the integer).
pub fn one(value: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{what}: {} is a bool, not an action id",
            value.repr()?
        )));
    }
    let py = value.py();
    let index = py.import("operator")?.getattr("index")?;
    let int = index.call1((value,)).map_err(|_| {
        let kind = type_name(value);
        PyTypeError::new_err(format!(
            "{what}: {kind} is not an integer action id (ids are ints; cast a float policy's \
             choice with int())"
        ))
    })?;
    int.extract::<i64>().or_else(|_| {
        let msg = format!("{what}: {} is no action id (beyond int64)", int.repr()?);
        let err = IllegalActionError::new_err(msg);
        let v = err.value(py);
        let _ = v.setattr("kind", "unknown-action");
        let _ = v.setattr("rule", py.None());
        let _ = v.setattr("action", int);
        Err(err)
    })
}

/// One action id per game (`n` games): an `int64` array as it is, any other integer array or
/// sequence converted, with a message naming the first entry that is not an id.
pub fn many(value: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<i64>> {
    check_len(ids_any_length(value, "actions")?, n)
}

/// Integers of a 1-D array of any integer dtype or a sequence, as [`many`] reads them; `what`
/// names the argument in messages.
pub fn ids_any_length(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<i64>> {
    if let Ok(a) = value.extract::<PyReadonlyArray1<'_, i64>>() {
        return Ok(a.as_array().to_vec());
    }
    let py = value.py();
    let np = py.import("numpy")?;
    let is_array = value.is_instance(&np.getattr("ndarray")?)?;
    let Ok(arr) = np.call_method1("asarray", (value,)) else {
        // A ragged or mixed sequence: entry by entry, naming the first that is no id.
        return each(value, what);
    };
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    if shape.len() != 1 {
        return Err(PyValueError::new_err(format!(
            "{what}: expected a 1-D array of integers, got shape {shape:?}"
        )));
    }
    let dtype = arr.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    let itemsize: usize = dtype.getattr("itemsize")?.extract()?;
    let wide = kind == "u" && itemsize == 8 && shape[0] > 0 && {
        let most = arr.call_method0("max")?;
        most.extract::<i64>().is_err()
    };
    match kind.as_str() {
        // Every signed width, and unsigned ones whose entries all fit: one cast by NumPy.
        "i" | "u" if !wide => {
            let cast = arr.call_method1("astype", (np.getattr("int64")?,))?;
            let a = cast.extract::<PyReadonlyArray1<'_, i64>>()?;
            Ok(a.as_array().to_vec())
        }
        // uint64 entries beyond int64, an object array: entry by entry.
        "u" | "O" => each(&arr.call_method0("tolist")?, what),
        // A list of floats, strings or None: entry by entry, naming the first that is no id.
        _ if !is_array => each(value, what),
        _ => Err(PyTypeError::new_err(format!(
            "{what}: dtype {} is not an integer dtype (cast with .astype(int))",
            dtype.str()?
        ))),
    }
}

/// The ids of a sequence, entry by entry.
fn each(seq: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<i64>> {
    let mut ids = Vec::new();
    let items = seq.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what}: {} is not a sequence of integers",
            type_name(seq)
        ))
    })?;
    for (i, item) in items.enumerate() {
        ids.push(one(&item?, &format!("{what}[{i}]"))?);
    }
    Ok(ids)
}

fn check_len(ids: Vec<i64>, n: usize) -> PyResult<Vec<i64>> {
    if ids.len() != n {
        return Err(PyValueError::new_err(format!(
            "{} actions for {n} games (one id per game; -1 lets its agent decide)",
            ids.len()
        )));
    }
    Ok(ids)
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "a value".into(), |n| format!("`{n}`"))
}
