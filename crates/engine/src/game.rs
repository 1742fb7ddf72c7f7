//! The game state, moves, legal-move generation and scoring.

use std::fmt;
use std::sync::Arc;

use tegula_ruleset::{FeatureKind, Side};

use crate::event::{Event, FeatureId, FeatureInfo};
use crate::rng::Rng;
use crate::rules::Rules;

mod ability;
mod board;
mod chance;
mod error;
mod fields;
mod figures;
pub(crate) mod hash;
mod joins;
mod legal;
mod place;
mod pool;
mod score;
mod snapshot;
mod turn;

pub use chance::CHANCE;
pub use error::MoveError;
pub use snapshot::SnapshotError;

/// Largest board side in cells (boards for enormous piles are clipped; placements outside are
/// reported as [`MoveError::OutOfBoard`]).
pub const MAX_BOARD: usize = 1023;

/// Cell value of an empty cell that is not next to the map.
const EMPTY: u32 = u32::MAX;
/// Flag of an empty frontier cell; the low bits index `Game::frontier`. Placed cells hold
/// `instance << 4 | cloister-here << 3 | cell` (always below this flag).
const FRONT: u32 = 1 << 31;

/// An empty cell next to the map, with its requirement word (one nibble per side, B-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Front {
    pos: u32,
    req: u16,
    /// The same requirement in 8 bits ([`side_code`] per side), indexing the fit tables.
    code: u8,
    x: i32,
    y: i32,
}
const OPP_HALF: [usize; 8] = [5, 4, 7, 6, 1, 0, 3, 2];

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
    /// figure, on a corner of that field).
    Follower(FollowerOption),
    /// Move the figure freed by a scoring to a feature ([`Phase::Move`]).
    Move(MoveTarget),
    /// Decline: no follower ([`Phase::Follower`]), draw instead of placing one's own tile (or, in
    /// the final round, do not place it; [`Phase::Hand`]), take the freed figure back
    /// ([`Phase::Move`]).
    Pass,
    /// The chance step's outcome: this tile type is drawn ([`Phase::Draw`], B-2).
    Draw(u16),
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
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Players { players, min, max } => {
                let s = if *players == 1 { "" } else { "s" };
                write!(f, "{players} player{s}, the variant allows {min} to {max}")
            }
            SetupError::NoSuchTile(t) => write!(f, "no tile type with index {t}"),
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Inst {
    tile: u16,
    rot: u8,
    x: i32,
    y: i32,
    seg_base: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Seg {
    parent: u32,
    next: u32,
    inst: u32,
    local: u8,
    kind: FeatureKind,
    done: bool,
    open: i16,
    pennants: u16,
    occ: u16,
    /// Corner figures on this field (AM-6..AM-9): no follower may join it.
    corners: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Meeple {
    player: u8,
    ftype: u8,
    seg: u32,
}

/// A corner figure on the board (AM-6): its field (any segment of it) and its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct CornerFig {
    player: u8,
    ftype: u8,
    seg: u32,
    point: (i32, i32),
}

/// A figure freed by a scoring that its owner may move (AM-11): the tile instance it stood on
/// and the root of the scored feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Freed {
    player: u8,
    ftype: u8,
    inst: u32,
    root: u32,
}

/// One game. Cheap to clone (flat vectors, the rules behind an `Arc`), so tree search can copy it;
/// `clone_from` reuses the target's buffers (no allocation). `Clone`, `PartialEq`, `Eq` and
/// `Hash` are derived: two games are equal when every part of their state is (board, features,
/// figures, scores, pile order, phase, decisions made and recorded events); scratch buffers
/// (`Scratch`) take no part. For transposition tables see [`Game::state_hash`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    rules: Arc<Rules>,
    players: u8,
    seed: Option<u64>,
    record: bool,
    // Board.
    width: usize,
    off: i32,
    /// Whether no tile can reach the array's edge (then multi-cell candidates are addressed by
    /// plain offsets, without bounds checks per cell): always while the array can grow.
    roomy: bool,
    /// Width of the board the whole pile could need (the array grows up to it).
    full_width: usize,
    /// Whether the full board is wide enough for this pile that no tile can reach its edge.
    full_roomy: bool,
    cells: Vec<u32>,
    frontier: Vec<Front>,
    insts: Vec<Inst>,
    segs: Vec<Seg>,
    meeples: Vec<Meeple>,
    supply: Vec<u8>,
    scores: Vec<u32>,
    // Pile and turn.
    pile: Vec<u16>,
    drawn: usize,
    phase: Phase,
    current: u16,
    player: u8,
    turn: u32,
    placements: Vec<Placement>,
    n_place: usize,
    options: Vec<FollowerOption>,
    pending: Vec<u32>,
    pending_cloisters: Vec<u32>,
    events: Vec<Event>,
    /// Scratch buffers (no part of the state).
    tmp: Scratch,
    /// The open pool and what players took from it (W-1..W-7, W-12).
    w: pool::PoolState,
    /// Tiles of their own each player holds, `player * player_tiles + i` (AM-1).
    held: Vec<u8>,
    /// Corner figures on the board (AM-6).
    corner_figs: Vec<CornerFig>,
    /// Figures freed by this turn's scoring, in decision order (AM-12); the first decides.
    freed: Vec<Freed>,
    /// Legal targets of the freed figure deciding now, with their roots.
    moves: Vec<(MoveTarget, u32)>,
    /// Seats still to act in the final round, last first (AM-4).
    final_seats: Vec<u8>,
    /// Corner-figure options of this follower phase: field feature and its first legal point.
    corner_points: Vec<(u8, (i32, i32))>,
    /// Fields joined to a corner-figure field this turn (AM-8).
    pending_fields: Vec<u32>,
    /// Whether the final round (AM-4) is under way.
    in_final: bool,
    /// Index into `events` where final scoring began (once the game is over).
    final_from: Option<usize>,
    /// The seat whose turn it is (the current player may differ in [`Phase::Move`]).
    active: u8,
    /// The seat that placed the last tile (the final round starts after it, AM-4).
    last_placer: u8,
    /// Whether draws stop at [`Phase::Draw`] (chance steps) instead of happening inside the move.
    chance: bool,
    /// Pile positions below this are decided; a draw at `drawn == revealed` is a chance step.
    /// Without chance steps it is the pile's length (every draw follows the seeded order).
    revealed: usize,
    /// What the draw waiting in [`Phase::Draw`] is for.
    resume: Resume,
    /// Remaining tiles of each type in the undrawn pile (the player-facing multiset).
    left: Vec<u16>,
    /// Every decision made, in order (draws included), for snapshots ([`Game::to_json`]).
    history: Vec<Action>,
    /// Whether [`Game::finish`] ended the game early.
    finished: bool,
    /// Incrementally kept part of [`Game::state_hash`]: placed tiles and the remaining multiset.
    zobrist: u64,
}

/// What a chance step ([`Phase::Draw`]) resumes once the tile is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Resume {
    /// The turn's draw (B-2), topping up a hand first (W-12).
    Draw,
    /// The W-6 procedure for this pool tile.
    W6(u16),
}

/// Scratch buffers reused between moves. They hold nothing between moves, so they take no part
/// in equality or hashing, and a clone starts empty.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// The single-tile generator's slots (frontier index << 2 | rotation).
    pub(crate) slots: Vec<u32>,
    /// Segment lists of scoring and fields.
    pub(crate) buf: Vec<u32>,
    /// Own-tile placements.
    pub(crate) places: Vec<Placement>,
    /// The board array before it grew (reused by the next growth).
    pub(crate) cells: Vec<u32>,
    /// The farmer fields a placement joins, as they were before it (AM-8 "each-field"):
    /// recorded just before the placement and read by its join scoring. Left over after the
    /// move, they are never read again: the next placement records afresh.
    pub(crate) fields_before: Vec<joins::FieldBefore>,
}

impl Clone for Scratch {
    fn clone(&self) -> Scratch {
        Scratch::default()
    }

    fn clone_from(&mut self, _source: &Scratch) {}
}

impl PartialEq for Scratch {
    fn eq(&self, _other: &Scratch) -> bool {
        true
    }
}

impl Eq for Scratch {}

impl std::hash::Hash for Scratch {
    fn hash<H: std::hash::Hasher>(&self, _state: &mut H) {}
}

impl Game {
    /// Set up a game: start tile at `(0, 0)` rotation 0, then draw the first tile. With `record`
    /// the game keeps its [`Event`] list (needed for logs and scenarios; off for fast simulation).
    pub fn new(
        rules: Arc<Rules>,
        players: u8,
        pile: PileOrder,
        record: bool,
    ) -> Result<Game, SetupError> {
        let rs = rules.ruleset();
        if players < rs.min_players || players > rs.max_players || players == 0 {
            return Err(SetupError::Players {
                players,
                min: rs.min_players,
                max: rs.max_players,
            });
        }
        let mut total_cells: usize = rules.tiles[rules.start_tile as usize].cell_count;
        for (i, t) in rs.tiles.iter().enumerate() {
            total_cells += t.count as usize * rules.tiles[i].cell_count;
        }
        if let PileOrder::Scripted(p) = &pile {
            total_cells = rules.tiles[rules.start_tile as usize].cell_count;
            for &t in p {
                let info = rules
                    .tiles
                    .get(t as usize)
                    .ok_or(SetupError::NoSuchTile(t))?;
                total_cells += info.cell_count;
            }
        }
        total_cells += rules.held_cells() * players as usize + rules.pool_cells();
        let margin = 2 * rules.max_offset as usize + 3;
        let width = (2 * (total_cells + margin) + 1).min(MAX_BOARD);
        let off = (width / 2) as i32;
        let mut g = Game {
            rules,
            players,
            seed: None,
            record,
            width,
            off,
            roomy: false,
            full_width: width,
            full_roomy: false,
            cells: Vec::new(),
            frontier: Vec::new(),
            insts: Vec::new(),
            segs: Vec::new(),
            meeples: Vec::new(),
            supply: Vec::new(),
            scores: Vec::new(),
            pile: Vec::new(),
            drawn: 0,
            phase: Phase::Over,
            current: 0,
            player: 0,
            turn: 0,
            placements: Vec::new(),
            n_place: 0,
            options: Vec::new(),
            pending: Vec::new(),
            pending_cloisters: Vec::new(),
            events: Vec::new(),
            tmp: Scratch::default(),
            w: pool::PoolState::default(),
            held: Vec::new(),
            corner_figs: Vec::new(),
            freed: Vec::new(),
            moves: Vec::new(),
            final_seats: Vec::new(),
            corner_points: Vec::new(),
            pending_fields: Vec::new(),
            in_final: false,
            final_from: None,
            active: 0,
            last_placer: 0,
            chance: false,
            revealed: 0,
            resume: Resume::Draw,
            left: Vec::new(),
            history: Vec::new(),
            finished: false,
            zobrist: 0,
        };
        g.restart(pile)?;
        Ok(g)
    }

    /// A recorded game with the variant's full pile shuffled by `seed`.
    pub fn seeded(rules: Arc<Rules>, players: u8, seed: u64) -> Result<Game, SetupError> {
        Game::new(rules, players, PileOrder::Shuffled(seed), true)
    }

    /// A recorded game drawing exactly `draws` (tile type indices) in order.
    pub fn scripted(rules: Arc<Rules>, players: u8, draws: Vec<u16>) -> Result<Game, SetupError> {
        Game::new(rules, players, PileOrder::Scripted(draws), true)
    }

    /// Start a new game with the same rules and players, reusing every buffer (the board is
    /// cleared cell by cell). A scripted pile must fit the board built by [`Game::new`].
    pub fn restart(&mut self, pile: PileOrder) -> Result<(), SetupError> {
        let order = match pile {
            PileOrder::Shuffled(seed) => {
                let mut p = std::mem::take(&mut self.pile);
                p.clear();
                p.extend_from_slice(self.rules.pile_slice());
                Rng::new(seed).shuffle(&mut p);
                self.seed = Some(seed);
                p
            }
            PileOrder::Scripted(p) => {
                if let Some(&bad) = p.iter().find(|&&t| t as usize >= self.rules.tiles.len()) {
                    return Err(SetupError::NoSuchTile(bad));
                }
                self.seed = None;
                p
            }
        };
        let start_cells = self.rules.tiles[self.rules.start_tile as usize].cell_count;
        let cells: usize = start_cells
            + order
                .iter()
                .map(|&t| self.rules.tiles[t as usize].cell_count)
                .sum::<usize>();
        let cells =
            cells + self.rules.held_cells() * self.players as usize + self.rules.pool_cells();
        let reach = cells + 2 * self.rules.max_offset as usize + 2;
        self.full_roomy = reach <= self.full_width / 2;
        self.reset_board();
        self.pile = order;
        self.drawn = 0;
        self.count_pile();
        self.zobrist = self.left_hash();
        self.history.clear();
        self.finished = false;
        self.frontier.clear();
        self.insts.clear();
        self.segs.clear();
        self.meeples.clear();
        self.events.clear();
        self.pending.clear();
        self.pending_cloisters.clear();
        self.n_place = 0;
        self.options.clear();
        let nf = self.rules.ruleset().followers.len();
        self.supply.clear();
        for _ in 0..self.players {
            for f in &self.rules.ruleset().followers {
                self.supply.push(f.count);
            }
        }
        debug_assert_eq!(self.supply.len(), nf * self.players as usize);
        self.scores.clear();
        self.scores.resize(self.players as usize, 0);
        self.held.clear();
        for _ in 0..self.players {
            for t in &self.rules.ruleset().player_tiles {
                self.held.push(t.count);
            }
        }
        self.corner_figs.clear();
        self.freed.clear();
        self.moves.clear();
        self.final_seats.clear();
        self.corner_points.clear();
        self.pending_fields.clear();
        self.in_final = false;
        self.final_from = None;
        self.active = 0;
        self.last_placer = 0;
        self.turn = 0;
        self.player = 0;
        let start = self.rules.start_tile;
        self.place_unchecked(start, 0, 0, 0);
        self.pending.clear();
        self.pending_cloisters.clear();
        self.pending_fields.clear();
        self.begin_game();
        Ok(())
    }

    // ----- read access -----

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// Number of players.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// Seed of the shuffled pile (`None` for a scripted pile).
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The whole draw pile in order (drawn and undrawn).
    pub fn pile(&self) -> &[u16] {
        &self.pile
    }

    /// Tiles not drawn yet.
    pub fn remaining(&self) -> usize {
        self.pile.len() - self.drawn
    }

    /// Current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Seat to act, or [`CHANCE`] in a chance step ([`Phase::Draw`]).
    pub fn current_player(&self) -> u8 {
        if self.phase == Phase::Draw {
            CHANCE
        } else {
            self.player
        }
    }

    /// The seat whose turn it is (also during a chance step: the seat that draws; in
    /// [`Phase::Move`] the active player, while a figure's owner decides).
    pub fn turn_seat(&self) -> u8 {
        self.active
    }

    /// Every decision made so far, in order, with chance outcomes as [`Action::Draw`] (only those
    /// of chance steps: draws inside moves follow the pile).
    pub fn history(&self) -> &[Action] {
        &self.history
    }

    /// The drawn tile (meaningful in [`Phase::Place`]).
    pub fn current_tile(&self) -> u16 {
        self.current
    }

    /// Number of land tiles placed so far (the start tile is turn 0).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Scores by seat.
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }

    /// Seats with the highest score.
    pub fn winners(&self) -> Vec<u8> {
        let best = self.scores.iter().copied().max().unwrap_or(0);
        (0..self.players)
            .filter(|&p| self.scores[p as usize] == best)
            .collect()
    }

    /// Followers of type `follower` that `player` has in supply.
    pub fn supply(&self, player: u8, follower: u8) -> u8 {
        let nf = self.rules.ruleset().followers.len();
        if player >= self.players || follower as usize >= nf {
            return 0;
        }
        self.supply[player as usize * nf + follower as usize]
    }

    /// Recorded events (empty unless the game records).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Once the game is over: the index into [`Game::events`] of the first final-scoring event
    /// (B-6, AM-9), so that callers can tell a last turn's scoring from the final scoring.
    pub fn final_scoring_from(&self) -> Option<usize> {
        self.final_from
    }

    /// Whether events are recorded.
    pub fn recording(&self) -> bool {
        self.record
    }

    /// Turn event recording on or off (agents searching on clones turn it off).
    pub fn set_recording(&mut self, record: bool) {
        self.record = record;
    }

    /// Forget the recorded events (search copies do not need the history).
    pub fn clear_events(&mut self) {
        self.events.clear();
    }

    /// Tiles on the board, in placement order (index = tile instance).
    pub fn tiles(&self) -> Vec<PlacedTile> {
        self.insts
            .iter()
            .map(|i| PlacedTile {
                tile: i.tile,
                x: i.x,
                y: i.y,
                rotation: i.rot,
            })
            .collect()
    }

    /// Number of tiles on the board.
    pub fn tile_count(&self) -> usize {
        self.insts.len()
    }

    /// The tile covering cell `(x, y)` and the index of that cell in the tile.
    pub fn tile_at(&self, x: i32, y: i32) -> Option<(PlacedTile, u8)> {
        let p = self.pos(x, y)?;
        let c = self.cells[p];
        if c > FRONT - 1 {
            return None;
        }
        let i = self.insts[(c >> 4) as usize];
        Some((
            PlacedTile {
                tile: i.tile,
                x: i.x,
                y: i.y,
                rotation: i.rot,
            },
            (c & 0x7) as u8,
        ))
    }

    /// Followers on the board: figures on features, then corner figures (AM-6).
    pub fn followers(&self) -> Vec<BoardFollower> {
        let on_seg = |player: u8, ftype: u8, seg: u32, corner: Option<[i32; 2]>| {
            let s = self.segs[seg as usize];
            let i = self.insts[s.inst as usize];
            BoardFollower {
                player,
                follower: ftype,
                instance: s.inst as u16,
                x: i.x,
                y: i.y,
                feature: s.local,
                feature_id: FeatureId(self.find_ro(seg)),
                corner,
            }
        };
        let figures = self
            .meeples
            .iter()
            .map(|m| on_seg(m.player, m.ftype, m.seg, None));
        let corners = self
            .corner_figs
            .iter()
            .map(|c| on_seg(c.player, c.ftype, c.seg, Some([c.point.0, c.point.1])));
        figures.chain(corners).collect()
    }

    /// Tiles of their own that `player` still holds, by [`Ruleset::player_tiles`] index (AM-1).
    ///
    /// [`Ruleset::player_tiles`]: tegula_ruleset::Ruleset::player_tiles
    pub fn held(&self, player: u8, index: usize) -> u8 {
        let n = self.rules.ruleset().player_tiles.len();
        if player >= self.players || index >= n {
            return 0;
        }
        self.held[player as usize * n + index]
    }

    /// Figures freed by this turn's scoring that still wait for their owners' decisions
    /// (AM-11), in decision order: `(owner, follower type, tile instance it stood on, the scored
    /// feature)`. The first one decides now ([`Phase::Move`]).
    pub fn waiting_figures(&self) -> Vec<(u8, u8, u16, FeatureId)> {
        self.freed
            .iter()
            .map(|f| (f.player, f.ftype, f.inst as u16, FeatureId(f.root)))
            .collect()
    }

    /// Legal targets of the freed figure deciding now ([`Phase::Move`], AM-11); taking it back
    /// ([`Action::Pass`]) is always possible besides these.
    pub fn move_targets(&self) -> Vec<MoveTarget> {
        if self.phase != Phase::Move {
            return Vec::new();
        }
        self.moves.iter().map(|m| m.0).collect()
    }

    /// The board feature containing segment `segment` of the tile covering `(x, y)`.
    pub fn feature_id(&self, x: i32, y: i32, segment: &str) -> Option<FeatureId> {
        let p = self.pos(x, y)?;
        let c = self.cells[p];
        if c > FRONT - 1 {
            return None;
        }
        let inst = self.insts[(c >> 4) as usize];
        let local = self.rules.feature_index(inst.tile, segment)?;
        Some(FeatureId(self.find_ro(inst.seg_base + local as u32)))
    }

    /// Facts about a board feature (size in distinct cells, pennants, completion, ...).
    pub fn feature(&self, id: FeatureId) -> Option<FeatureInfo> {
        if id.0 as usize >= self.segs.len() {
            return None;
        }
        let root = self.find_ro(id.0);
        let mut buf = Vec::new();
        Some(self.info(root, &mut buf))
    }

    /// Strength of each seat on a feature (B-5), by seat.
    pub fn strengths(&self, id: FeatureId) -> Vec<u32> {
        let mut s = vec![0; self.players as usize];
        if id.0 as usize >= self.segs.len() {
            return s;
        }
        let root = self.find_ro(id.0);
        for m in &self.meeples {
            if self.find_ro(m.seg) == root {
                let pennants = u32::from(self.segs[root as usize].pennants);
                s[m.player as usize] +=
                    self.rules.ruleset().followers[m.ftype as usize].strength_on(pennants);
            }
        }
        s
    }

    /// Every complete road, city and cloister on the board (B-3).
    pub fn completed_features(&self) -> Vec<FeatureId> {
        let mut out = Vec::new();
        for i in 0..self.segs.len() as u32 {
            let s = self.segs[i as usize];
            if s.parent != i {
                continue;
            }
            let complete = match s.kind {
                FeatureKind::Road | FeatureKind::City => s.open <= 0,
                FeatureKind::Cloister => self.cloister_neighbours(i) == 8,
                _ => false,
            };
            if complete {
                out.push(FeatureId(i));
            }
        }
        out
    }

    /// Legal placements of the drawn tile in [`Phase::Place`], of the player's own tiles in
    /// [`Phase::Hand`] (fast generator; empty in other phases).
    /// Every rotation is listed, even when two rotations of a symmetric tile look the same.
    pub fn placements(&self) -> &[Placement] {
        if matches!(self.phase, Phase::Place | Phase::Hand) {
            &self.placements[..self.n_place]
        } else {
            &[]
        }
    }

    /// Follower options on the tile just placed (empty outside [`Phase::Follower`]): one per
    /// unoccupied board feature and follower type in supply (two segments of the tile in the same
    /// connected feature are one option, B-2; [`Game::check_follower`] accepts either segment).
    /// Passing is always possible besides these.
    pub fn follower_options(&self) -> &[FollowerOption] {
        if self.phase == Phase::Follower {
            &self.options
        } else {
            &[]
        }
    }

    /// All legal actions of the current phase, exactly those [`Game::apply`] accepts:
    /// placements; own-tile placements then `Pass` (draw instead); follower options, then the
    /// other features of the tile that the board joins to an option's feature (the same option
    /// named another way), then `Pass`; move targets, then the other tiles' features of a target's
    /// board feature, then `Pass` (take it back).
    pub fn legal_actions(&self) -> Vec<Action> {
        let pass = std::iter::once(Action::Pass);
        match self.phase {
            Phase::Pick => self.w.tiles.iter().map(|&t| Action::Take(t)).collect(),
            Phase::Order => self.w.seats.iter().map(|&s| Action::Seat(s)).collect(),
            Phase::Place => self
                .placements()
                .iter()
                .map(|&p| Action::Place(p))
                .collect(),
            Phase::Hand => {
                let places = self.placements().iter().map(|&p| Action::Place(p));
                let pass = pass.take(usize::from(!self.w.must_place));
                places.chain(pass).collect()
            }
            Phase::Follower => {
                let options = self.options.iter().copied().chain(self.follower_aliases());
                options.map(Action::Follower).chain(pass).collect()
            }
            Phase::Move => {
                let targets = self.moves.iter().map(|m| m.0).chain(self.move_aliases());
                targets.map(Action::Move).chain(pass).collect()
            }
            Phase::Draw => self
                .chance_outcomes()
                .iter()
                .map(|o| Action::Draw(o.0))
                .collect(),
            Phase::Over => Vec::new(),
        }
    }

    /// Check a placement of the drawn tile directly against the board (the explaining path, also
    /// used by the naive generator): every cell empty, every outer side matching a placed
    /// neighbour (B-2), at least one placed neighbour.
    pub fn check_placement(&self, p: Placement) -> Result<(), MoveError> {
        if self.phase == Phase::Hand {
            return self.check_own_tile(p);
        }
        if self.phase != Phase::Place {
            return Err(MoveError::WrongPhase { phase: self.phase });
        }
        if self.w.w6.is_some() {
            // W-6: only a placement after which the pool tile fits next to this one.
            self.check_geometry(p)?;
            if !self.placements().contains(&p) {
                return Err(MoveError::NotNextToTile);
            }
            return Ok(());
        }
        let kept = self.w.kept.contains(&(self.player, p.tile));
        if p.tile != self.current && !kept {
            return Err(MoveError::WrongTile {
                expected: self.current,
                got: p.tile,
            });
        }
        self.check_geometry(p)
    }

    /// [`Game::check_placement`] without the phase and drawn-tile checks.
    pub fn check_geometry(&self, p: Placement) -> Result<(), MoveError> {
        if p.rotation >= 4 {
            return Err(MoveError::BadRotation(p.rotation));
        }
        let Some(info) = self.rules.tiles.get(p.tile as usize) else {
            return Err(MoveError::WrongTile {
                expected: self.current,
                got: p.tile,
            });
        };
        let cells = &info.rot[p.rotation as usize];
        for c in cells {
            let (x, y) = (p.x.saturating_add(c.dx), p.y.saturating_add(c.dy));
            match self.pos_inner(x, y) {
                Some(pos) if self.cells[pos] < FRONT => return Err(MoveError::Occupied { x, y }),
                // Outside the array but on the full board: an empty cell.
                None if !self.on_full_board(x, y) => return Err(MoveError::OutOfBoard { x, y }),
                _ => {}
            }
        }
        let mut touches = false;
        for c in cells {
            let (x, y) = (p.x + c.dx, p.y + c.dy);
            for side in Side::ALL {
                let s = side.index();
                if c.outer & (1 << s) == 0 {
                    continue;
                }
                let (dx, dy) = side.delta();
                let Some((nt, ncell)) = self.tile_at(x + dx, y + dy) else {
                    continue;
                };
                touches = true;
                let ninfo = &self.rules.tiles[nt.tile as usize];
                let theirs = ninfo.rot[nt.rotation as usize][ncell as usize].sides[(s + 2) % 4];
                if !c.sides[s].matches(theirs) {
                    return Err(MoveError::EdgeMismatch {
                        x,
                        y,
                        side,
                        tile: c.sides[s],
                        neighbour: theirs,
                    });
                }
            }
        }
        if !touches {
            return Err(MoveError::NotAdjacent);
        }
        Ok(())
    }

    // ----- moves -----

    /// Apply an action after checking it; on error the game is unchanged. Accepts exactly the
    /// actions [`Game::legal_actions`] lists ([`Game::is_legal`]), [`Action::Draw`] included.
    pub fn apply(&mut self, action: Action) -> Result<(), MoveError> {
        if let Action::Draw(t) = action {
            return self.apply_draw(t);
        }
        self.apply_decision(action)?;
        self.history.push(action);
        Ok(())
    }

    /// [`Game::apply`] for a player's decision (not recorded in the history).
    fn apply_decision(&mut self, action: Action) -> Result<(), MoveError> {
        match action {
            Action::Place(p) => {
                self.check_placement(p)?;
                self.play_checked_placement(p);
            }
            Action::Follower(o) => {
                self.check_follower(o)?;
                self.put_follower(o);
                self.after_follower();
            }
            Action::Move(t) => {
                let i = self.check_move(t)?;
                self.move_freed(Some(i));
            }
            Action::Take(t) => {
                self.check_take(t)?;
                self.take(t);
            }
            Action::Seat(s) => {
                self.check_seat(s)?;
                self.choose_seat(s);
            }
            Action::Pass => {
                if !matches!(self.phase, Phase::Hand | Phase::Follower | Phase::Move) {
                    return Err(MoveError::WrongPhase { phase: self.phase });
                }
                if self.must_place() {
                    return Err(MoveError::MustPlace);
                }
                self.play_pass_inner();
            }
            Action::Draw(t) => self.apply_draw(t)?,
        }
        Ok(())
    }

    /// Place the drawn tile at `x, y` with `rotation` (checked).
    pub fn place(&mut self, x: i32, y: i32, rotation: u8) -> Result<(), MoveError> {
        let tile = self.current;
        self.apply(Action::Place(Placement {
            tile,
            x,
            y,
            rotation,
        }))
    }

    /// Play placement number `index` of [`Game::placements`] (no re-check: the list is legal), in
    /// [`Phase::Place`] or [`Phase::Hand`]. Returns false if the index or the phase is wrong.
    pub fn play_placement(&mut self, index: usize) -> bool {
        if !matches!(self.phase, Phase::Place | Phase::Hand) || index >= self.n_place {
            return false;
        }
        let p = self.placements[index];
        self.history.push(Action::Place(p));
        if self.phase == Phase::Place && p.tile == self.current && self.w.w6.is_none() {
            // The common case: the drawn tile, no own tile, kept tile or W-6 procedure.
            self.place_drawn(p);
        } else {
            self.play_checked_placement(p);
        }
        true
    }

    /// Play follower option number `index` of [`Game::follower_options`], or pass with `None`,
    /// then score and go on. Returns false if the index or the phase is wrong.
    pub fn play_follower(&mut self, index: Option<usize>) -> bool {
        if self.phase != Phase::Follower {
            return false;
        }
        match index {
            Some(i) if i < self.options.len() => {
                let o = self.options[i];
                self.history.push(Action::Follower(o));
                self.put_follower(o);
                self.after_follower();
            }
            Some(_) => return false,
            None => {
                self.history.push(Action::Pass);
                self.record_pass(self.turn);
                self.end_turn();
            }
        }
        true
    }

    /// After a follower: a second one on a pool tile just placed (W-7), or the end of the turn.
    fn after_follower(&mut self) {
        if !self.offer_second_follower() {
            self.end_turn();
        }
    }

    /// Take choice number `index` of [`Game::pool_choices`]: a tile in [`Phase::Pick`], a seat
    /// in [`Phase::Order`] (unchecked). Returns false if the index or the phase is wrong.
    pub fn play_choice(&mut self, index: usize) -> bool {
        match self.phase {
            Phase::Pick if index < self.w.tiles.len() => {
                let t = self.w.tiles[index];
                self.history.push(Action::Take(t));
                self.take(t);
            }
            Phase::Order if index < self.w.seats.len() => {
                let s = self.w.seats[index];
                self.history.push(Action::Seat(s));
                self.choose_seat(s);
            }
            _ => return false,
        }
        true
    }

    /// Move the freed figure to target number `index` of [`Game::move_targets`], or take it back
    /// with `None` ([`Phase::Move`]). Returns false if the index or the phase is wrong.
    pub fn play_move(&mut self, index: Option<usize>) -> bool {
        if self.phase != Phase::Move || index.is_some_and(|i| i >= self.moves.len()) {
            return false;
        }
        let action = index.map_or(Action::Pass, |i| Action::Move(self.moves[i].0));
        self.history.push(action);
        self.move_freed(index);
        true
    }

    /// Decline in the current phase ([`Action::Pass`], unchecked): no follower, draw instead of
    /// placing one's own tile, or take the freed figure back. Does nothing in other phases.
    pub fn play_pass(&mut self) {
        let can = match self.phase {
            Phase::Follower | Phase::Move => true,
            Phase::Hand => !self.w.must_place,
            _ => false,
        };
        if can {
            self.history.push(Action::Pass);
            self.play_pass_inner();
        }
    }

    /// [`Game::play_pass`] without recording the decision.
    fn play_pass_inner(&mut self) {
        match self.phase {
            Phase::Follower => {
                self.record_pass(self.turn);
                self.end_turn();
            }
            Phase::Hand if !self.w.must_place => {
                self.record_pass(self.turn + 1);
                self.decline_own_tile();
            }
            Phase::Move => self.move_freed(None),
            _ => {}
        }
    }

    /// End the game now: finish the current turn without a follower (if a tile was just placed),
    /// take back figures waiting to move, drop the undrawn pile and players' own tiles, and run
    /// the final scoring (B-6). Does nothing if already over. A recording game logs a `finish`
    /// event first, so that its log replays ([`crate::log::replay`] calls `finish` there too).
    pub fn finish(&mut self) {
        if self.phase != Phase::Over {
            self.finished = true;
            if self.record {
                self.events.push(Event::Finish { turn: self.turn });
            }
        }
        match self.phase {
            Phase::Over => {}
            Phase::Follower => {
                self.score_pending();
                self.return_freed();
                self.end_game();
            }
            Phase::Move => {
                self.return_freed();
                self.end_game();
            }
            _ => self.end_game(),
        }
    }

    // ----- internals -----

    #[inline]
    fn pos(&self, x: i32, y: i32) -> Option<usize> {
        self.pos_inner(x, y)
    }

    /// Cell index if `(x, y)` and its four neighbours are on the board.
    #[inline]
    fn pos_inner(&self, x: i32, y: i32) -> Option<usize> {
        let bx = x.checked_add(self.off)?;
        let by = y.checked_add(self.off)?;
        let w = self.width as i32;
        if bx < 1 || by < 1 || bx >= w - 1 || by >= w - 1 {
            return None;
        }
        Some(by as usize * self.width + bx as usize)
    }

    #[inline]
    fn xy(&self, pos: usize) -> (i32, i32) {
        (
            (pos % self.width) as i32 - self.off,
            (pos / self.width) as i32 - self.off,
        )
    }

    #[inline]
    fn step(&self, pos: usize, side: usize) -> usize {
        match side {
            0 => pos - self.width,
            1 => pos + 1,
            2 => pos + self.width,
            _ => pos - 1,
        }
    }

    fn find_ro(&self, mut a: u32) -> u32 {
        loop {
            let p = self.segs[a as usize].parent;
            if p == a {
                return a;
            }
            a = p;
        }
    }

    fn place_drawn(&mut self, p: Placement) {
        self.turn += 1;
        if self.record {
            let tile = self.rules.tile_id(p.tile).to_string();
            self.events.push(Event::Place {
                turn: self.turn,
                player: self.player,
                tile,
                x: p.x,
                y: p.y,
                rotation: p.rotation,
            });
        }
        // AM-8 read field by field needs the farmer fields as they are before this tile merges
        // them. One flag, false in the base game and under the registry's reading.
        if self.rules.each_field_joins {
            self.record_fields_before(p);
        }
        self.place_unchecked(p.tile, p.x, p.y, p.rotation);
        self.last_placer = self.player;
        if !self.pending_fields.is_empty() {
            // AM-8: a farmer field joined to a corner-figure field scores at once.
            self.score_joined_fields();
        }
        self.compute_options();
        self.phase = Phase::Follower;
    }

    /// The naive generator: every rotation of every tile the phase allows (the drawn tile, or
    /// the player's own tiles) at every cell of the bounding box grown by the largest tile offset
    /// + 1, each checked directly with [`Game::check_placement`]. Slow; for tests.
    pub fn naive_placements(&self) -> Vec<Placement> {
        let mut out = Vec::new();
        let tiles: Vec<u16> = match self.phase {
            Phase::Place => {
                let me = self.player;
                let kept = self.w.kept.iter().filter(|k| k.0 == me).map(|k| k.1);
                std::iter::once(self.current).chain(kept).collect()
            }
            Phase::Hand if self.w.must_place => {
                let me = self.player;
                self.w
                    .held
                    .iter()
                    .filter(|h| h.0 == me)
                    .map(|h| h.1)
                    .collect()
            }
            Phase::Hand => {
                let pts = &self.rules.ruleset().player_tiles;
                (0..pts.len())
                    .filter(|&i| self.held(self.player, i) > 0)
                    .map(|i| pts[i].tile)
                    .collect()
            }
            _ => return out,
        };
        let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for (pos, &c) in self.cells.iter().enumerate() {
            if c < FRONT {
                let (x, y) = self.xy(pos);
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x);
                y1 = y1.max(y);
            }
        }
        let m = self.rules.max_offset + 1;
        for y in y0 - m..=y1 + m {
            for x in x0 - m..=x1 + m {
                for (&tile, rotation) in tiles.iter().flat_map(|t| std::iter::repeat(t).zip(0..4)) {
                    let p = Placement {
                        tile,
                        x,
                        y,
                        rotation,
                    };
                    if self.check_placement(p).is_ok() {
                        out.push(p);
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }
}

#[inline]
fn find(segs: &mut [Seg], mut a: u32) -> u32 {
    loop {
        let p = segs[a as usize].parent;
        if p == a {
            return a;
        }
        let gp = segs[p as usize].parent;
        segs[a as usize].parent = gp;
        a = gp;
    }
}

/// Union two segments' features; the older root survives. Returns the root.
fn union(segs: &mut [Seg], a: u32, b: u32) -> u32 {
    let ra = find(segs, a);
    let rb = find(segs, b);
    if ra == rb {
        return ra;
    }
    let (keep, gone) = if ra < rb { (ra, rb) } else { (rb, ra) };
    let g = segs[gone as usize];
    let k = &mut segs[keep as usize];
    k.open += g.open;
    k.pennants += g.pennants;
    k.occ += g.occ;
    k.corners += g.corners;
    k.done |= g.done;
    let kn = k.next;
    k.next = g.next;
    segs[gone as usize].next = kn;
    segs[gone as usize].parent = keep;
    keep
}
