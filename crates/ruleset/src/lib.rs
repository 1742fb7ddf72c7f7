//! The lowered ruleset: everything a tegula engine needs to play one variant, as flat tables.
//!
//! This crate is the contract between the compiler (`tegula-model`, which reads TOML and builds
//! petgraph models) and the engine (`tegula-engine`, which never sees TOML or graphs). It is plain
//! serialisable data: `tegula compile VARIANT --format json` prints one, a versioned artefact
//! ([`FORMAT_VERSION`], described by `schema/ruleset.schema.json`) that a program embedding the
//! engine ships instead of the TOML toolchain and reads back with [`Ruleset::from_json`].
//!
//! Geometry conventions (shared by every layer):
//! - Board coordinates `(x, y)`: `x` grows to the east, `y` grows to the **south**.
//! - Sides are indexed clockwise from north: `N = 0, E = 1, S = 2, W = 3` ([`Side`]).
//! - Half-edges are indexed clockwise from the west half of the north side:
//!   `Nw = 0, Ne = 1, En = 2, Es = 3, Se = 4, Sw = 5, Ws = 6, Wn = 7` ([`Half`]). Side `s` holds
//!   halves `2s` and `2s + 1`.
//! - Across a shared side, half `h` of one cell meets half [`Half::opposite`] of the neighbour
//!   (`Nw`↔`Sw`, `Ne`↔`Se`, `En`↔`Wn`, `Es`↔`Ws`).
//! - Rotating a tile by one quarter turn **clockwise** maps side `s` to `s + 1`, half `h` to
//!   `h + 2` (mod 8) and a cell offset `(x, y)` to `(-y, x)`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub mod limits;
mod linear;
mod resource;
mod rule_form;
mod rule_form_words;
mod value;
mod value_text;
mod words;

pub use linear::Linear;
pub use resource::{Award, Gain, Resource, StartCount};
pub use rule_form::{
    Act, CounterType, Offer, Options, PieceKind, RuleEvent, ScoredAt, Seat, TileRef, TokenType,
    When, CHOSEN,
};
pub use value::{
    applies, Compare, Counts, Expr, Quantity, ScoringNumbers, StateValues, Test, Values,
};
pub use value_text::Names;

/// A side of a cell, clockwise from north.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Side {
    /// North (`y - 1`).
    N = 0,
    /// East (`x + 1`).
    E = 1,
    /// South (`y + 1`).
    S = 2,
    /// West (`x - 1`).
    W = 3,
}

impl Side {
    /// All sides in index order.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// The side with index `i % 4`.
    pub fn from_index(i: usize) -> Side {
        Side::ALL[i % 4]
    }

    /// Index 0..4.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side facing this one across a shared edge.
    pub fn opposite(self) -> Side {
        Side::from_index(self.index() + 2)
    }

    /// This side after `quarter_turns` clockwise quarter turns.
    pub fn rotated(self, quarter_turns: u8) -> Side {
        Side::from_index(self.index() + quarter_turns as usize)
    }

    /// Unit step `(dx, dy)` towards the neighbour on this side.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Side::N => (0, -1),
            Side::E => (1, 0),
            Side::S => (0, 1),
            Side::W => (-1, 0),
        }
    }

    /// The two halves of this side, clockwise.
    pub fn halves(self) -> [Half; 2] {
        [
            Half::from_index(2 * self.index()),
            Half::from_index(2 * self.index() + 1),
        ]
    }

    /// Upper-case letter, as used in the TOML files.
    pub fn name(self) -> &'static str {
        ["N", "E", "S", "W"][self.index()]
    }
}

/// A half-edge of a cell (fields touch half-edges), clockwise from the west half of north.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Half {
    /// West half of the north side.
    Nw = 0,
    /// East half of the north side.
    Ne = 1,
    /// North half of the east side.
    En = 2,
    /// South half of the east side.
    Es = 3,
    /// East half of the south side.
    Se = 4,
    /// West half of the south side.
    Sw = 5,
    /// South half of the west side.
    Ws = 6,
    /// North half of the west side.
    Wn = 7,
}

impl Half {
    /// All halves in index order.
    pub const ALL: [Half; 8] = [
        Half::Nw,
        Half::Ne,
        Half::En,
        Half::Es,
        Half::Se,
        Half::Sw,
        Half::Ws,
        Half::Wn,
    ];

    /// The half with index `i % 8`.
    pub fn from_index(i: usize) -> Half {
        Half::ALL[i % 8]
    }

    /// Index 0..8.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side this half belongs to.
    pub fn side(self) -> Side {
        Side::from_index(self.index() / 2)
    }

    /// The neighbour's half that meets this one across the shared side.
    pub fn opposite(self) -> Half {
        // The facing side is mirrored: Nw<->Sw, Ne<->Se, En<->Wn, Es<->Ws.
        const OPP: [Half; 8] = [
            Half::Sw,
            Half::Se,
            Half::Wn,
            Half::Ws,
            Half::Ne,
            Half::Nw,
            Half::Es,
            Half::En,
        ];
        OPP[self.index()]
    }

    /// This half after `quarter_turns` clockwise quarter turns.
    pub fn rotated(self, quarter_turns: u8) -> Half {
        Half::from_index(self.index() + 2 * quarter_turns as usize)
    }

    /// Two-letter name, as used in the TOML files.
    pub fn name(self) -> &'static str {
        ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"][self.index()]
    }
}

/// Rotate a cell offset `(x, y)` by `quarter_turns` clockwise quarter turns (y grows south).
pub fn rotate_offset(x: i32, y: i32, quarter_turns: u8) -> (i32, i32) {
    let (mut x, mut y) = (x, y);
    for _ in 0..quarter_turns % 4 {
        (x, y) = (-y, x);
    }
    (x, y)
}

/// What an outer side of a cell shows to a neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SideKind {
    /// City edge.
    City,
    /// Road edge (field halves on both sides of the road).
    Road,
    /// Field edge.
    Field,
    /// Matches anything and closes the neighbour's feature on that side (AM-1, AM-3).
    Any,
    /// An edge kind the data declares ([`Ruleset::edge_kinds`], by index): it matches only
    /// itself (and `Any`), carries no feature, and its two halves belong to fields like a
    /// road's, so the fields on either side of it stay apart unless the tile joins them.
    Declared(u8),
}

impl SideKind {
    /// Whether two facing sides may touch (B-2; `Any` matches everything, AM-1; a declared kind
    /// only itself).
    pub fn matches(self, other: SideKind) -> bool {
        self == other || self == SideKind::Any || other == SideKind::Any
    }

    /// Whether both halves of a side of this kind belong to fields (road, field and declared
    /// sides; not city or `Any`).
    pub fn has_field_halves(self) -> bool {
        matches!(
            self,
            SideKind::Road | SideKind::Field | SideKind::Declared(_)
        )
    }
}

/// An edge kind declared by the data (`[[edge]]` in a tile set) beside city, road and field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EdgeKind {
    /// Id as written in the tiles' `sides`.
    pub id: String,
    /// Display name.
    pub name: String,
}

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

/// A condition on where a tile that carries it may be placed, beside matching edges (B-2).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PlacementRule {
    /// At least one side of this kind meets a placed neighbour: the tile continues the line
    /// these edges draw on the board.
    Continues {
        /// The edge kind.
        kind: SideKind,
        /// Rule id cited when a placement is refused.
        rule: String,
    },
    /// Every side of this kind that faces an empty cell (an open end) keeps room to go on, as
    /// [`Readings::open_end`] reads it.
    RoomAhead {
        /// The edge kind.
        kind: SideKind,
        /// Rule id cited when a placement is refused.
        rule: String,
    },
}

impl PlacementRule {
    /// The rule id it cites.
    pub fn rule(&self) -> &str {
        match self {
            PlacementRule::Continues { rule, .. } | PlacementRule::RoomAhead { rule, .. } => rule,
        }
    }
}

/// Kind of a feature (a connected set of segments).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum FeatureKind {
    /// City (B-3, B-4).
    City,
    /// Road (B-3, B-4).
    Road,
    /// Field / meadow (B-6).
    Field,
    /// Cloister or another feature of one cell scored by its 8-neighbourhood (B-3, B-4).
    Cloister,
    /// A feature no figure stands on and no feature scoring pays (W-5, W-19); the data, the
    /// artefact and the logs spell it with the word of the expansion that brought it.
    #[serde(rename = "wonder")]
    Unscored,
}

impl FeatureKind {
    /// All kinds.
    pub const ALL: [FeatureKind; 5] = [
        FeatureKind::City,
        FeatureKind::Road,
        FeatureKind::Field,
        FeatureKind::Cloister,
        FeatureKind::Unscored,
    ];

    /// Lower-case name, as in the data files and messages.
    pub fn name(self) -> &'static str {
        match self {
            FeatureKind::City => "city",
            FeatureKind::Road => "road",
            FeatureKind::Field => "field",
            FeatureKind::Cloister => "cloister",
            FeatureKind::Unscored => "wonder",
        }
    }
}

/// The value meaning "no feature" in the per-port tables.
pub const NO_FEATURE: u8 = u8::MAX;

/// Version of the ruleset artefact's format. Raised whenever a change to these types would make
/// an older engine misread a newer file (or the reverse); [`Ruleset::from_json`] refuses others.
pub const FORMAT_VERSION: u32 = 4;

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

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
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

/// One complete, lowered variant: the "generated engine" input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "tegula ruleset (compiled variant)")]
pub struct Ruleset {
    /// Version of this format ([`FORMAT_VERSION`]); required.
    pub format_version: u32,
    /// Variant id (file name stem by convention).
    pub id: String,
    /// Human-readable variant name.
    pub name: String,
    /// Smallest allowed number of players.
    pub min_players: u8,
    /// Largest allowed number of players.
    pub max_players: u8,
    /// Follower types every player receives.
    pub followers: Vec<FollowerType>,
    /// Scoring parameters (the standard rules by default; a variant may change them).
    pub scoring: Scoring,
    /// Tag names; [`Feature::tags`] and [`TileType::tags`] are bit sets over this list.
    pub tags: Vec<String>,
    /// Tile types, in a stable order (sets in variant order, tiles in file order).
    pub tiles: Vec<TileType>,
    /// Index into `tiles` of the start tile, if the variant has one.
    pub start_tile: Option<u16>,
    /// Tiles every player holds in their own supply (not in the pile), placed instead of drawing.
    #[serde(default)]
    pub player_tiles: Vec<PlayerTile>,
    /// An open pool of tiles players take when their score reaches a threshold, then place
    /// instead of drawing (W-1..W-7). `None`: no pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<PoolRules>,
    /// Tiles in every player's hand (1 = the normal game: draw one, place it; N: hold N, draw
    /// up to N, place one). Abilities may raise one player's hand (W-12's [`Effect::Hand`]).
    #[serde(default = "one_tile")]
    pub hand: u8,
    /// How the rulebook's *Readings* are decided (the rule registry, `tegula rules ID`): each
    /// defaults to the registry's reading; a variant may pick the alternative. Left out of the
    /// artefact when every one is the default, so artefacts of the shipped variants do not
    /// change.
    #[serde(default, skip_serializing_if = "Readings::is_default")]
    pub readings: Readings,
    /// Rules the data declares for itself (`[[rule]]` in its tile sets and variant), beside the
    /// registry ([`RULES_TOML`]): what events and scenarios citing them resolve to. Left out of
    /// the artefact when empty, so artefacts of variants without their own rules do not change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<Rule>,
    /// Named counters every seat holds, with how they are gained and what they are worth at
    /// the end (docs/FORMAT.md, "Seat resources"). Left out of the artefact when empty, so
    /// artefacts of variants without them do not change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<Resource>,
    /// Edge kinds the data declares beside city, road and field ([`SideKind::Declared`] indexes
    /// this list). Left out of the artefact when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edge_kinds: Vec<EdgeKind>,
    /// The draw pile's ordered groups (each shuffled on its own, drawn in this order, the tiles
    /// of no group last). Empty: one group, the whole pile. Left out of the artefact when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pile_groups: Vec<PileGroup>,
    /// The rule that allows seating more players than a smaller game would: a game with more
    /// than [`SeatsRule::above`] players cites it once, at its start. Left out of the artefact
    /// when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats_rule: Option<SeatsRule>,
    /// The rule ids the game's own steps cite (placing a tile, scoring during the game and at
    /// the end): the engine names no rule, the data does.
    pub citations: Citations,
    /// Rules of the one form (`[[when]]`; docs/design/rule-form.md), in file order. Left out of
    /// the artefact when empty, so artefacts of variants without them do not change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub when: Vec<When>,
    /// Single-holder tokens (`[[token]]`). Left out of the artefact when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<TokenType>,
    /// Kinds of counter tiles carry (`[[counter]]`). Left out of the artefact when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<CounterType>,
}

/// The rule ids the steps every game has cite (`[citations]` in a variant; docs/FORMAT.md,
/// "Cited rules").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Citations {
    /// Placing a tile: what a refused placement or figure placement cites unless a more
    /// particular rule of the data applies, and what a tile that fits nowhere leaves the game
    /// by unless its pile group names another rule.
    pub placement: String,
    /// A feature scored during the game.
    pub scoring: String,
    /// A feature scored at the end of the game (fields included).
    pub final_scoring: String,
}

/// The rule a game cites when it seats more than `above` players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatsRule {
    /// Games with more players than this cite [`SeatsRule::rule`].
    pub above: u8,
    /// Rule id.
    pub rule: String,
}

/// One rule: of the registry ([`RULES_TOML`]) or declared by data (`[[rule]]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Stable id (`B-4`, `AM-7`, `W-18`, an author's `FM-2`).
    pub id: String,
    /// Short title.
    pub title: String,
    /// The rule in the project's (or the author's) own words, one paragraph.
    pub statement: String,
    /// Where it comes from: a rulebook and section, or the author's own invention.
    pub source: String,
}

fn one_tile() -> u8 {
    1
}

/// The open pool (W-1..W-4, W-30): which tiles, how it is filled, the score thresholds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PoolRules {
    /// Tile types that can be in the pool (they are not in the draw pile).
    pub tiles: Vec<u16>,
    /// Tiles each player picks into the pool at setup, in seat order (W-1: 1); 0 = every tile
    /// in `tiles` is in the pool.
    pub pick: u8,
    /// Where the shared threshold pairs start on the score track (W-2: 10).
    pub first: u32,
    /// How far the remaining pairs move after each take (W-2: 5).
    pub step: u32,
    /// The furthest the pairs go; they wait there (W-2: 25).
    pub cap: u32,
    /// Score at which a player who took a tile takes a second one (W-30: 50); `None` = one each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<u32>,
    /// Follower type gained with a take (the pair's meeples); one of them marks the placed tile.
    pub gain_follower: u8,
    /// How many of it come with the first take (W-2: 2).
    pub gain_first: u8,
    /// How many come with the second take (W-30: 1).
    pub gain_second: u8,
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

/// A tile's ability, written in the rule language (docs/RULE-LANGUAGE.md): only the owner (the
/// player who placed the tile) benefits, from the placement on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Ability {
    /// Rule id cited by its score events (e.g. `W-13`).
    pub rule: String,
    /// When it acts.
    pub when: Trigger,
    /// Conditions that must all hold when it acts.
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// What it does.
    pub effect: Effect,
    /// Whether it is silent in the turn the tile itself is placed (W-10, W-11).
    #[serde(default)]
    pub not_in_placing_turn: bool,
}

/// When an ability acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Trigger {
    /// The owner places a figure from supply on a feature (once per placement).
    FollowerPlaced,
    /// A feature of this kind is completed (once per feature, before its own scoring);
    /// `owners_turn`: only in the owner's turn.
    FeatureCompleted {
        /// Kind of the completed feature.
        kind: FeatureKind,
        /// Only in the owner's turn.
        owners_turn: bool,
    },
    /// A feature of this kind is scored (once per feature, before its figures return);
    /// `during_game_only`: not in final scoring.
    FeatureScored {
        /// Kind of the scored feature.
        kind: FeatureKind,
        /// Not in final scoring.
        during_game_only: bool,
    },
    /// At the end of the game, before final scoring (W-20).
    GameEnd,
    /// The owner's draw (for [`Effect::Hand`]).
    Draw,
}

/// A condition over the triggering event.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Condition {
    /// The placed figure's cell is one of the 8 cells around a cell holding a feature with this
    /// tag (index into [`Ruleset::tags`]) or of kind cloister; that feature's own cell does not
    /// count unless it neighbours another (W-10), or counts too ([`Readings::near`]).
    #[serde(rename = "near-building")]
    Near {
        /// Tag index; features of kind cloister always count.
        tag: Option<u32>,
    },
    /// The triggering feature holds at least one figure (W-11).
    Occupied,
    /// The triggering feature covers at least this many cells (W-13).
    MinTiles(u32),
    /// The owner has at least one figure on the triggering feature (W-13).
    OwnerPresent,
}

/// What an ability does.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// The owner scores `per × count`.
    Score {
        /// Points per counted thing.
        per: Per,
        /// What is counted.
        count: Count,
    },
    /// The owner's hand holds this many tiles: they draw up to it, place one and keep the rest
    /// (W-12: 2); kept tiles are placed after the pile is empty.
    Hand(u8),
    /// The owner gains `amount` of a seat resource, evaluated over the triggering feature's
    /// counts (a constant where the trigger has no feature of a known kind).
    Gain {
        /// The resource's id (one of [`Ruleset::resources`]).
        resource: String,
        /// How much, over the triggering feature's counts.
        amount: Expr,
    },
    /// The owner takes one more turn after this one (the same turn effect a figure type may
    /// give, [`TurnAction::ExtraTurn`]): never in a turn that is itself an extra turn, never
    /// with the pile empty, at most one per turn whatever grants it.
    ExtraTurn,
}

/// Points per counted thing: a constant, or by the number of players / tiles in the game (the
/// entry with the largest threshold not above the actual number).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Per {
    /// A constant.
    Fixed(u32),
    /// `(least players, points)` pairs (W-14).
    ByPlayers(Vec<(u8, u32)>),
    /// `(least tiles in the game, points)` pairs (W-15: the pieces the variant deals, start
    /// tile included, a mega tile once).
    ByTiles(Vec<(u32, u32)>),
    /// A value over the triggering feature's counts (a trigger with a feature only), e.g. its
    /// cells.
    Value(Expr),
}

/// What an ability counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Count {
    /// Once.
    One,
    /// Figures on features (corner figures and claiming figures are on no feature): whose, on which
    /// kind, in which state (each figure once whatever its strength).
    Followers {
        /// Whose.
        owner: Owner,
        /// On which kind (`None`: any).
        kind: Option<FeatureKind>,
        /// Feature state.
        state: State,
    },
    /// Features of a kind with at least `min_tiles` cells, in a state.
    Features {
        /// Kind.
        kind: FeatureKind,
        /// Least size in cells.
        min_tiles: u32,
        /// State.
        state: State,
        /// Only features with at least one segment carrying this tag (index into
        /// [`Ruleset::tags`]); `None`: any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tag: Option<u32>,
    },
    /// Rows and columns of the board containing a gap-free run of at least this many filled
    /// cells (each row/column once, W-17).
    #[serde(rename = "lines")]
    LinesWithRun(u32),
}

/// Whose figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Owner {
    /// The ability's owner.
    Own,
    /// Every other player.
    Others,
    /// Anyone.
    Anyone,
}

/// A feature's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Complete (B-3).
    Complete,
    /// Not complete.
    Incomplete,
    /// Either.
    Any,
}

/// A kind of follower ("figure") and how it behaves: where it may stand, how strong it is, what
/// happens after its feature is scored, and, for figures that stand on corners, how they score.
/// Every behaviour is a value from a small closed vocabulary, so a new figure is data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FollowerType {
    /// Stable id (e.g. `meeple`, `large-meeple`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// How many each player has in supply at the start.
    pub count: u8,
    /// Strength for majorities (B-5).
    pub strength: Strength,
    /// Where it may be placed (one or more sites; a corner figure has only [`Site::Corner`]).
    pub sites: Vec<Site>,
    /// Whether it may join a feature that already holds a follower (standard: no, B-2).
    #[serde(default)]
    pub joins_occupied: bool,
    /// What happens to it after its feature is scored during the game.
    #[serde(default)]
    pub after_score: AfterScore,
    /// How a corner figure scores the field it stands on ([`Site::Corner`] only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corner: Option<CornerScoring>,
    /// A placement precondition: the feature must already hold at least one occupying figure
    /// of the owner's (default: none).
    #[serde(default, skip_serializing_if = "is_false")]
    pub needs_own_figure: bool,
    /// Whether it occupies its feature (default yes). A figure that does not never stops
    /// another player's figure from joining (B-2's "unoccupied" ignores it), never makes a
    /// feature a move target's "occupied" (AM-11), and counts for no majority (strength 0).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub occupies: bool,
    /// A payment modifier: added to its owner's payment from the feature it stands on whenever
    /// the owner is among that feature's majority (default: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment: Option<PaymentModifier>,
    /// A turn effect triggered when a placement extends a feature that already held this
    /// figure of the placer's (default: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when_extended: Option<TurnEffect>,
    /// Rule id the events placing a figure of this type from supply cite (default: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place_rule: Option<String>,
    /// Rule id the events returning a figure of this type to supply cite (default: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_rule: Option<String>,
    /// Rule id a placement of this figure refused for where it would stand cites (its sites,
    /// its precondition, a corner; default: `place_rule`, else [`Citations::placement`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_rule: Option<String>,
    /// Rule id a refused move of this figure after a scoring cites ([`AfterScore::Move`];
    /// default: [`Citations::placement`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_rule: Option<String>,
    /// Sites by tag (AB-1): when not empty, the figure stands only on a tile-local feature
    /// carrying one of these tags (indices into [`Ruleset::tags`]), besides its `sites`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub only_tags: Vec<u32>,
    /// Sites by tag (AB-1): the figure never stands on a tile-local feature carrying one of
    /// these tags (AB-1: a feature only one figure type may hold).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub never_tags: Vec<u32>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_true(b: &bool) -> bool {
    *b
}

/// What a figure adds to its owner's payment from its feature (a majority's share).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PaymentModifier {
    /// Rule id cited by the score event of the addition.
    pub rule: String,
    /// The addition, over the counts of the feature being paid (for a payment that counts
    /// one city, as the first edition's field rule does, `cities` is 1).
    pub value: Expr,
}

/// A turn effect: what a trigger gives the player who caused it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TurnEffect {
    /// Rule id cited by the event of the effect.
    pub rule: String,
    /// What the player gets.
    pub effect: TurnAction,
    /// Whether a placement that extends the feature and completes it at once still triggers
    /// (default yes).
    #[serde(default = "yes")]
    pub completing: bool,
}

/// The effect of a [`TurnEffect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TurnAction {
    /// After this turn the same player takes one more turn (draw and place a tile), unless the
    /// draw pile is empty. A turn granted this way never grants another.
    ExtraTurn,
}

impl FollowerType {
    /// A standard follower: stands on roads, cities, cloisters and fields, returns after scoring.
    pub fn standard(id: &str, name: &str, count: u8, strength: u8) -> FollowerType {
        FollowerType {
            id: id.to_string(),
            name: name.to_string(),
            count,
            strength: Strength::Fixed(strength),
            sites: vec![Site::Road, Site::City, Site::Cloister, Site::Field],
            joins_occupied: false,
            after_score: AfterScore::Return,
            corner: None,
            needs_own_figure: false,
            occupies: true,
            payment: None,
            when_extended: None,
            place_rule: None,
            return_rule: None,
            site_rule: None,
            move_rule: None,
            only_tags: Vec::new(),
            never_tags: Vec::new(),
        }
    }

    /// Whether it may stand on a feature of kind `kind`.
    pub fn stands_on(&self, kind: FeatureKind) -> bool {
        self.sites.iter().any(|s| s.feature_kind() == Some(kind))
    }

    /// Its strength on the feature `c` counts (B-5): a constant without looking at the
    /// feature, else its expression over the feature's counts.
    pub fn strength_on(&self, c: &mut impl Counts) -> u32 {
        match &self.strength {
            Strength::Fixed(s) => u32::from(*s),
            Strength::Value(e) => e.eval(c),
        }
    }

    /// Whether it stands on corners where four cells meet (AM-6).
    pub fn is_corner_figure(&self) -> bool {
        self.sites.contains(&Site::Corner)
    }
}

/// Where a figure may stand.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Site {
    /// On a road of the tile just placed.
    Road,
    /// On a city of the tile just placed.
    City,
    /// On a cloister (or another one-cell feature scored by its neighbourhood) of the tile just
    /// placed.
    Cloister,
    /// On a field of the tile just placed (a farmer).
    Field,
    /// On a corner of the tile just placed where four filled cells meet and all four cell
    /// corners there are field (AM-6); it then belongs to that field.
    Corner,
}

impl Site {
    /// All sites.
    pub const ALL: [Site; 5] = [
        Site::Road,
        Site::City,
        Site::Cloister,
        Site::Field,
        Site::Corner,
    ];

    /// The feature kind a follower on this site stands on (`None` for a corner).
    pub fn feature_kind(self) -> Option<FeatureKind> {
        match self {
            Site::Road => Some(FeatureKind::Road),
            Site::City => Some(FeatureKind::City),
            Site::Cloister => Some(FeatureKind::Cloister),
            Site::Field => Some(FeatureKind::Field),
            Site::Corner => None,
        }
    }

    /// Lower-case name, as in the variant files.
    pub fn name(self) -> &'static str {
        match self {
            Site::Road => "road",
            Site::City => "city",
            Site::Cloister => "cloister",
            Site::Field => "field",
            Site::Corner => "corner",
        }
    }
}

/// How strong a figure is in a majority (B-5). A strength that reads no count of its feature is
/// always [`Strength::Fixed`] (the model folds constant expressions), so majorities of figures
/// with constant strengths never evaluate an expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Strength {
    /// A constant (meeple 1, large meeple 2, a figure that never counts 0).
    Fixed(u8),
    /// A value expression over the counts of the feature it stands on, e.g. `pennants` (as
    /// many as the pennants of its city; 0 pennants → 0).
    Value(Expr),
}

/// What happens to a figure after its feature is scored during the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AfterScore {
    /// Back to its owner's supply (B-4).
    #[default]
    Return,
    /// Stays where it is (corner figures: AM-7..AM-9).
    Stay,
    /// Its owner may move it to an unfinished, unoccupied feature it may stand on that is
    /// adjacent in the given sense, or take it back (AM-11, AM-12).
    Move(Adjacency),
}

/// Which features count as adjacent for a figure that moves after scoring (AM-11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Adjacency {
    /// The registry's reading of AM-11: a feature with a segment on the figure's tile or on a tile
    /// covering a cell in the 8-neighbourhood of any of that tile's cells (a mega tile counts
    /// whole).
    #[default]
    Neighbourhood,
    /// The older reading: a feature with a segment on a tile that the scored feature also
    /// touches.
    Connected,
}

/// How a corner figure scores its field (AM-7..AM-9): three value expressions over the field's
/// counts (`cities` is the completed cities it borders; the standard payments are `3 * cities`,
/// `cities` and `4 * cities`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct CornerScoring {
    /// When it is placed: the field is paid this to its farmer majority, and the farmers return
    /// (AM-7).
    pub place: Expr,
    /// When a placement joins a field holding farmers to its field: the joined field (or, by
    /// the other reading, each former field, `cities` then counting that field's) is paid this
    /// to the farmer majority, and the farmers return (AM-8).
    pub join: Expr,
    /// At the end of the game, its owner scores this for its field (AM-9). Every corner figure
    /// on a field scores in full.
    #[serde(rename = "final")]
    pub final_: Expr,
    /// Rule id the payment on placement cites.
    pub place_rule: String,
    /// Rule id the payment of a join cites, and a follower refused on its field.
    pub join_rule: String,
    /// Rule id the final payment cites.
    pub final_rule: String,
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

/// Scoring parameters. Defaults are the standard rules (B-4, B-6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Scoring {
    /// What each feature is worth, as expressions over its counts (docs/FORMAT.md, "Values").
    pub values: Values,
    /// Whether incomplete roads, cities and cloisters score at the end (B-6: yes). Fields are
    /// scored either way.
    #[serde(default = "yes")]
    pub final_incomplete: bool,
    /// How fields score at the end: B-6's procedure, or the first edition's.
    #[serde(default)]
    pub field_rule: FieldRule,
}

fn yes() -> bool {
    true
}

/// How fields are scored at the end of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FieldRule {
    /// B-6: every field scores each completed city it borders, to that field's farmer majority
    /// (a city can score for several fields).
    #[default]
    PerField,
    /// The first edition: every completed city bordered by a field with farmers scores once, to
    /// the farmer majority over all the fields that border it (strengths summed over them).
    PerCity,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            values: Values::default(),
            final_incomplete: true,
            field_rule: FieldRule::PerField,
        }
    }
}

/// One tile type (single-cell or mega tile) with all four rotations precomputed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TileType {
    /// Tile id as written in the TOML (e.g. `D`, `notre-dame`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Id of the set / expansion the tile belongs to.
    pub set: String,
    /// Copies in the draw pile (not counting the start copy, nor the copies held by players as
    /// [`PlayerTile`]s).
    pub count: u32,
    /// Whether one extra copy of this tile starts on the board.
    pub start: bool,
    /// Bit set over [`Ruleset::tags`] of tile-level tags (e.g. `religious`).
    pub tags: u32,
    /// Number of cells the tile covers (1 for ordinary tiles, 5 for the largest mega tiles).
    pub cell_count: u8,
    /// Cell ids as written in the TOML (`["0"]` for a single-cell tile), in cell-index order.
    pub cell_ids: Vec<String>,
    /// Tile-local features (connected components of the tile's segment graph); rotation-invariant.
    pub features: Vec<Feature>,
    /// The four rotations, index = clockwise quarter turns.
    pub rotations: Vec<Rotation>,
    /// Abilities of the tile (its owner's, W-10..W-17), in the rule language.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<Ability>,
    /// Conditions on where the tile may be placed beside matching edges (checked only for the
    /// tiles that carry them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placement: Vec<PlacementRule>,
    /// Rule ids the placement events of this tile cite: its set's, its own, then those its
    /// [`TileType::placement`] rules cite (default: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
}

/// A tile-local feature: the facts the engine needs about one connected component.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Feature {
    /// What it is.
    pub kind: FeatureKind,
    /// Ids of the segments it is made of, as written in the TOML (scenarios and logs name
    /// features by any of these).
    pub segments: Vec<String>,
    /// Bit set of the tile's cells (by cell index) that this feature touches (B-7, W-18).
    pub cells: u8,
    /// Number of outer sides (city/road) of the tile this feature reaches: its open ends before
    /// any neighbour closes them (B-3).
    pub open_sides: u8,
    /// Pennants / coats of arms (cities only, B-4).
    pub pennants: u8,
    /// Bit set over [`Ruleset::tags`] (e.g. `religious`).
    pub tags: u32,
    /// For fields: indices (into the tile's `features`) of the cities it borders (B-6).
    pub borders: Vec<u8>,
}

/// One rotation of a tile: where its cells go and what each outer port connects to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Rotation {
    /// The cells, in the tile's cell order; cell 0 is the anchor at offset `(0, 0)`.
    pub cells: Vec<CellPorts>,
}

/// A cell of a placed tile in one rotation, seen from the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CellPorts {
    /// Offset from the anchor cell, already rotated.
    pub offset: (i8, i8),
    /// Kind of each side, indexed by board [`Side`] (already rotated).
    pub sides: [SideKind; 4],
    /// Bit set of the sides (board [`Side`] index) that are outer, i.e. face the map; the others
    /// face another cell of the same tile and never meet a neighbour.
    pub outer: u8,
    /// Feature (index into [`TileType::features`]) on each city/road side, by board side;
    /// [`NO_FEATURE`] for field / any sides.
    pub side_feature: [u8; 4],
    /// Field feature on each half-edge, by board [`Half`]; [`NO_FEATURE`] on city / any sides.
    pub half_feature: [u8; 8],
    /// Features that sit on this cell without touching a side (cloister, unscored feature, inner fields).
    pub inner: Vec<u8>,
}

/// Why a ruleset artefact cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArtefactError {
    /// Not JSON, or not a ruleset (the parser's message, with line and column).
    Parse(String),
    /// Written by another version of the format.
    Version {
        /// The file's `format_version`.
        found: u32,
    },
}

impl std::fmt::Display for ArtefactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArtefactError::Parse(m) => write!(f, "not a tegula ruleset: {m}"),
            ArtefactError::Version { found } => write!(
                f,
                "ruleset format version {found}; this engine reads version {FORMAT_VERSION} \
                 (compile the variant again with this tegula)"
            ),
        }
    }
}

impl std::error::Error for ArtefactError {}

impl Ruleset {
    /// Read a ruleset artefact (`tegula compile VARIANT --format json`): the version is checked
    /// first, so that a file of another version gets that message rather than a parse error.
    pub fn from_json(text: &str) -> Result<Ruleset, ArtefactError> {
        #[derive(Deserialize)]
        struct Version {
            format_version: u32,
        }
        let v: Version =
            serde_json::from_str(text).map_err(|e| ArtefactError::Parse(e.to_string()))?;
        if v.format_version != FORMAT_VERSION {
            return Err(ArtefactError::Version {
                found: v.format_version,
            });
        }
        serde_json::from_str(text).map_err(|e| ArtefactError::Parse(e.to_string()))
    }

    /// The artefact text: pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a ruleset is plain data");
        s.push('\n');
        s
    }

    /// Index of the tag called `name`, if any feature or tile uses it.
    pub fn tag(&self, name: &str) -> Option<u32> {
        self.tags.iter().position(|t| t == name).map(|i| i as u32)
    }

    /// Cells the tiles of one game with `players` players may cover: the draw pile, the start
    /// tile, every player's own tiles and the pool (bounded by [`limits::MAX_GAME_CELLS`]).
    /// Saturating; tile indices out of range count nothing.
    pub fn game_cells(&self, players: u8) -> u64 {
        let cells = |t: u16| {
            self.tiles
                .get(usize::from(t))
                .map_or(0, |t| u64::from(t.cell_count))
        };
        let pile = self.tiles.iter().fold(0u64, |n, t| {
            n.saturating_add(u64::from(t.count).saturating_mul(u64::from(t.cell_count)))
        });
        let start = self.start_tile.map_or(0, cells);
        let held = self.player_tiles.iter().fold(0u64, |n, p| {
            n.saturating_add(u64::from(p.count) * u64::from(players) * cells(p.tile))
        });
        let pool = self
            .pool
            .iter()
            .flat_map(|p| &p.tiles)
            .map(|&t| cells(t))
            .sum::<u64>();
        pile.saturating_add(start)
            .saturating_add(held)
            .saturating_add(pool)
    }

    /// Total tiles in the draw pile (start tile excluded).
    pub fn pile_size(&self) -> u32 {
        // Saturating: a hand-built ruleset may hold any counts; the engine refuses piles over
        // `limits::MAX_PILE` anyway.
        self.tiles
            .iter()
            .fold(0u32, |n, t| n.saturating_add(t.count))
    }
}

/// The rule registry as data (TOML): every rule id the data, diagnostics, scenarios and events
/// cite, with its title, statement and source. Read by `tegula_model::rules`, its only loader.
pub const RULES_TOML: &str = include_str!("../rules.toml");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_opposites_are_involutions_on_opposite_sides() {
        for h in Half::ALL {
            assert_eq!(h.opposite().opposite(), h);
            assert_eq!(h.opposite().side(), h.side().opposite());
        }
        assert_eq!(Half::Nw.opposite(), Half::Sw);
        assert_eq!(Half::En.opposite(), Half::Wn);
    }

    #[test]
    fn rotation_moves_north_to_east() {
        assert_eq!(Side::N.rotated(1), Side::E);
        assert_eq!(Half::Nw.rotated(1), Half::En);
        assert_eq!(rotate_offset(0, -1, 1), (1, 0));
        assert_eq!(rotate_offset(3, 5, 4), (3, 5));
        // Rotation commutes with taking the opposite half.
        for h in Half::ALL {
            for r in 0..4 {
                assert_eq!(h.rotated(r).opposite(), h.opposite().rotated(r));
            }
        }
    }
}
