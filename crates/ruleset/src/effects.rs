//! Rules and effects: the rule registry's entries, the citations of the game's steps and the
//! abilities (trigger, conditions, effect).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[cfg(doc)] // Named by doc links only.
use crate::{Act, Readings, Ruleset, RULES_TOML};
use crate::{Expr, FeatureKind};

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
    /// The owner takes one more turn after this one (the same turn effect a rule of the one
    /// form may give, [`Act::ExtraTurn`]): never in a turn that is itself an extra turn, never
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
