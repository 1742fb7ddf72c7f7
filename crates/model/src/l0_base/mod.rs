//! Layer 0: diagnostics and the caps every layer reads.

pub mod caps;
pub mod diag;
pub mod names;
pub mod open;
