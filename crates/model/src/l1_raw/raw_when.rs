//! Raw TOML of the one rule form (docs/RULE-LANGUAGE.md, "The one rule form"): `[[when]]`,
//! `[[token]]` and `[[counter]]` tables of a variant or a tile-set file, and a resource's
//! `start`. Shapes only: which keys go together, names and values are checked by
//! [`crate::rule_form`], where every problem gets its own located diagnostic (the schema keeps
//! seats and values as text so that those diagnostics, not a pattern's, are what a user reads).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tegula_ruleset::limits::MAX_POINTS;

use crate::raw::{Id, RawFeatureKind, Sp};

/// A single-holder token (`[[token]]`, KR-2): held by at most one seat, with a record.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawToken {
    /// Id, unique among the variant's tokens (`holder(ID)`, `record(ID)`, `{ token = ID }`).
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// Display name.
    #[schemars(length(min = 1, max = 200))]
    pub name: String,
}

/// A kind of counter tiles carry (`[[counter]]`, GM-2).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCounter {
    /// Id, unique among the variant's counters (`counters(ID)`, `{ counters = ID }`).
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// Display name.
    #[schemars(length(min = 1, max = 200))]
    pub name: String,
}

/// A neutral figure (`[[neutral]]`): owned by nobody, one per game, off the board at the start
/// (docs/RULE-LANGUAGE.md, "Neutral figures"). What it does is in the rules that name it.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawNeutral {
    /// Id, unique among the variant's neutral figures (`put`, `walk`, `on_board(ID)`,
    /// `neutral(ID)`).
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// Display name.
    #[schemars(length(min = 1, max = 200))]
    pub name: String,
    /// The letters pictures draw it with (1 to 3 characters).
    #[schemars(length(min = 1, max = 3))]
    pub symbol: String,
    /// Its colour in pictures, `#rrggbb`.
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"))]
    pub colour: String,
}

/// A shared track (`[[track]]`, W-2's threshold pairs): one position for the whole table,
/// moved on by `advance` effects, read by `track(ID)` and `track_was(ID)`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTrack {
    /// Id, unique among the variant's tracks (`track(ID)`, `{ advance = ID }`).
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<Id>,
    /// Display name.
    #[schemars(length(min = 1, max = 200))]
    pub name: String,
    /// Where it starts (default 0).
    #[serde(default)]
    #[schemars(range(max = 10000))]
    pub start: Option<Sp<u64>>,
    /// The furthest it goes.
    #[schemars(range(max = 10000))]
    pub max: Sp<u64>,
}

/// One rule of the one form (`[[when]]`): when `event` happens, if `if` holds, `then` runs and
/// `offer` is made.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawWhen {
    /// The rule id every event its effects produce cites (registered or declared).
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub rule: Sp<String>,
    /// What happened.
    pub event: Sp<RawEvent>,
    /// `feature-completed`, `feature-scored`: only features of these kinds (default: any).
    #[serde(default)]
    #[schemars(length(min = 1, max = 4))]
    pub kinds: Option<Sp<Vec<Sp<RawFeatureKind>>>>,
    /// `feature-scored`: during the game, at the end or both (default `"any"`).
    #[serde(default)]
    pub at: Option<Sp<RawScoredAt>>,
    /// `turn-start`: once per turn (`"first"`, the default: not again for the second part of a
    /// double turn, TB-5) or for each part (`"each"`).
    #[serde(default)]
    pub parts: Option<Sp<RawParts>>,
    /// `tile-placed`, `figure-step`, `before-scoring`, `draw`: only tiles carrying this tag (on
    /// the tile or on a segment).
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub tag: Option<Sp<String>>,
    /// `figure-placed`: only this figure type (a follower id).
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub figure: Option<Sp<String>>,
    /// A test of the value language over the event's subject (default: always).
    #[serde(default, rename = "if")]
    #[schemars(length(min = 1, max = 2000))]
    pub test: Option<Sp<String>>,
    /// Automatic effects, in order.
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub then: Vec<Sp<RawAct>>,
    /// A choice offered to a seat after the automatic effects.
    #[serde(default)]
    pub offer: Option<Sp<RawOffer>>,
    /// The tile type carrying the rule (a tile id): the rule acts once for each placed tile of
    /// that type with an owner, in the order they got one, for that owner (`owner`), before
    /// the event's other rules — what an `[[ability]]` is lowered to.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub tile: Option<Sp<String>>,
}

/// The event a `[[when]]` waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawEvent {
    /// A tile was placed (subject: the tile).
    TilePlaced,
    /// The actor's figure step (subject: the tile just placed); its offers stand beside the
    /// figure options.
    FigureStep,
    /// A figure was placed from supply (subject: the figure's feature).
    FigurePlaced,
    /// A feature was completed during the game, before it scores (subject: the feature).
    FeatureCompleted,
    /// A feature was scored (subject: the feature, with its winners).
    FeatureScored,
    /// The actor's turn begins.
    TurnStart,
    /// The actor's turn ends.
    TurnEnd,
    /// The game ends, before final scoring.
    GameEnd,
    /// The game is over, after final scoring.
    GameOver,
    /// A feature's value was paid to its majority (subject: the feature, with its winners).
    FeaturePaid,
    /// A tile was drawn, before it is placed (subject: the drawn tile); with `hand` effects, the
    /// seat draws for its turn.
    Draw,
    /// The actor's turn is finished: its scoring, offers and figure moves done, before the
    /// next turn (W-2's takes). Its offers must be of `pool-tile` options.
    TurnFinished,
    /// Never raised by the game: another rule's `{ offer = "RULE" }` makes this rule's offer,
    /// on that rule's subject and choice.
    Chained,
    /// After the figure step, before the turn's scoring (subject: the tile just placed).
    BeforeScoring,
}

impl RawEvent {
    /// The name as written.
    pub fn name(self) -> &'static str {
        match self {
            RawEvent::TilePlaced => "tile-placed",
            RawEvent::FigureStep => "figure-step",
            RawEvent::FigurePlaced => "figure-placed",
            RawEvent::FeatureCompleted => "feature-completed",
            RawEvent::FeatureScored => "feature-scored",
            RawEvent::TurnStart => "turn-start",
            RawEvent::TurnEnd => "turn-end",
            RawEvent::GameEnd => "game-end",
            RawEvent::GameOver => "game-over",
            RawEvent::FeaturePaid => "feature-paid",
            RawEvent::Chained => "chained",
            RawEvent::Draw => "draw",
            RawEvent::TurnFinished => "turn-finished",
            RawEvent::BeforeScoring => "before-scoring",
        }
    }
}

/// Which parts of a double turn (TB-5) a `turn-start` rule fires for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawParts {
    /// Once per turn: the first part only (PD-9's "once per turn").
    First,
    /// Each part: the second part of a double turn too.
    Each,
}

/// When a `feature-scored` rule fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawScoredAt {
    /// During the game and at the end.
    Any,
    /// During the game only.
    Game,
    /// In final scoring only.
    End,
}

/// A value: a value expression as text, or a plain number.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum RawValue {
    /// A number (`add = 1`).
    Int(u64),
    /// A value expression (`score = "1 + tiles"`).
    Text(String),
}

impl RawValue {
    /// The expression text (a number as its digits).
    pub fn text(&self) -> String {
        match self {
            RawValue::Int(n) => n.to_string(),
            RawValue::Text(s) => s.clone(),
        }
    }
}

impl JsonSchema for RawValue {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RawValue".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A value: a number, or a value expression over the event's subject \
                (docs/RULE-LANGUAGE.md, \"Values\"), e.g. `1 + tiles` or `record(king)`.",
            "anyOf": [
                { "type": "integer", "minimum": 0, "maximum": MAX_POINTS },
                { "type": "string", "minLength": 1, "maxLength": 2000 }
            ]
        })
    }
}

/// An effect (`then` of a rule or an offer): exactly one of `score`, `gain`, `spend`, `token`,
/// `counters`, `take`, `extra_turn`, `return`, `figures` and `advance`, with the keys that go
/// with it.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAct {
    /// Points: `{ score = VALUE, to = SEAT }`.
    #[serde(default)]
    pub score: Option<Sp<RawValue>>,
    /// A seat resource gained: `{ gain = RESOURCE, amount = VALUE, to = SEAT }` (`"chosen"`: the
    /// kind chosen in a `kind` offer).
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub gain: Option<Sp<String>>,
    /// A seat resource given up (never below 0): `{ spend = RESOURCE, amount = VALUE, to = SEAT }`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub spend: Option<Sp<String>>,
    /// How much of `gain` or `spend`.
    #[serde(default)]
    pub amount: Option<Sp<RawValue>>,
    /// A token passes: `{ token = TOKEN, to = SEAT, record = VALUE }`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub token: Option<Sp<String>>,
    /// The record the token is taken with.
    #[serde(default)]
    pub record: Option<Sp<RawValue>>,
    /// Counters put on a tile: `{ counters = COUNTER, add = VALUE, on = "subject" | "chosen" }`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub counters: Option<Sp<String>>,
    /// How many counters.
    #[serde(default)]
    pub add: Option<Sp<RawValue>>,
    /// On which tile the counters go.
    #[serde(default)]
    pub on: Option<Sp<RawTileRef>>,
    /// The counters of the subject feature's tiles taken: `{ take = COUNTER, into = RESOURCE,
    /// to = SEAT }`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub take: Option<Sp<String>>,
    /// The resource taken counters become.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub into: Option<Sp<String>>,
    /// Who: `actor`, `placer`, `owner`, `winners`, `every`, `holder(TOKEN)`, `most(RESOURCE)`,
    /// `has(FIGURE)`, `where(TEST)` or `chooser`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 2000))]
    pub to: Option<Sp<String>>,
    /// The actor takes one more turn: `{ extra_turn = true }`.
    #[serde(default)]
    pub extra_turn: Option<Sp<bool>>,
    /// The chosen figure returns to its owner's supply: `{ return = "chosen" }`.
    #[serde(default, rename = "return")]
    pub return_: Option<Sp<RawChosen>>,
    /// At `draw`: the seat holds this many tiles: `{ hand = N, to = SEAT }` (W-12).
    #[serde(default)]
    #[schemars(range(min = 1, max = 8))]
    pub hand: Option<Sp<u8>>,
    /// Figures of a type into supply: `{ supply = FIGURE, add = VALUE, to = SEAT }`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub supply: Option<Sp<String>>,
    /// A shared track moves on (never past its `max`): `{ advance = TRACK, by = VALUE }`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub advance: Option<Sp<String>>,
    /// How far `advance` moves the track.
    #[serde(default)]
    pub by: Option<Sp<RawValue>>,
    /// A neutral figure is assigned to the figure chosen in an `own-figure` offer and stands on
    /// its tile: `{ assign = NEUTRAL }` (PD-7).
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub assign: Option<Sp<String>>,
    /// A neutral figure is assigned to nobody: `{ unassign = NEUTRAL }` (PD-10).
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub unassign: Option<Sp<String>>,
    /// The chooser's figure goes on the site chosen in an `any-feature` offer:
    /// `{ place = "chosen" }`.
    #[serde(default)]
    pub place: Option<Sp<RawChosen>>,
    /// One of the chooser's pieces on the stack chosen in a `stack-site` offer:
    /// `{ add_piece = "chosen" }`.
    #[serde(default)]
    pub add_piece: Option<Sp<RawChosen>>,
    /// The figure chosen in a `stack-top` offer goes on top: `{ top = "chosen" }`.
    #[serde(default)]
    pub top: Option<Sp<RawChosen>>,
    /// The figure chosen in an `in-reach` offer leaves the board, the chooser's own to supply,
    /// another seat's held by the chooser: `{ capture = "chosen", exchange = "RULE" }`.
    #[serde(default)]
    pub capture: Option<Sp<RawChosen>>,
    /// With `capture`: the rule id of the automatic exchange of held figures between two seats.
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub exchange: Option<Sp<String>>,
    /// The held figure chosen in an `exchange-back` offer goes home, and the holder's figure
    /// its owner took last goes home too: `{ exchange_back = "chosen" }`.
    #[serde(default)]
    pub exchange_back: Option<Sp<RawChosen>>,
    /// The held figure chosen in an `own-captive` offer goes home, its owner paying this many
    /// points to its holder: `{ redeem = 3 }`.
    #[serde(default)]
    #[schemars(range(max = 1000))]
    pub redeem: Option<Sp<u32>>,
    /// The offer of a `chained` rule is made now, on this rule's subject and choice:
    /// `{ offer = "RULE" }`.
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub offer: Option<Sp<String>>,
    /// A neutral figure is put on a tile: `{ put = NEUTRAL, on = "subject" | "chosen" }`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub put: Option<Sp<String>>,
    /// No figure on that tile this turn: `{ no_figures = "subject" }`.
    #[serde(default)]
    pub no_figures: Option<Sp<RawTileRef>>,
    /// A neutral figure walks: `{ walk = NEUTRAL, steps = VALUE, chooser = "rotating",
    /// revisit = …, avoid = […], on_enter = […] }`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub walk: Option<Sp<String>>,
    /// How many steps a walk takes.
    #[serde(default)]
    pub steps: Option<Sp<RawValue>>,
    /// Who chooses a walk's steps: `"rotating"` (default: the actor first, then in turn
    /// order) or `"actor"`.
    #[serde(default)]
    pub chooser: Option<Sp<tegula_ruleset::WalkChooser>>,
    /// Which cells a walk has visited: `"never-start-included"` (default) or
    /// `"never-entered"`.
    #[serde(default)]
    pub revisit: Option<Sp<tegula_ruleset::Revisit>>,
    /// Cells a walk may not enter: `"empty"`, `"visited"`, `"neutral(ID)"`, `"tag(TAG)"`.
    #[serde(default)]
    #[schemars(length(max = 8))]
    pub avoid: Option<Sp<Vec<Sp<String>>>>,
    /// Effects on each tile a walk enters (`on = "entered"` names it).
    #[serde(default)]
    #[schemars(length(max = 8))]
    pub on_enter: Option<Sp<Vec<Sp<RawAct>>>>,
    /// Every figure of a set on a tile returns: `{ return_on = "entered", figures = GROUP }`.
    #[serde(default)]
    pub return_on: Option<Sp<RawTileRef>>,
    /// Figure types: a `[groups]` name or a list of follower ids.
    #[serde(default)]
    pub figures: Option<Sp<RawFigures>>,
    /// With `return_on`: a figure of the set on top of a stack on that tile returns too
    /// (default `false`: only figures on the tile's features).
    #[serde(default)]
    pub tops: Option<Sp<bool>>,
    /// The rule id a `return_on`'s return lines cite (default: the rule's own).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Z]+-[0-9]+[a-z]?$"))]
    pub rule: Option<Sp<String>>,
    /// The drawn tile is set aside: `{ set_aside = true }` (a `draw` rule only).
    #[serde(default)]
    pub set_aside: Option<Sp<bool>>,
    /// The set-aside tiles go back into the pile: `{ shuffle_back = true }`.
    #[serde(default)]
    pub shuffle_back: Option<Sp<bool>>,
}

/// Figure types: a `[groups]` name, or a list of follower ids.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RawFigures {
    /// A `[groups]` entry.
    Group(String),
    /// Follower ids.
    List(Vec<String>),
}

/// A tile an effect acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawTileRef {
    /// The event's subject tile.
    Subject,
    /// The tile chosen in a `neighbour-tile` offer.
    Chosen,
    /// The tile a walk just entered (in a walk's `on_enter`).
    Entered,
}

/// The one thing `return` may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawChosen {
    /// The figure (or, for `place`, the site) chosen in the offer.
    Chosen,
}

/// A choice offered to a seat (`offer`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawOffer {
    /// Who chooses (a seat, as in an effect's `to`; not `chooser`).
    #[schemars(length(min = 1, max = 2000))]
    pub to: Sp<String>,
    /// What the options are: exactly one of `own-figure`, `neighbour-tile`, `kind`,
    /// `any-feature`, `figure-in`.
    pub options: Sp<RawOptions>,
    /// Whether the seat may decline (default `false`).
    #[serde(default)]
    pub may_decline: Option<Sp<bool>>,
    /// Whether choosing uses up the turn's figure step (default `false`; only with
    /// `event = "figure-step"`).
    #[serde(default)]
    pub uses_figure_step: Option<Sp<bool>>,
    /// The effects on the chosen option, in order.
    #[schemars(length(min = 1, max = 16))]
    pub then: Vec<Sp<RawAct>>,
    /// Made again after each answer, the seats of `to` tested again, until none is left
    /// (default `false`: each seat of `to` once; only with `pool-tile` options).
    #[serde(default)]
    pub repeat: Option<Sp<bool>>,
    /// Who goes first when several seats are offered at once (default `"turn-order"`;
    /// `"actor-chooses"` only with `pool-tile` options).
    #[serde(default)]
    pub order: Option<Sp<RawSeatOrder>>,
}

/// The order in which the seats of an offer choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawSeatOrder {
    /// In turn order from the actor.
    TurnOrder,
    /// The actor chooses who goes next whenever two or more are left (W-3).
    ActorChooses,
}

/// The options of an offer: exactly one key.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("minProperties" = 1, "maxProperties" = 1))]
pub struct RawOptions {
    /// A figure of the chooser's on the board.
    #[serde(default, rename = "own-figure")]
    pub own_figure: Option<Sp<RawOwnFigure>>,
    /// A placed tile among the cells around the subject tile.
    #[serde(default, rename = "neighbour-tile")]
    pub neighbour_tile: Option<Sp<RawNeighbourTile>>,
    /// A kind of piece the chooser holds: each name both a `[[resource]]` and a `[[counter]]`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 16))]
    pub kind: Option<Sp<Vec<Sp<String>>>>,
    /// A tile of the open pool (`pool-tile = true`; only at `turn-finished`, with a `[pool]`):
    /// taken into the chooser's hand, placed instead of a drawn tile (W-2, W-5).
    #[serde(default, rename = "pool-tile")]
    pub pool_tile: Option<Sp<bool>>,
    /// A site for one of the chooser's figures on any other placed tile (PD-11).
    #[serde(default, rename = "any-feature")]
    pub any_feature: Option<Sp<RawFigureSet>>,
    /// A figure of any seat's on the feature of the subject tile's tagged segment (PD-12).
    #[serde(default, rename = "figure-in")]
    pub figure_in: Option<Sp<RawFigureSet>>,
    /// A site of a `[[stack]]` type that takes a piece.
    #[serde(default, rename = "stack-site")]
    pub stack_site: Option<Sp<RawStackRef>>,
    /// An open stack of a `[[stack]]` type for a figure on top.
    #[serde(default, rename = "stack-top")]
    pub stack_top: Option<Sp<RawStackRef>>,
    /// A figure of any seat within the reach of the stack chosen before (a `chained` rule).
    #[serde(default, rename = "in-reach")]
    pub in_reach: Option<Sp<RawInReach>>,
    /// A figure of the chooser's held by another seat.
    #[serde(default, rename = "own-captive")]
    pub own_captive: Option<Sp<RawOwnCaptive>>,
    /// In the `chained` rule a capture's `exchange` names: which of the taker's figures held by
    /// the seat whose figure was just taken comes back (`exchange-back = true`; TO-6's
    /// Reading).
    #[serde(default, rename = "exchange-back")]
    pub exchange_back: Option<Sp<bool>>,
}

/// `any-feature` and `figure-in` options: which figure types.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFigureSet {
    /// The figure types: a `[groups]` name or a list of follower ids.
    pub figures: Sp<RawFigures>,
    /// `any-feature` only: tiles no site may be on, `"neutral(ID)"` (a neutral figure's tile)
    /// or `"tag(TAG)"`.
    #[serde(default)]
    #[schemars(length(max = 8))]
    pub avoid: Option<Sp<Vec<Sp<String>>>>,
}

/// `stack-site` and `stack-top` options: the stack type.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStackRef {
    /// A `[[stack]]` id.
    #[schemars(length(min = 1, max = 64))]
    pub stack: Sp<String>,
}

/// `in-reach` options.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawInReach {
    /// The figure types that may be chosen: a `[groups]` name or a list of follower ids.
    pub figures: Sp<RawFigures>,
    /// Whether a figure on top of a stack may be chosen (default `true`).
    #[serde(default)]
    pub tops: Option<Sp<bool>>,
}

/// `own-captive` options.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawOwnCaptive {
    /// Fewest points the chooser must have (default 0: no minimum, a chooser below 0 may pay).
    #[serde(default)]
    #[schemars(range(max = 1000))]
    pub min_score: Option<Sp<u32>>,
    /// At most once a turn, a builder's extra turn included (default `false`).
    #[serde(default)]
    pub once_per_turn: Option<Sp<bool>>,
}

/// A kind of stack (`[[stack]]`, TO-1..TO-5): a site on every placed tile carrying a tag.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStack {
    /// Id, unique among the variant's stacks.
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))]
    pub id: Sp<crate::raw::Id>,
    /// Display name.
    #[schemars(length(min = 1, max = 200))]
    pub name: String,
    /// The tag (on a tile or a segment) of the tiles carrying a site.
    #[schemars(length(min = 1, max = 64))]
    pub site_tag: Sp<String>,
    /// The `[[resource]]` a level is made of (one of the seat's).
    #[schemars(length(min = 1, max = 64))]
    pub piece: Sp<String>,
    /// The figure types that may stand on top (closing the stack): a `[groups]` name or a list
    /// of follower ids (default: none).
    #[serde(default)]
    pub top: Option<Sp<RawFigures>>,
    /// Least height a figure may stand on (default 1).
    #[serde(default)]
    #[schemars(range(min = 1, max = 255))]
    pub top_min_height: Option<Sp<u8>>,
    /// Whether a stack whose top figure leaves the board is open again (default `true`).
    #[serde(default)]
    pub reopen: Option<Sp<bool>>,
}

/// `own-figure` options: which of the chooser's figures may be chosen.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawOwnFigure {
    /// Only this figure type (a follower id).
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub figure: Option<Sp<String>>,
    /// Only figure types of a set: a `[groups]` name or a list of follower ids.
    #[serde(default)]
    pub figures: Option<Sp<RawFigures>>,
    /// Not the figure this neutral figure is assigned to (PD-7): a `[[neutral]]` id.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    pub not_assigned: Option<Sp<String>>,
    /// Only on features of these kinds (default: any).
    #[serde(default)]
    #[schemars(length(min = 1, max = 4))]
    pub on: Option<Sp<Vec<Sp<RawFeatureKind>>>>,
    /// A test over the figure's feature.
    #[serde(default, rename = "if")]
    #[schemars(length(min = 1, max = 2000))]
    pub test: Option<Sp<String>>,
    /// Whether the chooser's figures on top of stacks are listed too (default `false`; PD-7's
    /// Reading: a follower on a tower). Not with `on` or `if` (such a figure is on no feature).
    #[serde(default)]
    pub tops: Option<Sp<bool>>,
}

/// `neighbour-tile` options.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawNeighbourTile {
    /// Whether the 4 diagonal cells count (default `false`: the 4 orthogonal ones only).
    #[serde(default)]
    pub diagonals: Option<Sp<bool>>,
}

/// How many of a resource each seat holds at setup: a number, or a table of
/// `[players, count]` pairs by player count.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum RawStart {
    /// The same for every game.
    Fixed(u64),
    /// `[[2, 9], [3, 6], …]`: a seat of a game of `players` seats holds `count` (the last entry
    /// whose player count is at most the game's).
    Table(Vec<[u64; 2]>),
}

impl JsonSchema for RawStart {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RawStart".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "How many each seat holds at setup: a number, or `[players, count]` \
                pairs in increasing player count (the last pair at or below the game's seats \
                applies), e.g. `[[2, 9], [3, 6], [4, 4]]`.",
            "anyOf": [
                { "type": "integer", "minimum": 0, "maximum": MAX_POINTS },
                {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 16,
                    "items": {
                        "type": "array",
                        "minItems": 2,
                        "maxItems": 2,
                        "items": { "type": "integer", "minimum": 0, "maximum": MAX_POINTS }
                    }
                }
            ]
        })
    }
}

/// The rule form's tables of one file, as written.
#[derive(Clone, Debug, Default)]
pub struct RawRuleForm {
    /// `[[token]]` tables.
    pub token: Vec<Sp<RawToken>>,
    /// `[[counter]]` tables.
    pub counter: Vec<Sp<RawCounter>>,
    /// `[[track]]` tables.
    pub track: Vec<Sp<RawTrack>>,
    /// `[[neutral]]` tables.
    pub neutral: Vec<Sp<RawNeutral>>,
    /// `[groups]`: named sets of follower ids.
    pub groups: Vec<(String, Sp<Vec<Sp<String>>>)>,
    /// `[[when]]` tables.
    pub when: Vec<Sp<RawWhen>>,
}

/// The rule form's tables of a TOML text (other keys ignored): for examples and tests.
#[derive(serde::Deserialize)]
struct RuleFormDoc {
    #[serde(default)]
    token: Vec<Sp<RawToken>>,
    #[serde(default)]
    counter: Vec<Sp<RawCounter>>,
    #[serde(default)]
    track: Vec<Sp<RawTrack>>,
    #[serde(default)]
    neutral: Vec<Sp<RawNeutral>>,
    #[serde(default)]
    groups: Option<RawGroups>,
    #[serde(default)]
    when: Vec<Sp<RawWhen>>,
}

/// `[groups]`: named sets of follower ids (the figure table as data).
pub type RawGroups = std::collections::BTreeMap<String, Sp<Vec<Sp<String>>>>;

impl RawRuleForm {
    /// The `[[token]]`, `[[counter]]` and `[[when]]` tables of a TOML text, other keys ignored
    /// and not schema-checked (the docs' worked examples are read this way); the TOML error's
    /// message otherwise.
    pub fn parse(text: &str) -> Result<RawRuleForm, String> {
        let d: RuleFormDoc = toml::from_str(text).map_err(|e| e.to_string())?;
        Ok(RawRuleForm {
            token: d.token,
            counter: d.counter,
            track: d.track,
            neutral: d.neutral,
            groups: d.groups.into_iter().flatten().collect(),
            when: d.when,
        })
    }

    /// Whether the file has none of the tables.
    pub fn is_empty(&self) -> bool {
        self.token.is_empty()
            && self.counter.is_empty()
            && self.track.is_empty()
            && self.neutral.is_empty()
            && self.groups.is_empty()
            && self.when.is_empty()
    }
}
