//! Why a ruleset cannot be played: [`RulesError`] lists every [`RulesReason`] found, each a typed
//! value (a program can match on it) with the message a person reads.

use std::fmt;

use tegula_ruleset::{ArtefactError, Half, Side, SideKind};

/// Why a ruleset cannot be played: every reason found, in the order checked.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RulesError {
    /// All the reasons (never empty).
    pub reasons: Vec<RulesReason>,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ruleset cannot be played: ")?;
        for (i, r) in self.reasons.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RulesError {}

/// One reason a ruleset cannot be played. The validator reports the same faults in the variant
/// file first; these are what a hand-built or corrupted artefact still gets.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RulesReason {
    /// The artefact could not be read ([`tegula_ruleset::Ruleset::from_json`]).
    Artefact(ArtefactError),
    /// The ruleset has no tile types.
    NoTiles,
    /// More tile types than tile indices (`u16`) can name.
    TooManyTileTypes {
        /// Tile types in the ruleset.
        count: usize,
    },
    /// More follower types than the engine's follower bit sets hold.
    TooManyFollowerTypes {
        /// Follower types in the ruleset.
        count: usize,
        /// The engine's limit.
        max: usize,
    },
    /// The player range is empty or starts at zero.
    PlayerRange {
        /// Fewest players.
        min: u8,
        /// Most players.
        max: u8,
    },
    /// More players than the engine's per-seat tables hold.
    TooManyPlayers {
        /// The ruleset's maximum.
        players: u8,
        /// The engine's limit.
        max: u8,
    },
    /// No tile is the start tile (B-1).
    NoStartTile,
    /// The start tile index names no tile type.
    StartTileOutOfRange(u16),
    /// The tiles of one game cover more cells than the engine plays.
    TooManyCells {
        /// Cells of a game with the most players.
        cells: u64,
        /// The engine's limit.
        max: u64,
    },
    /// A tile type's tables are inconsistent.
    Tile {
        /// The tile's id.
        tile: String,
        /// What is wrong with it.
        problem: TileProblem,
    },
    /// A follower type stands nowhere.
    FollowerWithoutSite {
        /// The follower's id.
        follower: String,
    },
    /// A follower type is half a corner figure: corner figures stand only on corners and need
    /// corner scoring (AM-6).
    CornerFigureMismatch {
        /// The follower's id.
        follower: String,
    },
    /// A follower type that does not occupy its feature has a strength: it would count in a
    /// majority while blocking nobody.
    GuestWithStrength {
        /// The follower's id.
        follower: String,
    },
    /// The pool names a tile type that does not exist.
    PoolTile(u16),
    /// The pool gains a follower type that does not exist.
    PoolFollower(u8),
    /// A shared track (`Ruleset::tracks`, by index) starts past its end.
    TrackRange(u16),
    /// A rule's offer cannot be made where its event is raised: a pool tile offered anywhere
    /// but at `turn-finished` or without a pool, another option at `turn-finished`, a seat
    /// order or `repeat` on another option.
    OfferPlace {
        /// The rule's id.
        rule: String,
        /// What is wrong.
        why: &'static str,
    },
    /// A player tile names a tile type that does not exist.
    PlayerTileMissing {
        /// Index into the ruleset's player tiles.
        index: usize,
        /// The tile type it names.
        tile: u16,
    },
    /// A player tile that goes into holes covers more than one cell (AM-1).
    HoleTileNotSingle {
        /// Index into the ruleset's player tiles.
        index: usize,
        /// The rule the player tile cites.
        rule: String,
    },
    /// A hand of no tiles.
    EmptyHand,
    /// More seat resources than the engine keeps per seat.
    TooManyResources {
        /// Resources declared.
        count: usize,
        /// The limit ([`tegula_ruleset::limits::MAX_RESOURCES`]).
        max: usize,
    },
    /// Two seat resources share an id (events and logs name them by it).
    DuplicateResource(String),
    /// An ability's nearness condition names a tag index the variant does not have, or
    /// past the width of a feature's tag bits.
    AbilityTag {
        /// The tile with the ability.
        tile: String,
        /// The ability's rule id.
        rule: String,
        /// The tag index it names.
        tag: u32,
        /// Tags usable: the variant's, at most the tag bits.
        tags: usize,
    },
    /// More rules of the one form than their `u16` indices name.
    TooManyRules {
        /// Rules in the ruleset.
        count: usize,
        /// The engine's limit.
        max: usize,
    },
    /// A rule of the one form names a token, counter, resource, figure type or tag that the
    /// ruleset does not have.
    RuleFormIndex {
        /// The rule's id.
        rule: String,
        /// What it names (`token`, `counter`, `resource`, `figure`, `tag`).
        what: &'static str,
        /// The index it names.
        index: u32,
    },
    /// A rule of the one form waiting for `feature-scored` scores a feature itself
    /// (`score-feature`): each scoring would raise the event again, without end.
    RuleFormLoop {
        /// The rule's id.
        rule: String,
    },
    /// A tile type's ability without the rule the compiler lowers it to (a rule of the one form
    /// the tile carries, `when`), which is all the engine reads; an artefact written before
    /// that lowering would play without it.
    UnloweredShortForm {
        /// The tile type's id.
        owner: String,
        /// The short form's key.
        what: &'static str,
    },
    /// A figure type's site tags (`only_tags`, `never_tags`) name a tag the ruleset does not
    /// have, or one past the feature tag bits.
    SiteTag {
        /// The figure type's id.
        follower: String,
        /// The tag index.
        tag: u32,
        /// Tags usable: the variant's, at most the tag bits.
        tags: usize,
    },
    /// More declared edge kinds than the side signatures hold (one bit per side is free).
    TooManyEdgeKinds {
        /// Declared edge kinds.
        count: usize,
        /// The engine's limit.
        max: usize,
    },
    /// A tile shows a declared edge kind the ruleset does not declare.
    EdgeKindOutOfRange {
        /// The tile's id.
        tile: String,
        /// The index it shows.
        kind: u8,
    },
    /// A pile group names a tile type that does not exist, or one already in an earlier group.
    PileGroupTile {
        /// Index of the group.
        group: usize,
        /// The tile type it names.
        tile: u16,
    },
}

impl fmt::Display for RulesReason {
    // Longer than a screen on purpose: one arm per error, a flat table of messages that reads
    // better whole than split in parts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RulesReason as R;
        match self {
            R::Artefact(e) => write!(f, "{e}"),
            R::NoTiles => f.write_str("the variant has no tiles"),
            R::TooManyTileTypes { count } => write!(f, "too many tile types ({count})"),
            R::TooManyFollowerTypes { count, max } => {
                write!(f, "{count} follower types, more than {max}")
            }
            R::PlayerRange { min, max } => write!(f, "bad player range {min}..={max}"),
            R::TooManyPlayers { players, max } => {
                write!(f, "{players} players, more than {max}")
            }
            R::NoStartTile => f.write_str("the variant has no start tile"),
            R::StartTileOutOfRange(s) => write!(f, "start tile index {s} out of range"),
            R::TooManyCells { cells, max } => write!(
                f,
                "the tiles of a game cover {cells} cells, more than the {max} the engine plays"
            ),
            R::Tile { tile, problem } => write!(f, "tile `{tile}`: {problem}"),
            R::FollowerWithoutSite { follower } => write!(f, "follower `{follower}` has no site"),
            R::CornerFigureMismatch { follower } => write!(
                f,
                "follower `{follower}`: a corner figure stands only on corners and needs \
                 corner scoring"
            ),
            R::GuestWithStrength { follower } => write!(
                f,
                "follower `{follower}` does not occupy its feature, so it counts for no \
                 majority: its strength must be 0"
            ),
            R::PoolTile(t) => write!(f, "pool: no tile type {t}"),
            R::PoolFollower(ft) => write!(f, "pool: no follower type {ft}"),
            R::TrackRange(t) => write!(f, "track {t}: it starts past its end (`max`)"),
            R::OfferPlace { rule, why } => write!(f, "rule {rule}: its offer {why}"),
            R::PlayerTileMissing { index, tile } => {
                write!(f, "player tile {index}: no tile type {tile}")
            }
            R::HoleTileNotSingle { index, rule } => write!(
                f,
                "player tile {index}: only single-cell tiles can go into a hole ({rule})"
            ),
            R::EmptyHand => f.write_str("hand: a player holds at least 1 tile"),
            R::TooManyResources { count, max } => {
                write!(f, "{count} seat resources, more than {max}")
            }
            R::DuplicateResource(id) => write!(f, "two seat resources are called `{id}`"),
            R::AbilityTag {
                tile,
                rule,
                tag,
                tags,
            } => write!(
                f,
                "tile `{tile}`: ability {rule}: nearness tag {tag} is not one of the \
                 {tags} tags usable"
            ),
            R::TooManyRules { count, max } => {
                write!(f, "{count} rules of the one form (`when`), more than {max}")
            }
            R::RuleFormIndex { rule, what, index } => {
                write!(
                    f,
                    "rule {rule}: {what} index {index} names no {what} of the ruleset"
                )
            }
            R::RuleFormLoop { rule } => write!(
                f,
                "rule {rule}: a feature-scored rule may not score a feature (score-feature): \
                 its scoring would raise feature-scored again, without end"
            ),
            R::UnloweredShortForm { owner, what } => write!(
                f,
                "`{owner}`: its `{what}` is a short form the compiler lowers to a rule of the one \
                 form (`when`), and the engine reads only those: compile the variant again"
            ),
            R::SiteTag {
                follower,
                tag,
                tags,
            } => write!(
                f,
                "figure `{follower}`: site tag {tag} is not one of the {tags} tags usable"
            ),
            R::TooManyEdgeKinds { count, max } => {
                write!(f, "{count} declared edge kinds, more than {max}")
            }
            R::EdgeKindOutOfRange { tile, kind } => {
                write!(
                    f,
                    "tile `{tile}`: declared edge kind {kind} is not declared"
                )
            }
            R::PileGroupTile { group, tile } => write!(
                f,
                "pile group {group}: tile type {tile} does not exist or is in an earlier group"
            ),
        }
    }
}

/// What is wrong with one tile type's tables.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TileProblem {
    /// Its cell count is zero or above the engine's limit.
    CellCount {
        /// Cells it claims.
        cells: usize,
        /// The engine's limit.
        max: usize,
    },
    /// It does not have exactly four rotations.
    RotationCount(usize),
    /// More features than a feature index (below the "no feature" value) can name.
    TooManyFeatures(usize),
    /// A feature borders a feature index that does not exist.
    BorderOutOfRange {
        /// The bordering feature.
        feature: usize,
    },
    /// A feature lies on a cell the tile does not have.
    FeatureCellOutOfRange {
        /// The feature.
        feature: usize,
    },
    /// A rotation lists another number of cells than the tile has.
    RotationCells {
        /// The rotation.
        rotation: usize,
        /// Cells it lists.
        cells: usize,
    },
    /// A rotation's cell 0 (the anchor) is not at offset (0, 0).
    AnchorOffset {
        /// The rotation.
        rotation: usize,
    },
    /// A rotation puts two cells at one offset.
    DuplicateCell {
        /// The rotation.
        rotation: usize,
        /// The offset.
        offset: (i32, i32),
    },
    /// A cell's side, half-edge or inner list names a feature index that does not exist.
    FeatureOutOfRange {
        /// The rotation.
        rotation: usize,
        /// The cell.
        cell: usize,
    },
    /// A side marked outer faces another cell of the tile, or one marked inner faces none.
    OuterMismatch {
        /// The rotation.
        rotation: usize,
        /// The cell.
        cell: usize,
        /// The side.
        side: Side,
        /// Whether it is marked outer.
        outer: bool,
    },
    /// An outer city or road side names no feature of that kind.
    SideWithoutFeature {
        /// The rotation.
        rotation: usize,
        /// The cell.
        cell: usize,
        /// The side.
        side: Side,
        /// What the side shows.
        shows: SideKind,
    },
    /// A half-edge names a feature that is not a field.
    HalfNotField {
        /// The rotation.
        rotation: usize,
        /// The cell.
        cell: usize,
        /// The half-edge.
        half: Half,
    },
}

impl fmt::Display for TileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use TileProblem as P;
        match self {
            P::CellCount { cells, max } => write!(f, "{cells} cells (1..={max} supported)"),
            P::RotationCount(n) => write!(f, "{n} rotations instead of 4"),
            P::TooManyFeatures(n) => write!(f, "too many features ({n})"),
            P::BorderOutOfRange { feature } => {
                write!(f, "feature {feature} borders a feature that does not exist")
            }
            P::FeatureCellOutOfRange { feature } => {
                write!(f, "feature {feature} names a cell that does not exist")
            }
            P::RotationCells { rotation, cells } => {
                write!(f, "rotation {rotation} has {cells} cells")
            }
            P::AnchorOffset { rotation } => {
                write!(f, "rotation {rotation}: cell 0 is not at offset (0, 0)")
            }
            P::DuplicateCell { rotation, offset } => write!(
                f,
                "rotation {rotation}: two cells at ({}, {})",
                offset.0, offset.1
            ),
            P::FeatureOutOfRange { rotation, cell } => {
                write!(
                    f,
                    "rotation {rotation} cell {cell}: feature index out of range"
                )
            }
            P::OuterMismatch {
                rotation,
                cell,
                side,
                outer,
            } => {
                let (marked, faces) = if *outer {
                    ("outer", "faces")
                } else {
                    ("inner", "does not face")
                };
                write!(
                    f,
                    "rotation {rotation} cell {cell}: side {} is marked {marked} but {faces} \
                     another cell of the tile",
                    side.name()
                )
            }
            P::SideWithoutFeature {
                rotation,
                cell,
                side,
                shows,
            } => write!(
                f,
                "rotation {rotation} cell {cell}: side {} shows {shows:?} but names no such \
                 feature",
                side.name()
            ),
            P::HalfNotField {
                rotation,
                cell,
                half,
            } => write!(
                f,
                "rotation {rotation} cell {cell}: half-edge {} names a feature that is not a \
                 field",
                half.name()
            ),
        }
    }
}
