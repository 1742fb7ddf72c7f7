//! Agents from Python: `tegula.Agent(kind, seed)` (keeps its generator across moves, as the
//! CLI's agents do; pickles by value, `agent_memory`) and `tegula.agent_action(game, kind,
//! seed)` (one decision).

use std::sync::Mutex;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use tegula_engine::{Action, Agent, AgentKind, Game, Phase};

use crate::agent_memory::{Memory, Pickled};
use crate::chance;
use crate::game::PyGame;

/// The decision of `agent` for the player to act, as an engine action (as
/// `tegula_engine::sim::play_one` asks the agent, but returning the action instead of playing
/// it); `None` when there is nothing to decide.
pub(crate) fn decide(agent: &mut (dyn Agent + Send), game: &Game) -> Option<Action> {
    let places = game.placements();
    let pick = |i: usize| places.get(i).or(places.first()).copied().map(Action::Place);
    match game.phase() {
        Phase::Place => pick(agent.choose_placement(game, places)),
        Phase::Hand if game.must_place() => pick(agent.choose_placement(game, places)),
        Phase::Hand => match agent.choose_own_tile(game, places) {
            Some(i) if i < places.len() => Some(Action::Place(places[i])),
            _ => Some(Action::Pass),
        },
        Phase::Follower if game.choice_count() > 0 => {
            let options = game.follower_options();
            let n = options.len();
            Some(
                match agent.choose_step(game, options, game.choice_count()) {
                    Some(i) if i >= n => Action::Choose(u16::try_from(i - n).unwrap_or(0)),
                    Some(i) => options
                        .get(i)
                        .map_or(Action::Pass, |&o| Action::Follower(o)),
                    None => Action::Pass,
                },
            )
        }
        Phase::Choice => {
            let (n, decline) = (game.choice_count(), game.offer_may_decline());
            match agent.choose_offer(game, n, decline) {
                Some(i) if i < n => Some(Action::Choose(u16::try_from(i).unwrap_or(0))),
                None if decline => Some(Action::Pass),
                _ => Some(Action::Choose(0)),
            }
        }
        Phase::Follower => {
            let options = game.follower_options();
            let choice = if options.is_empty() {
                None
            } else {
                agent.choose_follower(game, options)
            };
            Some(
                choice
                    .and_then(|i| options.get(i))
                    .map_or(Action::Pass, |&o| Action::Follower(o)),
            )
        }
        Phase::Move => {
            let targets = game.move_targets();
            let choice = agent.choose_move(game, &targets);
            Some(
                choice
                    .and_then(|i| targets.get(i))
                    .map_or(Action::Pass, |&t| Action::Move(t)),
            )
        }
        Phase::Pick | Phase::Order => {
            let (tiles, seats) = game.pool_choices();
            let i = agent.choose_pool(game, tiles.len().max(seats.len()));
            let take = tiles.get(i).or(tiles.first()).map(|&t| Action::Take(t));
            take.or_else(|| seats.get(i).or(seats.first()).map(|&s| Action::Seat(s)))
        }
        _ => None,
    }
}

fn parse_kind(kind: &str) -> PyResult<AgentKind> {
    AgentKind::parse(kind).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown agent `{kind}` (known: random, greedy, mcts:N)"
        ))
    })
}

/// The action id of `agent`'s decision in `game`.
fn decide_id(agent: &mut (dyn Agent + Send), game: &PyGame) -> PyResult<i64> {
    if chance::is_chance_node(&game.game) {
        return Err(PyValueError::new_err("a chance node: no player decides"));
    }
    let action = decide(agent, &game.game)
        .ok_or_else(|| PyValueError::new_err("the game is over: nothing to decide"))?;
    game.loaded
        .codec
        .encode(&game.frame(), action)
        .ok_or_else(|| PyRuntimeError::new_err(format!("{action:?} has no action id")))
}

/// A built-in agent (`"random"`, `"greedy"`, or whatever else the engine's agent names accept)
/// with its own seeded generator, kept across decisions.
#[pyclass(name = "Agent", module = "tegula._tegula")]
pub struct PyAgent {
    kind: String,
    seed: u64,
    /// The engine's agent and the decisions it made (for pickling).
    agent: Mutex<(Box<dyn Agent + Send>, Memory)>,
}

impl PyAgent {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, (Box<dyn Agent + Send>, Memory)>> {
        self.agent
            .lock()
            .map_err(|_| PyRuntimeError::new_err("agent poisoned by an earlier panic"))
    }
}

#[pymethods]
impl PyAgent {
    /// An agent of `kind` seeded with `seed`.
    #[new]
    #[pyo3(signature = (kind, seed = 0))]
    fn new(kind: &str, seed: u64) -> PyResult<PyAgent> {
        Ok(PyAgent {
            kind: kind.to_string(),
            seed,
            agent: Mutex::new((parse_kind(kind)?.build(seed), Memory::default())),
        })
    }

    /// The action id this agent picks for the player to act in `game` (the game is not
    /// changed). Raises `ValueError` at a chance node or when the game is over.
    fn action(&self, game: &PyGame) -> PyResult<i64> {
        let mut guard = self.lock()?;
        let (agent, memory) = &mut *guard;
        // Recorded whenever the agent is asked (its generator may move even if the action
        // then has no id), so that a replay asks it the same questions.
        if !chance::is_chance_node(&game.game) && game.game.phase() != Phase::Over {
            memory.record(&game.loaded, &game.game);
        }
        decide_id(agent.as_mut(), game)
    }

    /// Decide for the player to act in `game` and apply the decision there — also a move
    /// outside the board window, which has no action id (a game that sprawls past `radius`
    /// plays on, as `tegula play`'s). Returns the id, or -1 for a move without one (`history`
    /// then shows -1 for that step). Raises `ValueError` at a chance node or when the game is
    /// over.
    fn play(&self, py: Python<'_>, mut game: PyRefMut<'_, PyGame>) -> PyResult<i64> {
        let mut guard = self.lock()?;
        let (agent, memory) = &mut *guard;
        if chance::is_chance_node(&game.game) {
            return Err(PyValueError::new_err("a chance node: no player decides"));
        }
        if game.game.phase() != Phase::Over {
            memory.record(&game.loaded, &game.game);
        }
        let action = decide(agent.as_mut(), &game.game)
            .ok_or_else(|| PyValueError::new_err("the game is over: nothing to decide"))?;
        let id = game
            .loaded
            .codec
            .encode(&game.frame(), action)
            .unwrap_or(-1);
        let seat = crate::replay::seat(&game.game);
        let text = crate::codec::action_text(&game.loaded.rules, action, game.last_tile());
        game.game
            .apply(action)
            .map_err(|e| crate::errors::refused(py, &game.game, id, &text, &e))?;
        game.steps.push((id, seat));
        Ok(id)
    }

    /// Pickling by value: kind, seed and the states it decided in (`agent_memory`);
    /// unpickling makes those decisions again, so the copy decides as the original would.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, u64, Pickled))> {
        let restore = py.get_type::<PyAgent>().getattr("_restore")?;
        let memory = self.lock()?.1.pickled();
        Ok((restore, (self.kind.clone(), self.seed, memory)))
    }

    /// Unpickling (see `__reduce__`).
    #[staticmethod]
    fn _restore(kind: &str, seed: u64, memory: Pickled) -> PyResult<PyAgent> {
        let mut agent = parse_kind(kind)?.build(seed);
        let memory = Memory::replay(memory, agent.as_mut())?;
        Ok(PyAgent {
            kind: kind.to_string(),
            seed,
            agent: Mutex::new((agent, memory)),
        })
    }

    fn __repr__(&self) -> String {
        format!("tegula.Agent({:?}, seed={})", self.kind, self.seed)
    }
}

/// One decision of a fresh agent of `kind` seeded with `seed`: the action id it picks for the
/// player to act in `game`.
#[pyfunction]
#[pyo3(signature = (game, kind, seed = 0))]
pub fn agent_action(game: &PyGame, kind: &str, seed: u64) -> PyResult<i64> {
    let mut agent = parse_kind(kind)?.build(seed);
    decide_id(agent.as_mut(), game)
}
