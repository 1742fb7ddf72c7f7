//! Layer 6: the tile-set driver: one file compiled and checked.

pub mod compile;
