//! The game state and its setup. Each concern has a file of its own: the public vocabulary
//! (`types`), read access (`view`), applying moves (`apply`), legality (`legal`), turn phases
//! (`turn`), placing tiles (`place`), figures (`figures`) and
//! their named corners (`corners`), scoring (`score`, `fields`, `joins`),
//! the board array (`board`, `cells`), chance steps (`chance`), the pool and abilities (`pool`,
//! `ability`), positions set by hand (`preset`), hashing and snapshots (`hash`, `snapshot`).

use std::sync::Arc;

use tegula_ruleset::limits::MAX_GAME_CELLS;
use tegula_ruleset::FeatureKind;

use crate::event::{Event, FeatureId, FeatureInfo};
use crate::rng::Rng;
use crate::rules::Rules;

mod ability;
mod apply;
mod board;
mod cells;
mod chance;
pub(crate) mod choice;
mod copy;
mod corners;
mod effects;
mod error;
mod extra;
mod fields;
mod figures;
mod frontier;
pub(crate) mod hash;
mod holes;
mod joins;
mod legal;
mod payment;
pub(crate) mod place;
mod pool;
mod predicate;
mod preset;
mod resources;
mod rule_counts;
pub(crate) mod rule_state;
mod score;
mod slots;
mod smallset;
mod snapshot;
mod take;
mod turn;
mod types;
mod view;
pub(crate) mod when;

pub use chance::CHANCE;
pub use error::MoveError;
pub use preset::{Preset, PresetError};
pub use snapshot::SnapshotError;
pub use types::{
    Action, BoardFollower, ChoiceOption, CornerChoice, FollowerOption, MoveTarget, Phase,
    PileOrder, PlacedTile, Placement, SetupError,
};

use cells::{find, union};

/// Equality and hashing that ignore a value: for data derived from the rest of the state (a
/// cache, a by-product of the last computation), which two equal games may hold differently.
/// One definition, so that every such part of [`Game`] says so the same way.
macro_rules! not_state {
    ($t:ty) => {
        impl PartialEq for $t {
            fn eq(&self, _other: &$t) -> bool {
                true
            }
        }

        impl Eq for $t {}

        impl std::hash::Hash for $t {
            fn hash<H: std::hash::Hasher>(&self, _state: &mut H) {}
        }
    };
}
use not_state;

/// Largest board side in cells ([`tegula_ruleset::limits::MAX_BOARD_SIDE`]): every game the
/// cell limit allows fits it in whichever direction it grows, so no placement of a game is off
/// the board; a placement asked for outside is [`MoveError::OutOfBoard`].
pub const MAX_BOARD: usize = tegula_ruleset::limits::MAX_BOARD_SIDE as usize;

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
    /// The same requirement as a code ([`crate::rules::side_code`] per side), indexing the
    /// fit tables.
    code: u16,
    x: i32,
    y: i32,
}
const OPP_HALF: [usize; 8] = [5, 4, 7, 6, 1, 0, 3, 2];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Inst {
    tile: u16,
    rot: u8,
    x: i32,
    y: i32,
    seg_base: u32,
    /// Where the side words of its cell 0 are in the rules' flat join table (a function of
    /// `tile` and `rot`, kept here so that a neighbour's sides are one load away).
    words: u32,
}

/// One tile-local feature on the board, a node of the union-find over features.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Seg {
    parent: u32,
    next: u32,
    inst: u32,
    local: u8,
    kind: FeatureKind,
    done: bool,
    open: i16,
    pennants: u16,
    /// Figures on the feature (occupying or not).
    occ: u16,
    /// Of `occ`, the figures that do not occupy it: the feature is occupied while
    /// `occ > guests` (B-2).
    guests: u8,
    /// Corner figures on this field (AM-6..AM-9): no follower may join it.
    corners: u8,
    /// The tile cells the segment lies on (bit per cell index; a segment of no cell in
    /// particular counts as on cell 0), kept here so that counting a feature's cells reads
    /// its segments only.
    cells: u8,
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
/// `clone_from` reuses the target's buffers (no allocation once they are large enough; see
/// `copy.rs`). `PartialEq`, `Eq` and `Hash` are derived: two games are equal when every part of
/// their state is (board, features, figures, scores, pile order, phase, decisions made and
/// recorded events); scratch buffers (`Scratch`) take no part. For transposition tables see
/// [`Game::state_hash`].
#[derive(Debug, PartialEq, Eq, Hash)]
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
    /// Seat resources, `seat * resources + resource` (empty when the variant declares none).
    holdings: Vec<u32>,
    // Pile and turn.
    pile: Vec<u16>,
    drawn: usize,
    phase: Phase,
    current: u16,
    player: u8,
    turn: u32,
    /// The legal placements as a list, unless `slots` says they are only counted.
    placements: Vec<Placement>,
    /// Whose placements a drawn single-cell tile's are, when the draw only counted them (then
    /// `n_place` is the count and each is found by its index).
    slots: slots::Slots,
    n_place: usize,
    options: Vec<FollowerOption>,
    pending: Vec<u32>,
    pending_cloisters: Vec<u32>,
    events: Vec<Event>,
    /// Scratch buffers (no part of the state).
    tmp: Scratch,
    /// The board's holes, kept for the own-tile offer (AM-1; derived, no part of the state).
    holes: holes::Holes,
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
    /// What earned the current turn an extra turn (TB-5, or an ability).
    extra_due: Option<extra::ExtraFrom>,
    /// Whether the current turn is an extra turn (it earns none, TB-5).
    in_extra: bool,
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
    /// The position set by hand ([`Game::preset`]) and the number of decisions made before it.
    preset: Option<Box<(usize, Preset)>>,
    /// Offered choices: the open offer, the figure step's offers, the offers still to make.
    choice: choice::ChoiceState,
    /// The one rule form's tokens, tile counters, tile placers and pending offers (empty in a
    /// variant without `[[when]]` rules).
    rf: rule_state::RuleState,
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

not_state!(Scratch);

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
            holdings: Vec::new(),
            pile: Vec::new(),
            drawn: 0,
            phase: Phase::Over,
            current: 0,
            player: 0,
            turn: 0,
            placements: Vec::new(),
            slots: slots::Slots::default(),
            n_place: 0,
            options: Vec::new(),
            pending: Vec::new(),
            pending_cloisters: Vec::new(),
            events: Vec::new(),
            tmp: Scratch::default(),
            holes: holes::Holes::default(),
            w: pool::PoolState::default(),
            held: Vec::new(),
            corner_figs: Vec::new(),
            freed: Vec::new(),
            moves: Vec::new(),
            final_seats: Vec::new(),
            corner_points: Vec::new(),
            pending_fields: Vec::new(),
            in_final: false,
            extra_due: None,
            in_extra: false,
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
            preset: None,
            choice: choice::ChoiceState::default(),
            rf: rule_state::RuleState::default(),
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

    /// Cells a game drawing `pile` covers: the start tile, the pile, the players' own tiles and
    /// the pool.
    fn game_cells(&self, pile: &[u16]) -> usize {
        let tiles = &self.rules.tiles;
        let start = tiles[self.rules.start_tile as usize].cell_count;
        let drawn = pile.iter().map(|&t| tiles[t as usize].cell_count);
        let own = self.rules.held_cells() * self.players as usize;
        start + drawn.sum::<usize>() + own + self.rules.pool_cells()
    }

    /// Start a new game with the same rules and players, reusing every buffer (the board is
    /// cleared cell by cell). A scripted pile must fit the board built by [`Game::new`]; one
    /// whose game would cover more than [`MAX_GAME_CELLS`] cells is refused
    /// ([`SetupError::TooManyCells`]).
    pub fn restart(&mut self, pile: PileOrder) -> Result<(), SetupError> {
        let order = match pile {
            PileOrder::Shuffled(seed) => {
                let mut p = std::mem::take(&mut self.pile);
                p.clear();
                p.extend_from_slice(self.rules.pile_slice());
                let mut rng = Rng::new(seed);
                // Each group on its own, in order (one group: the whole pile, as always).
                let mut from = 0;
                for &end in &self.rules.group_ends {
                    rng.shuffle(&mut p[from..end]);
                    from = end;
                }
                if self.rules.group_ends.is_empty() {
                    rng.shuffle(&mut p);
                }
                self.seed = Some(seed);
                p
            }
            PileOrder::Scripted(p) => {
                if let Some(&bad) = p.iter().find(|&&t| t as usize >= self.rules.tiles.len()) {
                    return Err(SetupError::NoSuchTile(bad));
                }
                // A scripted pile can be anything (a log's setup line): the tile counts (`u16`)
                // and the per-feature counters are sized for the limit the variant's pile keeps.
                let cells = self.game_cells(&p) as u64;
                if cells > MAX_GAME_CELLS {
                    let max = MAX_GAME_CELLS;
                    return Err(SetupError::TooManyCells { cells, max });
                }
                if let Some(position) = self.rules.group_order_break(&p) {
                    return Err(SetupError::GroupOrder { position });
                }
                self.seed = None;
                p
            }
        };
        let cells = self.game_cells(&order);
        let reach = cells + 2 * self.rules.max_offset as usize + 2;
        self.full_roomy = reach <= self.full_width / 2;
        self.reset_board();
        self.pile = order;
        self.drawn = 0;
        self.count_pile();
        self.zobrist = self.left_hash();
        self.history.clear();
        self.preset = None;
        self.finished = false;
        self.frontier.clear();
        self.insts.clear();
        self.holes.clear();
        self.segs.clear();
        self.meeples.clear();
        self.events.clear();
        self.pending.clear();
        self.pending_cloisters.clear();
        self.n_place = 0;
        self.clear_slots();
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
        self.holdings.clear();
        let nr = self.rules.ruleset().resources.len();
        self.holdings.resize(self.players as usize * nr, 0);
        // A resource's `start`: what each seat holds at setup (0 unless the data says).
        for (r, res) in self.rules.ruleset().resources.iter().enumerate() {
            let n = res.start_for(self.players);
            for seat in 0..usize::from(self.players) {
                self.holdings[seat * nr + r] = n;
            }
        }
        self.held.clear();
        for _ in 0..self.players {
            for t in &self.rules.ruleset().player_tiles {
                self.held.push(t.count);
            }
        }
        let rs = self.rules.ruleset();
        self.rf.reset(rs.tokens.len(), rs.counters.len());
        self.corner_figs.clear();
        self.choice.clear();
        self.freed.clear();
        self.moves.clear();
        self.final_seats.clear();
        self.corner_points.clear();
        self.pending_fields.clear();
        self.in_final = false;
        self.extra_due = None;
        self.in_extra = false;
        self.final_from = None;
        self.active = 0;
        self.last_placer = 0;
        self.turn = 0;
        self.player = 0;
        self.record_seating();
        let start = self.rules.start_tile;
        self.place_unchecked(start, 0, 0, 0);
        self.pending.clear();
        self.pending_cloisters.clear();
        self.pending_fields.clear();
        self.begin_game();
        Ok(())
    }
}
