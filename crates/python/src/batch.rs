//! `tegula.Batch`: N games stepped at once, for training loops (docs/AI.md, "Batched play").
//! Each step takes one action id per game (a NumPy array) or lets the built-in agents decide,
//! and returns NumPy arrays: observations, legal-action masks, rewards and done flags. The Rust
//! work runs with the GIL released (other Python threads run meanwhile) and, with `threads > 1`,
//! on that many threads.
//!
//! Game `i` is game `i` of `tegula simulate --seed SEED` (`tegula play --seed SEED --game i`):
//! its pile and agents are seeded as there, draws follow the seeded order (a batch never stops
//! at a chance node), so a batch played by its agents plays exactly the run's games.

use std::sync::{Arc, Mutex, MutexGuard};

use numpy::ndarray::{Array1, Array2, ShapeError};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use tegula_engine::{sim, Agent, AgentKind, Game, PileOrder};

use crate::codec::Frame;
use crate::errors::{illegal, SetupError};
use crate::game::{PyGame, TERMINAL};
use crate::observe;
use crate::returns::Returns;
use crate::variant::{check_radius, Loaded, PyVariant};

/// Most games in one batch: their observations alone take some 600 MB at radius 12 (18,189
/// floats a base game), and more games fit in more batches.
pub const MAX_GAMES: usize = 8192;

/// One game of a batch with its agents.
struct Slot {
    game: Game,
    agents: Vec<Box<dyn Agent + Send>>,
    /// Which game of the seeded run it is (`tegula play --seed SEED --game NUMBER`).
    number: u64,
}

/// The games and what every step needs to know about them.
struct State {
    loaded: Arc<Loaded>,
    radius: u16,
    players: u8,
    seed: u64,
    kinds: Vec<AgentKind>,
    slots: Vec<Slot>,
    threads: usize,
    returns: Returns,
    /// The game number the next game reset alone gets (autoreset: fresh games, in order).
    next: u64,
}

/// Outputs of one step, flat, before they become NumPy arrays.
struct Out {
    obs: Vec<f32>,
    mask: Vec<bool>,
    rewards: Vec<f32>,
    done: Vec<bool>,
}

impl Out {
    /// Zeroed outputs for `n` games.
    fn zeros(n: usize, sizes: Sizes) -> Out {
        Out {
            obs: vec![0.0; n * sizes.obs],
            mask: vec![false; n * sizes.actions],
            rewards: vec![0.0; n * sizes.players],
            done: vec![false; n],
        }
    }

    /// Game `k`'s share of the outputs.
    fn part(&mut self, k: usize, sizes: Sizes) -> Part<'_> {
        Part {
            obs: self
                .obs
                .get_mut(k * sizes.obs..(k + 1) * sizes.obs)
                .filter(|x| !x.is_empty()),
            mask: self
                .mask
                .get_mut(k * sizes.actions..(k + 1) * sizes.actions)
                .filter(|x| !x.is_empty()),
            rewards: &mut self.rewards[k * sizes.players..(k + 1) * sizes.players],
            done: &mut self.done[k],
        }
    }
}

/// What `batch_planes` reads of a batch: the variant, the window and the games.
pub(crate) struct BatchView<'a> {
    pub(crate) loaded: &'a Loaded,
    pub(crate) radius: u16,
    pub(crate) games: Vec<&'a Game>,
}

fn st_view(st: &State) -> BatchView<'_> {
    BatchView {
        loaded: &st.loaded,
        radius: st.radius,
        games: st.slots.iter().map(|s| &s.game).collect(),
    }
}

/// Game indices of `Batch.observe(games=…)`: any integers, each below `n` (a located error
/// otherwise).
fn indices(games: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<usize>> {
    let ids = crate::actions::ids_any_length(games, "games")?;
    ids.iter()
        .enumerate()
        .map(|(k, &i)| {
            usize::try_from(i).ok().filter(|&i| i < n).ok_or_else(|| {
                PyValueError::new_err(format!("games[{k}] = {i}: the batch has games 0..{n}"))
            })
        })
        .collect()
}

/// Sizes of one game's outputs.
#[derive(Clone, Copy)]
struct Sizes {
    obs: usize,
    actions: usize,
    players: usize,
}

impl State {
    /// Set game `i` up afresh, as game `i` of the run seeded `seed`.
    fn slot(&self, i: u64) -> Result<Slot, String> {
        let (pile, seeds) = sim::game_seeds(self.seed, i, self.players);
        let mut game = Game::new(
            self.loaded.rules.clone(),
            self.players,
            PileOrder::Shuffled(pile),
            false,
        )
        .map_err(|e| e.to_string())?
        .with_chance_steps();
        settle(&mut game);
        Ok(Slot {
            game,
            agents: sim::build_agents(&self.kinds, &seeds),
            number: i,
        })
    }

    fn sizes(&self) -> Sizes {
        let g = &self.slots[0].game;
        let ((c, h, w), f) = observe::shape(g, self.radius);
        Sizes {
            obs: c * h * w + f,
            actions: self.loaded.codec.num_actions(self.radius) as usize,
            players: usize::from(self.players),
        }
    }

    /// Run `f` on every slot (with its index and its part of each output), on the batch's
    /// threads (inline with one).
    fn for_each(&mut self, sizes: Sizes, f: &(dyn Fn(usize, &mut Slot, Part) + Sync)) -> Out {
        let n = self.slots.len();
        let mut out = Out::zeros(n, sizes);
        let per = n.div_ceil(self.threads.max(1)).max(1);
        let obs = split(&mut out.obs, sizes.obs * per);
        let mask = split(&mut out.mask, sizes.actions * per);
        let rewards = split(&mut out.rewards, sizes.players * per);
        let done = split(&mut out.done, per);
        let work = self
            .slots
            .chunks_mut(per)
            .zip(obs)
            .zip(mask)
            .zip(rewards)
            .zip(done);
        let run = |c: usize,
                   slots: &mut [Slot],
                   o: &mut [f32],
                   m: &mut [bool],
                   r: &mut [f32],
                   d: &mut [bool]| {
            for (k, slot) in slots.iter_mut().enumerate() {
                let part = Part {
                    obs: o
                        .get_mut(k * sizes.obs..(k + 1) * sizes.obs)
                        .filter(|x| !x.is_empty()),
                    mask: m
                        .get_mut(k * sizes.actions..(k + 1) * sizes.actions)
                        .filter(|x| !x.is_empty()),
                    rewards: &mut r[k * sizes.players..(k + 1) * sizes.players],
                    done: &mut d[k],
                };
                f(c * per + k, slot, part);
            }
        };
        if per >= n {
            for (((((slots, o), m), r), d), c) in work.zip(0..) {
                run(c, slots, o, m, r, d);
            }
        } else {
            std::thread::scope(|s| {
                for (((((slots, o), m), r), d), c) in work.zip(0..) {
                    let run = &run;
                    s.spawn(move || run(c, slots, o, m, r, d));
                }
            });
        }
        out
    }
}

/// `v` cut into consecutive pieces of `size` (the last may be shorter); endless empty pieces
/// when `size` is 0 (an output not asked for).
fn split<T>(v: &mut [T], size: usize) -> Box<dyn Iterator<Item = &mut [T]> + Send + '_>
where
    T: Send,
{
    if size == 0 {
        Box::new(std::iter::repeat_with(<&mut [T]>::default))
    } else {
        Box::new(v.chunks_mut(size))
    }
}

/// One game's share of the outputs (no observation or mask parts when they are not asked for).
struct Part<'a> {
    obs: Option<&'a mut [f32]>,
    mask: Option<&'a mut [bool]>,
    rewards: &'a mut [f32],
    done: &'a mut bool,
}

/// Fill `part` from the game in `slot`: its observation as the seat to act sees it and its
/// mask (zeros once over), `done`; the rewards are the caller's.
fn fill(loaded: &Loaded, radius: u16, game: &Game, part: &mut Part) {
    *part.done = game.phase() == tegula_engine::Phase::Over;
    if *part.done {
        return;
    }
    let hidden = !loaded.codec.perfect_information();
    let view = observe::View(Some(game.current_player()).filter(|_| hidden));
    if let Some(obs) = part.obs.as_deref_mut() {
        obs.copy_from_slice(&observe::flat(game, radius, view));
    }
    if let Some(mask) = part.mask.as_deref_mut() {
        let frame = Frame::new(game, radius);
        for a in game.legal_actions() {
            let id = loaded.codec.encode(&frame, a);
            if let Some(m) = id.and_then(|i| mask.get_mut(usize::try_from(i).ok()?)) {
                *m = true;
            }
        }
    }
}

/// The returns of `game` into `rewards` if it is over.
fn final_rewards(returns: Returns, game: &Game, rewards: &mut [f32]) {
    if game.phase() == tegula_engine::Phase::Over {
        returns.fill(game.scores(), rewards);
    }
}

/// Draw the seeded tiles until the game waits for a decision (or is over).
fn settle(game: &mut Game) {
    while game.draw_default() {}
}

/// A batch of games of one variant, stepped together (see the module's docs).
#[pyclass(name = "Batch", module = "tegula._tegula")]
pub struct PyBatch {
    state: Mutex<State>,
}

impl PyBatch {
    fn lock(&self) -> PyResult<MutexGuard<'_, State>> {
        self.state
            .lock()
            .map_err(|_| PyRuntimeError::new_err("batch poisoned by an earlier panic"))
    }
}

/// Step outputs as NumPy arrays: observations `float32[n, D]` and masks `bool[n, A]` (None when
/// not observed), rewards `float32[n, P]`, done `bool[n]`.
type Arrays<'py> = (
    Option<Bound<'py, PyArray2<f32>>>,
    Option<Bound<'py, PyArray2<bool>>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
);

fn arrays(
    py: Python<'_>,
    out: Out,
    n: usize,
    sizes: Sizes,
    wanted: Wanted,
) -> PyResult<Arrays<'_>> {
    let shape = |e: ShapeError| PyRuntimeError::new_err(e.to_string());
    let obs = Array2::from_shape_vec((n, sizes.obs), out.obs).map_err(shape)?;
    let mask = Array2::from_shape_vec((n, sizes.actions), out.mask).map_err(shape)?;
    let rewards = Array2::from_shape_vec((n, sizes.players), out.rewards).map_err(shape)?;
    Ok((
        wanted.observe.then(|| obs.into_pyarray(py)),
        wanted.masks.then(|| mask.into_pyarray(py)),
        rewards.into_pyarray(py),
        Array1::from_vec(out.done).into_pyarray(py),
    ))
}

#[pymethods]
impl PyBatch {
    /// The action id that lets a game's built-in agent decide in `step` (-1).
    #[classattr]
    const AGENT: i64 = AGENT;

    /// The action id that leaves a game as it is in `step` (-2): the others move on.
    #[classattr]
    const WAIT: i64 = WAIT;

    /// `n` games (1 to 8,192) of `variant` with `players` seats: game `i` is game `i` of
    /// `tegula simulate --seed SEED` (its pile, and its agents `agents` cycled over the seats,
    /// default random). `radius` is the board window of observations and action ids;
    /// `threads` the threads each step uses (the GIL is released either way); `returns` what
    /// a finished game's rewards are: `"score"` (the final scores) or `"rank"` (wins minus
    /// losses against the other seats over `players - 1`).
    #[new]
    #[pyo3(signature = (variant, n, players = 2, seed = 0, agents = None, radius = observe::DEFAULT_RADIUS, threads = 1, returns = "score"))]
    #[allow(clippy::too_many_arguments)] // the batch's options, each with a default
    fn new(
        variant: &PyVariant,
        n: usize,
        players: u8,
        seed: u64,
        agents: Option<Vec<String>>,
        radius: u16,
        threads: usize,
        returns: &str,
    ) -> PyResult<PyBatch> {
        if n == 0 || n > MAX_GAMES {
            return Err(PyValueError::new_err(format!(
                "n = {n}: a batch has 1 to {MAX_GAMES} games"
            )));
        }
        if threads == 0 || threads > 1024 {
            return Err(PyValueError::new_err("threads must be between 1 and 1024"));
        }
        check_radius(&variant.inner, radius)?;
        let mut state = State {
            loaded: variant.inner.clone(),
            radius,
            players,
            seed,
            kinds: crate::sim::agent_kinds(&agents.unwrap_or_default())?,
            slots: Vec::new(),
            threads,
            returns: Returns::parse(returns)?,
            next: n as u64,
        };
        state.slots = (0..n as u64)
            .map(|i| state.slot(i))
            .collect::<Result<_, _>>()
            .map_err(SetupError::new_err)?;
        Ok(PyBatch {
            state: Mutex::new(state),
        })
    }

    /// Number of games.
    fn __len__(&self) -> PyResult<usize> {
        Ok(self.lock()?.slots.len())
    }

    /// Length of one observation (board planes then features, flattened, as
    /// `Game.observation_tensor`).
    #[getter]
    fn observation_size(&self) -> PyResult<usize> {
        Ok(self.lock()?.sizes().obs)
    }

    /// Length of one mask (`num_distinct_actions`).
    #[getter]
    fn num_distinct_actions(&self) -> PyResult<usize> {
        Ok(self.lock()?.sizes().actions)
    }

    /// Set every game up afresh (the same seeds: the same games again, game `i` in slot `i`).
    /// With `games` (indices), only those slots, each with the next game of the seeded run
    /// not yet played in this batch (`n`, `n + 1`, … in the order listed: an autoreset plays
    /// fresh games, reproducibly; `game_numbers` tells which). Returns `observe()` of every
    /// game with the same `observe` and `masks` flags (`observe=False`: no observation is
    /// built, the first element is None).
    #[pyo3(signature = (observe = true, masks = true, games = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        observe: bool,
        masks: bool,
        games: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Arrays<'py>> {
        {
            let mut st = self.lock()?;
            match games {
                None => {
                    let fresh = (0..st.slots.len() as u64)
                        .map(|i| st.slot(i))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(SetupError::new_err)?;
                    st.next = st.slots.len() as u64;
                    st.slots = fresh;
                }
                Some(g) => {
                    let picked = indices(g, st.slots.len())?;
                    for i in picked {
                        let number = st.next;
                        st.slots[i] = st.slot(number).map_err(SetupError::new_err)?;
                        st.next += 1;
                    }
                }
            }
        }
        self.observe(py, observe, masks, None)
    }

    /// The observation planes of every game (or of the games listed), as the seat to act
    /// sees them: `(planes, features)`, `planes` `(n, C, 2r+1, 2r+1)` of `dtype` (`"float32"`
    /// or `"uint8"`; channels in `Game.plane_channels()`), `features` `float32[n, F]` (the
    /// global features); a finished game's rows are zeros. Filled straight into the NumPy
    /// arrays with the GIL released.
    #[pyo3(signature = (dtype = "float32", games = None))]
    fn planes<'py>(
        &self,
        py: Python<'py>,
        dtype: &str,
        games: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray2<f32>>)> {
        let dtype = crate::planes_py::Dtype::parse(dtype)?;
        let mut guard = self.lock()?;
        let st: &mut State = &mut guard;
        let picked = match games {
            Some(g) => indices(g, st.slots.len())?,
            None => (0..st.slots.len()).collect(),
        };
        crate::batch_planes::planes(py, st_view(st), &picked, dtype)
    }

    /// Which game of the seeded run each slot holds, `int64[n]` (`tegula play --seed SEED
    /// --game NUMBER` plays it): `i` after setup or a full `reset`, later numbers after a
    /// `reset(games=…)`.
    fn game_numbers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let st = self.lock()?;
        let numbers = st.slots.iter().map(|s| s.number as i64);
        Ok(Array1::from_iter(numbers).into_pyarray(py))
    }

    /// The current observations (as the seat to act sees them) and masks, zero rewards, and
    /// done flags; a finished game's observation and mask are zeros. `observe=False` or
    /// `masks=False` leaves that output out (None). `games` (indices) asks for those games
    /// only, in that order: every array then has one row per index.
    #[pyo3(signature = (observe = true, masks = true, games = None))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        observe: bool,
        masks: bool,
        games: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Arrays<'py>> {
        let mut guard = self.lock()?;
        let st: &mut State = &mut guard;
        let wanted = Wanted { observe, masks };
        let sizes = wanted.sizes(st.sizes());
        let (loaded, radius) = (st.loaded.clone(), st.radius);
        let Some(games) = games else {
            let n = st.slots.len();
            let out = py.detach(|| {
                st.for_each(sizes, &|_, slot, mut part| {
                    fill(&loaded, radius, &slot.game, &mut part)
                })
            });
            return arrays(py, out, n, sizes, wanted);
        };
        let picked = indices(games, st.slots.len())?;
        // A unique borrow moves into the closure: the agents are Send, not Sync.
        let (slots, picked_ref): (&mut [Slot], &[usize]) = (&mut st.slots, &picked);
        let out = py.detach(move || {
            let mut out = Out::zeros(picked_ref.len(), sizes);
            for (k, &i) in picked_ref.iter().enumerate() {
                let mut part = out.part(k, sizes);
                fill(&loaded, radius, &slots[i].game, &mut part);
            }
            out
        });
        arrays(py, out, picked.len(), sizes, wanted)
    }

    /// Apply one action id per game (an array of any integer dtype or a list, `n` long;
    /// [`AGENT`] = -1: the game's built-in agent decides; [`WAIT`] = -2: the game stays as
    /// it is; anything is ignored for a finished game), then the seeded draws. Returns
    /// (observations, masks, rewards, done): rewards are the returns (`returns`) of the games
    /// that ended with this step, zeros otherwise; observations and masks are None when not asked
    /// for (`observe`, `masks`). If any action is not legal in its game, `IllegalActionError`
    /// names the game and no game is changed.
    #[pyo3(signature = (actions, observe = true, masks = true))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        observe: bool,
        masks: bool,
    ) -> PyResult<Arrays<'py>> {
        let n = self.lock()?.slots.len();
        let actions = crate::actions::many(actions, n)?;
        let mut guard = self.lock()?;
        let st: &mut State = &mut guard;
        // A unique borrow moves into the closure: the agents are Send, not Sync.
        let (mine, acts): (&mut State, &[i64]) = (&mut *st, &actions);
        let decoded = py
            .detach(move || decode_all(mine, acts))
            .map_err(|r| illegal(py, r.id, &r.kind, r.rule.as_deref(), r.msg))?;
        let wanted = Wanted { observe, masks };
        self.advance(py, st, wanted, &|i, slot| match decoded[i] {
            Choice::Skip => {}
            Choice::Agent => {
                sim::play_one(&mut slot.game, &mut slot.agents);
            }
            Choice::Play(a) => {
                // Checked legal above.
                let _ = slot.game.apply(a);
            }
        })
    }

    /// Let each unfinished game's agent of the seat to act make its decision (as `tegula
    /// simulate`'s agents do), then draw. Returns what `step` returns.
    #[pyo3(signature = (observe = true, masks = true))]
    fn step_agents<'py>(
        &self,
        py: Python<'py>,
        observe: bool,
        masks: bool,
    ) -> PyResult<Arrays<'py>> {
        let mut guard = self.lock()?;
        let wanted = Wanted { observe, masks };
        self.advance(py, &mut guard, wanted, &|_, slot| {
            sim::play_one(&mut slot.game, &mut slot.agents);
        })
    }

    /// Play every game to its end with its agents (the GIL released): the final scores,
    /// `float32[n, P]` (games already over keep theirs).
    fn play_agents<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let mut guard = self.lock()?;
        let st: &mut State = &mut guard;
        let sizes = Sizes {
            obs: 0,
            actions: 0,
            ..st.sizes()
        };
        let n = st.slots.len();
        let returns = st.returns;
        let out = py.detach(|| {
            st.for_each(sizes, &|_, slot, part| {
                while sim::play_one(&mut slot.game, &mut slot.agents) {}
                final_rewards(returns, &slot.game, part.rewards);
            })
        });
        let none = Wanted {
            observe: false,
            masks: false,
        };
        let (_, _, rewards, _) = arrays(py, out, n, sizes, none)?;
        Ok(rewards)
    }

    /// The seat to act in each game (-4 once over), `int64[n]`.
    fn current_players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let st = self.lock()?;
        let seats = st.slots.iter().map(|s| {
            if s.game.phase() == tegula_engine::Phase::Over {
                TERMINAL
            } else {
                i64::from(s.game.current_player())
            }
        });
        Ok(Array1::from_iter(seats).into_pyarray(py))
    }

    /// Current scores, `int64[n, P]`.
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let st = self.lock()?;
        let p = usize::from(st.players);
        let flat: Vec<i64> = st
            .slots
            .iter()
            .flat_map(|s| s.game.scores().iter().copied())
            .collect();
        let a = Array2::from_shape_vec((st.slots.len(), p), flat)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(a.into_pyarray(py))
    }

    /// A copy of game `i` as a `tegula.Game` (chance steps on: it continues as a Python game).
    fn game(&self, i: usize) -> PyResult<PyGame> {
        let st = self.lock()?;
        let slot = st.slots.get(i).ok_or_else(|| {
            PyValueError::new_err(format!("game {i}: the batch has {}", st.slots.len()))
        })?;
        Ok(PyGame::new(
            st.loaded.clone(),
            slot.game.clone(),
            None,
            st.radius,
        ))
    }

    fn __repr__(&self) -> PyResult<String> {
        let st = self.lock()?;
        Ok(format!(
            "tegula.Batch({:?}, n={}, players={}, seed={})",
            st.loaded.path.display().to_string(),
            st.slots.len(),
            st.players,
            st.seed
        ))
    }
}

impl PyBatch {
    /// Run `act` on every unfinished game, draw, and collect the outputs (GIL released).
    fn advance<'py>(
        &self,
        py: Python<'py>,
        st: &mut State,
        wanted: Wanted,
        act: &(dyn Fn(usize, &mut Slot) + Sync),
    ) -> PyResult<Arrays<'py>> {
        let sizes = wanted.sizes(st.sizes());
        let (loaded, radius, returns) = (st.loaded.clone(), st.radius, st.returns);
        let n = st.slots.len();
        let out = py.detach(|| {
            st.for_each(sizes, &|i, slot, mut part| {
                if slot.game.phase() != tegula_engine::Phase::Over {
                    act(i, slot);
                    settle(&mut slot.game);
                    final_rewards(returns, &slot.game, part.rewards);
                }
                fill(&loaded, radius, &slot.game, &mut part);
            })
        });
        arrays(py, out, n, sizes, wanted)
    }
}

/// The action id that lets a game's built-in agent decide (`Batch.step`).
pub const AGENT: i64 = -1;

/// The action id that leaves a game as it is for this step (`Batch.step`).
pub const WAIT: i64 = -2;

/// What a step does in one game.
#[derive(Clone, Copy)]
enum Choice {
    /// Nothing: the game is over.
    Skip,
    /// Its agent decides.
    Agent,
    /// This action (checked legal).
    Play(tegula_engine::Action),
}

/// The outputs a step is asked for besides rewards and done flags.
#[derive(Clone, Copy)]
struct Wanted {
    observe: bool,
    masks: bool,
}

impl Wanted {
    /// `full` without the outputs not asked for.
    fn sizes(self, full: Sizes) -> Sizes {
        Sizes {
            obs: if self.observe { full.obs } else { 0 },
            actions: if self.masks { full.actions } else { 0 },
            ..full
        }
    }
}

/// Why an action of a batch step was refused: the fields of `IllegalActionError`.
struct Refusal {
    id: i64,
    kind: String,
    rule: Option<String>,
    msg: String,
}

/// What each game's id asks for, or why the first game whose id is not a legal action refuses
/// it (no Python object: it runs without the GIL).
fn decode_all(st: &State, actions: &[i64]) -> Result<Vec<Choice>, Refusal> {
    let codec = &st.loaded.codec;
    let mut out = Vec::with_capacity(actions.len());
    for (i, (slot, &id)) in st.slots.iter().zip(actions).enumerate() {
        if slot.game.phase() == tegula_engine::Phase::Over {
            out.push(Choice::Skip);
            continue;
        }
        if id == AGENT {
            out.push(Choice::Agent);
            continue;
        }
        if id == WAIT {
            out.push(Choice::Skip);
            continue;
        }
        let frame = Frame::new(&slot.game, st.radius);
        let Some(action) = codec.decode(&frame, id) else {
            let msg = format!(
                "actions[{i}] = {id}: not an action of game {i}'s state (ids are 0..{}; -1 lets \
                 its agent decide, -2 waits)",
                codec.num_actions(st.radius)
            );
            let kind = "unknown-action".to_string();
            return Err(Refusal {
                id,
                kind,
                rule: None,
                msg,
            });
        };
        if let Err(e) = slot.game.check(action) {
            let rule = Some(slot.game.rule_of(&e).to_string()).filter(|r| !r.is_empty());
            let msg = format!("actions[{i}] = {id}: illegal in game {i}: {e}");
            let kind = e.kind().to_string();
            return Err(Refusal {
                id,
                kind,
                rule,
                msg,
            });
        }
        out.push(Choice::Play(action));
    }
    Ok(out)
}
