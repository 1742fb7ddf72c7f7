//! The generic tegula engine: plays any variant given as a lowered [`tegula_ruleset::Ruleset`].
//! It knows geometry and rules (B-1…B-7, AM-1…AM-12, W-1…W-20), never a tile, figure or piece
//! by name.
//!
//! # Quick start
//! ```
//! use std::sync::Arc;
//! use tegula_engine::{testkit, Action, Game, Phase, Rules};
//!
//! // A ruleset normally comes from a compiled artefact (`Rules::from_json`, the file
//! // `tegula compile VARIANT --format json` writes).
//! let rules = Arc::new(Rules::new(testkit::base_ruleset()).unwrap()); // check + precompute once
//! let mut game = Game::seeded(rules.clone(), 2, 42).unwrap(); // shuffled pile, events recorded
//! // or: Game::scripted(rules.clone(), 2, vec![t1, t2, …])    // explicit draw order
//! while game.phase() != Phase::Over {
//!     match game.phase() {
//!         Phase::Place => {
//!             let p = game.placements()[0];
//!             game.apply(Action::Place(p)).unwrap();
//!         }
//!         _ => game.apply(Action::Pass).unwrap(),
//!     }
//! }
//! assert_eq!(game.remaining(), 0);
//! println!("{:?} {}", game.scores(), game.events().len());
//! ```
//!
//! # API map (for scenario runners, agents and the CLI)
//! - Setup: [`Rules::new`] (reports every problem in the ruleset), [`Game::new`] with a
//!   [`PileOrder`] (`Shuffled(seed)` or `Scripted(tile indices)`), [`Game::seeded`],
//!   [`Game::scripted`], [`Game::restart`] (reuses buffers). The start tile is placed at `(0, 0)`
//!   rotation 0 and the first tile is drawn immediately.
//! - Lookups: [`Rules::tile_index`] / [`Rules::tile_id`], [`Rules::feature_index`] (segment id →
//!   tile-local feature index), [`Rules::follower_index`].
//! - Turn: [`Game::phase`] ([`Phase::Place`] → [`Phase::Follower`] → next player's `Place`, until
//!   [`Phase::Over`]), [`Game::current_player`], [`Game::current_tile`].
//! - Legal moves: [`Game::placements`] (fast generator), [`Game::naive_placements`] (obviously
//!   correct checker), [`Game::follower_options`] (passing is always allowed),
//!   [`Game::legal_actions`].
//! - Moves: [`Game::apply`] with an [`Action`] (checked; a refused action leaves the game
//!   unchanged and returns a [`MoveError`] naming the mismatching edge, the filled cell, the
//!   occupied feature, …, with [`Game::rule_of`]); [`Game::place`]; the unchecked fast path
//!   [`Game::play_placement`] / [`Game::play_follower`] by option index; [`Game::finish`] ends the
//!   game at once with final scoring.
//! - Reading: [`Game::scores`], [`Game::winners`], [`Game::events`] (every draw, decision, score
//!   with players, points, feature facts and rule id), [`Game::tiles`], [`Game::tile_at`],
//!   [`Game::followers`], [`Game::supply`], [`Game::feature_id`] (cell + segment id → feature),
//!   [`Game::feature`], [`Game::strengths`], [`Game::completed_features`]; the one rule form's
//!   state: [`Game::token_holder`], [`Game::token_record`], [`Game::counters_at`],
//!   [`Game::tile_counters`].
//! - Logs: [`log::log_text`] and [`log::replay`]; agents: [`Agent`], [`RandomAgent`],
//!   [`GreedyAgent`], [`MctsAgent`] (`mcts:N`); many games: [`sim::simulate`]; from-scratch
//!   checks for tests: [`naive::audit`], [`naive::final_scores`]; hand-built rulesets: [`testkit`].
//!
//! # For AI (issue 12)
//! - Chance as a step: [`Game::with_chance_steps`] / [`Game::set_chance_steps`] make every draw a
//!   [`Phase::Draw`] ([`Game::is_chance_node`], [`Game::current_player`] is [`CHANCE`]):
//!   [`Game::chance_outcomes`] (remaining tile types with probabilities),
//!   [`Game::apply_draw`] or [`Action::Draw`], [`Game::draw_default`] (the seeded order, so
//!   games are the same as without chance steps). [`Game::remaining_counts`] is the remaining
//!   multiset; [`Game::determinize`] reshuffles the hidden order. Off by default. The pool picks
//!   (W-1, W-2) are decisions, not chance: there is no other random event.
//! - One legality rule: [`Game::is_legal`] ⇔ [`Game::legal_actions`] contains it ⇔
//!   [`Game::apply`] accepts it; [`Game::check`] says why not; [`Game::play_unchecked`] plays by
//!   value without checks.
//! - State: `Game` is in parts, one concern each (the board, the seats, the turn, the legal
//!   moves, the turn's dues, the pile, the record, the pool, offers, the rule form's state), and
//!   derives `Clone`, `PartialEq`, `Eq`, `Hash`; [`Game::restart`] builds the parts as
//!   [`Game::new`] does; [`Game::check_parts`] checks their invariants. [`Game::state_hash`] is
//!   an incremental Zobrist-style hash of the position (history and hidden order excluded),
//!   [`Game::state_hash_from_scratch`] its check; [`Game::to_json`] / [`Game::from_json`]
//!   snapshot any state (replayed through `apply`, so bad snapshots are refused, never
//!   panic); [`Game::history`] lists the decisions made.
//!
//! # Benchmark
//! `cargo run --profile perf -- simulate --variant variants/base.toml --players 2 --games 100000
//! --seed 1 --jobs 1 --format json` (or, without the TOML compiler,
//! `cargo bench -p tegula-engine --bench random_games`).
//!
//! # How it works
//! The board is a square array that starts small around the start tile and grows (doubling,
//! re-centred) when a tile comes near its edge, up to the size the whole pile could need. Each empty cell
//! next to the map (the *frontier*) keeps a 16-bit requirement word: one nibble per side, the
//! one-hot kind the neighbour shows there (`0xF` when free). Each tile rotation has a packed
//! signature in the same layout, so "fits" is a handful of bit operations; for single-cell tiles
//! the requirement is also kept as an 8-bit code indexing a per-tile table of fitting rotations,
//! so generating placements is a table lookup and four branch-free writes per frontier cell.
//! Multi-cell tiles try every anchor that puts one of their cells on a frontier cell, each
//! candidate once (from its lowest-indexed frontier cell). Features are a
//! union–find over segment instances (one per tile-local feature per placed tile) with path
//! halving; each root carries open ends (B-3; `Feature.open_sides` minus 2 per matched side, minus
//! 1 per side closed by an `Any` side, AM-3), pennants, follower count and a circular member list
//! (to count distinct cells, B-7/W-18, and the completed cities a field borders, B-6, at scoring
//! time). Completion is checked after each turn for the features of the placed tile and the
//! cloisters around its cells. Nothing allocates in the move loop when events are off.
//!
//! # Expansions as data
//! The turn is a small state machine ([`Phase`]); decisions are [`Action`]s; everything that
//! happens is an [`Event`]. What a figure, an own tile or a pool tile does comes from the
//! ruleset, never from a name:
//! - *Figures* ([`tegula_ruleset::FollowerType`]): sites (road, city, cloister, field, or a
//!   corner where four filled cells meet with field in all four corners, AM-6), strength
//!   (constant, or the city's pennants, AM-5), after-score rule (return; stay; move to an
//!   adjacent unfinished unoccupied feature, decided by the owner in [`Phase::Move`] in seat
//!   order from the active player, AM-11/AM-12) and corner scoring (AM-7..AM-9: on placement,
//!   when a farmer field joins, at the end).
//! - *Own tiles* ([`tegula_ruleset::PlayerTile`]): every player holds them; [`Phase::Hand`]
//!   offers them instead of drawing (holes only, AM-1) and in a final round after the pile
//!   (AM-4). `any` sides close the neighbours' features (AM-3).
//! - *The pool* ([`tegula_ruleset::PoolRules`]): picks at setup ([`Phase::Pick`]), takes when a
//!   score reaches the moving threshold pairs ([`Phase::Order`] when several seats do, W-2/W-3),
//!   the taken tile placed instead of drawing with a figure claiming it and up to two followers
//!   (W-5..W-7), the W-6 procedure; and *abilities* in a small rule language
//!   ([`tegula_ruleset::Ability`]: triggers, conditions, counts, per-point tables, hands).

pub mod agent;
pub mod event;
pub mod game;
pub mod log;
pub mod mcts;
pub mod naive;
pub mod points;
pub mod rng;
pub mod rules;
pub mod sim;
pub mod stats;
pub mod testkit;

#[cfg(test)]
mod anywhere_tests;
#[cfg(test)]
mod choice_tests;
#[cfg(test)]
mod tests;

pub use agent::{Agent, AgentKind, GreedyAgent, MctsAgent, RandomAgent, SearchStats};
pub use event::{ChoiceWord, Event, FeatureId, FeatureInfo};
pub use game::{
    Action, BoardFollower, ChoiceOption, CornerChoice, FollowerOption, Game, MoveError, MoveTarget,
    Phase, PileOrder, PlacedTile, Placement, Preset, PresetError, SetupError, SnapshotError,
    StackView, CHANCE,
};
pub use rng::Rng;
pub use rules::{Rules, RulesError, RulesReason, TileProblem, MAX_PLAYERS};
pub use tegula_ruleset::{FeatureKind, Ruleset, Side, SideKind};
