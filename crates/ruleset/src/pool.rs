//! The open pool, the ordered draw pile and the tiles players hold.

#[cfg(doc)] // Named by doc links only.
use crate::Ruleset;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An ordered group of the draw pile: its tiles are shuffled among themselves and all drawn
/// before the next group's; tiles in no group form the last group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PileGroup {
    /// Tile types (indices into [`Ruleset::tiles`]) whose pile copies are in this group.
    pub tiles: Vec<u16>,
    /// Rule id cited when a tile of this group fits nowhere and leaves the game (default B-2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unplaceable_rule: Option<String>,
    /// Rule id the draw events of this group's tiles cite (default: none, the draw cites
    /// nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_rule: Option<String>,
}

/// The open pool (W-1, W-5..W-7): which tiles, how it is filled, the figure that claims a
/// placed pool tile. When a seat takes a tile is a rule of the one form (a `turn-finished`
/// rule offering [`crate::Options::PoolTile`], lowered from the variant's `[pool]` thresholds:
/// docs/design/rule-form.md, "The pool's thresholds: lowered").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PoolRules {
    /// Tile types that can be in the pool (they are not in the draw pile).
    pub tiles: Vec<u16>,
    /// Tiles each player picks into the pool at setup, in seat order (W-1: 1); 0 = every tile
    /// in `tiles` is in the pool.
    pub pick: u8,
    /// Follower type that claims a placed pool tile (W-5: one of the pair's meeples), taken
    /// from its owner's supply.
    pub claim_figure: u8,
    /// The rule ids its steps cite.
    pub rules: PoolCitations,
}

/// The rule ids the open pool's steps cite (`[pool] rules` in a variant).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PoolCitations {
    /// A take of a tile that is not among the pool's choices.
    pub take: String,
    /// The active player's choice of the seat that takes next, when several reached the
    /// threshold together.
    pub choice: String,
    /// A taken tile is placed instead of drawing, with a figure of the gain on its
    /// unscored feature (no follower stands there).
    pub place: String,
    /// A taken tile that fits nowhere: tiles are drawn and placed for it, and the tiles drawn
    /// that cannot serve leave the game.
    pub fit: String,
    /// Which figures may follow a pool tile just placed (no corner figure).
    pub follow: String,
}

/// A tile every player holds from the start instead of it being in the draw pile (AM-1), and
/// how it is played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerTile {
    /// Tile type index (into [`Ruleset::tiles`]).
    pub tile: u16,
    /// How many each player holds at the start.
    pub count: u8,
    /// Where it may be placed.
    pub site: TileSite,
    /// Whether, after the last tile of the pile, players still holding it may place it in seat
    /// order starting after the player who placed the last tile (AM-4).
    pub final_round: bool,
    /// Rule id a refused placement of it cites (not held, not into an enclosed cell).
    pub rule: String,
}

/// Where a player's own tile may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TileSite {
    /// Only into an enclosed cell: an empty cell whose four orthogonal neighbours are all
    /// filled (a hole in the map); its sides must still match them (sides of kind `any` match
    /// everything). Written `hole` in the data and the artefact.
    #[serde(rename = "hole")]
    Enclosed,
    /// Anywhere a drawn tile could go (B-2).
    Anywhere,
}
