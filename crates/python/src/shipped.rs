//! The shipped data embedded at build time (build.rs): tiles/, variants/ and
//! schema/variant.schema.json, which `tegula.variants` writes to a private temporary folder to
//! load the shipped variants by name from an installed wheel.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

mod files {
    include!(concat!(env!("OUT_DIR"), "/shipped.rs"));
}

/// The shipped data files as `(path under the data root, content)` pairs.
#[pyfunction]
pub fn shipped_files(py: Python<'_>) -> Vec<(&'static str, Bound<'_, PyBytes>)> {
    let f = files::FILES.iter();
    f.map(|&(path, bytes)| (path, PyBytes::new(py, bytes)))
        .collect()
}
