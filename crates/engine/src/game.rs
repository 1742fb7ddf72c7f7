//! The game state and its setup. The state is in parts, one concern each, with their invariants
//! (`parts`: the board, the seats, the turn, the phase's legal moves, the turn's dues, the pile,
//! the record; the pool, offers and the rule form's state in their own files). Each concern of
//! play has a file of its own: the public vocabulary (`types`), read access (`view`), applying
//! moves (`apply`), legality (`legal`), turn phases (`turn`), placing tiles (`place`), figures
//! (`figures`) and their named corners (`corners`), scoring (`score`, `fields`, `joins`), the
//! board array (`board`, `cells`), chance steps (`chance`), the pool and abilities (`pool`,
//! `ability`), positions set by hand (`preset`), hashing and snapshots (`hash`, `snapshot`).

use std::sync::Arc;

use tegula_ruleset::limits::MAX_GAME_CELLS;
use tegula_ruleset::FeatureKind;

use crate::event::{Event, FeatureId, FeatureInfo};
use crate::rng::Rng;
use crate::rules::Rules;

mod anywhere;
mod apply;
mod assigned;
mod board;
mod board_counts;
mod cells;
mod chance;
pub(crate) mod choice;
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
pub(crate) mod neutral;
mod parts;
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
pub(crate) mod stacks;
mod take;
mod tile_rules;
mod turn;
mod types;
mod view;
mod walk;
pub(crate) mod when;

pub use chance::CHANCE;
pub use error::MoveError;
pub use preset::{Preset, PresetError};
pub use snapshot::SnapshotError;
pub use stacks::StackView;
pub use types::{
    Action, BoardFollower, ChoiceOption, CornerChoice, FollowerOption, MoveTarget, Phase,
    PileOrder, PlacedTile, Placement, SetupError,
};

use cells::{find, union};
use parts::board::{CornerFig, Front, Inst, Meeple, Seg};
use parts::deck::Resume;
use parts::due::Freed;
use parts::part;

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

const OPP_HALF: [usize; 8] = [5, 4, 7, 6, 1, 0, 3, 2];

part! {
    /// One game. Cheap to clone (flat vectors, the rules behind an `Arc`), so tree search can
    /// copy it; `clone_from` reuses the target's buffers (no allocation once they are large
    /// enough; see `game/parts/`). `PartialEq`, `Eq` and `Hash` are derived: two games are equal
    /// when every part of their state is (board, features, figures, scores, pile order, phase,
    /// decisions made and recorded events); scratch buffers (`Scratch`) and caches derived from
    /// the rest take no part. For transposition tables see [`Game::state_hash`].
    ///
    /// The state is in parts, one concern each (`game/parts/`, `pool.rs`, `choice.rs`,
    /// `rule_state.rs`), each with its invariants.
    pub struct Game {
        /// The compiled rules (shared, never changed by play).
        rules: Arc<Rules>,
        /// The board, its features and the figures on them.
        board: parts::Board,
        /// What each seat has: supply, score, resources, own tiles.
        seats: parts::Seats,
        /// The turn under way: phase, seat, tile in hand, final round, extra turns.
        now: parts::Turn,
        /// The legal moves of the phase under way.
        legal: parts::Legal,
        /// What the turn still has to settle: features to score, freed figures.
        due: parts::Due,
        /// The pile and chance steps.
        deck: parts::Deck,
        /// The record: events, decisions, the position set by hand.
        log: parts::Log,
        /// The open pool and what players took from it (W-1..W-7, W-12).
        w: pool::PoolState,
        /// Offered choices: the open offer, the figure step's offers, the offers still to make.
        choice: choice::ChoiceState,
        /// The one rule form's tokens, tile counters, tile placers and pending offers (empty in
        /// a variant without `[[when]]` rules).
        rf: rule_state::RuleState,
        /// Stacks and figures held by other seats (empty in a variant without stacks).
        st: stacks::StackState,
        /// Neutral figures, the walk under way and the tiles set aside (empty in a variant
        /// without neutral figures or `draw` rules).
        nf: neutral::NeutralState,
        /// Incrementally kept part of [`Game::state_hash`]: placed tiles and the remaining
        /// multiset.
        zobrist: u64,
        /// Scratch buffers (no part of the state).
        tmp: Scratch,
    }
}

/// Scratch buffers reused between moves. They hold nothing a later move reads (at most emptied
/// buffers kept for their capacity), so they take no part in equality or hashing, and a clone
/// starts empty.
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
    /// Emptied option lists of offers answered or lapsed, for the next offers
    /// (`game/choice.rs`).
    pub(crate) lists: Vec<choice::Listed>,
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
        let full_width = Game::full_width(&rules, players, &pile)?;
        let mut g = Game::blank(rules, players, record, false, full_width);
        let (order, seed) = g.pile_order(pile)?;
        g.set_up(order, seed);
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

    /// Start a new game with the same rules, players, recording and chance steps. The game is
    /// built as [`Game::new`] builds it (every part afresh, then the same setup), keeping only
    /// buffers whose reuse leaves the value unchanged: the board array, emptied cell by cell,
    /// and the capacity of every list. A scripted pile must fit the board built by
    /// [`Game::new`]; one whose game would cover more than [`MAX_GAME_CELLS`] cells is refused
    /// ([`SetupError::TooManyCells`]), leaving the game as it was.
    pub fn restart(&mut self, pile: PileOrder) -> Result<(), SetupError> {
        let (order, seed) = self.pile_order(pile)?;
        // Every cell the game wrote back to empty: the array is then a blank board's, whatever
        // its size (`reset_board` sizes it).
        self.clear_written();
        let cells = std::mem::take(&mut self.board.cells);
        let (players, record) = (self.seats.players, self.log.record);
        let blank = Game::blank(
            self.rules.clone(),
            players,
            record,
            self.deck.chance,
            self.board.full_width,
        );
        // Copied into this game's buffers: emptied lists keep their capacity.
        self.clone_from(&blank);
        self.board.cells = cells;
        self.set_up(order, seed);
        Ok(())
    }

    /// Every part as it is before setup: nothing placed, drawn, held or recorded.
    fn blank(rules: Arc<Rules>, players: u8, record: bool, chance: bool, width: usize) -> Game {
        Game {
            rules,
            board: parts::Board::new(width),
            seats: parts::Seats::new(players),
            now: parts::Turn::default(),
            legal: parts::Legal::default(),
            due: parts::Due::default(),
            deck: parts::Deck::new(chance),
            log: parts::Log::new(record),
            w: pool::PoolState::default(),
            choice: choice::ChoiceState::default(),
            rf: rule_state::RuleState::default(),
            st: stacks::StackState::default(),
            nf: neutral::NeutralState::default(),
            zobrist: 0,
            tmp: Scratch::default(),
        }
    }

    /// Width of the board array a game of `players` drawing `pile` could need at most: room
    /// for every cell of the start tile, the pile, the own tiles and the pool in a line from
    /// the centre, plus the generator's margin (capped at [`MAX_BOARD`]).
    fn full_width(rules: &Rules, players: u8, pile: &PileOrder) -> Result<usize, SetupError> {
        let start = rules.tiles[rules.start_tile as usize].cell_count;
        let mut total_cells = start;
        match pile {
            PileOrder::Shuffled(_) => {
                for (i, t) in rules.ruleset().tiles.iter().enumerate() {
                    total_cells += t.count as usize * rules.tiles[i].cell_count;
                }
            }
            PileOrder::Scripted(p) => {
                for &t in p {
                    let info = rules.tiles.get(t as usize);
                    total_cells += info.ok_or(SetupError::NoSuchTile(t))?.cell_count;
                }
            }
        }
        total_cells += rules.held_cells() * players as usize + rules.pool_cells();
        let margin = 2 * rules.max_offset as usize + 3;
        Ok((2 * (total_cells + margin) + 1).min(MAX_BOARD))
    }

    /// Cells a game drawing `pile` covers: the start tile, the pile, the players' own tiles and
    /// the pool.
    fn game_cells(&self, pile: &[u16]) -> usize {
        let tiles = &self.rules.tiles;
        let start = tiles[self.rules.start_tile as usize].cell_count;
        let drawn = pile.iter().map(|&t| tiles[t as usize].cell_count);
        let own = self.rules.held_cells() * self.seats.players as usize;
        start + drawn.sum::<usize>() + own + self.rules.pool_cells()
    }

    /// The pile order `pile` asks for, with its shuffle seed, or why it cannot be played. The
    /// game is left as it was, except that a shuffle reuses the pile's buffer.
    fn pile_order(&mut self, pile: PileOrder) -> Result<(Vec<u16>, Option<u64>), SetupError> {
        match pile {
            PileOrder::Shuffled(seed) => {
                let mut p = std::mem::take(&mut self.deck.pile);
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
                Ok((p, Some(seed)))
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
                Ok((p, None))
            }
        }
    }

    /// Setup of a blank game ([`Game::blank`]): the pile, the seats' supplies, the start tile,
    /// then the pool and the first turn.
    fn set_up(&mut self, order: Vec<u16>, seed: Option<u64>) {
        let reach = self.game_cells(&order) + 2 * self.rules.max_offset as usize + 2;
        self.board.full_roomy = reach <= self.board.full_width / 2;
        self.reset_board();
        self.deck.pile = order;
        self.deck.seed = seed;
        self.count_pile();
        self.zobrist = self.left_hash();
        self.fill_seats();
        let rs = self.rules.ruleset();
        self.rf
            .reset(rs.tokens.len(), rs.counters.len(), &rs.tracks);
        self.nf.reset(rs.neutrals.len());
        self.record_seating();
        let start = self.rules.start_tile;
        self.place_unchecked(start, 0, 0, 0);
        self.due.pending.clear();
        self.due.pending_cloisters.clear();
        self.due.pending_fields.clear();
        self.begin_game();
    }

    /// Each seat's figures, resources (a resource's `start`, 0 unless the data says) and own
    /// tiles at setup; no points.
    fn fill_seats(&mut self) {
        let rs = self.rules.ruleset();
        let seats = &mut self.seats;
        let players = usize::from(seats.players);
        for _ in 0..players {
            seats.supply.extend(rs.followers.iter().map(|f| f.count));
            seats.held.extend(rs.player_tiles.iter().map(|t| t.count));
            seats
                .holdings
                .extend(rs.resources.iter().map(|r| r.start_for(seats.players)));
        }
        seats.scores.resize(players, 0);
    }
}
