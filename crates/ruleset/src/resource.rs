//! Seat resources (issue 21, item 2): named counters every seat holds, declared by data. A
//! resource may be gained when a feature is completed during the game (the seat that placed the
//! completing tile gains the feature's value of an expression, e.g. a tag count) and may be
//! worth points at the end to the seats holding the most of it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Expr, FeatureKind};

/// A named per-seat counter: every seat starts with 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    /// Stable id (events, logs, scenarios and observations name the resource by it).
    pub id: String,
    /// Display name.
    pub name: String,
    /// How a seat gains it; `None`: only a preset position gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gain: Option<Gain>,
    /// What holding it is worth at the end; `None`: nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub award: Option<Award>,
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

/// A gain: when a feature of kind `feature` is completed during the game (never in final
/// scoring), the seat that placed the tile completing it gains `amount`, evaluated over the
/// completed feature's counts, whoever holds the feature's majority and whether or not that
/// seat has a figure in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Gain {
    /// The kind of feature whose completion gains.
    pub feature: FeatureKind,
    /// How much the placer gains, over the completed feature's counts (docs/FORMAT.md,
    /// "Values"), e.g. the count of a tag on its segments.
    pub amount: Expr,
    /// Rule id its events cite.
    pub rule: String,
}

/// An end-of-game award: the seats holding the most of the resource each score `most`; ties all
/// score; a seat holding none never scores it (so nobody does when every holding is 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Award {
    /// Points to each seat holding the most (at most [`crate::limits::MAX_POINTS`]).
    pub most: u32,
    /// Rule id its events cite.
    pub rule: String,
}
