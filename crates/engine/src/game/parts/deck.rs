//! The pile and chance: the order tiles are drawn in, how far the draws went, and which draws
//! are still undecided (chance steps).

use super::part;

/// What a chance step ([`Phase::Draw`](crate::Phase::Draw)) resumes once the tile is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::game) enum Resume {
    /// The turn's draw (B-2), topping up a hand first (W-12).
    Draw,
    /// The W-6 procedure for this pool tile.
    W6(u16),
}

part! {
    /// The pile.
    ///
    /// Invariants: `drawn ≤ revealed ≤ pile.len()` (the game's end sets both to the pile's
    /// length); `left[t]` is the number of tiles of type `t` in `pile[drawn..]` (all zero once
    /// the game is over); without chance steps `revealed == pile.len()`. Checked by
    /// [`Game::check_parts`](crate::Game::check_parts). `resume` matters only in
    /// [`Phase::Draw`](crate::Phase::Draw); `seed` is the shuffle's seed (`None` for a scripted
    /// pile).
    pub(in crate::game) struct Deck {
        /// The pile order, drawn from the front.
        pub(in crate::game) pile: Vec<u16>,
        /// Tiles drawn so far.
        pub(in crate::game) drawn: usize,
        /// Remaining tiles of each type in the undrawn pile (the player-facing multiset).
        pub(in crate::game) left: Vec<u16>,
        /// Pile positions below this are decided; a draw at `drawn == revealed` is a chance
        /// step. Without chance steps it is the pile's length (every draw follows the seeded
        /// order).
        pub(in crate::game) revealed: usize,
        /// Whether draws stop at [`Phase::Draw`](crate::Phase::Draw) (chance steps) instead of
        /// happening inside the move.
        pub(in crate::game) chance: bool,
        /// What the draw waiting in [`Phase::Draw`](crate::Phase::Draw) is for.
        pub(in crate::game) resume: Resume,
        /// The seed the pile was shuffled with (`None` for a scripted pile).
        pub(in crate::game) seed: Option<u64>,
    }
}

impl Deck {
    /// An empty pile, with or without chance steps (setup fills it).
    pub(in crate::game) fn new(chance: bool) -> Deck {
        Deck {
            pile: Vec::new(),
            drawn: 0,
            left: Vec::new(),
            revealed: 0,
            chance,
            resume: Resume::Draw,
            seed: None,
        }
    }
}
