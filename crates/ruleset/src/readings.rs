//! The rulebook's *Readings*: where the rules can be read two ways, which way a variant reads them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::serde_default::is_default;
#[cfg(doc)] // Named by doc links only.
use crate::{Condition, FollowerType, PlacementRule};

/// The rulebook's *Readings* (the "Reading" entries of the rule registry, `tegula rules ID`),
/// each a parameter whose default is the registry's reading and whose alternative is the other
/// coherent reading of the rule text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Readings {
    /// Who goes first in the final round of player tiles after the last pile tile (AM-4).
    #[serde(default)]
    pub final_round_first: FinalRoundFirst,
    /// Which cells are "the 8 tiles around" a tagged feature for a nearness condition (W-10).
    #[serde(default)]
    #[serde(rename = "near_building")]
    pub near: NearCells,
    /// Which position of the pairs a player compared again after they moved must reach (W-3).
    #[serde(default)]
    pub threshold_recheck: ThresholdRecheck,
    /// Which tiles drawn for a pool tile that fits nowhere are placed (W-6).
    #[serde(default)]
    pub pool_tile_draw: PoolTileDraw,
    /// Who plays the tiles still kept in hands when the pile is empty (W-12).
    #[serde(default)]
    pub kept_after_pile: KeptAfterPile,
    /// How a placement that joins farmer fields to a corner-figure field scores them (AM-8).
    #[serde(default)]
    pub joined_field_scoring: JoinedFieldScoring,
    /// When a placement that joins farmer fields to a corner-figure field scores them (AM-8).
    #[serde(default)]
    pub joined_field_timing: JoinedFieldTiming,
    /// What room an open end of a line of declared edges needs ([`PlacementRule::RoomAhead`]).
    #[serde(default, skip_serializing_if = "is_default")]
    pub open_end: OpenEnd,
    /// Whether a figure that needs an own figure on its feature may go on a road or city the
    /// tile just placed completes (TB-4).
    #[serde(default, skip_serializing_if = "is_default")]
    pub needs_own_on_completed: NeedsOwnOnCompleted,
    /// Where tiles set aside go back into the pile ([`crate::Act::ShuffleBack`], PD-3).
    #[serde(default, skip_serializing_if = "is_default")]
    pub shuffle_back: ShuffleBack,
    /// When a walk a `before-scoring` rule starts is made ([`crate::Act::Walk`], PD-4).
    #[serde(default, skip_serializing_if = "is_default")]
    pub walk_timing: WalkTiming,
    /// Whether a figure that needs an own figure on its feature stays when a rule's effect
    /// takes its owner's last figure there off the board (PD-6's second Reading; PD-12, TO-4).
    #[serde(default, skip_serializing_if = "is_default")]
    pub needs_own_alone: NeedsOwnAlone,
}

/// What becomes of a figure that goes only where its owner has a figure
/// ([`FollowerType::needs_own_figure`]) when an effect of a rule ([`crate::Act::ReturnOn`],
/// [`crate::Act::ReturnChosen`], [`crate::Act::Capture`]) takes its owner's last occupying
/// figure on that feature off the board (PD-6's second Reading, "the same parameter as TB-6's";
/// PD-12, TO-4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum NeedsOwnAlone {
    /// The registry's reading: it stays where it is (it needs an own figure only when placed).
    #[default]
    Stays,
    /// The other reading: it leaves with that figure, to its owner's supply, citing the same
    /// rule.
    Leaves,
}

/// Where tiles set aside go back into the remaining pile (PD-3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ShuffleBack {
    /// The registry's reading: each at a random position of the remaining pile, from the
    /// game's seeded random source.
    #[default]
    RandomPositions,
    /// A variant of the data's own: under the remaining pile, in the order set aside.
    Bottom,
}

/// When a walk started by a `before-scoring` rule is made (PD-4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WalkTiming {
    /// The registry's reading: between the figure step and the turn's scoring.
    #[default]
    BeforeScoring,
    /// The other reading: after the turn's scoring.
    AfterScoring,
}

/// Whether a figure that goes only where the player already has a figure
/// ([`FollowerType::needs_own_figure`], TB-4) may go on a feature that the tile just
/// placed completes (it is then scored and returns in the same turn, TB-6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum NeedsOwnOnCompleted {
    /// The registry's reading: allowed; the figure returns with the feature's scoring.
    #[default]
    Allowed,
    /// The other reading (the best-known Java engine's): not on a feature the tile completed.
    Refused,
}

/// What [`PlacementRule::RoomAhead`] asks of the open end of a newly placed tile's line of
/// declared edges (R-4: the line may not turn back on itself).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum OpenEnd {
    /// The registry's reading: the next cell in the open end's direction, the cell after it and
    /// the cells beside those two are all empty.
    #[default]
    Room,
    /// The plain reading: a tile that turns the line may not turn it the same way as the tile
    /// it continues (no two turns in a row the same way).
    NoRepeatedTurn,
}

impl Readings {
    /// Whether every reading is the registry's (the artefact then leaves them out).
    pub fn is_default(&self) -> bool {
        *self == Readings::default()
    }
}

/// Who places first in the final round of player tiles (AM-4: "in turn order starting left of
/// the player who placed the last tile").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FinalRoundFirst {
    /// The registry's reading: "left of" is the next seat, so the seat after the one that
    /// placed the last tile goes first and that player goes last.
    #[default]
    NextSeat,
    /// The player who placed the last tile goes first, then the seats after them.
    LastPlacer,
}

/// Which cells count as near a tagged feature (a cloister, or a feature with the condition's tag)
/// for [`Condition::Near`] (W-10: "one of the 8 tiles around" such a feature).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum NearCells {
    /// The registry's reading: the figure's cell must be one of the 8 cells around a cell
    /// holding such a feature; that feature's own cell does not count unless it neighbours
    /// another one.
    #[default]
    Around,
    /// The feature's own cell counts too: a figure on its tile (e.g. a monk on the cloister)
    /// is near it.
    AroundOrOn,
}

/// When several players reach the pool's threshold in one turn and the pairs move after a
/// take, which position the others are compared with again (W-3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ThresholdRecheck {
    /// The registry's reading: the new position; a player who reached only the old one gets
    /// nothing this turn (they may reach the pairs later).
    #[default]
    NewPosition,
    /// The position the pairs stood at when the turn's takes began: everyone who reached it in
    /// this turn takes, one after another in the active player's order.
    OldPosition,
}

/// A taken pool tile fits nowhere: the player draws tiles and places them so that the pool tile
/// can be placed touching one (W-6). Which drawn tiles are placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PoolTileDraw {
    /// The registry's reading: a drawn tile is placed only where the pool tile can then be
    /// placed touching it; a tile with no such placement is removed from the game.
    #[default]
    Enabling,
    /// A drawn tile is placed wherever it fits (no follower); if the pool tile then cannot be
    /// placed touching it, the tile stays and the next is drawn. Only a tile that fits nowhere
    /// is removed.
    AnyFit,
}

/// Who plays a tile still kept in a hand when the pile is empty (W-12: "when the pile is empty
/// they place the kept tile"; the seed: "if it is the last tile it passes to the last player in
/// turn order"). Either way the game ends only after every kept tile has been played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KeptAfterPile {
    /// The registry's reading: each keeper places their kept tile, the keepers in seat order
    /// from the seat whose turn it is.
    #[default]
    Keeper,
    /// The kept tiles are the last tiles of the pile: the turns go on in seat order, each
    /// player playing one (taken in the same order of their keepers) as an ordinary draw.
    NextSeat,
}

/// What scores when a placement joins fields holding farmers to a corner-figure field (AM-8: "the
/// joined field is scored at once for 1 per completed city to the farmer majority, and its
/// farmers return"). Either way every farmer of the joined field returns, and a city counts if it
/// is complete once the tile is placed (also when this very tile completed it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum JoinedFieldScoring {
    /// The registry's reading: the whole field after the join scores the completed cities it
    /// borders, once, to the majority of all its farmers.
    #[default]
    WholeField,
    /// Each field that held farmers before the placement scores on its own: the completed
    /// cities that field bordered, to that field's own farmer majority.
    EachField,
}

/// When a placement that joins fields holding farmers to a corner-figure field scores them
/// (AM-8: the joined field "is scored at once"). The points and the farmers returned are the
/// same either way; what differs is whether those farmers are back in supply when the player
/// decides on a figure for the tile just placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum JoinedFieldTiming {
    /// The registry's reading: as the tile is placed, before the figure decision, so a farmer
    /// returned by the join may be placed again on that tile.
    #[default]
    AtOnce,
    /// In the turn's scoring step, after the figure decision (B-2's order): the returned
    /// farmers are back only for later turns.
    ScoringStep,
}
