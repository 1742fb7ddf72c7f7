//! The board and its features: where tiles lie, the frontier around them, the union-find over
//! their features and the figures standing on those features.

use super::super::holes::Holes;
use super::super::{CornerFig, Front, Inst, Meeple, Seg};
use super::part;

part! {
    /// The board array, the placed tiles and their features, and the figures on them.
    ///
    /// Invariants: `cells` is `width × width`, centred on `(0, 0)` at `(off, off)`, with
    /// `width ≤ full_width` (fixed at setup); a cell holds `EMPTY`, `FRONT | i` for frontier
    /// entry `i` (one cell per entry), or a placed cell of an instance in `insts` (one cell per
    /// cell of the placed tiles). Every segment lies on a placed tile and its `parent` chain
    /// ends at its feature's root, whose counters (`open`, `occ`, `guests`, `corners`…) are the
    /// feature's. Each figure in `meeples` and `corner_figs` stands on a segment of `segs`;
    /// `roomy` holds only while no tile can reach the array's edge. `holes` is derived from the
    /// tiles (no part of equality). Checked by [`Game::check_parts`](crate::Game::check_parts).
    pub(in crate::game) struct Board {
        /// Side of the board array in cells (it grows up to `full_width`).
        pub(in crate::game) width: usize,
        /// Offset of `(0, 0)` from the array's corner: `width / 2`.
        pub(in crate::game) off: i32,
        /// Whether no tile can reach the array's edge (then multi-cell candidates are addressed
        /// by plain offsets, without bounds checks per cell): always while the array can grow.
        pub(in crate::game) roomy: bool,
        /// Width of the board the whole pile could need (the array grows up to it).
        pub(in crate::game) full_width: usize,
        /// Whether the full board is wide enough for this pile that no tile can reach its edge.
        pub(in crate::game) full_roomy: bool,
        /// The board array, `width × width` cell values.
        pub(in crate::game) cells: Vec<u32>,
        /// The empty cells next to the map, with their requirements.
        pub(in crate::game) frontier: Vec<Front>,
        /// Placed tiles, in placement order.
        pub(in crate::game) insts: Vec<Inst>,
        /// Tile-local features, the nodes of the union-find over features.
        pub(in crate::game) segs: Vec<Seg>,
        /// Figures on features.
        pub(in crate::game) meeples: Vec<Meeple>,
        /// Corner figures on the board (AM-6).
        pub(in crate::game) corner_figs: Vec<CornerFig>,
        /// The board's holes, kept for the own-tile offer (AM-1; derived, no part of the state).
        pub(in crate::game) holes: Holes,
    }
}

impl Board {
    /// An empty board whose array may grow to `full_width` (the array itself is laid out by
    /// `Game::reset_board`).
    pub(in crate::game) fn new(full_width: usize) -> Board {
        Board {
            width: full_width,
            off: (full_width / 2) as i32,
            roomy: false,
            full_width,
            full_roomy: false,
            cells: Vec::new(),
            frontier: Vec::new(),
            insts: Vec::new(),
            segs: Vec::new(),
            meeples: Vec::new(),
            corner_figs: Vec::new(),
            holes: Holes::default(),
        }
    }
}
