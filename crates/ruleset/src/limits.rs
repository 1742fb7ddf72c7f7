//! The numeric limits a variant must keep so that the engine can play it: one source of truth
//! for the schema (`range` bounds in `tegula-model`'s raw types), the validator's checks and the
//! engine's own refusal in `Rules::new`.
//!
//! # Why scores cannot overflow
//!
//! Scores are `u32`. Every number a variant gives that is multiplied into points is at most
//! [`MAX_POINTS`]; every count it multiplies is bounded by the game's size (at most
//! [`MAX_GAME_CELLS`] cells in a game). A proof that a whole game stays below
//! `u32::MAX` is not possible in general, though: tile abilities (docs/RULE-LANGUAGE.md) score
//! `per × count` on events that repeat every turn (`follower-placed`, `feature-scored`), with
//! counts up to every figure on the board, so 500 turns × 1,000 abilities × 1,500 figures ×
//! 1,000 points exceeds `u32::MAX` (about 4.3 × 10⁹) by far. The engine therefore adds and
//! multiplies points with saturating arithmetic: a score that would pass `u32::MAX` stays there,
//! in debug and in release builds alike, instead of panicking or wrapping. With the standard numbers a game
//! scores a few hundred points, so the saturation is only ever reached by variants built to
//! reach it.

/// Most cells the tiles of one game may cover: the draw pile, the start tile, the players' own
/// tiles (for the variant's most players) and the pool ([`crate::Ruleset::game_cells`]).
///
/// It is what bounds how far a game can reach on the engine's board ([`MAX_BOARD_SIDE`]): the
/// tiles of a game laid in one line from the start tile reach `MAX_GAME_CELLS - 1` cells from
/// it, and the board holds every cell up to `MAX_BOARD_SIDE / 2 - 1` from the start tile in each
/// direction. So no tile a game's rules allow is ever left off because the board ends (issue
/// 35: with 8,000 cells a game could run into the board's edge and lose its last tiles).
///
/// It also bounds the engine's per-feature counters: a feature's open sides (`i16`) are at most
/// the outer sides of the cells placed, 4 per cell, and its pennants (`u16`) at most 2 per city
/// piece with at most one city piece per side, 8 per cell.
pub const MAX_GAME_CELLS: u64 = 500;

/// Side of the engine's largest board, in cells (odd: the start tile is in the middle). The
/// board is an array that grows with the game up to this side; see [`MAX_GAME_CELLS`].
pub const MAX_BOARD_SIDE: u64 = 1023;

// A line of every cell of a game, from the start tile, stays on the board.
const _: () = assert!(MAX_GAME_CELLS < MAX_BOARD_SIDE / 2);

/// Most points a variant may give per counted thing: per tile, per pennant, per city, per
/// cloister, per figure, per corner city, an ability's `per` and its table entries.
pub const MAX_POINTS: u32 = 1000;

/// Most corner figures (AM-6) all players together may have: the engine counts a field's corner
/// figures in 8 bits, and fields holding them can be joined into one.
pub const MAX_CORNER_FIGURES: u64 = 255;

/// Most seat resources a variant may declare ([`crate::Resource`]): every seat holds a counter
/// of each, mixed into the state hash and shown with every seat's score.
pub const MAX_RESOURCES: usize = 16;

/// Most edge kinds a variant may declare beside city, road and field
/// ([`crate::Ruleset::edge_kinds`]): the engine matches sides by a 4-bit set per side, three
/// bits of which the built-in kinds take.
pub const MAX_EDGE_KINDS: usize = 1;

/// Deepest a value expression's tree may be ([`crate::Expr`]; `1 + 2 + 3` is 3 deep): the
/// artefact nests two JSON levels per tree level, and JSON readers stop at 128 levels
/// (`serde_json`'s default), so a deeper value could be compiled but never read back.
pub const MAX_VALUE_DEPTH: usize = 32;
