//! Python bindings of the tegula engine: the extension module `tegula._tegula`, re-exported by
//! the pure-Python package `tegula` (python/tegula), which adds the OpenSpiel adapter.
//!
//! The API follows OpenSpiel's conventions: integer actions (layout in [`codec`]), chance nodes
//! with `(outcome, probability)` lists, player ids -1 (chance) and -4 (terminal), returns at the
//! end. Every failure is a Python exception ([`errors`]).

use pyo3::prelude::*;

pub mod actions;
pub mod agent_memory;
pub mod agents;
pub mod batch;
pub mod batch_planes;
pub mod bounds;
pub mod chance;
pub mod codec;
pub mod codec_py;
pub mod corners;
pub mod errors;
pub mod game;
pub mod infostate;
pub mod observe;
pub mod planes;
pub mod planes_py;
pub mod registry;
pub mod replay;
pub mod returns;
pub mod shipped;
pub mod sim;
pub mod snapshot;
pub mod text;
pub mod variant;

/// The native module.
#[pymodule]
#[pyo3(name = "_tegula")]
fn tegula_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<variant::PyVariant>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<agents::PyAgent>()?;
    m.add_class::<batch::PyBatch>()?;
    m.add_function(wrap_pyfunction!(agents::agent_action, m)?)?;
    m.add_function(wrap_pyfunction!(variant::play_seeds, m)?)?;
    m.add_function(wrap_pyfunction!(shipped::shipped_files, m)?)?;
    m.add_function(wrap_pyfunction!(sim::play_shard, m)?)?;
    m.add_function(wrap_pyfunction!(sim::merge_shards, m)?)?;
    m.add("CHANCE_PLAYER", game::CHANCE)?;
    m.add("TERMINAL_PLAYER", game::TERMINAL)?;
    Ok(())
}
