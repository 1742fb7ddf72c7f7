//! Seat resources (issue 21, item 2): named counters every seat holds, declared by data. How a
//! seat gains one and what holding it is worth are rules of the one form (`crate::When`: the
//! data's `gain` and `award` short forms are lowered to them).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A named per-seat counter: every seat starts with 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    /// Stable id (events, logs, scenarios and observations name the resource by it).
    pub id: String,
    /// Display name.
    pub name: String,
    /// How many each seat holds at setup, by player count (empty: 0).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start: Vec<StartCount>,
}

impl Resource {
    /// How many each seat of a game of `players` seats holds at setup: the count of the last
    /// [`Resource::start`] entry whose player count is at most `players` (0 when none is).
    pub fn start_for(&self, players: u8) -> u32 {
        self.start
            .iter()
            .take_while(|s| s.players <= players)
            .last()
            .map_or(0, |s| s.count)
    }
}

/// One entry of [`Resource::start`]: from `players` seats on, each seat starts with `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartCount {
    /// Fewest seats this entry applies to (entries are in increasing order).
    pub players: u8,
    /// How many each seat holds (at most [`crate::limits::MAX_POINTS`]).
    pub count: u32,
}
