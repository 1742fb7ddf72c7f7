//! Layer 7: the compiled variant and the checks and lowerings of its parts: figures, pool, pile, player tiles, resources, the one rule form, playability.

pub mod citations;
pub mod compiled_variant;
pub mod figure_values;
pub mod figures;
pub mod limits;
pub mod params;
pub mod pile;
pub mod player_tiles;
pub mod pool;
pub mod resources;
pub mod rule_form;
pub mod short_forms;
