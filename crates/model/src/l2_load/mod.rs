//! Layer 2: reading files: TOML → raw types, schema-checked; what a variant may reach; `extends` inheritance.

pub mod inherit;
pub mod load;
pub mod reach;
