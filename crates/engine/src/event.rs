//! Events: everything that happens in a game, in order. The game log is these events as JSON
//! Lines (plus a setup line), so an event's serialised form is part of the log format.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tegula_ruleset::FeatureKind;

/// Identity of a board feature: the index of its oldest segment instance (stable for the whole
/// game: merging keeps the oldest root, and scored features never merge again).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FeatureId(pub u32);

/// What an event says about the feature it concerns.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FeatureInfo {
    /// Feature identity (compare with [`crate::Game::feature_id`]).
    pub id: FeatureId,
    /// Kind of feature.
    pub kind: FeatureKind,
    /// Size in tiles: distinct cells (B-7, W-18); for a cloister, the filled cells around it.
    pub tiles: u32,
    /// Pennants (cities).
    pub pennants: u32,
    /// Completed cities bordered (fields only, B-6).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cities: u32,
    /// Whether the feature is complete (B-3).
    pub complete: bool,
    /// Anchor cell of the tile holding the feature's oldest segment.
    pub at: [i32; 2],
    /// Id of that tile's type.
    pub tile: String,
    /// A segment id of the feature on that tile.
    pub segment: String,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

fn is_false(v: &bool) -> bool {
    !*v
}

/// How a log names a chosen option ([`Event::Choice`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChoiceWord {
    /// A figure on the board: its tile's anchor, the tile-local feature, a segment id of it and
    /// the figure type.
    Figure {
        /// Anchor x of its tile.
        x: i32,
        /// Anchor y of its tile.
        y: i32,
        /// Tile-local feature index.
        feature: u8,
        /// A segment id of that feature.
        segment: String,
        /// Follower type id.
        follower: String,
    },
    /// A placed tile, by the cell named (`[x, y]`).
    Tile([i32; 2]),
    /// A kind of piece, by its resource id.
    Kind(String),
    /// A figure on top of a stack: the stack's tile anchor, the figure type and its owner.
    Top {
        /// Anchor x of the stack's tile.
        x: i32,
        /// Anchor y of the stack's tile.
        y: i32,
        /// Follower type id.
        follower: String,
        /// Owner seat.
        player: u8,
    },
    /// A figure of the chooser's held by another seat.
    Captive {
        /// The seat holding it.
        holder: u8,
        /// Follower type id.
        follower: String,
    },
}

impl std::fmt::Display for ChoiceWord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChoiceWord::Figure {
                x,
                y,
                segment,
                follower,
                ..
            } => write!(f, "the {follower} on `{segment}` of the tile at ({x}, {y})"),
            ChoiceWord::Tile([x, y]) => write!(f, "the tile at ({x}, {y})"),
            ChoiceWord::Kind(id) => write!(f, "the kind `{id}`"),
            ChoiceWord::Top {
                x,
                y,
                follower,
                player,
            } => write!(
                f,
                "seat {player}'s {follower} on the stack of the tile at ({x}, {y})"
            ),
            ChoiceWord::Captive { holder, follower } => {
                write!(f, "the {follower} seat {holder} holds")
            }
        }
    }
}

/// One thing that happened. `turn` counts placed land tiles (the start tile is turn 0);
/// `player` is a seat index (0-based).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Event {
    /// A tile was drawn (B-2).
    Draw {
        /// Turn number.
        turn: u32,
        /// Seat drawing.
        player: u8,
        /// Tile type id.
        tile: String,
        /// Rule id the tile's pile group names for its draws, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
    },
    /// The drawn tile could not be placed anywhere and was discarded (B-2).
    Discard {
        /// Turn number.
        turn: u32,
        /// Seat that drew it.
        player: u8,
        /// Tile type id.
        tile: String,
        /// Rule id (`B-2`).
        rule: String,
    },
    /// Decision: a tile was placed with its anchor cell at `(x, y)`.
    Place {
        /// Turn number.
        turn: u32,
        /// Seat placing.
        player: u8,
        /// Tile type id.
        tile: String,
        /// Anchor x.
        x: i32,
        /// Anchor y.
        y: i32,
        /// Clockwise quarter turns.
        rotation: u8,
        /// Rule ids the tile's data names for its placement (its set's, then its own), if any.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        rules: Vec<String>,
    },
    /// Decision: a figure was placed on a feature of the tile just placed (or, for a corner
    /// figure, on a corner of that field), or moved after a scoring (`moved`).
    Follower {
        /// Turn number.
        turn: u32,
        /// Seat placing.
        player: u8,
        /// Follower type id.
        follower: String,
        /// Anchor of the tile.
        x: i32,
        /// Anchor of the tile.
        y: i32,
        /// Tile-local feature index.
        feature: u8,
        /// A segment id of that feature.
        segment: String,
        /// A corner figure's board point (the north-west corner of cell `(x, y)` is `[x, y]`,
        /// AM-6).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        corner: Option<[i32; 2]>,
        /// Whether the figure was moved there after its feature was scored (AM-11), rather than
        /// placed from supply.
        #[serde(default, skip_serializing_if = "is_false")]
        moved: bool,
        /// Whether this figure claims a pool tile just placed for its owner (W-5): on no
        /// feature, never moved or scored; not a decision. (The log spells the key as the
        /// expansion that brought it does.)
        #[serde(default, skip_serializing_if = "is_false", rename = "marker")]
        claim: bool,
        /// Rule id the figure type names for its placement from supply, if any (never on a
        /// move or a claim).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
    },
    /// Decision: a tile picked into the open pool at setup (W-1), or taken from it after
    /// reaching the threshold (W-2).
    Take {
        /// Turn number (0 at setup).
        turn: u32,
        /// Seat taking.
        player: u8,
        /// Tile type id.
        tile: String,
    },
    /// Decision of the active player: which seat takes next when several reached the threshold
    /// together (W-3).
    Seat {
        /// Turn number.
        turn: u32,
        /// The active player, who decides.
        player: u8,
        /// The seat chosen.
        seat: u8,
    },
    /// Decision: no follower this turn; or draw instead of placing one's own tile (AM-1); or
    /// take a freed figure back (AM-11); or, with `rule`, decline that rule's offered choice.
    Pass {
        /// Turn number.
        turn: u32,
        /// Seat passing.
        player: u8,
        /// The rule whose offer is declined (absent on every other pass).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
    },
    /// Decision: an option of a rule's offered choice (`Offer`), on which the offer's effects
    /// then act.
    Choice {
        /// Turn number.
        turn: u32,
        /// The rule making the offer.
        rule: String,
        /// Seat choosing.
        player: u8,
        /// The option chosen.
        option: ChoiceWord,
    },
    /// A feature was scored. Every player in `players` receives `points`; an empty `players`
    /// means the feature was complete but unoccupied (nobody scores, B-5).
    Score {
        /// Turn number (the last turn for final scoring).
        turn: u32,
        /// Rule applied (`B-4` during the game, `B-6` at the end).
        rule: String,
        /// Seats scoring (majority, ties all score, B-5).
        players: Vec<u8>,
        /// Points each of them receives.
        points: u32,
        /// The feature.
        feature: FeatureInfo,
    },
    /// Followers went back to supply after their feature was scored (B-4).
    Return {
        /// Turn number.
        turn: u32,
        /// Owner.
        player: u8,
        /// Follower type id.
        follower: String,
        /// The feature they stood on.
        feature: FeatureId,
        /// Rule id the figure type names for its return, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
    },
    /// The seat that just finished its turn takes one more turn, earned by a figure type's turn
    /// effect (TB-5).
    ExtraTurn {
        /// Turn number (of the turn that earned it).
        turn: u32,
        /// Seat taking the extra turn.
        player: u8,
        /// Rule id of the turn effect.
        rule: String,
    },
    /// A seat gained a resource (a named per-seat counter the variant declares): because the
    /// tile it placed completed a feature during the game, or by a rule of the one form (which
    /// may also have it given up: `spent`).
    Gain {
        /// Turn number.
        turn: u32,
        /// Rule applied (the variant's gain rule id).
        rule: String,
        /// Seat gaining: the one that placed the completing tile, or the rule's seat.
        player: u8,
        /// Resource id.
        resource: String,
        /// How much it gained (or gave up).
        amount: u32,
        /// The completed feature (a rule of the one form: its subject feature, if any).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        feature: Option<FeatureId>,
        /// Whether the seat gave the amount up rather than gained it (never below 0).
        #[serde(default, skip_serializing_if = "is_false")]
        spent: bool,
    },
    /// Points paid by a rule of the one form with no feature as its subject (a feature's are
    /// [`Event::Score`] events).
    Points {
        /// Turn number.
        turn: u32,
        /// The rule's id.
        rule: String,
        /// Seats scoring.
        players: Vec<u8>,
        /// Points each of them receives.
        points: u32,
    },
    /// A seat took a single-holder token (KR-2, KR-3), with the record it now holds.
    Token {
        /// Turn number.
        turn: u32,
        /// The rule's id.
        rule: String,
        /// Token id.
        token: String,
        /// Seat taking it.
        player: u8,
        /// The token's record after the take.
        record: u32,
    },
    /// Counters were put on a placed tile (GM-2).
    Counters {
        /// Turn number.
        turn: u32,
        /// The rule's id.
        rule: String,
        /// Counter id.
        counter: String,
        /// Anchor of the tile.
        x: i32,
        /// Anchor of the tile.
        y: i32,
        /// How many were put there.
        added: u32,
        /// How many the tile now holds.
        total: u32,
    },
    /// A seat took counters off a scored feature's tiles into a resource (GM-3, GM-4). Named
    /// `collect`: `take` is the open pool's decision.
    Collect {
        /// Turn number.
        turn: u32,
        /// The rule's id.
        rule: String,
        /// Counter id.
        counter: String,
        /// Seat taking them.
        player: u8,
        /// How many it took.
        amount: u32,
        /// The resource they became.
        resource: String,
        /// The feature whose tiles held them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        feature: Option<FeatureId>,
    },
    /// At the end, the seats holding the most of a resource scored its award; a resource
    /// nobody holds gives no event.
    Award {
        /// Turn number (the last turn).
        turn: u32,
        /// Rule applied (the variant's award rule id).
        rule: String,
        /// Seats scoring (all of them on a tie).
        players: Vec<u8>,
        /// Resource id.
        resource: String,
        /// The most any seat holds.
        held: u32,
        /// Points each of them receives.
        points: u32,
    },
    /// At the start (turn 0): the game seats more players than the variant's `players.above`
    /// count, which its rule allows. Only variants naming such a rule have this event.
    Seating {
        /// Turn number (0).
        turn: u32,
        /// Players seated.
        seats: u8,
        /// Rule id that allows this many.
        rule: String,
    },
    /// The game was ended early by [`crate::Game::finish`] (not by the rules): the final
    /// scoring that follows is the finish's. Recorded so that a log of such a game replays.
    Finish {
        /// Turn number when the game was ended.
        turn: u32,
    },
    /// The game ended; final scores by seat and the winning seats.
    End {
        /// Scores by seat.
        scores: Vec<crate::points::Score>,
        /// Seats with the highest score.
        winners: Vec<u8>,
        /// Seat resources held at the end: by resource id, each seat's holding (absent when
        /// the variant declares none, so logs of other variants are unchanged).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        resources: BTreeMap<String, Vec<u32>>,
        /// Figures held by a seat other than their owner at the end (TO-8): `[holder, owner,
        /// figure type id]`, in the order taken (absent when none, so logs of other variants
        /// are unchanged).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        held: Vec<(u8, u8, String)>,
        /// Tiles still set aside when the game ended, never played (PD-3; absent when none, so
        /// logs of other variants are unchanged).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        set_aside: Vec<String>,
    },
    /// A neutral figure was put on a tile, taking no step (PD-2).
    Neutral {
        /// Turn number.
        turn: u32,
        /// The rule's id.
        rule: String,
        /// Neutral figure id.
        neutral: String,
        /// Cell x.
        x: i32,
        /// Cell y.
        y: i32,
    },
    /// Decision: a step of a neutral figure's walk, to a neighbouring cell (PD-5).
    Step {
        /// Turn number.
        turn: u32,
        /// Seat choosing the step.
        player: u8,
        /// The rule's id.
        rule: String,
        /// Neutral figure id.
        neutral: String,
        /// Cell x entered.
        x: i32,
        /// Cell y entered.
        y: i32,
    },
    /// A walk ended before its last step: no cell was left to enter (PD-5).
    WalkEnd {
        /// Turn number.
        turn: u32,
        /// The rule's id.
        rule: String,
        /// Neutral figure id.
        neutral: String,
        /// Steps made.
        steps: u32,
    },
    /// A drawn tile was set aside; the seat draws again (PD-3).
    SetAside {
        /// Turn number (of the turn drawing).
        turn: u32,
        /// Seat drawing.
        player: u8,
        /// Tile id.
        tile: String,
        /// The rule's id.
        rule: String,
    },
    /// The tiles set aside went back into the remaining pile (PD-3).
    ShuffleBack {
        /// Turn number.
        turn: u32,
        /// The rule's id.
        rule: String,
        /// Tile ids, in the order set aside.
        tiles: Vec<String>,
        /// Where each went, counted from the next draw (0: drawn next), in the same order.
        at: Vec<u32>,
    },
    /// A piece was added to a stack (TO-2): its new height.
    Stack {
        /// Turn number.
        turn: u32,
        /// Seat whose piece it is.
        player: u8,
        /// The rule's id.
        rule: String,
        /// Stack type id.
        stack: String,
        /// Anchor of the stack's tile.
        x: i32,
        /// Anchor of the stack's tile.
        y: i32,
        /// Height after the piece.
        height: u8,
    },
    /// A figure went from supply onto a stack, closing it (TO-2, TO-5).
    Top {
        /// Turn number.
        turn: u32,
        /// Owner.
        player: u8,
        /// The rule's id.
        rule: String,
        /// Follower type id.
        follower: String,
        /// Anchor of the stack's tile.
        x: i32,
        /// Anchor of the stack's tile.
        y: i32,
    },
    /// A figure was taken off the board (TO-4): back to its owner's supply when it is the
    /// taker's own, else held by the taker.
    Capture {
        /// Turn number.
        turn: u32,
        /// The seat taking it.
        player: u8,
        /// The rule's id.
        rule: String,
        /// Its owner.
        owner: u8,
        /// Follower type id.
        follower: String,
        /// Anchor of the tile it stood on.
        x: i32,
        /// Anchor of the tile it stood on.
        y: i32,
        /// Whether the taker now holds it (another seat's figure).
        held: bool,
    },
    /// A figure on top of a stack went back to its owner's supply, scoring nothing (PD-6's
    /// Reading: a figure on top of a stack is on that tile); the stack reopens or stays closed as
    /// its type says.
    TopReturn {
        /// Turn number.
        turn: u32,
        /// Its owner.
        player: u8,
        /// The rule's id.
        rule: String,
        /// Follower type id.
        follower: String,
        /// Anchor of the stack's tile.
        x: i32,
        /// Anchor of the stack's tile.
        y: i32,
    },
    /// Two seats each holding a figure of the other gave them back (TO-6): `players[0]`'s
    /// `followers[0]` and `players[1]`'s `followers[1]` went home.
    Exchange {
        /// Turn number.
        turn: u32,
        /// The rule's id.
        rule: String,
        /// The two seats.
        players: [u8; 2],
        /// Follower type ids, by seat.
        followers: [String; 2],
    },
    /// A seat bought back its figure held by another seat (TO-7): it went home, and `points`
    /// went from `player` to `holder`.
    Redeem {
        /// Turn number.
        turn: u32,
        /// The seat buying it back.
        player: u8,
        /// The rule's id.
        rule: String,
        /// The seat that held it.
        holder: u8,
        /// Follower type id.
        follower: String,
        /// Points paid.
        points: u32,
    },
}

impl Event {
    /// Every kind name [`Event::kind`] gives, in the order of the variants.
    pub const KINDS: [&'static str; 31] = [
        "draw",
        "discard",
        "place",
        "follower",
        "pass",
        "score",
        "return",
        "take",
        "seat",
        "extra_turn",
        "gain",
        "points",
        "token",
        "counters",
        "collect",
        "award",
        "seating",
        "finish",
        "end",
        "choice",
        "stack",
        "top",
        "capture",
        "exchange",
        "redeem",
        "neutral",
        "step",
        "walk_end",
        "set_aside",
        "shuffle_back",
        "top_return",
    ];

    /// Stable kind name, as in the `type` field of the log (`draw`, `place`, `score`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Draw { .. } => "draw",
            Event::Discard { .. } => "discard",
            Event::Place { .. } => "place",
            Event::Follower { .. } => "follower",
            Event::Pass { .. } => "pass",
            Event::Score { .. } => "score",
            Event::Return { .. } => "return",
            Event::Take { .. } => "take",
            Event::Seat { .. } => "seat",
            Event::ExtraTurn { .. } => "extra_turn",
            Event::Gain { .. } => "gain",
            Event::Points { .. } => "points",
            Event::Token { .. } => "token",
            Event::Counters { .. } => "counters",
            Event::Collect { .. } => "collect",
            Event::Award { .. } => "award",
            Event::Seating { .. } => "seating",
            Event::Finish { .. } => "finish",
            Event::End { .. } => "end",
            Event::Choice { .. } => "choice",
            Event::Stack { .. } => "stack",
            Event::Top { .. } => "top",
            Event::Capture { .. } => "capture",
            Event::Exchange { .. } => "exchange",
            Event::Redeem { .. } => "redeem",
            Event::Neutral { .. } => "neutral",
            Event::Step { .. } => "step",
            Event::WalkEnd { .. } => "walk_end",
            Event::SetAside { .. } => "set_aside",
            Event::ShuffleBack { .. } => "shuffle_back",
            Event::TopReturn { .. } => "top_return",
        }
    }

    /// Players concerned (scorers of a score event, the acting seat otherwise).
    pub fn players(&self) -> Vec<u8> {
        match self {
            Event::Draw { player, .. }
            | Event::Discard { player, .. }
            | Event::Place { player, .. }
            | Event::Follower { player, .. }
            | Event::Pass { player, .. }
            | Event::Choice { player, .. }
            | Event::Step { player, .. }
            | Event::SetAside { player, .. }
            | Event::Take { player, .. }
            | Event::Seat { player, .. }
            | Event::Return { player, .. }
            | Event::ExtraTurn { player, .. }
            | Event::Gain { player, .. }
            | Event::Token { player, .. }
            | Event::Collect { player, .. }
            | Event::Stack { player, .. }
            | Event::Top { player, .. }
            | Event::TopReturn { player, .. }
            | Event::Capture { player, .. }
            | Event::Redeem { player, .. } => vec![*player],
            Event::Exchange { players, .. } => players.to_vec(),
            Event::Score { players, .. }
            | Event::Award { players, .. }
            | Event::Points { players, .. } => players.clone(),
            Event::End { winners, .. } => winners.clone(),
            Event::Finish { .. }
            | Event::Seating { .. }
            | Event::Counters { .. }
            | Event::Neutral { .. }
            | Event::WalkEnd { .. }
            | Event::ShuffleBack { .. } => Vec::new(),
        }
    }

    /// Points each listed player receives (0 for events that are not score changes).
    pub fn points(&self) -> u32 {
        match self {
            Event::Score { points, .. }
            | Event::Award { points, .. }
            | Event::Points { points, .. } => *points,
            _ => 0,
        }
    }

    /// Rule id, where the event applies one (for a placement, the first it cites; see
    /// [`Event::cited`] for all).
    pub fn rule(&self) -> Option<&str> {
        match self {
            Event::Discard { rule, .. }
            | Event::Score { rule, .. }
            | Event::ExtraTurn { rule, .. }
            | Event::Gain { rule, .. }
            | Event::Award { rule, .. }
            | Event::Points { rule, .. }
            | Event::Token { rule, .. }
            | Event::Counters { rule, .. }
            | Event::Collect { rule, .. }
            | Event::Seating { rule, .. }
            | Event::Choice { rule, .. }
            | Event::Stack { rule, .. }
            | Event::Top { rule, .. }
            | Event::TopReturn { rule, .. }
            | Event::Capture { rule, .. }
            | Event::Exchange { rule, .. }
            | Event::Redeem { rule, .. } => Some(rule),
            Event::Neutral { rule, .. }
            | Event::Step { rule, .. }
            | Event::WalkEnd { rule, .. }
            | Event::SetAside { rule, .. }
            | Event::ShuffleBack { rule, .. } => Some(rule),
            Event::Draw { rule, .. }
            | Event::Pass { rule, .. }
            | Event::Follower { rule, .. }
            | Event::Return { rule, .. } => rule.as_deref(),
            Event::Place { rules, .. } => rules.first().map(String::as_str),
            _ => None,
        }
    }

    /// Every rule id the event cites, in order (a placement may cite several).
    pub fn cited(&self) -> impl Iterator<Item = &str> {
        let (first, rest) = match self {
            Event::Place { rules, .. } => (None, rules.as_slice()),
            _ => (self.rule(), &[][..]),
        };
        first.into_iter().chain(rest.iter().map(String::as_str))
    }

    /// The feature, for score events.
    pub fn feature(&self) -> Option<&FeatureInfo> {
        match self {
            Event::Score { feature, .. } => Some(feature),
            _ => None,
        }
    }

    /// Whether this event records a player's decision (place, follower, pass).
    pub fn is_decision(&self) -> bool {
        match self {
            Event::Follower { claim, .. } => !claim,
            Event::Place { .. }
            | Event::Pass { .. }
            | Event::Take { .. }
            | Event::Seat { .. }
            | Event::Choice { .. }
            | Event::Step { .. } => true,
            _ => false,
        }
    }
}
