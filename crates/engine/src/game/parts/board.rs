//! The board and its features: where tiles lie, the frontier around them, the union-find over
//! their features and the figures standing on those features.

use tegula_ruleset::FeatureKind;

use super::super::holes::Holes;
use super::part;

/// An empty cell next to the map, with its requirement word (one nibble per side, B-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::game) struct Front {
    pub(in crate::game) pos: u32,
    pub(in crate::game) req: u16,
    /// The same requirement as a code ([`crate::rules::side_code`] per side), indexing the
    /// fit tables.
    pub(in crate::game) code: u16,
    pub(in crate::game) x: i32,
    pub(in crate::game) y: i32,
}

/// A placed tile: its type, rotation, anchor and where its segments start in `segs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::game) struct Inst {
    pub(in crate::game) tile: u16,
    pub(in crate::game) rot: u8,
    pub(in crate::game) x: i32,
    pub(in crate::game) y: i32,
    pub(in crate::game) seg_base: u32,
    /// Where the side words of its cell 0 are in the rules' flat join table (a function of
    /// `tile` and `rot`, kept here so that a neighbour's sides are one load away).
    pub(in crate::game) words: u32,
}

/// One tile-local feature on the board, a node of the union-find over features.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::game) struct Seg {
    pub(in crate::game) parent: u32,
    pub(in crate::game) next: u32,
    pub(in crate::game) inst: u32,
    pub(in crate::game) local: u8,
    pub(in crate::game) kind: FeatureKind,
    pub(in crate::game) done: bool,
    pub(in crate::game) open: i16,
    pub(in crate::game) pennants: u16,
    /// Figures on the feature (occupying or not).
    pub(in crate::game) occ: u16,
    /// Of `occ`, the figures that do not occupy it: the feature is occupied while
    /// `occ > guests` (B-2).
    pub(in crate::game) guests: u8,
    /// Corner figures on this field (AM-6..AM-9): no follower may join it.
    pub(in crate::game) corners: u8,
    /// The tile cells the segment lies on (bit per cell index; a segment of no cell in
    /// particular counts as on cell 0), kept here so that counting a feature's cells reads
    /// its segments only.
    pub(in crate::game) cells: u8,
}

/// A figure on a feature: its owner, its type and a segment of the feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::game) struct Meeple {
    pub(in crate::game) player: u8,
    pub(in crate::game) ftype: u8,
    pub(in crate::game) seg: u32,
}

/// A corner figure on the board (AM-6): its field (any segment of it) and its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::game) struct CornerFig {
    pub(in crate::game) player: u8,
    pub(in crate::game) ftype: u8,
    pub(in crate::game) seg: u32,
    pub(in crate::game) point: (i32, i32),
}

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
