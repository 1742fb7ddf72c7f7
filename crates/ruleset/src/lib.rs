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
//!
//! The types are in one file per concern, all re-exported here (`tegula_ruleset::Side` …):
//!
//! | File | Concern |
//! |---|---|
//! | `geometry.rs` | sides, halves, rotation, edge kinds, placement rules, lowered tiles |
//! | `features.rs`, `value.rs`, `value_text.rs`, `linear.rs` | feature kinds, scoring numbers, value expressions |
//! | `readings.rs` | the rulebook's *Readings* |
//! | `figures.rs` | follower types, sites, strengths, corner scoring |
//! | `effects.rs`, `words.rs`, `rule_form.rs`, `rule_form_words.rs`, `resource.rs` | rules, citations, abilities (and their words), the one rule form, resources |
//! | `pool.rs` | the open pool, pile groups, player tiles |
//! | `artefact.rs` | [`Ruleset`], [`FORMAT_VERSION`], JSON in and out |
//! | `limits.rs` | bounds shared by the model and the engine |

mod artefact;
mod effects;
mod features;
mod figures;
mod geometry;
pub mod limits;
mod linear;
mod pool;
mod readings;
mod resource;
mod rule_form;
mod rule_form_words;
mod serde_default;
mod stacks;
mod value;
mod value_text;
mod words;

pub use artefact::{ArtefactError, Ruleset, FORMAT_VERSION, RULES_TOML};
pub use effects::{
    Ability, Citations, Condition, Count, Effect, Owner, Per, Rule, SeatsRule, State, Trigger,
};
pub use features::{FeatureKind, FieldRule, Scoring};
pub use figures::{Adjacency, AfterScore, CornerScoring, FollowerType, Site, Strength};
pub use geometry::{
    rotate_offset, CellPorts, EdgeKind, Feature, Half, PlacementRule, Rotation, Side, SideKind,
    TileType, NO_FEATURE,
};
pub use linear::Linear;
pub use pool::{PileGroup, PlayerTile, PoolCitations, PoolRules, TileSite};
pub use readings::{
    FinalRoundFirst, JoinedFieldScoring, JoinedFieldTiming, KeptAfterPile, NearCells,
    NeedsOwnAlone, NeedsOwnOnCompleted, OpenEnd, PoolTileDraw, Readings, ShuffleBack,
    ThresholdRecheck, WalkTiming,
};
pub use resource::{Resource, StartCount};
pub use rule_form::{
    Act, Avoid, CounterType, FigureSet, NeutralType, Offer, Options, PieceKind, Revisit, RuleEvent,
    ScoredAt, Seat, SeatOrder, TileRef, TokenType, TrackType, Walk, WalkChooser, When, CHOSEN,
};
pub use stacks::StackType;
pub use value::{
    applies, Compare, Counts, Expr, Quantity, ScoringNumbers, StateValues, Test, Values,
};
pub use value_text::Names;
