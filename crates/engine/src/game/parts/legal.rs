//! The legal moves of the phase under way, as the phase's start computed them.

use super::super::slots::Slots;
use super::super::{FollowerOption, MoveTarget, Placement};
use super::part;

part! {
    /// The current phase's legal moves: placements (listed or only counted), figure options,
    /// corner-figure points and the freed figure's targets.
    ///
    /// Invariants: a function of the rest of the state, recomputed whenever a phase opens; in
    /// [`Phase::Place`](crate::Phase::Place) the placements are `placements` when `slots.tile`
    /// is `None`, else `n_place` placements of that tile counted on the frontier; `options` and
    /// `corner_points` are those of [`Phase::Follower`](crate::Phase::Follower), `moves` those
    /// of [`Phase::Move`](crate::Phase::Move). Outside its phase a list is not
    /// read.
    #[derive(Default)]
    pub(in crate::game) struct Legal {
        /// The legal placements as a list, unless `slots` says they are only counted.
        pub(in crate::game) placements: Vec<Placement>,
        /// Whose placements a drawn single-cell tile's are, when the draw only counted them
        /// (then `n_place` is the count and each is found by its index).
        pub(in crate::game) slots: Slots,
        /// The number of legal placements.
        pub(in crate::game) n_place: usize,
        /// The follower options of this follower phase.
        pub(in crate::game) options: Vec<FollowerOption>,
        /// Corner-figure options of this follower phase: field feature and its first legal point.
        pub(in crate::game) corner_points: Vec<(u8, (i32, i32))>,
        /// Legal targets of the freed figure deciding now, with their roots.
        pub(in crate::game) moves: Vec<(MoveTarget, u32)>,
    }
}
