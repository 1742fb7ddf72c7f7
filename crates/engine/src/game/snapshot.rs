//! Snapshots of any mid-game state as JSON ([`Game::to_json`], [`Game::from_json`]). A snapshot
//! holds the pile in its current order, every decision made and the recorded events; reading it
//! replays the decisions through the checked [`Game::apply`], so a snapshot that was edited or
//! corrupted is refused with a reason, never a panic, and a valid one gives a game equal to the
//! original (`from_json(to_json(g)) == g`) that plays on identically.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Action, Game, MoveError, Phase, PileOrder, Preset, PresetError, SetupError};
use crate::event::Event;
use crate::rules::Rules;

/// The snapshot format's name and version.
const FORMAT: &str = "tegula-snapshot/1";

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Snapshot {
    format: String,
    variant: String,
    players: u8,
    seed: Option<u64>,
    record: bool,
    chance_steps: bool,
    pile: Vec<u16>,
    history: Vec<Action>,
    finished: bool,
    events: Vec<Event>,
    final_from: Option<usize>,
    /// A position set by hand ([`Game::preset`]) and the number of decisions before it; absent
    /// in snapshots of ordinary games (which stay as they were).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    preset: Option<(usize, Preset)>,
}

/// Why a snapshot cannot be read.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SnapshotError {
    /// Not JSON of the snapshot's shape (the parser's message, with line and column).
    Json(String),
    /// Another format or version.
    Format(String),
    /// Written for another variant than the rules given.
    Variant {
        /// Variant id in the snapshot.
        snapshot: String,
        /// Variant id of the rules given.
        rules: String,
    },
    /// The game cannot be set up (player count, tile indices).
    Setup(SetupError),
    /// The pile is not the variant's pile (another multiset of tiles).
    Pile,
    /// Decision number `index` of the history is refused.
    Move {
        /// Index into the history.
        index: usize,
        /// Why.
        error: MoveError,
    },
    /// The final-scoring index lies beyond the events.
    Events,
    /// The preset cannot be applied where the snapshot says.
    Preset(PresetError),
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnapshotError::Json(e) => write!(f, "not a snapshot: {e}"),
            SnapshotError::Format(v) => write!(f, "snapshot format `{v}`, expected `{FORMAT}`"),
            SnapshotError::Variant { snapshot, rules } => {
                write!(
                    f,
                    "snapshot of variant `{snapshot}`, the rules are `{rules}`"
                )
            }
            SnapshotError::Setup(e) => write!(f, "snapshot cannot be set up: {e}"),
            SnapshotError::Pile => write!(f, "the snapshot's pile is not the variant's pile"),
            SnapshotError::Move { index, error } => {
                write!(f, "decision {index} of the snapshot is refused: {error}")
            }
            SnapshotError::Events => write!(f, "final-scoring index beyond the events"),
            SnapshotError::Preset(e) => write!(f, "the snapshot's preset is refused: {e}"),
        }
    }
}

impl std::error::Error for SnapshotError {}

impl Game {
    /// The whole state as one JSON object (format `tegula-snapshot/1`): variant id, players,
    /// seed, the pile in its current order, every decision ([`Game::history`]), the recorded
    /// events. It contains the hidden pile order: it is the full state, not a player's view.
    pub fn to_json(&self) -> String {
        let snap = Snapshot {
            format: FORMAT.to_string(),
            variant: self.rules.ruleset().id.clone(),
            players: self.seats.players,
            seed: self.deck.seed,
            record: self.log.record,
            chance_steps: self.deck.chance,
            // Tiles shuffled back into the pile (PD-3) are put back again by the replay.
            pile: self.setup_pile().to_vec(),
            history: self.log.history.clone(),
            finished: self.now.finished,
            events: self.log.events.clone(),
            final_from: self.log.final_from,
            preset: self.log.preset.as_deref().cloned(),
        };
        // Plain data with string keys: serialisation cannot fail.
        serde_json::to_string(&snap).unwrap_or_default()
    }

    /// Read a snapshot written by [`Game::to_json`] for the same variant: the game is set up
    /// and every decision replayed (checked), so the result equals the original.
    pub fn from_json(text: &str, rules: Arc<Rules>) -> Result<Game, SnapshotError> {
        let snap: Snapshot =
            serde_json::from_str(text).map_err(|e| SnapshotError::Json(e.to_string()))?;
        if snap.format != FORMAT {
            return Err(SnapshotError::Format(snap.format));
        }
        if snap.variant != rules.ruleset().id {
            let rules = rules.ruleset().id.clone();
            return Err(SnapshotError::Variant {
                snapshot: snap.variant,
                rules,
            });
        }
        let order = match snap.seed {
            Some(seed) => PileOrder::Shuffled(seed),
            None => PileOrder::Scripted(snap.pile.clone()),
        };
        let mut g =
            Game::new(rules, snap.players, order, snap.record).map_err(SnapshotError::Setup)?;
        // Set up again with chance steps, so that no tile is drawn before the pile is in place.
        g.deck.chance = true;
        let again = PileOrder::Scripted(g.deck.pile.clone());
        g.restart(again).map_err(SnapshotError::Setup)?;
        g.deck.seed = snap.seed;
        if !same_multiset(&g.deck.pile, &snap.pile) {
            return Err(SnapshotError::Pile);
        }
        g.deck.pile = snap.pile;
        match snap.preset {
            Some((at, preset)) => {
                let at = at.min(snap.history.len());
                g.replay_history(&snap.history[..at], 0)?;
                g.preset(preset).map_err(SnapshotError::Preset)?;
                g.replay_history(&snap.history[at..], at)?;
            }
            None => g.replay_history(&snap.history, 0)?,
        }
        if !snap.chance_steps {
            g.set_chance_steps(false);
        }
        if snap.finished {
            g.finish();
        }
        if snap.final_from.is_some_and(|i| i > snap.events.len()) {
            return Err(SnapshotError::Events);
        }
        g.log.events = snap.events;
        g.log.final_from = snap.final_from;
        Ok(g)
    }

    /// Replay decisions (the first one numbered `first`); draws the original made inside moves
    /// are made silently here.
    fn replay_history(&mut self, history: &[Action], first: usize) -> Result<(), SnapshotError> {
        for (i, &action) in history.iter().enumerate() {
            let index = first + i;
            if !matches!(action, Action::Draw(_)) {
                while self.now.phase == Phase::Draw {
                    self.resume_draw();
                }
            }
            self.apply(action)
                .map_err(|error| SnapshotError::Move { index, error })?;
        }
        Ok(())
    }
}

/// Whether two piles hold the same tiles.
fn same_multiset(a: &[u16], b: &[u16]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}
