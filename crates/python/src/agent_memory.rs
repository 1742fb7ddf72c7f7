//! What a `tegula.Agent` has decided, kept so that it pickles by value. An engine agent's state
//! is its seeded generator, which the engine does not expose; so a pickled agent carries its
//! kind, its seed and the states it decided in, and unpickling makes the same decisions again
//! on the same states (for `mcts:N`, the same searches), which leaves its generator where the
//! original's is. States are kept compactly: decisions along one game share that game's latest
//! state (a *line*) and are recorded as its history lengths.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tegula_engine::{Agent, Game};

use crate::variant::Loaded;

/// One game the agent decided in: its latest state decided on.
struct Line {
    loaded: Arc<Loaded>,
    game: Game,
}

/// The decisions an agent made, in order.
#[derive(Default)]
pub struct Memory {
    lines: Vec<Line>,
    /// Per decision: the line and the length of its history then.
    decisions: Vec<(usize, usize)>,
}

/// A pickled memory: the distinct variants' artefacts, each line's variant (index) and
/// snapshot, and the decisions.
pub type Pickled = (Vec<String>, Vec<(usize, String)>, Vec<(usize, usize)>);

impl Memory {
    /// Note a decision about to be made in `game`: on the line it continues (its history
    /// extends that line's latest state's), or on a new line.
    pub fn record(&mut self, loaded: &Arc<Loaded>, game: &Game) {
        let h = game.history();
        let continued = self.lines.iter().rposition(|l| {
            Arc::ptr_eq(&l.loaded, loaded)
                && l.game.players() == game.players()
                && l.game.pile() == game.pile()
                && h.starts_with(l.game.history())
        });
        let line = match continued {
            Some(k) => {
                self.lines[k].game.clone_from(game);
                k
            }
            None => {
                self.lines.push(Line {
                    loaded: loaded.clone(),
                    game: game.clone(),
                });
                self.lines.len() - 1
            }
        };
        self.decisions.push((line, h.len()));
    }

    /// The memory as plain data for pickle.
    pub fn pickled(&self) -> Pickled {
        let mut artefacts: Vec<(Arc<Loaded>, String)> = Vec::new();
        let mut lines = Vec::new();
        for l in &self.lines {
            let k = match artefacts.iter().position(|a| Arc::ptr_eq(&a.0, &l.loaded)) {
                Some(k) => k,
                None => {
                    artefacts.push((l.loaded.clone(), crate::registry::artefact(&l.loaded)));
                    artefacts.len() - 1
                }
            };
            lines.push((k, l.game.to_json()));
        }
        let texts = artefacts.into_iter().map(|a| a.1).collect();
        (texts, lines, self.decisions.clone())
    }

    /// Rebuild a pickled memory, making its decisions again with `agent` (fresh from the same
    /// kind and seed) so that it ends in the original's state.
    pub fn replay(p: Pickled, agent: &mut (dyn Agent + Send)) -> PyResult<Memory> {
        let (texts, lines, decisions) = p;
        let bad = |why: String| PyValueError::new_err(format!("agent pickle refused: {why}"));
        let mut memory = Memory::default();
        let mut replays = Vec::new();
        for (k, snapshot) in lines {
            let text = texts.get(k).ok_or_else(|| bad(format!("no variant {k}")))?;
            let loaded = crate::registry::from_artefact(text, "pickled agent".into())?;
            let game =
                Game::from_json(&snapshot, loaded.rules.clone()).map_err(|e| bad(e.to_string()))?;
            let fresh = crate::replay::fresh(&loaded, &game, false)
                .ok_or_else(|| bad("a game cannot be set up again".into()))?;
            replays.push(fresh);
            memory.lines.push(Line { loaded, game });
        }
        for &(line, len) in &decisions {
            let (Some(state), Some(target)) = (replays.get_mut(line), memory.lines.get(line))
            else {
                return Err(bad(format!("no line {line}")));
            };
            let history = target.game.history();
            let (done, want) = (state.history().len(), history.get(..len));
            let Some(rest) = want.and_then(|w| w.get(done..)) else {
                return Err(bad(format!("line {line} has no state of {len} steps")));
            };
            for &a in rest {
                state.apply(a).map_err(|e| bad(e.to_string()))?;
            }
            let _ = crate::agents::decide(agent, state);
        }
        memory.decisions = decisions;
        Ok(memory)
    }
}
