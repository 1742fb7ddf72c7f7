//! Layer 3: value expressions: parsing `[values]` and rule values into contract expressions.

pub mod values;
