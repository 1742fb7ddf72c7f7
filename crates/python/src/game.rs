//! `tegula.Game`: one game, driven by integer actions (OpenSpiel conventions).

use std::sync::Arc;

use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tegula_engine::{Action, Game, Phase};

use crate::chance;
use crate::codec::{action_text, Frame};
use crate::errors::{illegal, refused};
use crate::observe;
use crate::snapshot;
use crate::variant::Loaded;

/// OpenSpiel's `kChancePlayerId`.
pub const CHANCE: i64 = -1;
/// OpenSpiel's `kTerminalPlayerId`.
pub const TERMINAL: i64 = -4;

/// One game of a variant. Actions are ints (see `action_to_string` and docs/AI.md's action
/// encoding); at a chance node the actions are tile indices (`chance_outcomes`).
#[pyclass(name = "Game", module = "tegula._tegula")]
pub struct PyGame {
    pub(crate) loaded: Arc<Loaded>,
    pub(crate) game: Game,
    /// The seed given at setup (that of `tegula play --seed`); None for a restored snapshot.
    pub(crate) seed: Option<u64>,
    /// Half-width of the board window that action ids and observations refer to.
    pub(crate) radius: u16,
    /// The ids and seats of the actions and draws applied so far (an id is relative to the
    /// state it was applied in, so they are kept rather than recomputed).
    pub(crate) steps: Vec<crate::replay::Step>,
}

impl PyGame {
    /// Wrap a set-up or restored game; the ids of its history are found by replaying it. Its
    /// events are dropped and no longer recorded: a clone (a search's every node) then copies
    /// none, and `log_jsonl` replays the history to record them.
    pub fn new(loaded: Arc<Loaded>, mut game: Game, seed: Option<u64>, radius: u16) -> PyGame {
        game.set_recording(false);
        game.clear_events();
        let steps = crate::replay::history_steps(&loaded, &game, radius);
        PyGame {
            loaded,
            game,
            seed,
            radius,
            steps,
        }
    }

    /// The view of `player` (everything when None or when every seat sees everything).
    fn view(&self, player: Option<u8>) -> PyResult<observe::View> {
        if let Some(p) = player {
            self.seat_arg(p)?;
        }
        let hidden = !self.loaded.codec.perfect_information();
        Ok(observe::View(player.filter(|_| hidden)))
    }

    /// `Ok` if `player` is a seat of this game.
    fn seat_arg(&self, player: u8) -> PyResult<()> {
        if player < self.game.players() {
            return Ok(());
        }
        let msg = format!("seat {player}: the game has {} seats", self.game.players());
        Err(PyValueError::new_err(msg))
    }

    /// What this state's action ids refer to.
    pub(crate) fn frame(&self) -> Frame {
        Frame::new(&self.game, self.radius)
    }

    /// The legal actions as engine actions (none at a chance node or at the end).
    fn engine_actions(&self) -> Vec<Action> {
        if chance::is_chance_node(&self.game) {
            return Vec::new();
        }
        self.game.legal_actions()
    }

    /// The tile placed last (names the features a follower action refers to).
    pub(crate) fn last_tile(&self) -> Option<u16> {
        self.game.tiles().last().map(|t| t.tile)
    }

    /// Apply one action id (a tile index at a chance node).
    pub(crate) fn apply_id(&mut self, py: Python<'_>, id: i64) -> PyResult<()> {
        let seat = crate::replay::seat(&self.game);
        if chance::is_chance_node(&self.game) {
            chance::apply_draw(py, &mut self.game, id)?;
            self.steps.push((id, seat));
            return Ok(());
        }
        let codec = &self.loaded.codec;
        let Some(action) = codec.decode(&self.frame(), id) else {
            let msg = format!(
                "action {id} is not an action of this state (ids are 0..{}; a placement names \
                 a tile slot the player has)",
                codec.num_actions(self.radius)
            );
            return Err(illegal(py, id, "unknown-action", None, msg));
        };
        if self.game.phase() == Phase::Over {
            let msg = format!("action {id}: the game is over");
            return Err(illegal(py, id, "game-over", None, msg));
        }
        let text = action_text(&self.loaded.rules, action, self.last_tile());
        self.game
            .apply(action)
            .map_err(|e| refused(py, &self.game, id, &text, &e))?;
        self.steps.push((id, seat));
        Ok(())
    }

    /// Whether action id `action` would be accepted by `apply` now.
    pub(crate) fn is_legal_id(&self, action: i64) -> bool {
        if chance::is_chance_node(&self.game) {
            return chance::outcomes(&self.game).iter().any(|o| o.0 == action);
        }
        self.loaded
            .codec
            .decode(&self.frame(), action)
            .is_some_and(|a| self.game.is_legal(&a))
    }

    /// `radius` for an observation window if it is at most `max_radius`.
    fn window(&self, radius: u16) -> PyResult<u16> {
        crate::variant::check_radius(&self.loaded, radius).map(|()| radius)
    }
}

#[pymethods]
impl PyGame {
    /// A new game of the variant file at `path` or of the shipped variant of that name
    /// (`"base"`; compiled on each call: load a `tegula.Variant` once to make many games).
    #[staticmethod]
    /// `radius` is the half-width of the board window action ids refer to (at most the
    /// variant's board reach, `max_radius`).
    #[pyo3(signature = (path, players = 2, seed = 0, radius = observe::DEFAULT_RADIUS))]
    fn from_variant(
        py: Python<'_>,
        path: std::path::PathBuf,
        players: u8,
        seed: u64,
        radius: u16,
    ) -> PyResult<PyGame> {
        let path = crate::variant::resolve(py, path)?;
        let loaded = Arc::new(crate::variant::load(&path)?);
        crate::variant::new_game(&loaded, players, seed, radius)
    }

    /// Restore a game from `to_json` text; `variant` is a `tegula.Variant` or the path of the
    /// variant file (it must be the variant the snapshot was taken from); `radius` as in
    /// `from_variant`.
    #[staticmethod]
    #[pyo3(signature = (text, variant, radius = observe::DEFAULT_RADIUS))]
    fn from_json(text: &str, variant: &Bound<'_, PyAny>, radius: u16) -> PyResult<PyGame> {
        snapshot::restore(text, variant, radius)
    }

    /// The whole state as JSON text (the engine's `tegula-snapshot/1`: the pile in its hidden
    /// order, every decision and chance outcome, the events), for `from_json`.
    fn to_json(&self) -> String {
        self.game.to_json()
    }

    /// The engine's incremental Zobrist hash of the position (equal positions reached in
    /// different orders hash equally; the hidden pile order takes no part).
    fn state_hash(&self) -> u64 {
        self.game.state_hash()
    }

    /// Legal action ids of the player to act, ascending; the chance outcomes' tile indices at a
    /// chance node; empty when the game is over. A move outside the board window has no id;
    /// if every legal move is outside, `RuntimeError` (the game needs a larger `radius`).
    fn legal_actions(&self) -> PyResult<Vec<i64>> {
        if chance::is_chance_node(&self.game) {
            let outcomes = chance::outcomes(&self.game).into_iter();
            return Ok(outcomes.map(|o| o.0).collect());
        }
        let (codec, frame) = (&self.loaded.codec, self.frame());
        let moves = self.engine_actions();
        let mut ids: Vec<i64> = moves
            .iter()
            .filter_map(|&a| codec.encode(&frame, a))
            .collect();
        if ids.is_empty() && !moves.is_empty() {
            let msg = format!(
                "turn {}: every legal move lies outside the board window of radius {}; make the \
                 game with a larger radius (at most {})",
                self.game.turn(),
                self.radius,
                crate::variant::max_radius(&self.loaded)
            );
            return Err(pyo3::exceptions::PyRuntimeError::new_err(msg));
        }
        ids.sort_unstable();
        ids.dedup();
        Ok(ids)
    }

    /// `legal_actions` as a NumPy bool array: `num_distinct_actions` long for a player,
    /// as many as the variant's tile types at a chance node.
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let len = if chance::is_chance_node(&self.game) {
            self.game.rules().ruleset().tiles.len()
        } else {
            self.loaded.codec.num_actions(self.radius) as usize
        };
        let mut mask = vec![false; len];
        for id in self.legal_actions()? {
            if let Some(m) = usize::try_from(id).ok().and_then(|i| mask.get_mut(i)) {
                *m = true;
            }
        }
        Ok(PyArray1::from_vec(py, mask))
    }

    /// Whether `action` would be accepted by `apply` now.
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let action = match crate::actions::one(action, "action") {
            Ok(a) => a,
            // An integer beyond int64 is no action id: not legal.
            Err(e) if e.is_instance_of::<crate::errors::IllegalActionError>(action.py()) => {
                return Ok(false)
            }
            Err(e) => return Err(e),
        };
        Ok(self.is_legal_id(action))
    }

    /// Apply an action id (or, at a chance node, a tile index from `chance_outcomes`). An
    /// illegal action raises `IllegalActionError` and leaves the game unchanged. `corner`
    /// puts a follower action's corner figure on that board point, one of `corner_points`
    /// (AM-6); `history` then shows the step as -1 (no id names a corner but the first).
    #[pyo3(signature = (action, corner = None))]
    fn apply(
        &mut self,
        py: Python<'_>,
        action: &Bound<'_, PyAny>,
        corner: Option<(i32, i32)>,
    ) -> PyResult<()> {
        let action = crate::actions::one(action, "action")?;
        match corner {
            None => self.apply_id(py, action),
            Some(point) => crate::corners::apply(self, py, action, point),
        }
    }

    /// The board points `(x, y)` where follower action `action` may put its corner figure
    /// (AM-6; point `(x, y)` is the north-west corner of cell `(x, y)`): the first is where
    /// `apply(action)` puts it, `apply(action, corner=point)` names any. Empty for an action
    /// that is not a corner figure's.
    fn corner_points(&self, action: &Bound<'_, PyAny>) -> PyResult<Vec<(i32, i32)>> {
        let action = crate::actions::one(action, "action")?;
        crate::corners::points(self, action)
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.game.phase() == Phase::Over
    }

    /// At a chance node, draw the tile the seeded order draws (what `tegula play` draws with
    /// the same seed) and return its index.
    fn apply_default_draw(&mut self, py: Python<'_>) -> PyResult<i64> {
        let before = self.game.history().len();
        let seat = crate::replay::seat(&self.game);
        if !self.game.draw_default() {
            let msg = "apply_default_draw: not a chance node".to_string();
            return Err(illegal(py, -1, "wrong-phase", None, msg));
        }
        let tile = match self.game.history().get(before) {
            Some(Action::Draw(t)) => i64::from(*t),
            _ => -1,
        };
        self.steps.push((tile, seat));
        Ok(tile)
    }

    /// Whether the next step is a draw (a chance node).
    fn is_chance_node(&self) -> bool {
        chance::is_chance_node(&self.game)
    }

    /// `(tile index, probability)` pairs at a chance node (empty elsewhere).
    fn chance_outcomes(&self) -> Vec<(i64, f64)> {
        chance::outcomes(&self.game)
    }

    /// The seat to act; -1 at a chance node, -4 when the game is over (OpenSpiel's ids).
    fn current_player(&self) -> i64 {
        if self.game.phase() == Phase::Over {
            TERMINAL
        } else if chance::is_chance_node(&self.game) {
            CHANCE
        } else {
            i64::from(self.game.current_player())
        }
    }

    /// OpenSpiel returns: the final scores once the game is over, zeros before (rewards come
    /// at the end only). `scores()` gives the running scores.
    fn returns(&self) -> Vec<f64> {
        let over = self.game.phase() == Phase::Over;
        let s = self.game.scores().iter();
        s.map(|&v| if over { v as f64 } else { 0.0 }).collect()
    }

    /// Current scores by seat (below 0 only under a buy-back dearer than the seat's points).
    fn scores(&self) -> Vec<i64> {
        self.game.scores().to_vec()
    }

    /// Seat resources held (e.g. Traders & Builders' goods): by resource id, each seat's
    /// holding; empty when the variant declares none.
    fn resources(&self) -> std::collections::BTreeMap<String, Vec<u32>> {
        self.game.holdings_by_id()
    }

    /// Seats with the highest score (all of them tie).
    fn winners(&self) -> Vec<u32> {
        self.game.winners().into_iter().map(u32::from).collect()
    }

    /// An independent copy (a move in one does not change the other).
    fn clone(&self) -> PyGame {
        PyGame {
            loaded: self.loaded.clone(),
            game: self.game.clone(),
            seed: self.seed,
            radius: self.radius,
            steps: self.steps.clone(),
        }
    }

    /// Pickling by value (OpenSpiel serialises Python states with pickle): the snapshot, the
    /// variant's compiled artefact, its path (for messages), the radius and the seed;
    /// unpickling reads no file.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (String, String, String, u16, Option<u64>),
    )> {
        let restore = py.get_type::<PyGame>().getattr("_restore")?;
        let path = self.loaded.path.display().to_string();
        let artefact = crate::registry::artefact(&self.loaded);
        let state = (self.game.to_json(), artefact, path, self.radius, self.seed);
        Ok((restore, state))
    }

    /// Unpickling: a game from its snapshot and its variant's artefact (see `__reduce__`).
    #[staticmethod]
    fn _restore(
        snapshot: &str,
        artefact: &str,
        path: std::path::PathBuf,
        radius: u16,
        seed: Option<u64>,
    ) -> PyResult<PyGame> {
        let loaded = crate::registry::from_artefact(artefact, path)?;
        let mut g = snapshot::restore_loaded(snapshot, loaded, radius)?;
        g.seed = seed;
        Ok(g)
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    /// A readable name of an action id (`place H at 0,1 r3`, `follower meeple on feature 1
    /// (city-s)`, `pass`, …) or of a chance outcome (`draw H`). `player` says which: -1 for a
    /// chance outcome, a seat for an action; by default, whichever the current state expects.
    #[pyo3(signature = (action, player = None))]
    fn action_to_string(
        &self,
        py: Python<'_>,
        action: &Bound<'_, PyAny>,
        player: Option<i64>,
    ) -> PyResult<String> {
        let action = crate::actions::one(action, "action")?;
        let chance = player.map_or_else(|| chance::is_chance_node(&self.game), |p| p == CHANCE);
        if chance {
            return chance::outcome_text(py, &self.game, action);
        }
        let Some(a) = self.loaded.codec.decode(&self.frame(), action) else {
            let msg = format!("action {action} is not an action of this state");
            return Err(illegal(py, action, "unknown-action", None, msg));
        };
        Ok(action_text(&self.loaded.rules, a, self.last_tile()))
    }

    /// The action id as a dict: `{"kind": "place", "tile": 3, "x": 0, "y": 1, "rotation": 2}`,
    /// `{"kind": "follower", "feature": 1, "follower": 0}`, `{"kind": "move", "x", "y",
    /// "feature"}`, `{"kind": "take", "tile"}`, `{"kind": "seat", "seat"}`, `{"kind": "pass"}`.
    fn decode_action<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let action = crate::actions::one(action, "action")?;
        let Some(a) = self.loaded.codec.decode(&self.frame(), action) else {
            let msg = format!("action {action} is not an action of this state");
            return Err(PyValueError::new_err(msg));
        };
        crate::codec_py::action_dict(py, a)
    }

    /// The id of an action given as `decode_action` returns it.
    fn encode_action(&self, action: &Bound<'_, PyDict>) -> PyResult<i64> {
        let a = crate::codec_py::dict_action(action)?;
        let codec = &self.loaded.codec;
        codec.encode(&self.frame(), a).ok_or_else(|| {
            PyValueError::new_err("action outside the encoding (a cell outside the window or a tile the player cannot place)")
        })
    }

    /// Number of distinct action ids (OpenSpiel's `num_distinct_actions`).
    #[getter]
    fn num_distinct_actions(&self) -> i64 {
        self.loaded.codec.num_actions(self.radius)
    }

    /// Half-width of the board window the action ids and the default observation refer to.
    #[getter]
    fn radius(&self) -> u16 {
        self.radius
    }

    /// Number of seats.
    #[getter]
    fn players(&self) -> u8 {
        self.game.players()
    }

    /// The seed given at setup (None for a game restored from a snapshot).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Action ids and chance outcomes (tile indices) applied so far, in order (OpenSpiel's
    /// history).
    fn history(&self) -> Vec<i64> {
        self.steps.iter().map(|s| s.0).collect()
    }

    /// The phase: `pick`, `order`, `hand`, `draw`, `place`, `follower`, `move` or `over`.
    #[getter]
    fn phase(&self) -> &'static str {
        observe::phase_name(self.game.phase())
    }

    /// Tiles placed so far, counting the start tile.
    #[getter]
    fn turn(&self) -> u32 {
        self.game.turn()
    }

    /// The tile to place (tile index), or None outside the placing phase.
    #[getter]
    fn current_tile(&self) -> Option<u16> {
        (self.game.phase() == Phase::Place).then(|| self.game.current_tile())
    }

    /// Tiles left to draw, by tile index (a multiset: the order is hidden).
    fn remaining_counts(&self) -> Vec<u16> {
        self.game.remaining_counts().to_vec()
    }

    /// Followers of type `follower` that seat `player` has in supply.
    fn supply(&self, player: u8, follower: u8) -> u8 {
        self.game.supply(player, follower)
    }

    /// Placed tiles as `(tile index, x, y, rotation)`, in order of placement.
    fn tiles(&self) -> Vec<(u16, i32, i32, u8)> {
        let t = self.game.tiles();
        t.iter().map(|t| (t.tile, t.x, t.y, t.rotation)).collect()
    }

    /// Followers on the board as `(player, follower index, x, y, feature)`.
    fn followers(&self) -> Vec<(u8, u8, i32, i32, u8)> {
        let f = self.game.followers();
        f.iter()
            .map(|f| (f.player, f.follower, f.x, f.y, f.feature))
            .collect()
    }

    /// The game log as `tegula play --log` writes it (JSON Lines). The events are recorded
    /// by replaying the history (games from Python do not record them as they go, so that a
    /// clone copies none).
    fn log_jsonl(&self) -> PyResult<String> {
        let game = crate::replay::recorded(&self.loaded, &self.game).ok_or_else(|| {
            pyo3::exceptions::PyRuntimeError::new_err("the game's history did not replay")
        })?;
        Ok(tegula_engine::log::log_text(&game))
    }

    /// The observation as NumPy arrays: `{"board": float32[C, 2r+1, 2r+1], "features":
    /// float32[N]}` (layout in docs/AI.md, "Observation tensors"), centred on the
    /// placed tiles. `radius` is at most `max_radius` (a `ValueError` otherwise).
    #[pyo3(signature = (radius = None, player = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        radius: Option<u16>,
        player: Option<u8>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let radius = self.window(radius.unwrap_or(self.radius))?;
        observe::observation(py, &self.game, radius, self.view(player)?)
    }

    /// `board` and `features` of `observation` flattened into one float32 vector (OpenSpiel's
    /// observation tensor).
    #[pyo3(signature = (radius = None, player = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        radius: Option<u16>,
        player: Option<u8>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let radius = self.window(radius.unwrap_or(self.radius))?;
        let view = self.view(player)?;
        Ok(PyArray1::from_vec(
            py,
            observe::flat(&self.game, radius, view),
        ))
    }

    /// The observation planes for networks, `(C, 2r+1, 2r+1)` (channels in
    /// `plane_channels()`, docs/AI.md "Observation planes"), as seat `player` sees them (None: the
    /// full view). `dtype` `"float32"` or `"uint8"`; `out` an array of that shape to fill in place
    /// (no allocation: it is returned).
    #[pyo3(signature = (player = None, dtype = "float32", out = None))]
    fn observation_planes<'py>(
        &self,
        py: Python<'py>,
        player: Option<u8>,
        dtype: &str,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let dtype = crate::planes_py::Dtype::parse(dtype)?;
        let view = self.view(player)?;
        crate::planes_py::planes(py, &self.game, self.radius, view, dtype, out)
    }

    /// The names of the observation planes' channels, in order (`tile`, `edge:N:city`, …,
    /// `figure:0:meeple`, …, `fits:0`, …, `last`).
    fn plane_channels(&self) -> Vec<String> {
        let rs = self.game.rules().ruleset();
        let layout = crate::planes::Layout::new(rs, self.game.players());
        layout.names(rs, self.game.players())
    }

    /// The global features beside the planes (`observation()["features"]`: the seat to act,
    /// the phase, scores, supplies, the tile to place, the tiles left, resources, …) as seat
    /// `player` sees them, float32.
    #[pyo3(signature = (player = None))]
    fn observation_features<'py>(
        &self,
        py: Python<'py>,
        player: Option<u8>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let view = self.view(player)?;
        Ok(PyArray1::from_vec(
            py,
            observe::global_features(&self.game, view),
        ))
    }

    /// `(board shape, features length)` of `observation` for this game's variant and seats.
    #[pyo3(signature = (radius = None))]
    fn observation_shape(&self, radius: Option<u16>) -> PyResult<((usize, usize, usize), usize)> {
        let radius = self.window(radius.unwrap_or(self.radius))?;
        Ok(observe::shape(&self.game, radius))
    }

    /// The largest observation `radius`: the variant's board reach (no tile of a game lies
    /// farther from the start), or the default radius if that is more.
    #[getter]
    fn max_radius(&self) -> u16 {
        crate::variant::max_radius(&self.loaded)
    }

    /// The state as compact text (OpenSpiel's observation string): phase, seat, tile to
    /// place, scores, supplies, tiles left by type, placed tiles and figures. With `player`, in
    /// a variant with hidden tiles, what that seat sees (its kept tiles, not another's).
    #[pyo3(signature = (player = None))]
    fn observation_string(&self, player: Option<u8>) -> PyResult<String> {
        Ok(observe::state_text(&self.game, self.view(player)?))
    }

    /// What seat `player` knows (OpenSpiel's information state string): every decision in
    /// order and the draws it sees (`d?` for another seat's hidden draw, in variants where a
    /// seat holds tiles the others cannot see).
    fn information_state_string(&self, player: u8) -> PyResult<String> {
        self.seat_arg(player)?;
        Ok(crate::infostate::info_string(self, player))
    }

    /// What seat `player` knows as a float32 vector (OpenSpiel's information-state tensor), in
    /// a variant with hidden tiles only: `observation_tensor(radius, player)` followed by one
    /// entry per seat, the tiles that seat holds which `player` has not seen (docs/AI.md).
    /// Equal `information_state_string`s give equal tensors. In a variant of perfect
    /// information, a `ValueError`: the observation is the whole state there, and OpenSpiel's
    /// game type says no information-state tensor is provided.
    #[pyo3(signature = (player, radius = None))]
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        player: u8,
        radius: Option<u16>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        self.seat_arg(player)?;
        if self.loaded.codec.perfect_information() {
            let msg = "a variant of perfect information has no information-state tensor: use \
                       observation_tensor (the whole state)";
            return Err(PyValueError::new_err(msg));
        }
        let radius = self.window(radius.unwrap_or(self.radius))?;
        let v = crate::infostate::info_tensor(self, player, radius);
        Ok(PyArray1::from_vec(py, v))
    }

    /// A game seat `player` cannot tell from this one (OpenSpiel's `resample_from_infostate`):
    /// the tiles hidden from it are drawn again with `seed` from those it has not seen. In a
    /// variant of perfect information, a copy. If a few samples are all inconsistent (a hidden
    /// tile set aside as unplaceable), a copy too.
    fn resample_from_infostate(&self, player: u8, seed: u64) -> PyResult<PyGame> {
        self.seat_arg(player)?;
        let Some(game) = crate::infostate::resample(self, player, seed) else {
            return Ok(self.clone());
        };
        Ok(PyGame::new(self.loaded.clone(), game, None, self.radius))
    }

    /// The phase, the seat to act and its tile, the scores, then the board in ASCII (as
    /// `tegula play --board FILE.txt` draws it).
    fn __str__(&self) -> String {
        crate::text::game_text(&self.loaded.path, &self.game)
    }

    /// Equal when the variant (the same compiled rules), the radius and the whole state (the
    /// hidden pile order, every decision and draw) are: `g == g.clone()`, and a game equals
    /// itself restored from `to_json` or a pickle. Anything but a `Game` is unequal.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(other) = other.cast::<PyGame>() else {
            return false;
        };
        let Ok(other) = other.try_borrow() else {
            // Borrowed mutably elsewhere: only itself could be, and that is `self`.
            return false;
        };
        // The artefacts (the compiled rules) are compared last: only games of two loads of
        // a variant get that far.
        let same_rules = || {
            Arc::ptr_eq(&self.loaded, &other.loaded)
                || crate::registry::artefact(&self.loaded)
                    == crate::registry::artefact(&other.loaded)
        };
        self.radius == other.radius
            && crate::text::same_game(&self.game, &other.game)
            && same_rules()
    }

    /// The engine's Zobrist hash of the position (`state_hash`): equal games hash equally. A
    /// game is mutable: do not change one while it is a key of a dict or in a set.
    fn __hash__(&self) -> u64 {
        self.game.state_hash()
    }

    fn __repr__(&self) -> String {
        let id = &self.loaded.rules.ruleset().id;
        format!(
            "<tegula.Game {id} players={} turn={} phase={} scores={:?}>",
            self.game.players(),
            self.game.turn(),
            observe::phase_name(self.game.phase()),
            self.game.scores()
        )
    }
}
