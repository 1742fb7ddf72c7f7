//! The tegula tile language: TOML tile sets and variants, their JSON Schemas, the validator
//! (syntax, schema, topology, rulebook facts), the petgraph compiler and the lowering to a
//! [`tegula_ruleset::Ruleset`].
//!
//! Data flows one way: [`load`] (TOML text → [`raw`] types with spans, schema-checked) →
//! [`compile`] (per-tile petgraph model + features, topology and fact checks) → lowering
//! (per-rotation tables for the engine), driven per variant by [`variant`].

pub mod abilities;
mod borders;
pub mod citations;
pub mod compile;
pub mod diag;
pub mod explain;
mod explain_when;
pub mod facts;
pub mod figure_values;
pub mod figures;
pub mod glyphs;
pub mod inherit;
pub mod limits;
pub mod load;
pub mod lower;
pub mod never_scores;
pub mod open;
pub mod params;
pub mod pile;
pub mod player_tiles;
pub mod pool;
pub mod raw;
pub mod raw_when;
pub mod reach;
pub mod readings;
pub mod report;
pub mod resources;
pub mod rule_form;
pub mod rules;
pub mod schema;
pub mod site_tags;
pub mod validate;
pub mod values;
pub mod variant;

pub use diag::{Code, Diagnostic, Location, Related, Severity, Source};
