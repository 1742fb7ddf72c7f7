//! The record of a game: its events, the decisions made, the position it was set to.

use super::super::Preset;
use super::part;
use crate::event::Event;
use crate::game::Action;

part! {
    /// What happened so far.
    ///
    /// Invariants: `events` grows only while `record`; `history` holds every decision since
    /// setup in order (draws of chance steps included), so that replaying it on a new game with
    /// the same setup gives this game again; `final_from` indexes `events` once final scoring
    /// began.
    pub(in crate::game) struct Log {
        /// Whether the game keeps its [`Event`] list.
        pub(in crate::game) record: bool,
        /// The events so far (empty unless `record`).
        pub(in crate::game) events: Vec<Event>,
        /// Every decision made, in order (draws included), for snapshots
        /// ([`Game::to_json`](crate::Game::to_json)).
        pub(in crate::game) history: Vec<Action>,
        /// The position set by hand ([`Game::preset`](crate::Game::preset)) and the number of
        /// decisions made before it.
        pub(in crate::game) preset: Option<Box<(usize, Preset)>>,
        /// Index into `events` where final scoring began (once the game is over).
        pub(in crate::game) final_from: Option<usize>,
    }
}

impl Log {
    /// An empty record, keeping events if `record`.
    pub(in crate::game) fn new(record: bool) -> Log {
        Log {
            record,
            events: Vec::new(),
            history: Vec::new(),
            preset: None,
            final_from: None,
        }
    }
}
