//! The Python side of [`crate::planes`]: planes into a new or a given NumPy array, of dtype
//! float32 or uint8.

use numpy::{PyArray3, PyArrayMethods, PyReadwriteArray3, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use tegula_engine::Game;

use crate::observe::View;
use crate::planes::{fill, Layout};

/// The element type of the planes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// float32 (the default).
    F32,
    /// uint8 (counts saturate at 255; a quarter of the memory).
    U8,
}

impl Dtype {
    /// `"float32"` or `"uint8"`.
    pub fn parse(text: &str) -> PyResult<Dtype> {
        match text {
            "float32" => Ok(Dtype::F32),
            "uint8" => Ok(Dtype::U8),
            _ => Err(PyValueError::new_err(format!(
                "dtype={text:?}: \"float32\" or \"uint8\""
            ))),
        }
    }
}

/// `(C, S, S)` of `game`'s planes at `radius`.
pub fn shape(game: &Game, radius: u16) -> [usize; 3] {
    let layout = Layout::new(game.rules().ruleset(), game.players());
    let s = 2 * usize::from(radius) + 1;
    [layout.channels, s, s]
}

/// The planes of `game` as `view` sees them: into `out` (a C-contiguous writeable array of
/// the right shape, float32 or uint8: zeroed, then filled) or a new array of `dtype`.
pub fn planes<'py>(
    py: Python<'py>,
    game: &Game,
    radius: u16,
    view: View,
    dtype: Dtype,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let layout = Layout::new(game.rules().ruleset(), game.players());
    let want = shape(game, radius);
    let Some(out) = out else {
        let any = match dtype {
            Dtype::F32 => {
                let a = PyArray3::<f32>::zeros(py, want, false);
                fill(game, radius, view, &layout, a.readwrite().as_slice_mut()?);
                a.into_any()
            }
            Dtype::U8 => {
                let a = PyArray3::<u8>::zeros(py, want, false);
                fill(game, radius, view, &layout, a.readwrite().as_slice_mut()?);
                a.into_any()
            }
        };
        return Ok(any);
    };
    if let Ok(mut a) = out.extract::<PyReadwriteArray3<'py, f32>>() {
        check_shape(a.shape(), want, a.is_c_contiguous())?;
        let slice = a.as_slice_mut().map_err(not_contiguous)?;
        slice.fill(0.0);
        fill(game, radius, view, &layout, slice);
    } else if let Ok(mut a) = out.extract::<PyReadwriteArray3<'py, u8>>() {
        check_shape(a.shape(), want, a.is_c_contiguous())?;
        let slice = a.as_slice_mut().map_err(not_contiguous)?;
        slice.fill(0);
        fill(game, radius, view, &layout, slice);
    } else {
        return Err(PyTypeError::new_err(
            "out: a writeable 3-D NumPy array of dtype float32 or uint8",
        ));
    }
    Ok(out)
}

/// The shape of `out` must be the planes', its layout C order (a Fortran-ordered array is
/// contiguous too, but in another order).
fn check_shape(got: &[usize], want: [usize; 3], c_order: bool) -> PyResult<()> {
    if got != want {
        return Err(PyValueError::new_err(format!(
            "out: shape {got:?}, the planes are {want:?}"
        )));
    }
    if !c_order {
        return Err(not_contiguous(()));
    }
    Ok(())
}

fn not_contiguous(_: impl std::fmt::Debug) -> PyErr {
    PyValueError::new_err("out: not C-contiguous")
}
