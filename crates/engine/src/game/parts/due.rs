//! What the turn still has to settle after its placement: features to score, fields joined to a
//! corner figure's, figures freed by the scoring.

use super::part;

/// A figure freed by a scoring that its owner may move (AM-11): the tile instance it stood on
/// and the root of the scored feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::game) struct Freed {
    pub(in crate::game) player: u8,
    pub(in crate::game) ftype: u8,
    pub(in crate::game) inst: u32,
    pub(in crate::game) root: u32,
}

part! {
    /// The turn's unsettled business.
    ///
    /// Invariants: `pending`, `pending_cloisters` and `pending_fields` are filled by the turn's
    /// placements and emptied by its scoring step, so they are empty whenever a tile is to be
    /// placed and once the game is over; `freed` is non-empty only while freed figures decide
    /// in [`Phase::Move`](crate::Phase::Move), the first of them deciding now. Checked by
    /// [`Game::check_parts`](crate::Game::check_parts).
    #[derive(Default)]
    pub(in crate::game) struct Due {
        /// Features the placement touched, to be scored at the turn's end (roots or segments).
        pub(in crate::game) pending: Vec<u32>,
        /// Cloister-like segments next to the placement, to be scored at the turn's end.
        pub(in crate::game) pending_cloisters: Vec<u32>,
        /// Fields joined to a corner-figure field this turn (AM-8).
        pub(in crate::game) pending_fields: Vec<u32>,
        /// Figures freed by this turn's scoring, in decision order (AM-12); the first decides.
        pub(in crate::game) freed: Vec<Freed>,
    }
}
