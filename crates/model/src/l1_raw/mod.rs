//! Layer 1: the raw TOML types with their spans, the JSON Schemas generated from them, the rule registry.

pub mod raw;
pub mod raw_when;
pub mod rules;
pub mod schema;
