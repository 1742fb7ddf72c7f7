//! Layer 9: what the CLI and the other crates call: validate, explain, report.

pub mod explain;
pub(crate) mod explain_when;
pub mod report;
pub mod validate;
