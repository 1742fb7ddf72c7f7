//! Caps on input sizes that more than one layer needs: the lowest layer holds them so that the
//! raw types' schema bounds, the loader and the diagnostics' cap all read one number.

/// Largest accepted file (1 MiB). Real tile data is a few tens of KiB; the cap bounds the time
/// and memory spent on hostile input before any parsing.
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// At most this many schema problems are reported per file (the last one says how many more),
/// and at most this many diagnostics in all per file ([`crate::diag::cap_per_file`]).
pub const MAX_SCHEMA_ERRORS: usize = 100;

/// Most cells a tile may have (the engine keeps a feature's cells in an 8-bit set).
pub const MAX_CELLS: usize = 8;
/// Largest allowed `count` of a tile.
pub const MAX_COUNT: u64 = 1000;
