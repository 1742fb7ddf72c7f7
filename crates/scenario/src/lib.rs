//! tegula scenarios: scripted games (setup, drawn tiles, placements, followers) with the events
//! and scores that must result, checked against the generic engine.
//!
//! - [`raw`]: the TOML format (documented in `docs/SCENARIOS.md`), with spans; its JSON Schema is
//!   [`schema_json`] (committed as `schema/scenario.schema.json`).
//! - [`load`]: parse a file and resolve its names against the variant's ruleset, reporting every
//!   problem with file:line:column.

pub mod load;
pub mod raw;
pub mod run;

pub use load::{load, Scenario, VariantCache};
pub use run::{run, Failure, Outcome};

/// File name of the scenario schema (as referenced by `#:schema` lines).
pub const SCENARIO_SCHEMA: &str = "scenario.schema.json";

/// The JSON Schema of scenario files (TOML-adapted like the model's schemas).
pub fn schema_json() -> serde_json::Value {
    tegula_model::schema::generate::<raw::ScenarioFile>()
}
