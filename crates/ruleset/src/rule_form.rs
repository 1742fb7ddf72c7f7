//! The one rule form (issue 30; docs/design/rule-form.md): **when** an event happens, **if** a
//! test over the event's subject holds, **then** effects — each automatic, or **offered** as a
//! choice to a named seat. A variant's `[[when]]` entries compile to [`When`]; the short forms
//! of the data (abilities, resource gains and awards, a figure's `when_extended` and `payment`,
//! the corner figure's payments, the pool's thresholds) are being lowered to it one by one.
//!
//! Indices: a token is an index into [`crate::Ruleset::tokens`], a counter into
//! [`crate::Ruleset::counters`], a resource into [`crate::Ruleset::resources`], a figure into
//! [`crate::Ruleset::followers`], a tag into [`crate::Ruleset::tags`], a track into
//! [`crate::Ruleset::tracks`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Expr, FeatureKind, Test};

/// One rule of the one form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct When {
    /// Rule id every event its effects produce cites.
    pub rule: String,
    /// What happened, and to what (the subject).
    pub event: RuleEvent,
    /// A test over the subject; `None`: always.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<Test>,
    /// Automatic effects, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<Act>,
    /// A choice offered after the automatic effects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer: Option<Offer>,
    /// The tile type carrying the rule (index into [`crate::Ruleset::tiles`]); `None`: the
    /// variant's own rule. A carried rule acts for each placed tile of that type that has an
    /// owner (the seat that placed it, from the pile, a hand or the pool; the start tile has
    /// none), once per such tile and in the order the tiles got their owners, before the
    /// event's other rules; the tile's owner is [`Seat::Owner`], and where the event has no
    /// subject (the game's end, the draw) the tile is the subject.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<u16>,
}

/// The event a [`When`] waits for, with the filters on its subject.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RuleEvent {
    /// A tile was placed (subject: the tile); `tag`: only a tile carrying it, on the tile itself
    /// or on one of its segments (tile tags and segment tags share [`crate::Ruleset::tags`]).
    TilePlaced {
        /// Tag index the tile must carry.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tag: Option<u32>,
    },
    /// The actor's figure step: offers of this event are listed beside the figure options
    /// (subject: the tile just placed).
    FigureStep,
    /// [`RuleEvent::FigureStep`] of a tile carrying a tag, on the tile itself or on one of its
    /// segments (PD-11, PD-12): `event = "figure-step"` with `tag` (a variant of its own, so
    /// that artefacts of the untagged event read as before).
    FigureStepOn {
        /// Tag index the tile must carry.
        tag: u32,
    },
    /// A figure was placed from supply (subject: the figure and the feature it stands on).
    FigurePlaced {
        /// Only this figure type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figure: Option<u8>,
    },
    /// A feature was completed during the game (subject: the feature, before it scores).
    FeatureCompleted {
        /// Only features of these kinds (empty: any).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        kinds: Vec<FeatureKind>,
    },
    /// A feature was scored (subject: the feature, with its winners).
    FeatureScored {
        /// Only features of these kinds (empty: any).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        kinds: Vec<FeatureKind>,
        /// When: during the game, at the end, or both.
        #[serde(default)]
        at: ScoredAt,
    },
    /// The actor's turn begins: once per turn, not again for the second part of a double
    /// turn ([`Act::ExtraTurn`], TB-5; PD-9's "once per turn"). `event = "turn-start"`.
    TurnStart,
    /// The actor's turn begins, each part of a double turn included: `event = "turn-start"`
    /// with `parts = "each"` (a variant of its own, so that artefacts of the default read as
    /// before).
    TurnStartEach,
    /// The actor's turn ends (after its scorings).
    TurnEnd,
    /// The game ends, before final scoring.
    GameEnd,
    /// The game is over: after final scoring, before the final tally (TB-3's awards).
    GameOver,
    /// A placement joined a feature holding figures to one a figure of this type stands beside
    /// (a corner figure's field, AM-8). Subject: the joined feature and the first such figure
    /// on it. It fires as the tile is placed or in the turn's scoring step, as
    /// [`crate::Readings::joined_field_timing`] says.
    Joined {
        /// Only a feature with a figure of this type beside it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figure: Option<u8>,
    },
    /// After final scoring (its fields included), once for each figure on the board: figures
    /// on features in the board's order, then figures beside them (corner figures) in the order
    /// they were placed. Subject: the figure and its feature.
    FigureAtEnd {
        /// Only figures of this type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figure: Option<u8>,
    },
    /// A feature's value was paid to its majority (B-5): every such payment, during the game
    /// and at the end, a corner figure's field payments and each city of the first edition's
    /// field rule; right after the payment, before the feature's other scoring rules (subject:
    /// the feature with its winners, its counts those of the part paid: TB-8).
    FeaturePaid {
        /// Only features of these kinds (empty: any).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        kinds: Vec<FeatureKind>,
    },
    /// The actor's turn is finished: after its scoring, its `turn-end` offers and the moves of
    /// the figures it freed, before the next turn (or the actor's extra turn). Its offers are
    /// made at once; only [`Options::PoolTile`] offers are made at this point (W-2's takes).
    TurnFinished,
    /// Never raised by the game: the rule's offer is made when another rule's effect
    /// [`Act::Offer`] names it, on that effect's subject and choice (TO-4 right after TO-2).
    Chained,
    /// The actor's figure step is over and the turn's scoring is next (PD-4): raised once per
    /// placement, before the features the tile completed score (subject: the tile just placed).
    BeforeScoring {
        /// Only a tile carrying this tag (on the tile or a segment).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tag: Option<u32>,
    },
    /// A tile was drawn from the pile, before its placements are listed (PD-3; subject: the
    /// drawn tile, not yet on the board). A rule of it with an [`Act::Hand`] (no `tag`) sets
    /// how many tiles the seat holds instead (the largest of the rules that hold for it; the
    /// variant's `hand` else; W-12).
    Draw {
        /// Only a tile carrying this tag (on the tile or a segment).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tag: Option<u32>,
    },
}

/// When a [`RuleEvent::FeatureScored`] fires.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ScoredAt {
    /// During the game and at the end.
    #[default]
    Any,
    /// During the game only.
    Game,
    /// In final scoring only.
    End,
}

/// Who an effect reaches.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Seat {
    /// The seat whose turn it is.
    Actor,
    /// The seat that placed the subject tile (the completing tile of a completed feature).
    Placer,
    /// The owner of the tile carrying the rule ([`When::tile`]), else of the subject tile (the
    /// seat that placed it; the start tile has none).
    Owner,
    /// The subject feature's majority (B-5), in turn order from the actor.
    Winners,
    /// Every seat, in turn order from the actor.
    Every,
    /// The seat holding a token (none: the effect does nothing).
    Holder(u16),
    /// The seat that made the offer's choice.
    Chooser,
    /// The seats holding the most of a resource (index into [`crate::Ruleset::resources`];
    /// none while every seat holds 0), in seat order (TB-3). A [`Act::Score`] to them is one
    /// `award` line naming them all, the resource and the most held.
    Most(u16),
    /// The subject feature's winners who have a figure of a type (index into
    /// [`crate::Ruleset::followers`]) on it, in the order those figures were placed, once per
    /// figure (TB-8).
    Has(u8),
    /// Every seat for which the test holds, the test reading that seat's own values (its
    /// score, its takes, its holdings), in seat order (W-2: the seats whose score reached the
    /// track).
    Where(Box<Test>),
    /// The owner of the figure a neutral figure (index into [`crate::Ruleset::neutrals`]) is
    /// assigned to (none: the effect does nothing; PD-9, PD-10).
    AssignedOwner(u16),
    /// The owners of the subject feature's figures that stand on the tile a neutral figure
    /// (index into [`crate::Ruleset::neutrals`]) stands on, corner figures not counted, each
    /// seat once, in turn order from the actor (none while that figure is off the board; PD-10
    /// under PD-7's edition Reading).
    OwnersOn(u16),
    /// The owner of the figure chosen in the offer whose effect made this one (a capture's:
    /// the seat whose figure was taken; none when no figure was chosen).
    ChosenOwner,
}

/// An effect: what a rule does.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Act {
    /// Points to each seat of `to`: the value over the subject's counts (for each seat, the
    /// seat's own holdings where the value reads them). A `score` line per seat, or one
    /// `award` line for the seats of [`Seat::Most`].
    Score {
        /// How many.
        value: Expr,
        /// Who.
        to: Seat,
    },
    /// A seat resource gained (or, with `spend`, given up) by each seat of `to`.
    Gain {
        /// Resource index.
        resource: u16,
        /// How many.
        amount: Expr,
        /// Who.
        to: Seat,
        /// Given up instead of gained (never below 0).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        spend: bool,
    },
    /// A single-holder token passes to the (first) seat of `to`, with a new record.
    Token {
        /// Token index.
        token: u16,
        /// Who takes it.
        to: Seat,
        /// The record it is taken with (read by the quantity of the token's record).
        record: Expr,
    },
    /// Counters put on a tile.
    Counters {
        /// Counter index.
        counter: u16,
        /// How many.
        add: Expr,
        /// On which tile.
        on: TileRef,
    },
    /// Every counter of a kind on the subject feature's tiles taken by the seats of `to`, one at
    /// a time in turn order from the actor, each into a resource.
    Take {
        /// Counter index.
        counter: u16,
        /// Resource index the counters become.
        into: u16,
        /// Who.
        to: Seat,
    },
    /// The actor takes one more turn (TB-5's limits: never from an extra turn, never with the
    /// pile empty, at most one per turn).
    ExtraTurn,
    /// The chosen figure returns to its owner's supply.
    ReturnChosen,
    /// The subject feature scores now (AM-7, AM-8): `value` to its majority (B-5), in one
    /// `score` line naming them all (written even for 0 points), then `feature-scored` is
    /// raised with those winners and its figures are released (B-4: they return, stay or move
    /// as their type says).
    ScoreFeature {
        /// How many, over the feature's counts.
        value: Expr,
        /// AM-8 read field by field: each feature the placement joined into the subject scores
        /// on its own, as it was before the placement (its own majority, its own `cities`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        each_part: bool,
    },
    /// The subject figure's owner scores `value` over the figure's feature (AM-9), in a
    /// `score` line written even for 0 points.
    ScoreFigure {
        /// How many, over the feature's counts.
        value: Expr,
    },
    /// At [`RuleEvent::Draw`]: each seat of `to` holds a hand of `size` tiles — draws up to it,
    /// places one and keeps the rest, the kept tiles placed after the pile is empty (W-12).
    Hand {
        /// Tiles held.
        size: u8,
        /// Who.
        to: Seat,
    },
    /// Figures of a type added to the supply of each seat of `to` (W-2's pair); no log line.
    Figures {
        /// Figure type (index into [`crate::Ruleset::followers`]).
        figure: u8,
        /// How many (per seat, over that seat's values).
        add: Expr,
        /// Who.
        to: Seat,
    },
    /// A shared track moves on by `by`, never past its [`TrackType::max`] (W-2: the pairs
    /// move 5, up to 25); no log line.
    Advance {
        /// Track index (into [`crate::Ruleset::tracks`]).
        track: u16,
        /// How far (over the chooser's values in an offer, else the actor's).
        by: Expr,
    },
    /// A neutral figure (index into [`crate::Ruleset::neutrals`]) is assigned to the figure an
    /// [`Options::OwnFigure`] offer's choice named and stands on its tile (PD-7): one
    /// `neutral` line.
    Assign {
        /// Neutral figure index.
        neutral: u16,
    },
    /// A neutral figure is assigned to nobody any more and stays where it stands (PD-10). A
    /// figure it is assigned to that leaves the board also ends the assignment.
    Unassign {
        /// Neutral figure index.
        neutral: u16,
    },
    /// The chooser puts a figure from supply on the site an [`Options::AnyFeature`] offer's
    /// choice named (PD-11), then `figure-placed` as for any placement; the `choice` line is its
    /// log line.
    Place,
    /// A piece added to the chosen stack ([`Options::StackSite`]): its height grows by one.
    /// The rule spends the piece from the chooser's resource with its own [`Act::Gain`].
    AddPiece,
    /// The chosen figure type leaves the chooser's supply onto the chosen stack
    /// ([`Options::StackTop`]), closing it; it belongs to no feature.
    Top,
    /// The chosen figure ([`Options::InReach`]) leaves the board: the chooser's own goes back to
    /// supply, another seat's is held by the chooser. With `exchange`, while two seats each hold
    /// a figure of the other, the one just taken goes home and the chooser gets one of theirs
    /// back, its events citing that rule id.
    Capture {
        /// The rule id of the exchange; `None`: no exchange. When a [`RuleEvent::Chained`]
        /// rule of that id offers [`Options::ExchangeBack`] and the seat whose figure was
        /// taken holds the taker's figures of two types or more, that offer chooses which comes
        /// back; otherwise the automatic exchange gives back the one taken first.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exchange: Option<String>,
    },
    /// The held figure chosen in an [`Options::ExchangeBack`] offer goes back to its owner's
    /// supply and, in exchange, the figure of its holder's that this owner took last goes back
    /// to the holder's (one `exchange` line citing the rule); then, while the two seats still
    /// each hold a figure of the other, the automatic exchange of [`Act::Capture`].
    ExchangeBack,
    /// The chosen held figure ([`Options::OwnCaptive`]) goes back to the chooser's supply; the
    /// chooser loses `points` and the seat holding it gains them.
    Redeem {
        /// Points paid.
        points: u32,
    },
    /// The offer of another rule (the first [`RuleEvent::Chained`] rule with this id and an
    /// offer) is made now, on this effect's subject and choice.
    Offer {
        /// The rule's id.
        rule: String,
    },
    /// A neutral figure (index into [`crate::Ruleset::neutrals`]) is put on a tile: it leaves
    /// wherever it stood (or comes onto the board), taking no step and acting on nothing on
    /// the way (PD-2). One `neutral` line.
    Put {
        /// Neutral figure index.
        neutral: u16,
        /// On which tile.
        on: TileRef,
    },
    /// No figure may be placed on the tile in this turn's figure step (PD-2): the figure
    /// options leave it out; offers that put nothing on it stay.
    NoFigures {
        /// Which tile.
        on: TileRef,
    },
    /// A neutral figure walks (PD-5): each step a choice of a neighbouring cell by a seat.
    Walk(Walk),
    /// Every figure of a set standing on a tile returns to its owner's supply, scoring nothing,
    /// in the board's figure order (PD-6), one `return` line each; with `tops`, a figure of the
    /// set on top of a stack there too.
    ReturnOn {
        /// Which tile (inside a walk's `on_enter`: the tile entered).
        on: TileRef,
        /// Which figure types.
        figures: FigureSet,
        /// The rule id the `return` lines cite (`None`: the rule's own).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
        /// Whether a figure of the set on top of a stack on that tile returns too (after the
        /// figures on features; one `top_return` line; the stack reopens or stays closed as its
        /// type says, [`crate::StackType::reopen`]).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        tops: bool,
    },
    /// The drawn tile (the subject of a `draw` rule) is set aside, and the seat draws again
    /// (PD-3). One `set-aside` line.
    SetAside,
    /// The tiles set aside go back into the remaining pile (PD-3), each at a position from the
    /// game's seeded random source ([`crate::Readings::shuffle_back`]). One `shuffle-back`
    /// line.
    ShuffleBack,
}

/// A walk of a neutral figure ([`Act::Walk`], PD-5): `steps` steps, each to one of the four
/// neighbouring cells holding a tile (N, E, S, W, in that order) chosen by a seat, never to a
/// cell `avoid` names; with no cell left the walk ends early. No passing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Walk {
    /// Neutral figure index (into [`crate::Ruleset::neutrals`]).
    pub neutral: u16,
    /// How many steps (over the subject).
    pub steps: Expr,
    /// Who chooses each step.
    pub chooser: WalkChooser,
    /// Which cells count as visited.
    #[serde(default)]
    pub revisit: Revisit,
    /// Cells the walk may not enter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub avoid: Vec<Avoid>,
    /// Effects on each tile entered, in order ([`TileRef::Entered`] names it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_enter: Vec<Act>,
}

/// Who chooses the steps of a [`Walk`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WalkChooser {
    /// Step k (from 1) by the seat `(actor + k - 1) % players`: the actor first, then in turn
    /// order (PD-5).
    #[default]
    Rotating,
    /// Every step by the actor.
    Actor,
}

/// Which cells a [`Walk`] has visited (and may not enter again when it avoids
/// [`Avoid::Visited`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Revisit {
    /// The start cell and every cell entered (PD-5's Reading).
    #[default]
    NeverStartIncluded,
    /// Only the cells entered: the walk may go back to its start once.
    NeverEntered,
}

/// A cell a walk (or another offer over the board) may not use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Avoid {
    /// A cell with no tile.
    Empty,
    /// A cell the walk has visited ([`Revisit`]).
    Visited,
    /// The cell of a neutral figure (index into [`crate::Ruleset::neutrals`]; PD-8).
    Neutral(u16),
    /// A tile carrying a tag (index into [`crate::Ruleset::tags`]).
    Tag(u32),
}

/// A set of figure types (bit `i`: [`crate::Ruleset::followers`]`[i]`), written as a
/// `[groups]` entry or a list of follower ids (the figure table of RULES-ACTIONS.md as data).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct FigureSet(pub u32);

impl FigureSet {
    /// Whether figure type `ftype` is in the set.
    #[inline]
    pub fn has(self, ftype: u8) -> bool {
        self.0.checked_shr(u32::from(ftype)).unwrap_or(0) & 1 != 0
    }
}

/// A figure owned by nobody, one per game, off the board at the start (`[[neutral]]`; PD-2,
/// PD-5, PD-7). What it does is in the rules that name it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NeutralType {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The letters pictures draw it with (1 to 3 characters).
    pub symbol: String,
    /// Its colour in pictures (`#rrggbb`).
    pub colour: String,
}

/// A tile an effect acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TileRef {
    /// The subject tile.
    Subject,
    /// The tile the offer's choice named.
    Chosen,
    /// The tile a walk just entered (inside [`Walk::on_enter`] only).
    Entered,
}

/// A choice offered to a seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Offer {
    /// Who chooses.
    pub to: Seat,
    /// What the options are.
    pub options: Options,
    /// Whether the seat may decline (then nothing happens).
    pub may_decline: bool,
    /// Whether choosing uses up the turn's figure step (only with [`RuleEvent::FigureStep`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub uses_figure_step: bool,
    /// The effects on the chosen option, in order.
    pub then: Vec<Act>,
    /// Made again after each answer, the seats of `to` tested again, until none is left
    /// (W-3: "anyone already at or past the moved pairs is next"). Without it, each seat of
    /// `to` as the offer was raised is offered once.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeat: bool,
    /// Who goes first when several seats are offered at once.
    #[serde(default, skip_serializing_if = "SeatOrder::is_default")]
    pub order: SeatOrder,
}

/// The order in which the seats of an [`Offer`] choose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SeatOrder {
    /// In turn order from the actor.
    #[default]
    TurnOrder,
    /// The actor chooses which seat goes next, each time two or more are left (W-3): a
    /// decision of its own (`Action::Seat`, a `seat` line in the log). Only with
    /// [`Options::PoolTile`].
    ActorChooses,
}

impl SeatOrder {
    /// Whether it is [`SeatOrder::TurnOrder`] (left out of the artefact).
    pub fn is_default(&self) -> bool {
        *self == SeatOrder::TurnOrder
    }
}

/// The options of an [`Offer`], listed in a fixed order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Options {
    /// A figure of the chooser's on the board, on a feature of one of these kinds, passing the
    /// test over that feature (in board order: tile placement order, then feature).
    OwnFigure {
        /// Only this figure type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figure: Option<u8>,
        /// Only figure types of this set (`None`: any).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figures: Option<FigureSet>,
        /// Not the figure this neutral figure (index into [`crate::Ruleset::neutrals`]) is
        /// assigned to (PD-7).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        not_assigned: Option<u16>,
        /// Feature kinds (empty: any).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        on: Vec<FeatureKind>,
        /// A test over the figure's feature.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        test: Option<Test>,
        /// Whether the chooser's figures on top of stacks are listed too, after those on
        /// features, in the order of their stacks' tiles (PD-7's Reading); such a figure
        /// belongs to no feature (never with `on` or `test`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        tops: bool,
    },
    /// A placed tile among the cells around the subject tile (in cell order: row, then column).
    NeighbourTile {
        /// Whether the 4 diagonal cells count.
        diagonals: bool,
    },
    /// A kind of piece the chooser holds at least one of (in the listed order); the offer's
    /// [`Act::Gain`] and [`Act::Counters`] naming [`CHOSEN`] act on the chosen kind's resource
    /// and counter.
    Kind {
        /// The kinds.
        of: Vec<PieceKind>,
    },
    /// A tile of the open pool ([`crate::Ruleset::pool`]), in the pool's order: choosing it
    /// takes it into the chooser's hand, to be placed instead of a drawn tile (W-2, W-5),
    /// and counts one take of the chooser's (what [`crate::Quantity::Taken`] reads). Answered
    /// by `Action::Take`, logged as a `take` line; with the pool empty the take happens
    /// without a decision (no tile, the effects still run). Only at
    /// [`RuleEvent::TurnFinished`].
    PoolTile,
    /// A site for one of the chooser's figures anywhere on the board (PD-11): a figure type of
    /// `figures` the chooser holds on a feature of a placed tile other than the subject tile,
    /// by the usual tests of the figure step (its sites, the whole feature unoccupied, not a
    /// corner figure's field) and not completed. One option per feature and figure type, the
    /// feature named at its first tile: tile placement order, then feature, then figure type.
    /// The subject tile's own features are the figure step's ordinary options.
    AnyFeature {
        /// The figure types that may be placed so.
        figures: FigureSet,
        /// Tiles no site may be on: a neutral figure's tile (PD-11's Reading) or a tile
        /// carrying a tag.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        avoid: Vec<Avoid>,
    },
    /// A figure of any seat's standing on the feature that holds the subject tile's segment
    /// carrying the event's tag (PD-12): of the types in `figures`, in board order (tile
    /// placement order, feature, figure type, seat). An event with no tag: the features of
    /// the subject tile.
    FigureIn {
        /// The figure types that may be chosen.
        figures: FigureSet,
    },
    /// A site of a stack type (index into [`crate::Ruleset::stacks`]) on a placed tile that
    /// takes a piece: no figure on top, not closed; only while the chooser holds a piece (tile
    /// placement order).
    StackSite {
        /// Stack type index.
        stack: u16,
    },
    /// An open stack of the type at least its `top_min` high × each figure type of its `top`
    /// the chooser has in supply (tile placement order, then figure type).
    StackTop {
        /// Stack type index.
        stack: u16,
    },
    /// A figure of one of these types, any seat's, on a tile within the reach of the chosen
    /// stack (a [`RuleEvent::Chained`] offer after [`Options::StackSite`]): the stack's own
    /// tile and the tiles 1..=height cells away N, E, S, W, passing over empty cells. Listed by
    /// distance, then N, E, S, W; on a tile, figures on features in feature order, then the
    /// figure on top of a stack there (when `tops`).
    InReach {
        /// Figure types that may be chosen.
        figures: Vec<u8>,
        /// Whether a figure on top of a stack may be chosen.
        tops: bool,
    },
    /// A figure of the chooser's held by another seat, one option per holder and figure type
    /// (holder in turn order from the chooser, then figure type); only while the chooser has at
    /// least `min_score` points (0: no minimum, a chooser below 0 points included), and, with
    /// `once_per_turn`, has not taken this rule's offer in this turn (an extra turn it earned
    /// included).
    OwnCaptive {
        /// Fewest points the chooser must have (0: none).
        min_score: u32,
        /// At most once a turn.
        once_per_turn: bool,
    },
    /// In the [`RuleEvent::Chained`] rule a capture's `exchange` names (TO-6's Reading): a
    /// figure of the capturing seat's held by the seat whose figure it just took, one option
    /// per figure type in figure type order (a `Captive` choice option naming the holder).
    /// The offer is made only when there are two types or more; whoever the offer's
    /// `to` names chooses (the taker, [`Seat::Chooser`], or the holder, [`Seat::ChosenOwner`]).
    ExchangeBack,
}

/// One kind of an [`Options::Kind`] offer: the resource it is held as, the counter it becomes
/// on a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct PieceKind {
    /// Resource index (the seat's supply of it).
    pub resource: u16,
    /// Counter index (placed on a tile).
    pub counter: u16,
}

/// A resource or counter index that stands for the chosen kind of an [`Options::Kind`] offer.
pub const CHOSEN: u16 = u16::MAX;

/// A single-holder token (KR-2): held by at most one seat, with the record it was taken with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TokenType {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
}

/// A kind of counter tiles carry (GM-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CounterType {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
}

/// A shared track (W-2's threshold pairs): one position for the whole table, starting at
/// `start`, moved on by [`Act::Advance`] and never past `max`; read by
/// [`crate::Quantity::Track`] and [`crate::Quantity::TrackWas`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TrackType {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Where it starts.
    pub start: u32,
    /// The furthest it goes.
    pub max: u32,
}
