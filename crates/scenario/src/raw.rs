//! Raw scenario TOML types: what a scenario file says, with source spans on every blamable value.
//!
//! The JSON Schema `schema/scenario.schema.json` is generated from these types
//! ([`crate::schema_json`]). Names (tiles, segments, follower types) are checked later, against the
//! variant's ruleset, by [`crate::load()`]. Span rules as in `tegula_model::raw`: `Sp<T>` on blamable
//! fields, no `#[serde(flatten)]`, no internally tagged enums.

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tegula_model::raw::Sp;

/// A scenario file (`scenarios/*.toml`): a variant, a number of players, scripted moves and what
/// must happen.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "tegula scenario")]
pub struct ScenarioFile {
    /// Short title.
    #[schemars(length(min = 1, max = 200))]
    pub name: String,
    /// Free text: what the scenario shows and the hand computation of its scores.
    #[serde(default)]
    pub description: Option<String>,
    /// Rule ids (the rule registry, `tegula rules ID`) the scenario exercises, e.g.
    /// `["B-4", "B-5"]`.
    #[serde(default)]
    #[schemars(length(max = 32), inner(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$")))]
    pub rules: Vec<Sp<RuleId>>,
    /// Variant file, relative to the scenario file.
    pub variant: Sp<String>,
    /// Number of players (seats 0, 1, …; seat 0 plays the first step).
    #[schemars(range(min = 1, max = 8))]
    pub players: Sp<u8>,
    /// Start tile at (0, 0). Absent: the variant's start tile with rotation 0.
    #[serde(default)]
    pub start: Option<Sp<RawStart>>,
    /// The turns, in order. Each step's tile is the tile drawn in that turn.
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub step: Vec<Sp<RawStep>>,
    /// Whether the pile is exactly the steps' drawn tiles, so that the game ends by itself after
    /// them: the final round of players' own tiles (AM-4, further `own` steps) and final scoring
    /// run as the engine plays them. Default: one extra tile keeps the game open, and final
    /// scoring runs only when `[end]` asks for it.
    #[serde(default)]
    pub pile_ends: bool,
    /// With `pile_ends`: the seats that decline their own tiles after the last step, in the
    /// order the engine offers them (AM-4). A final-round offer the scenario does not answer
    /// (by an `own` step, a step's `declined` or this list) is a failure, never a silent decline.
    #[serde(default)]
    #[schemars(length(max = 64), inner(range(min = 0, max = 7)))]
    pub declined_at_end: Option<Sp<Vec<Sp<i64>>>>,
    /// The draw pile in order, when it differs from the steps' drawn tiles (a hand of several
    /// tiles draws ahead, W-12; tiles removed by W-6). Default: the steps' drawn tiles.
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub pile: Option<Sp<Vec<Sp<String>>>>,
    /// Geometry scenarios only: the variant's pool tiles are dealt into the draw pile as ordinary
    /// tiles (no pool, no acquisition, no marker, no abilities), so that a step can place a wonder
    /// like a drawn tile to test W-18, W-19 and W-21 geometry. Default false.
    #[serde(default)]
    pub pool_tiles_drawn: bool,
    /// Tiles picked into the open pool at setup, in seat order (W-1).
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub pool: Vec<Sp<String>>,
    /// A position set by hand before the first step (after the pool picks): scores, supplies,
    /// pool tiles held, where the marker pairs stand.
    #[serde(default)]
    pub setup: Option<Sp<RawSetup>>,
    /// Final scoring (B-6): present = run it after the last step and compare its events.
    #[serde(default)]
    pub end: Option<Sp<RawEnd>>,
    /// What must hold when the scenario is over (after final scoring if `[end]` is present).
    #[serde(default)]
    pub expect: Option<Sp<RawFinal>>,
}

/// `[setup]`: a position set by hand before the first step. Applied in this order: `held`
/// (each as a W-2 take: out of the pool, the seat's gain into its supply, the pairs moved), then
/// `pairs`, `supply` and `scores`, which set values outright.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSetup {
    /// Every seat's score, in seat order.
    #[serde(default)]
    #[schemars(length(min = 1, max = 8), inner(range(min = 0, max = 100000)))]
    pub scores: Option<Sp<Vec<Sp<i64>>>>,
    /// Figures in a seat's supply: `{ seat = 0, follower = "meeple", count = 3 }`.
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub supply: Vec<Sp<RawSupply>>,
    /// Pool tiles a seat has taken and not yet placed (W-2, W-5): `{ seat = 1, tile = "tikal" }`.
    /// The tile must be in the open pool; the seat is offered it from its next turn on.
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub held: Vec<Sp<RawHeld>>,
    /// Where the marker pairs stand on the score track (W-2), from 0 to the variant's cap.
    #[serde(default)]
    #[schemars(range(min = 0, max = 100000))]
    pub pairs: Option<Sp<i64>>,
    /// Seat resources a seat holds (docs/FORMAT.md, "Seat resources"):
    /// `{ seat = 0, resource = "wine", count = 2 }`.
    #[serde(default)]
    #[schemars(length(max = 128))]
    pub resources: Vec<Sp<RawHolding>>,
    /// Start from the position after the first `turns` tiles placed in a game log (the other
    /// `[setup]` keys, `start`, `pool`, `pile` and `pool_tiles_drawn` cannot go with it).
    #[serde(default)]
    pub board: Option<Sp<RawBoard>>,
}

/// A starting board from a game log (`tegula play --log`, `tegula simulate --logs`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBoard {
    /// The log file (JSON Lines), relative to the scenario file; its variant and players must be
    /// the scenario's.
    pub log: Sp<String>,
    /// Land tiles placed in the log before the scenario's first step (the start tile not
    /// counted): the position after that turn, its scoring and its pool takes. The scenario's
    /// steps go on with the log's pile.
    #[schemars(range(min = 0, max = 10000))]
    pub turns: Sp<i64>,
}

/// A seat's supply of one follower type.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSupply {
    /// The seat.
    #[schemars(range(min = 0, max = 7))]
    pub seat: Sp<i64>,
    /// Follower type id.
    pub follower: Sp<String>,
    /// Figures in supply, 0 to 255.
    #[schemars(range(min = 0, max = 255))]
    pub count: Sp<i64>,
}

/// A seat's holding of one seat resource.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawHolding {
    /// The seat.
    #[schemars(range(min = 0, max = 7))]
    pub seat: Sp<i64>,
    /// Resource id of the variant.
    pub resource: Sp<String>,
    /// How much it holds, 0 to 100000.
    #[schemars(range(min = 0, max = 100000))]
    pub count: Sp<i64>,
}

/// A pool tile held by a seat.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawHeld {
    /// The seat holding it.
    #[schemars(range(min = 0, max = 7))]
    pub seat: Sp<i64>,
    /// The pool tile.
    pub tile: Sp<String>,
}

/// Board points as written, each `[x, y]` (checked by the loader).
pub type RawPoints = Sp<Vec<Sp<Vec<Sp<i64>>>>>;

/// A rule id such as `B-4` or `W-18`.
pub type RuleId = String;

/// The start tile override.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStart {
    /// Tile id.
    pub tile: Sp<String>,
    /// Rotation (default 0).
    #[serde(default)]
    pub rotation: Sp<RawRotation>,
}

/// One turn: the drawn tile, where it goes, an optional follower, and what must happen.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStep {
    /// Id of the tile drawn (and placed) in this turn.
    pub tile: Sp<String>,
    /// Board cell `[x, y]` of the tile's anchor cell (x east, y south). Absent: the tile must be
    /// unplaceable and is discarded (B-2).
    #[serde(default)]
    #[schemars(length(min = 2, max = 2))]
    pub at: Option<Sp<Vec<Sp<i64>>>>,
    /// Quarter turns clockwise `0`–`3`, or where the tile's north side ends up: `"N"`, `"E"`,
    /// `"S"`, `"W"` (= 0, 1, 2, 3). Default 0.
    #[serde(default)]
    pub rotation: Sp<RawRotation>,
    /// Optional check: the seat whose turn this is.
    #[serde(default)]
    #[schemars(range(min = 0, max = 7))]
    pub player: Option<Sp<i64>>,
    /// The tile is the player's own (held from the start, e.g. an abbey, AM-1), placed instead of
    /// drawing; it is not part of the draw pile. When the engine offers own tiles and the step is
    /// not an `own` step of that seat, the runner declines them (the seat draws) — in the final
    /// round (AM-4, nothing left to draw) only when the step's `declined` lists the seat.
    #[serde(default)]
    pub own: bool,
    /// The seats whose own-tile offers the runner declines before this step, in the order the
    /// engine makes them (e.g. `[1, 2]`: seat 1 is offered and declines, then seat 2). Shows who
    /// is offered an own tile when, and how often (AM-1, AM-4). Optional, except in the final
    /// round (AM-4): there an offer is declined only when this lists it.
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub declined: Option<Vec<Sp<i64>>>,
    /// A follower placed on the tile just placed (a corner figure goes on its `corner`, else on
    /// the first legal corner of the named field, AM-6).
    #[serde(default)]
    pub follower: Option<Sp<RawFollowerPlacement>>,
    /// A second follower on a pool tile just placed, on another feature of it (W-7).
    #[serde(default)]
    pub follower2: Option<Sp<RawFollowerPlacement>>,
    /// Answers to the choices rules offer during this turn (`offer` of a `[[when]]`), in the
    /// order the engine makes the offers: a tile-placed offer right after the placement, a
    /// figure-step offer at the figure step (instead of `follower` when it uses the figure
    /// step), the offers of the turn's end after its scoring, a turn-start offer before the
    /// step's placement. Every offer made must be answered, and every answer used.
    #[serde(default)]
    #[schemars(length(max = 32))]
    pub choices: Vec<Sp<RawChoice>>,
    /// Tiles taken from the pool after this step's scoring (W-2), in the order the engine asks:
    /// when several seats reached the threshold together, the active player lets them take in
    /// this order (W-3).
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub take: Vec<Sp<RawTake>>,
    /// Decisions about figures freed by this step's scoring (AM-11), in the order the engine asks
    /// for them (seat order from the active player, AM-12).
    #[serde(default)]
    #[schemars(length(max = 32))]
    pub moves: Vec<Sp<RawMove>>,
    /// Events that must occur in this step, and no other score or return events. Absent: the step
    /// must produce no score and no return events.
    #[serde(default)]
    #[schemars(length(max = 100))]
    pub expect: Option<Sp<Vec<Sp<RawEvent>>>>,
    /// The step must be rejected. Without `follower`: the placement is rejected, the turn is not
    /// used up and the next step must place the same tile. With `follower`: the placement is
    /// accepted, the follower is rejected and the turn ends without a follower (its scoring
    /// events are the step's `expect`).
    #[serde(default)]
    pub expect_error: Option<Sp<RawExpectError>>,
    /// Optional: every seat's holding of some resources after this step, e.g.
    /// `holdings = { floors = [9, 10] }` (one count a seat).
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub holdings: Option<Sp<std::collections::BTreeMap<String, Vec<u32>>>>,
    /// Optional: every figure held by a seat other than its owner after this step, in the order
    /// taken, as `[holder, owner, "FIGURE"]` (TO-4; `[]`: none).
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub held: Option<Sp<Vec<(u8, u8, String)>>>,
    /// Optional: every seat's score after this step.
    #[serde(default)]
    #[schemars(length(min = 1, max = 8))]
    pub scores: Option<Sp<Vec<Sp<i64>>>>,
    /// Optional: the board point `[x, y]` of every corner figure on the board after this step
    /// (point `[x, y]` is the north-west corner of cell `[x, y]`), in any order (AM-6).
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub corner_figures: Option<RawPoints>,
    /// Free text.
    #[serde(default)]
    pub note: Option<String>,
}

/// A follower placement.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFollowerPlacement {
    /// Follower type id (e.g. `meeple`, `large-meeple`). Default: the variant's first type.
    #[serde(default, rename = "type")]
    pub kind: Option<Sp<String>>,
    /// Any segment id of the feature of the tile just placed (e.g. `city`, `road-e`, `field-n`).
    pub on: Sp<String>,
    /// A corner figure's corner (AM-6): `"NW"`, `"NE"`, `"SE"` or `"SW"` of the step's `at`
    /// cell, or a board point `[x, y]` (the north-west corner of cell `[x, y]`; for a corner of
    /// another cell of a mega tile). Default: the field's first legal corner.
    #[serde(default)]
    pub corner: Option<Sp<RawCorner>>,
}

/// An answer to an offered choice: exactly one of `choose` and `decline`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawChoice {
    /// Take an option of the offer of a rule.
    #[serde(default)]
    pub choose: Option<Sp<RawChoose>>,
    /// Decline the offer of this rule id (its `may_decline` must be true).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub decline: Option<Sp<RuleId>>,
    /// Optional check: the seat the engine offers the choice to.
    #[serde(default)]
    #[schemars(range(min = 0, max = 7))]
    pub player: Option<Sp<i64>>,
    /// The answer is expected to be refused (default `false`): a `choose` whose option the
    /// engine does not list, or a `decline` of an offer that may not be declined; the offer
    /// stays open for the next answer.
    #[serde(default)]
    pub refused: Option<Sp<bool>>,
    /// With `choose`: the option must *not* be offered at this point (the rule's offer is not
    /// made, or is made without it); nothing is chosen.
    #[serde(default)]
    pub not_offered: bool,
}

/// The option taken: exactly one of `figure`, `tile` and `kind`, as the offer's options are.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawChoose {
    /// The rule id of the offer (a `[[when]]` with an `offer`).
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub rule: Sp<RuleId>,
    /// A figure (an `own-figure` or `figure-in` offer): a cell `[x, y]` of the tile it stands
    /// on; or a site for a figure (an `any-feature` offer, PD-11): a cell of the feature's
    /// first tile in placement order.
    #[serde(default)]
    #[schemars(length(min = 2, max = 2))]
    pub figure: Option<Sp<Vec<Sp<i64>>>>,
    /// With `figure`: a segment id of the figure's feature on that tile, needed only when the
    /// seat has figures on two features of it.
    #[serde(default)]
    pub on: Option<Sp<String>>,
    /// With `figure`: the figure type (a follower id), needed only when the options name two
    /// types on that feature.
    #[serde(default, rename = "type")]
    pub kind_of: Option<Sp<String>>,
    /// A placed tile (a `neighbour-tile` offer): a cell `[x, y]` of it.
    #[serde(default)]
    #[schemars(length(min = 2, max = 2))]
    pub tile: Option<Sp<Vec<Sp<i64>>>>,
    /// A kind of piece (a `kind` offer): its id (the resource id).
    #[serde(default)]
    pub kind: Option<Sp<String>>,
    /// A figure of the chooser's held by another seat (an `own-captive` offer): its figure
    /// type id.
    #[serde(default)]
    pub captive: Option<Sp<String>>,
}

/// A tile taken from the pool.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTake {
    /// The seat that takes.
    #[schemars(range(min = 0, max = 7))]
    pub player: Sp<i64>,
    /// The tile taken.
    pub tile: Sp<String>,
}

/// A decision about a freed figure: move it to a feature (`to` and `on`) or take it back
/// (`back = true`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawMove {
    /// Optional check: the owner who decides.
    #[serde(default)]
    #[schemars(range(min = 0, max = 7))]
    pub player: Option<Sp<i64>>,
    /// A board cell `[x, y]` of the tile holding the target feature.
    #[serde(default)]
    #[schemars(length(min = 2, max = 2))]
    pub to: Option<Sp<Vec<Sp<i64>>>>,
    /// Any segment id of the target feature on that tile.
    #[serde(default)]
    pub on: Option<Sp<String>>,
    /// Take the figure back to supply instead.
    #[serde(default)]
    pub back: bool,
}

/// An expected event: exactly one of `score`, `returned`, `gained`, `award`, `token`,
/// `counters` and `collect`; or, with none of them, `points` alone: a rule's points with no
/// feature (a `points` event).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEvent {
    /// A score event for a feature of this kind.
    #[serde(default)]
    pub score: Option<Sp<RawFeatureKind>>,
    /// A follower of this type returns to its owner's supply.
    #[serde(default)]
    pub returned: Option<Sp<String>>,
    /// The seat (`player`) gains `count` of this seat resource, under `rule` (e.g. `TB-2`).
    #[serde(default)]
    pub gained: Option<Sp<String>>,
    /// At the end, the seats holding the most of this seat resource (`player` or `players`) each
    /// score `points`, under `rule` (e.g. `TB-3`).
    #[serde(default)]
    pub award: Option<Sp<String>>,
    /// The seat that scores / gets the follower back.
    #[serde(default)]
    #[schemars(range(min = 0, max = 7))]
    pub player: Option<Sp<i64>>,
    /// Several seats that each score `points` (a tie, B-5).
    #[serde(default)]
    #[schemars(length(min = 1, max = 8), inner(range(min = 0, max = 7)))]
    pub players: Option<Sp<Vec<Sp<i64>>>>,
    /// Points each scoring seat gets.
    #[serde(default)]
    #[schemars(range(min = 0, max = 100000))]
    pub points: Option<Sp<i64>>,
    /// Rule id the score is awarded under (e.g. `B-4`, `B-6`); for a return, the rule its event
    /// cites (default: the one its figure type names, if any; e.g. `TB-6`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub rule: Option<Sp<RuleId>>,
    /// A rule of the one form gives this seat (`player`) the single-holder token of this id
    /// (KR-2).
    #[serde(default)]
    pub token: Option<Sp<String>>,
    /// A rule of the one form puts `count` counters of this id on the tile anchored `at`
    /// (GM-2); no `player`.
    #[serde(default)]
    pub counters: Option<Sp<String>>,
    /// With `counters`: the anchor cell `[x, y]` of the tile.
    #[serde(default)]
    #[schemars(length(min = 2, max = 2))]
    pub at: Option<Sp<Vec<Sp<i64>>>>,
    /// The seat (`player`) collects `count` counters of this id off a scored feature's tiles
    /// (GM-3).
    #[serde(default)]
    pub collect: Option<Sp<String>>,
    /// With `gained`: the seat gave the amount up (a rule's `spend`).
    #[serde(default)]
    pub spent: bool,
    /// The seat (`player`) takes a figure of this type of seat `owner` off the board (TO-4):
    /// held by the taker, or home when `owner` is the taker.
    #[serde(default)]
    pub captured: Option<Sp<String>>,
    /// With `captured`: the figure's owner.
    #[serde(default)]
    #[schemars(range(min = 0, max = 7))]
    pub owner: Option<Sp<i64>>,
    /// A figure of this type of the seat (`player`) comes home by an exchange (TO-6).
    #[serde(default)]
    pub exchanged: Option<Sp<String>>,
    /// The seat (`player`) buys back its figure of this type for `points` (TO-7).
    #[serde(default)]
    pub redeemed: Option<Sp<String>>,
    /// Returns: how many followers of that type and seat (default 1; at most 100); gains: how
    /// much (default 1; at most 4294967295, a seat's holding being a 32-bit counter);
    /// `counters` and `collect`: how many counters (default 1; at most 100000).
    #[serde(default)]
    #[schemars(range(min = 1, max = 4_294_967_295_u32))]
    pub count: Option<Sp<i64>>,
}

/// Feature kinds that score (a wonder only through its owner's game-end ability).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum RawFeatureKind {
    /// A city.
    City,
    /// A road.
    Road,
    /// A cloister.
    Cloister,
    /// A field.
    Field,
    /// A wonder building: the kind of a game-end ability's score (W-14 .. W-17, W-20).
    Wonder,
}

/// An expected rejection.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawExpectError {
    /// The engine's error kind (kebab-case, e.g. `edge-mismatch`, `feature-occupied`).
    #[serde(default)]
    pub kind: Option<Sp<String>>,
    /// A substring the error message must contain.
    #[serde(default)]
    pub message: Option<Sp<String>>,
}

/// Final scoring.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEnd {
    /// The final-scoring events (B-6), exactly.
    #[serde(default)]
    #[schemars(length(max = 100))]
    pub expect: Vec<Sp<RawEvent>>,
}

/// What must hold at the end.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFinal {
    /// Every seat's final score, in seat order.
    #[schemars(length(min = 1, max = 8))]
    pub scores: Sp<Vec<Sp<i64>>>,
}

/// A rotation as written: an integer or a compass letter. Checked by the loader, so that every bad
/// rotation of a file is reported (not just the first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawRotation {
    /// Quarter turns clockwise (valid: 0–3).
    Turns(i64),
    /// Where the tile's north side points (valid: `N`, `E`, `S`, `W`).
    Facing(String),
}

impl Default for RawRotation {
    fn default() -> Self {
        RawRotation::Turns(0)
    }
}

impl RawRotation {
    /// Quarter turns clockwise, if valid.
    pub fn quarter_turns(&self) -> Option<u8> {
        match self {
            RawRotation::Turns(t) if (0..4).contains(t) => Some(*t as u8),
            RawRotation::Facing(s) => match s.as_str() {
                "N" => Some(0),
                "E" => Some(1),
                "S" => Some(2),
                "W" => Some(3),
                _ => None,
            },
            RawRotation::Turns(_) => None,
        }
    }
}

impl<'de> Deserialize<'de> for RawRotation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = RawRotation;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a rotation: 0, 1, 2, 3 (quarter turns clockwise) or \"N\", \"E\", \"S\", \"W\"")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<RawRotation, E> {
                Ok(RawRotation::Turns(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<RawRotation, E> {
                Ok(RawRotation::Turns(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawRotation, E> {
                Ok(RawRotation::Facing(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for RawRotation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RawRotation::Turns(t) => s.serialize_i64(*t),
            RawRotation::Facing(f) => s.serialize_str(f),
        }
    }
}

impl JsonSchema for RawRotation {
    fn schema_name() -> Cow<'static, str> {
        "Rotation".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Quarter turns clockwise 0-3, or where the tile's north side points: N, E, S, W.",
            "oneOf": [
                { "type": "integer", "minimum": 0, "maximum": 3 },
                { "type": "string", "enum": ["N", "E", "S", "W"] }
            ]
        })
    }
}

/// A corner as written: a compass corner of the step's cell or a board point. Checked by the
/// loader (like [`RawRotation`]), so that every bad corner of a file is reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawCorner {
    /// A corner of the step's `at` cell (valid: `NW`, `NE`, `SE`, `SW`).
    Compass(String),
    /// A board point (valid: two coordinates).
    Point(Vec<i64>),
}

impl<'de> Deserialize<'de> for RawCorner {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = RawCorner;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a corner: \"NW\", \"NE\", \"SE\", \"SW\" or a board point [x, y]")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawCorner, E> {
                Ok(RawCorner::Compass(v.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<RawCorner, A::Error> {
                let mut xy = Vec::new();
                while let Some(v) = a.next_element::<i64>()? {
                    xy.push(v);
                }
                Ok(RawCorner::Point(xy))
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for RawCorner {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RawCorner::Compass(c) => s.serialize_str(c),
            RawCorner::Point(xy) => xy.serialize(s),
        }
    }
}

impl JsonSchema for RawCorner {
    fn schema_name() -> Cow<'static, str> {
        "Corner".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A corner figure's corner: NW, NE, SE, SW of the step's cell, or a board point [x, y] (the north-west corner of cell [x, y]).",
            "oneOf": [
                { "type": "string", "enum": ["NW", "NE", "SE", "SW"] },
                { "type": "array", "items": { "type": "integer" }, "minItems": 2, "maxItems": 2 }
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_parse_from_numbers_and_letters() {
        assert_eq!(RawRotation::Turns(3).quarter_turns(), Some(3));
        assert_eq!(RawRotation::Facing("E".into()).quarter_turns(), Some(1));
        assert_eq!(RawRotation::Turns(4).quarter_turns(), None);
        assert_eq!(RawRotation::Facing("up".into()).quarter_turns(), None);
        let f: ScenarioFile = toml::from_str(
            "name='x'\nvariant='v.toml'\nplayers=2\n[[step]]\ntile='E'\nat=[0,-1]\nrotation='S'\n",
        )
        .unwrap();
        assert_eq!(f.step[0].rotation.value, RawRotation::Facing("S".into()));
    }
}
