//! The compiled variant: what the variant driver ([`crate::variant`]) builds from a variant file
//! and its tile sets, and what the variant checks of this layer read.

use std::path::PathBuf;

use serde::Serialize;
use tegula_ruleset::{FollowerType, PlayerTile, PoolRules, Readings, Scoring};

use crate::diag::Source;
use crate::tile::CompiledTile;

/// A variant with its tiles compiled: copies and `only` applied, W-21 overrides applied.
#[derive(Clone, Debug, Serialize)]
pub struct CompiledVariant {
    /// Variant id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Fewest players.
    pub min_players: u8,
    /// Most players.
    pub max_players: u8,
    /// Follower types.
    pub followers: Vec<FollowerType>,
    /// Scoring parameters (standard rules overridden by `[scoring]` and `[values]`).
    pub scoring: Scoring,
    /// Tiles in every player's hand (1: the normal game).
    pub hand: u8,
    /// How the rulebook's *Readings* are decided (`[readings]`).
    pub readings: Readings,
    /// The tiles, sets in variant order, tiles in file order; `count` already multiplied by the
    /// set's `copies`.
    pub tiles: Vec<CompiledTile>,
    /// Tiles the players hold (indices into `tiles`); `tiles` still counts their copies (the
    /// sets' numbers), lowering takes them out of the draw pile.
    pub player_tiles: Vec<PlayerTile>,
    /// The open pool (W-1 .. W-4, W-30); `tiles` still counts its tiles' copies, lowering takes
    /// them out of the draw pile.
    pub pool: Option<PoolRules>,
    /// For each tile, the index into `sources` of the file it comes from.
    #[serde(skip)]
    pub tile_source: Vec<usize>,
    /// The tile-set files read (for positions of diagnostics).
    #[serde(skip)]
    pub sources: Vec<Source>,
    /// The rules the variant and its tile sets declare (`[[rule]]`), beside the registry's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<crate::rules::Rule>,
    /// What became of the facts of the tile-set files read and of the variant file, in that
    /// order (the sets' facts as the sets state them, the variant's after its overrides).
    #[serde(skip)]
    pub facts: Vec<crate::facts::FactOutcome>,
    /// Seat resources (`[[resource]]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<tegula_ruleset::Resource>,
    /// The edge kinds the tile sets declare, numbered for the whole variant.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub edge_kinds: Vec<tegula_ruleset::EdgeKind>,
    /// The draw pile's ordered groups (`[[pile]]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pile_groups: Vec<tegula_ruleset::PileGroup>,
    /// The rule games seating more players than a smaller game would cite (`players.above`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats_rule: Option<tegula_ruleset::SeatsRule>,
    /// The rule ids the game's own steps cite.
    pub citations: tegula_ruleset::Citations,
    /// Rules of the one form (`[[when]]`), sets' first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub when: Vec<tegula_ruleset::When>,
    /// Single-holder tokens (`[[token]]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<tegula_ruleset::TokenType>,
    /// Neutral figures (`[[neutral]]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub neutrals: Vec<tegula_ruleset::NeutralType>,
    /// Kinds of tile counters (`[[counter]]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<tegula_ruleset::CounterType>,
    /// Shared tracks (the pool's thresholds lowered).
    pub tracks: Vec<tegula_ruleset::TrackType>,
    /// Where each of `when` was written: the file and its 1-based line.
    #[serde(skip)]
    pub when_at: Vec<(PathBuf, usize)>,
    /// Kinds of stack (`[[stack]]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stacks: Vec<tegula_ruleset::StackType>,
}
