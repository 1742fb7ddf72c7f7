//! The tegula tile language: TOML tile sets and variants, their JSON Schemas, the validator
//! (syntax, schema, topology, rulebook facts), the petgraph compiler and the lowering to a
//! [`tegula_ruleset::Ruleset`].
//!
//! Data flows one way: [`load`] (TOML text → [`raw`] types with spans, schema-checked) →
//! [`compile`] (per-tile petgraph model + features, topology and fact checks) → lowering
//! (per-rotation tables for the engine), driven per variant by [`variant`].
//!
//! # Layers
//!
//! The source is in ten folders, one per layer, bottom to top. A module may use its own layer
//! and the layers below it, never one above (`tests/layering.rs` fails on an upward `crate::`
//! path; test code is exempt), and the modules of one layer use each other without a cycle
//! (but for `raw`/`raw_when` and `explain`/`explain_when`, one concern each). Every module is
//! re-exported here, so its path is `tegula_model::MODULE` whatever its folder.
//!
//! | Folder | Layer | Modules |
//! |---|---|---|
//! | `l0_base` | diagnostics and the caps every layer reads | [`diag`], [`open`], [`caps`], [`names`] |
//! | `l1_raw` | raw TOML types, schemas, the rule registry | [`raw`], [`raw_when`], [`schema`], [`rules`] |
//! | `l2_load` | loading, reach and inheritance | [`load`], [`reach`], [`inherit`] |
//! | `l3_values` | value expressions | [`values`] |
//! | `l4_tile` | compiled-tile types, their lowering | [`tile`], [`lower`] |
//! | `l5_tile_checks` | checks over compiled tiles | [`facts`], [`abilities`], [`glyphs`], [`never_scores`], [`readings`], [`site_tags`], `borders` |
//! | `l6_tileset` | the tile-set driver | [`compile`] |
//! | `l7_variant_checks` | the compiled variant, its parts' checks | [`compiled_variant`], [`citations`], [`figures`], [`figure_values`], [`limits`], [`params`], [`pile`], [`player_tiles`], [`pool`], [`resources`], [`rule_form`] |
//! | `l8_variant` | the variant driver | [`variant`] |
//! | `l9_tools` | validate, explain, report | [`validate`], [`explain`], [`report`], `explain_when` |
//!
//! Each layer's invariant is in docs/ARCHITECTURE.md ("crates/model").

mod l0_base;
mod l1_raw;
mod l2_load;
mod l3_values;
mod l4_tile;
mod l5_tile_checks;
mod l6_tileset;
mod l7_variant_checks;
mod l8_variant;
mod l9_tools;

pub use l0_base::{caps, diag, names, open};
pub use l1_raw::{raw, raw_when, rules, schema};
pub use l2_load::{inherit, load, reach};
pub use l3_values::values;
pub use l4_tile::{lower, tile};
use l5_tile_checks::borders;
pub use l5_tile_checks::{abilities, facts, glyphs, never_scores, readings, site_tags};
pub use l6_tileset::compile;
pub use l7_variant_checks::{
    citations, compiled_variant, figure_values, figures, limits, params, pile, player_tiles, pool,
    resources, rule_form, short_forms,
};
pub use l8_variant::variant;
use l9_tools::explain_when;
pub use l9_tools::{explain, report, validate};

pub use diag::{Code, Diagnostic, Location, Related, Severity, Source};
