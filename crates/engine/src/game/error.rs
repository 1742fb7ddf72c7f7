//! Why an action is refused: [`MoveError`], with its rule id and a stable kebab-case kind.

use std::fmt;

use tegula_ruleset::{FeatureKind, Side, SideKind, TileSite};

use super::{Game, Phase};

/// Why an action was refused. Every variant names what is wrong; [`Game::rule_of`] gives the
/// rule id the data cites for it and [`MoveError::kind`] a stable name.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveError {
    /// The action does not belong to the current phase.
    WrongPhase {
        /// The phase the game is in.
        phase: Phase,
    },
    /// The placement names another tile than the one drawn.
    WrongTile {
        /// Tile drawn.
        expected: u16,
        /// Tile named.
        got: u16,
    },
    /// Rotation not in 0..4.
    BadRotation(u8),
    /// A cell of the tile lies outside the board.
    OutOfBoard {
        /// Cell x.
        x: i32,
        /// Cell y.
        y: i32,
    },
    /// A cell of the tile is already filled.
    Occupied {
        /// Cell x.
        x: i32,
        /// Cell y.
        y: i32,
    },
    /// The tile touches no placed tile (B-2).
    NotAdjacent,
    /// A side of the tile does not match the neighbour (B-2).
    EdgeMismatch {
        /// Cell x of the tile's cell.
        x: i32,
        /// Cell y of the tile's cell.
        y: i32,
        /// Board side of that cell.
        side: Side,
        /// What the tile shows there.
        tile: SideKind,
        /// What the neighbour shows.
        neighbour: SideKind,
    },
    /// No such feature on the tile just placed.
    NoSuchFeature(u8),
    /// The follower type goes only on a feature that already holds one of the player's own
    /// occupying figures, and this one holds none (TB-4, TB-7).
    NeedsOwnFigure {
        /// Tile-local feature.
        feature: u8,
        /// Its kind (a field: TB-7, else TB-4).
        kind: FeatureKind,
        /// Follower type.
        follower: u8,
    },
    /// Under TB-4's other reading ([`tegula_ruleset::NeedsOwnOnCompleted::Refused`]), a figure
    /// that needs an own figure may not go on a feature the tile just placed completes.
    FeatureCompleted {
        /// Tile-local feature.
        feature: u8,
        /// Its kind.
        kind: FeatureKind,
        /// Follower type.
        follower: u8,
    },
    /// Followers cannot stand on this kind of feature (an unscored feature, W-5).
    NotAFollowerFeature {
        /// Feature index.
        feature: u8,
        /// Its kind.
        kind: FeatureKind,
    },
    /// The connected feature already holds a follower (B-2; any figure that occupies counts,
    /// whatever its strength, AM-5).
    FeatureOccupied {
        /// Feature index on the tile just placed.
        feature: u8,
    },
    /// No such follower type.
    NoSuchFollower(u8),
    /// The player has no follower of that type left in supply (B-2).
    NoFollowerLeft {
        /// Follower type.
        follower: u8,
    },
    /// The follower type may not stand on this kind of feature (its sites, e.g. AM-5, AM-10).
    WrongSite {
        /// Feature index on the tile just placed.
        feature: u8,
        /// Its kind.
        kind: FeatureKind,
        /// Follower type.
        follower: u8,
    },
    /// The field already holds a corner figure: no follower may join it (AM-6, AM-8).
    CornerFigureField {
        /// Feature index on the tile just placed.
        feature: u8,
    },
    /// No corner of the tile just placed touches this field where four filled cells meet and all
    /// four cell corners are field (AM-6).
    NoCorner {
        /// Feature index on the tile just placed.
        feature: u8,
    },
    /// The player holds no such tile of their own (AM-1).
    TileNotHeld {
        /// Tile named.
        tile: u16,
    },
    /// The tile must go into a hole: an empty cell with four filled neighbours (AM-1).
    NotAHole {
        /// Cell x.
        x: i32,
        /// Cell y.
        y: i32,
    },
    /// The tile is not in the pool's choices (W-1, W-2).
    NotInPool {
        /// Tile named.
        tile: u16,
    },
    /// That seat is not among those that reached the threshold together (W-3).
    NotAChoice {
        /// Seat named.
        seat: u8,
    },
    /// A taken pool tile must be placed; it cannot be declined (W-5).
    MustPlace,
    /// The pool tile must be placed next to the tile just placed for it (W-6).
    NotNextToTile,
    /// The figure cannot move there: not an unfinished, unoccupied feature it may stand on,
    /// adjacent to the one it left (AM-11).
    NotAMoveTarget {
        /// The figure type deciding.
        follower: u8,
        /// Anchor x of the tile named.
        x: i32,
        /// Anchor y of the tile named.
        y: i32,
        /// Feature index on that tile.
        feature: u8,
    },
    /// The chance step names a tile type that is not in the undrawn pile, or not of the pile
    /// group being drawn (B-2).
    NotInPile {
        /// The tile type named.
        tile: u16,
    },
    /// A corner was named for a figure that stands on features, not on corners (AM-6).
    NotACornerFigure {
        /// Follower type.
        follower: u8,
    },
    /// The named point is not a corner of this field on the tile just placed where four filled
    /// cells meet with field in all four corners (AM-6).
    NotACorner {
        /// Feature index on the tile just placed.
        feature: u8,
        /// The point named.
        point: [i32; 2],
    },
    /// A corner figure on the pool tile just placed: only figures that stand on its features
    /// follow a pool tile (W-7).
    CornerOnPoolTile {
        /// Feature index on the tile just placed.
        feature: u8,
    },
    /// The offered choice has no option of this number (`Offer`; the rule id from the data).
    NoSuchOption {
        /// The rule making the offer.
        rule: String,
        /// The option named.
        option: u16,
        /// How many options there are.
        options: u16,
    },
    /// The offered choice may not be declined (`Offer::may_decline` is false).
    MustChoose {
        /// The rule making the offer.
        rule: String,
    },
    /// No figure may go on this tile in this turn (a rule's `no_figures`, PD-2).
    BlockedTile {
        /// The rule keeping figures off it.
        rule: String,
    },
    /// The placement breaks one of the tile's placement rules (`TileType::placement`).
    PlacementRule {
        /// The rule id the data gives it.
        rule: String,
        /// What it asks, in words.
        why: &'static str,
    },
}

impl MoveError {
    /// Every [`MoveError::kind`], in declaration order (for documentation and checks).
    pub const KINDS: &'static [&'static str] = &[
        "wrong-phase",
        "wrong-tile",
        "bad-rotation",
        "out-of-board",
        "occupied",
        "not-adjacent",
        "edge-mismatch",
        "no-such-feature",
        "not-a-follower-feature",
        "feature-occupied",
        "no-such-follower",
        "no-follower-left",
        "wrong-site",
        "corner-figure-field",
        "no-corner",
        "tile-not-held",
        "not-a-hole",
        "not-a-move-target",
        "not-in-pool",
        "not-a-choice",
        "must-place",
        "not-next-to-tile",
        "not-in-pile",
        "not-a-corner-figure",
        "not-a-corner",
        "needs-own-figure",
        "corner-on-pool-tile",
        "placement-rule",
        "feature-completed",
        "no-such-option",
        "must-choose",
        "blocked-tile",
    ];

    /// Stable kebab-case name (scenario files' `expect_error.kind`).
    pub fn kind(&self) -> &'static str {
        let i = match self {
            MoveError::WrongPhase { .. } => 0,
            MoveError::WrongTile { .. } => 1,
            MoveError::BadRotation(_) => 2,
            MoveError::OutOfBoard { .. } => 3,
            MoveError::Occupied { .. } => 4,
            MoveError::NotAdjacent => 5,
            MoveError::EdgeMismatch { .. } => 6,
            MoveError::NoSuchFeature(_) => 7,
            MoveError::NotAFollowerFeature { .. } => 8,
            MoveError::FeatureOccupied { .. } => 9,
            MoveError::NoSuchFollower(_) => 10,
            MoveError::NoFollowerLeft { .. } => 11,
            MoveError::WrongSite { .. } => 12,
            MoveError::CornerFigureField { .. } => 13,
            MoveError::NoCorner { .. } => 14,
            MoveError::TileNotHeld { .. } => 15,
            MoveError::NotAHole { .. } => 16,
            MoveError::NotAMoveTarget { .. } => 17,
            MoveError::NotInPool { .. } => 18,
            MoveError::NotAChoice { .. } => 19,
            MoveError::MustPlace => 20,
            MoveError::NotNextToTile => 21,
            MoveError::NotInPile { .. } => 22,
            MoveError::NotACornerFigure { .. } => 23,
            MoveError::NotACorner { .. } => 24,
            MoveError::NeedsOwnFigure { .. } => 25,
            MoveError::CornerOnPoolTile { .. } => 26,
            MoveError::PlacementRule { .. } => 27,
            MoveError::FeatureCompleted { .. } => 28,
            MoveError::NoSuchOption { .. } => 29,
            MoveError::MustChoose { .. } => 30,
            MoveError::BlockedTile { .. } => 31,
        };
        Self::KINDS[i]
    }
}

impl Game {
    /// The rule an action refused with `e` breaks, as the data cites it: the figure type's,
    /// the corner figure's, the pool's or the player tile's rule where the refusal concerns
    /// one of them, else the placement rule ([`tegula_ruleset::Citations::placement`]).
    pub fn rule_of<'a>(&'a self, e: &'a MoveError) -> &'a str {
        let r = &*self.rules;
        let rs = r.ruleset();
        let pool = rs.pool.as_ref().map(|p| &p.rules);
        let held = |tile: Option<u16>| {
            let mut tiles = rs.player_tiles.iter();
            let t = match tile {
                Some(t) => tiles.find(|p| p.tile == t),
                None => tiles.find(|p| p.site == TileSite::Enclosed),
            };
            t.or(rs.player_tiles.first()).map(|p| p.rule.as_str())
        };
        let corner_site = || {
            let i = rs.followers.iter().position(|f| f.corner.is_some());
            i.map(|i| r.site_rule(i as u8))
        };
        let rule = match e {
            MoveError::PlacementRule { rule, .. }
            | MoveError::NoSuchOption { rule, .. }
            | MoveError::MustChoose { rule }
            | MoveError::BlockedTile { rule } => Some(rule.as_str()),
            MoveError::WrongSite { follower, .. }
            | MoveError::NeedsOwnFigure { follower, .. }
            | MoveError::FeatureCompleted { follower, .. } => Some(r.site_rule(*follower)),
            MoveError::NoCorner { .. }
            | MoveError::NotACornerFigure { .. }
            | MoveError::NotACorner { .. } => corner_site(),
            MoveError::CornerFigureField { .. } => r.corner_scoring().map(|c| c.join_rule.as_str()),
            MoveError::NotAMoveTarget { follower, .. } => rs
                .followers
                .get(usize::from(*follower))
                .and_then(|f| f.move_rule.as_deref()),
            MoveError::TileNotHeld { tile } => held(Some(*tile)),
            MoveError::NotAHole { .. } => held(None),
            MoveError::NotInPool { .. } => pool.map(|p| p.take.as_str()),
            MoveError::NotAChoice { .. } => pool.map(|p| p.choice.as_str()),
            MoveError::MustPlace | MoveError::NotAFollowerFeature { .. } => {
                pool.map(|p| p.place.as_str())
            }
            MoveError::NotNextToTile => pool.map(|p| p.fit.as_str()),
            MoveError::CornerOnPoolTile { .. } => pool.map(|p| p.follow.as_str()),
            _ => None,
        };
        rule.unwrap_or(r.placement_rule())
    }
}

impl fmt::Display for MoveError {
    // Longer than a screen on purpose: one arm per error, a flat table of messages that reads
    // better whole than split in parts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::WrongPhase { phase } => write!(f, "action not allowed in phase {phase:?}"),
            MoveError::WrongTile { expected, got } => {
                write!(f, "tile {got} is not the drawn tile {expected}")
            }
            MoveError::BadRotation(r) => write!(f, "rotation {r} is not in 0..4"),
            MoveError::OutOfBoard { x, y } => write!(f, "cell ({x}, {y}) is outside the board"),
            MoveError::Occupied { x, y } => write!(f, "cell ({x}, {y}) is already filled"),
            MoveError::NotAdjacent => write!(f, "the tile touches no placed tile"),
            MoveError::EdgeMismatch {
                x,
                y,
                side,
                tile,
                neighbour,
            } => write!(
                f,
                "side {} of cell ({x}, {y}) is {} but the neighbour shows {}",
                side.name(),
                kind_word(*tile),
                kind_word(*neighbour)
            ),
            MoveError::NoSuchFeature(i) => write!(f, "the tile has no feature {i}"),
            MoveError::NotAFollowerFeature { feature, kind } => {
                write!(
                    f,
                    "feature {feature} is a {}: no follower may stand there",
                    kind.name()
                )
            }
            MoveError::FeatureOccupied { feature } => {
                write!(f, "feature {feature} is already occupied")
            }
            MoveError::NoSuchFollower(i) => write!(f, "no follower type {i}"),
            MoveError::NoFollowerLeft { follower } => {
                write!(f, "no follower of type {follower} left in supply")
            }
            MoveError::WrongSite {
                feature,
                kind,
                follower,
            } => write!(
                f,
                "follower type {follower} may not stand on feature {feature}, a {kind:?}"
            ),
            MoveError::CornerFigureField { feature } => write!(
                f,
                "field {feature} holds a corner figure: no follower may be placed on it"
            ),
            MoveError::NoCorner { feature } => write!(
                f,
                "no corner of the tile on feature {feature} where four filled cells meet with \
                 field in all four corners"
            ),
            MoveError::TileNotHeld { tile } => {
                write!(f, "the player holds no tile {tile} of their own")
            }
            MoveError::NotAHole { x, y } => write!(
                f,
                "cell ({x}, {y}) is not a hole: its four neighbours are not all filled"
            ),
            MoveError::NotInPool { tile } => {
                write!(f, "tile {tile} is not among the pool's choices")
            }
            MoveError::NotAChoice { seat } => {
                write!(f, "seat {seat} did not reach the threshold this turn")
            }
            MoveError::MustPlace => write!(
                f,
                "a tile taken from the pool must be placed instead of drawing"
            ),
            MoveError::NotNextToTile => write!(
                f,
                "the pool tile must touch the tile just drawn and placed for it"
            ),
            MoveError::NotInPile { tile } => {
                write!(
                    f,
                    "tile {tile} is not among the undrawn tiles of the pile group being drawn"
                )
            }
            MoveError::NotACornerFigure { follower } => write!(
                f,
                "follower type {follower} is not a corner figure: it takes no corner"
            ),
            MoveError::NotACorner {
                feature,
                point: [x, y],
            } => write!(
                f,
                "point ({x}, {y}) is not a corner of field {feature} on the tile just placed \
                 where four filled cells meet with field in all four corners"
            ),
            MoveError::CornerOnPoolTile { feature } => write!(
                f,
                "no corner figure follows a pool tile: only figures that stand on its features \
                 (feature {feature})"
            ),
            MoveError::NeedsOwnFigure {
                feature,
                kind,
                follower,
            } => write!(
                f,
                "follower type {follower} goes only on a feature that already holds one of the \
                 player's own figures; feature {feature}, a {kind:?}, holds none"
            ),
            MoveError::FeatureCompleted {
                feature,
                kind,
                follower,
            } => write!(
                f,
                "follower type {follower} may not go on feature {feature}, a {kind:?} the tile \
                 just placed completes (the variant's reading `needs_own_on_completed = \
                 \"refused\"`)"
            ),
            MoveError::PlacementRule { rule, why } => write!(f, "{why} ({rule})"),
            MoveError::NoSuchOption {
                rule,
                option,
                options,
            } => write!(
                f,
                "the choice {rule} offers has {options} option(s), numbered from 0: there is no \
                 option {option} ({rule})"
            ),
            MoveError::MustChoose { rule } => write!(
                f,
                "the choice {rule} offers may not be declined: one of its options must be taken \
                 ({rule})"
            ),
            MoveError::BlockedTile { rule } => write!(
                f,
                "no figure may go on the tile just placed in this turn ({rule})"
            ),
            MoveError::NotAMoveTarget { x, y, feature, .. } => write!(
                f,
                "feature {feature} of the tile at ({x}, {y}) is not an unfinished, unoccupied \
                 feature next to the one the figure left"
            ),
        }
    }
}

impl std::error::Error for MoveError {}

/// A side kind in an edge-mismatch message: the built-in kinds as they always read (`City`,
/// `Field`, ...), a declared kind by its index (the engine does not know its name).
fn kind_word(k: SideKind) -> String {
    match k {
        SideKind::Declared(i) => format!("declared edge kind {i}"),
        other => format!("{other:?}"),
    }
}
