//! Layer 4: compiled-tile types and their lowering to per-rotation tables.

pub mod lower;
pub mod tile;
