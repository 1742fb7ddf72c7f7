//! What each seat has: figures in supply, points, resources and tiles of its own.

use super::part;
use crate::points::Score;

part! {
    /// The seats' supplies, scores and holdings.
    ///
    /// Invariants: `players` is within the ruleset's seat range and fixed for the game's life;
    /// `supply` holds `players × followers` counts (`seat * followers + type`), `scores` one per
    /// seat, `holdings` `players × resources` (`seat * resources + resource`), `held`
    /// `players × player_tiles` (`seat * player_tiles + i`). Checked by
    /// [`Game::check_parts`](crate::Game::check_parts).
    pub(in crate::game) struct Seats {
        /// Number of seats.
        pub(in crate::game) players: u8,
        /// Figures in supply, `seat * followers + type`.
        pub(in crate::game) supply: Vec<u8>,
        /// Points, by seat (below 0 only by a buy-back dearer than the seat's points).
        pub(in crate::game) scores: Vec<Score>,
        /// Seat resources, `seat * resources + resource` (empty when the variant declares none).
        pub(in crate::game) holdings: Vec<u32>,
        /// Tiles of their own each seat holds, `seat * player_tiles + i` (AM-1).
        pub(in crate::game) held: Vec<u8>,
    }
}

impl Seats {
    /// `players` seats with nothing yet (setup fills them).
    pub(in crate::game) fn new(players: u8) -> Seats {
        Seats {
            players,
            supply: Vec::new(),
            scores: Vec::new(),
            holdings: Vec::new(),
            held: Vec::new(),
        }
    }
}
