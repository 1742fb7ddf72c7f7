//! Layer 8: the variant driver: a variant file and its sets compiled, checked and lowered to a ruleset.

pub mod variant;
