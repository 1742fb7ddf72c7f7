//! The game's public vocabulary: placements, follower options, move targets, actions, phases,
//! the pile order, what the board shows, and why a game cannot be set up.

use std::fmt;

use crate::event::FeatureId;
#[cfg(doc)]
use crate::{Game, CHANCE};

/// A tile placement: tile type, anchor cell (the tile's cell 0) and clockwise quarter turns.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Placement {
    /// Tile type index (must be the tile drawn).
    pub tile: u16,
    /// Anchor x (east).
    pub x: i32,
    /// Anchor y (south).
    pub y: i32,
    /// Clockwise quarter turns, 0..4.
    pub rotation: u8,
}

/// A follower option: a tile-local feature of the tile just placed and a follower type.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct FollowerOption {
    /// Tile-local feature index (into `TileType::features`).
    pub feature: u8,
    /// Follower type index (into `Ruleset::followers`).
    pub follower: u8,
}

/// A corner figure on a named corner of its field (AM-6): a follower option of the tile just
/// placed and the board point the figure stands on ([`Action::Corner`]).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct CornerChoice {
    /// The follower option: a field of the tile just placed and a corner-figure type.
    pub option: FollowerOption,
    /// The board point (point `(x, y)` is the north-west corner of cell `(x, y)`); one of
    /// [`Game::corner_points`] of the option.
    pub point: [i32; 2],
}

/// Where a figure freed by a scoring may move (AM-11): a feature of a placed tile.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct MoveTarget {
    /// Anchor x of the tile holding the feature.
    pub x: i32,
    /// Anchor y of the tile holding the feature.
    pub y: i32,
    /// Tile-local feature index.
    pub feature: u8,
}

/// An option of an offered choice ([`Action::Choose`], [`Game::choice_options`]).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ChoiceOption {
    /// A figure of the chooser's on the board: its tile's anchor, the tile-local feature it
    /// stands on and its follower type.
    Figure {
        /// Anchor x of the figure's tile.
        x: i32,
        /// Anchor y of the figure's tile.
        y: i32,
        /// Tile-local feature index.
        feature: u8,
        /// Follower type index.
        follower: u8,
    },
    /// A placed tile around the subject tile, named by its cell next to the subject.
    Tile {
        /// Cell x.
        x: i32,
        /// Cell y.
        y: i32,
    },
    /// A kind of piece: its position in the offer's list and the resource it is held as.
    Kind {
        /// Position in the offer's list of kinds.
        index: u8,
        /// Resource index.
        resource: u16,
    },
    /// A figure on top of a stack (to put there, or standing there): the stack's tile anchor,
    /// the figure type and its owner.
    Top {
        /// Anchor x of the stack's tile.
        x: i32,
        /// Anchor y of the stack's tile.
        y: i32,
        /// Follower type index.
        follower: u8,
        /// Owner seat.
        player: u8,
    },
    /// A figure of the chooser's held by another seat: the holder and the figure type.
    Captive {
        /// The seat holding it.
        holder: u8,
        /// Follower type index.
        follower: u8,
    },
}

/// A player's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Action {
    /// Take this tile: into the open pool at setup, or from the pool on reaching the score
    /// threshold ([`Phase::Pick`], W-1, W-2).
    Take(u16),
    /// The active player lets this seat take next when several reached the threshold together
    /// ([`Phase::Order`], W-3).
    Seat(u8),
    /// Place the drawn tile ([`Phase::Place`]) or a tile of one's own ([`Phase::Hand`]).
    Place(Placement),
    /// Place a follower on the tile just placed (on one of its features, or, for a corner
    /// figure, on the first of [`Game::corner_points`] of that field).
    Follower(FollowerOption),
    /// Place a corner figure on a named corner of its field, one of [`Game::corner_points`]
    /// (AM-6). Not listed by [`Game::legal_actions`], which names each choice once
    /// ([`Action::Follower`], the first corner); the other corners are this action.
    Corner(CornerChoice),
    /// Move the figure freed by a scoring to a feature ([`Phase::Move`]).
    Move(MoveTarget),
    /// Decline: no follower ([`Phase::Follower`]), draw instead of placing one's own tile (or, in
    /// the final round, do not place it; [`Phase::Hand`]), take the freed figure back
    /// ([`Phase::Move`]).
    Pass,
    /// The chance step's outcome: this tile type is drawn ([`Phase::Draw`], B-2).
    Draw(u16),
    /// Take option number `n` of an offered choice (a rule's `offer`, docs/FORMAT.md): of the
    /// open offer in [`Phase::Choice`], or, in [`Phase::Follower`], of the figure-step offers
    /// listed after the follower options (their options one after the other, in rule order).
    /// [`Game::choice_options`] lists them in this order. [`Action::Pass`] declines an offer
    /// that may be declined.
    Choose(u16),
}

/// Where the turn is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Phase {
    /// The current player picks a tile: into the open pool at setup (W-1), or from the pool
    /// after reaching the score threshold (W-2).
    Pick,
    /// Several seats reached the threshold together: the active player picks who takes next
    /// (W-3).
    Order,
    /// The current player holds tiles of their own and may place one instead of drawing (AM-1),
    /// or, in the final round after the pile is empty, may place one or pass (AM-4).
    Hand,
    /// The current player must place the drawn tile ([`Game::current_tile`]).
    Place,
    /// The current player may place a follower on the tile just placed, or pass.
    Follower,
    /// A figure freed by this turn's scoring: its owner ([`Game::current_player`]) may move it to
    /// an adjacent unfinished, unoccupied feature or take it back (AM-11, AM-12).
    Move,
    /// The game is over (final scoring done).
    Over,
    /// A chance step: a tile is drawn (B-2). No seat acts ([`Game::current_player`] is
    /// [`CHANCE`]); [`Game::chance_outcomes`] lists the remaining tile types with their
    /// probabilities, [`Game::apply_draw`] or [`Game::draw_default`] decides. Only with chance
    /// steps on ([`Game::set_chance_steps`]).
    Draw,
    /// A rule offers a choice to [`Game::current_player`] ([`Game::open_offer`]): one of
    /// [`Game::choice_options`] ([`Action::Choose`]), or [`Action::Pass`] where the offer may be
    /// declined.
    Choice,
}

/// Why a game cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetupError {
    /// Player count outside the variant's range.
    Players {
        /// Asked for.
        players: u8,
        /// Allowed minimum.
        min: u8,
        /// Allowed maximum.
        max: u8,
    },
    /// A scripted draw names a tile type that does not exist.
    NoSuchTile(u16),
    /// A scripted pile's tiles, with the start tile, the players' own tiles and the pool, cover
    /// more cells than a game may ([`tegula_ruleset::limits::MAX_GAME_CELLS`]): the engine's
    /// counters and the board are sized by that limit.
    TooManyCells {
        /// Cells the game would cover.
        cells: u64,
        /// The limit.
        max: u64,
    },
    /// A scripted pile draws a tile of an earlier pile group after one of a later group
    /// (`Ruleset::pile_groups` are drawn in order).
    GroupOrder {
        /// Index in the pile of the first tile out of order.
        position: usize,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Players { players, min, max } => {
                let s = if *players == 1 { "" } else { "s" };
                write!(f, "{players} player{s}, the variant allows {min} to {max}")
            }
            SetupError::NoSuchTile(t) => write!(f, "no tile type with index {t}"),
            SetupError::TooManyCells { cells, max } => write!(
                f,
                "the pile's tiles would cover {cells} cells with the start, own and pool tiles; \
                 a game covers at most {max}"
            ),
            SetupError::GroupOrder { position } => write!(
                f,
                "draw {} is a tile of an earlier pile group than the draw before it; the \
                 variant's pile groups are drawn in order",
                position + 1
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// How the draw pile is ordered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PileOrder {
    /// All tiles of the variant, shuffled with this seed.
    Shuffled(u64),
    /// Exactly these tile types, drawn in this order (scenarios, replays, perft).
    Scripted(Vec<u16>),
}

/// A placed tile as seen from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedTile {
    /// Tile type.
    pub tile: u16,
    /// Anchor x.
    pub x: i32,
    /// Anchor y.
    pub y: i32,
    /// Rotation.
    pub rotation: u8,
}

/// A follower on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardFollower {
    /// Owner seat.
    pub player: u8,
    /// Follower type.
    pub follower: u8,
    /// Index of the tile instance (order of placement; 0 = start tile).
    pub instance: u16,
    /// Anchor of that tile.
    pub x: i32,
    /// Anchor of that tile.
    pub y: i32,
    /// Tile-local feature.
    pub feature: u8,
    /// The board feature it stands on.
    pub feature_id: FeatureId,
    /// For a corner figure: the board point it stands on (the north-west corner of cell
    /// `(x, y)` is point `(x, y)`), AM-6.
    pub corner: Option<[i32; 2]>,
}
