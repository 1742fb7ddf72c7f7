//! Whose turn it is and where it stands: the phase, the seat to act, the tile in hand, the
//! final round and extra turns.

use super::super::extra::ExtraFrom;
use super::super::Phase;
use super::part;

part! {
    /// The turn under way.
    ///
    /// Invariants: `player`, `active` and `last_placer` are seats (`< players`); `current` is
    /// the tile in hand during [`Phase::Place`] and what follows it; `final_seats` is non-empty only while
    /// `in_final`; `extra_due` is `None` while `in_extra` (an extra turn earns none, TB-5).
    /// Checked by [`Game::check_parts`](crate::Game::check_parts).
    pub(in crate::game) struct Turn {
        /// The phase: what kind of decision the game waits for.
        pub(in crate::game) phase: Phase,
        /// The tile in hand (tile type index).
        pub(in crate::game) current: u16,
        /// The seat deciding now.
        pub(in crate::game) player: u8,
        /// Turns begun so far.
        pub(in crate::game) turn: u32,
        /// The seat whose turn it is (the current player may differ in [`Phase::Move`]).
        pub(in crate::game) active: u8,
        /// The seat that placed the last tile (the final round starts after it, AM-4).
        pub(in crate::game) last_placer: u8,
        /// Whether the final round (AM-4) is under way.
        pub(in crate::game) in_final: bool,
        /// Seats still to act in the final round, last first (AM-4).
        pub(in crate::game) final_seats: Vec<u8>,
        /// Whether the current turn is an extra turn (it earns none, TB-5).
        pub(in crate::game) in_extra: bool,
        /// What earned the current turn an extra turn (TB-5, or an ability).
        pub(in crate::game) extra_due: Option<ExtraFrom>,
        /// Whether [`Game::finish`](crate::Game::finish) ended the game early.
        pub(in crate::game) finished: bool,
    }
}

impl Default for Turn {
    /// Before the first turn: seat 0, no tile, no phase open yet ([`Phase::Over`] until setup
    /// begins the first turn).
    fn default() -> Turn {
        Turn {
            phase: Phase::Over,
            current: 0,
            player: 0,
            turn: 0,
            active: 0,
            last_placer: 0,
            in_final: false,
            final_seats: Vec::new(),
            in_extra: false,
            extra_due: None,
            finished: false,
        }
    }
}
