//! `tegula.Variant`: a variant file loaded, checked and compiled once, shared by its games.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use tegula_engine::{sim, Game, PileOrder, Rules};
use tegula_model::diag::Diagnostic;

use crate::codec::Codec;
use crate::errors::{SetupError, VariantError};
use crate::game::PyGame;
use crate::observe::DEFAULT_RADIUS;

/// A playable variant: its rules (checked and precomputed once) and its action encoding.
pub struct Loaded {
    /// The file it came from, as given.
    pub path: PathBuf,
    /// The engine's rules.
    pub rules: Arc<Rules>,
    /// The action encoding.
    pub codec: Codec,
}

/// One diagnostic as a line: `file:line:column: severity[code]: message`.
fn diag_line(d: &Diagnostic) -> String {
    let sev = if d.is_error() { "error" } else { "warning" };
    let at = format!("{}:{}:{}", d.at.file.display(), d.at.line, d.at.column);
    format!("{at}: {sev}[{}]: {}", d.code.as_str(), d.message)
}

/// Load and lower a variant file: a missing file raises `FileNotFoundError`, anything that is
/// not a playable variant raises `VariantError` with every diagnostic in the message.
pub fn load(path: &Path) -> PyResult<Loaded> {
    if !path.is_file() {
        let msg = format!("{} is not a file", path.display());
        return Err(PyFileNotFoundError::new_err(msg));
    }
    if let Ok(source) = tegula_model::load::read_source(path) {
        use tegula_model::validate::{classify, FileKind};
        if !matches!(classify(&source.text), FileKind::Variant) {
            let msg = format!("{} is not a variant file", path.display());
            return Err(VariantError::new_err(msg));
        }
    }
    let (ruleset, diags) = tegula_model::variant::build_variant(path);
    let Some(ruleset) = ruleset else {
        let lines: Vec<String> = diags
            .iter()
            .filter(|d| d.is_error())
            .map(diag_line)
            .collect();
        let msg = format!(
            "the variant {} cannot be played:\n{}",
            path.display(),
            lines.join("\n")
        );
        return Err(VariantError::new_err(msg));
    };
    let rules = Rules::new(ruleset)
        .map_err(|e| VariantError::new_err(format!("{}: {e}", path.display())))?;
    Ok(Loaded {
        path: path.to_path_buf(),
        codec: Codec::new(&rules),
        rules: Arc::new(rules),
    })
}

/// A variant loaded from its TOML file (inheritance resolved, validated, compiled, lowered).
/// Make games with `new_game`; loading once and making many games saves the compile.
#[pyclass(name = "Variant", module = "tegula._tegula", frozen)]
pub struct PyVariant {
    pub(crate) inner: Arc<Loaded>,
}

#[pymethods]
impl PyVariant {
    /// Load `path` (e.g. `"variants/base.toml"`), or the shipped variant of that name
    /// (`"base"`, `"house/hand-3"`: `tegula.variants`).
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<PyVariant> {
        Ok(PyVariant {
            inner: Arc::new(load(&resolve(py, path)?)?),
        })
    }

    /// A new game with `players` seats. `seed` is the seed of `tegula play --seed`: the pile is
    /// shuffled exactly as that command shuffles it. `radius` is the half-width of the board
    /// window action ids and observations refer to (at most `max_radius`).
    #[pyo3(signature = (players = 2, seed = 0, radius = DEFAULT_RADIUS))]
    fn new_game(&self, players: u8, seed: u64, radius: u16) -> PyResult<PyGame> {
        new_game(&self.inner, players, seed, radius)
    }

    /// Pickling by value: the compiled artefact and the path (for messages); unpickling reads
    /// no file.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let restore = py.get_type::<PyVariant>().getattr("_from_artefact")?;
        let path = self.inner.path.display().to_string();
        Ok((restore, (crate::registry::artefact(&self.inner), path)))
    }

    /// A variant from its compiled artefact (the JSON of `tegula compile --format json`);
    /// `path` names it in messages.
    #[staticmethod]
    fn _from_artefact(text: &str, path: PathBuf) -> PyResult<PyVariant> {
        Ok(PyVariant {
            inner: crate::registry::from_artefact(text, path)?,
        })
    }

    /// The variant's id (`base`, `abbey-mayor`, …).
    #[getter]
    fn id(&self) -> String {
        self.inner.rules.ruleset().id.clone()
    }

    /// The file it was loaded from.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.path.clone()
    }

    /// Allowed player counts `(min, max)`.
    #[getter]
    fn player_range(&self) -> (u8, u8) {
        let rs = self.inner.rules.ruleset();
        (rs.min_players, rs.max_players)
    }

    /// The draw pile's ordered groups, each a list of tile indices: a chance step draws only
    /// from the first group with tiles left (R-2's kind), the tiles of no group last. Empty when
    /// the pile is one group.
    #[getter]
    fn pile_groups(&self) -> Vec<Vec<u16>> {
        let rs = self.inner.rules.ruleset();
        rs.pile_groups.iter().map(|g| g.tiles.clone()).collect()
    }

    /// Tile type ids, by tile index (the chance outcomes and the `tile` of actions).
    #[getter]
    fn tile_ids(&self) -> Vec<String> {
        let rs = self.inner.rules.ruleset();
        rs.tiles.iter().map(|t| t.id.clone()).collect()
    }

    /// Follower type ids, by follower index.
    #[getter]
    fn follower_ids(&self) -> Vec<String> {
        let rs = self.inner.rules.ruleset();
        rs.followers.iter().map(|f| f.id.clone()).collect()
    }

    /// Number of distinct action ids of this variant's games (any player count) with a board
    /// window of `radius`.
    #[pyo3(signature = (radius = DEFAULT_RADIUS))]
    fn num_distinct_actions(&self, radius: u16) -> i64 {
        self.inner.codec.num_actions(radius)
    }

    /// The largest window `radius`: the variant's board reach, or the default radius if that
    /// is more.
    #[getter]
    fn max_radius(&self) -> u16 {
        max_radius(&self.inner)
    }

    /// Whether every seat sees everything (OpenSpiel's perfect information; the draws stay
    /// chance nodes): no seat holds more than one tile, from the variant's hand size and its
    /// tiles' abilities. False for a hand of tiles (house rule) or kept tiles (W-12).
    #[getter]
    fn perfect_information(&self) -> bool {
        self.inner.codec.perfect_information()
    }

    /// Tiles that can be placed in a game with `players` seats: the pile, the open pool and
    /// every seat's own tiles (the start tile not counted).
    #[pyo3(signature = (players = 2))]
    fn pieces(&self, players: u8) -> PyResult<usize> {
        let players = seats(&self.inner.rules, players)?;
        Ok(pieces(&self.inner.rules, players))
    }

    /// An upper bound on any seat's final score in a game with `players` seats, proven from the
    /// variant's rules and pieces alone (every point the score events of a game can pay that
    /// seat; docs/AI.md, "Utility bounds", has the method): OpenSpiel's `max_utility`. Within
    /// 5× of the best scores seen for base, the house rules on it, Traders & Builders, the
    /// guilds and the variants of `[[when]]` rules (abbot, goldmines, king & robber baron,
    /// little buildings); 16–60× with Abbey & Mayor's barns and 19–21× with the wonders, whose
    /// worst cases counting cannot rule out (docs/AI.md says why); `returns="rank"` is bounded
    /// exactly. A variant whose rule's value feeds itself has no bound: `4294967295`.
    #[pyo3(signature = (players = 2))]
    fn max_score(&self, players: u8) -> PyResult<u32> {
        let players = seats(&self.inner.rules, players)?;
        Ok(crate::bounds::max_score(&self.inner.rules, players))
    }

    /// A lower bound on any seat's final score in a game with `players` seats: 0, or below 0
    /// where a buy-back may cost more points than the payer has (TO-7's other reading,
    /// `variants/house/to7-ransom-below-zero.toml`; docs/AI.md, "Utility bounds"): OpenSpiel's
    /// `min_utility` with score returns.
    #[pyo3(signature = (players = 2))]
    fn min_score(&self, players: u8) -> PyResult<i64> {
        let players = seats(&self.inner.rules, players)?;
        Ok(crate::bounds::min_score(&self.inner.rules, players))
    }

    /// An upper bound on the steps of a game with `players` seats, chance steps included: per
    /// piece a draw, a placement, up to two follower decisions and a figure move per seat, plus
    /// the pool's picks and seat choices.
    #[pyo3(signature = (players = 2))]
    fn max_game_length(&self, players: u8) -> PyResult<usize> {
        let players = seats(&self.inner.rules, players)?;
        let p = players as usize;
        let pool = self.inner.rules.ruleset().pool.as_ref();
        let picks = pool.map_or(0, |w| w.tiles.len() * (1 + p));
        Ok(pieces(&self.inner.rules, players) * (4 + p) + picks + 1)
    }

    fn __repr__(&self) -> String {
        format!(
            "tegula.Variant({:?})",
            self.inner.path.display().to_string()
        )
    }
}

/// The largest window radius of a variant's games.
pub fn max_radius(loaded: &Loaded) -> u16 {
    let reach = u16::try_from(loaded.codec.reach()).unwrap_or(u16::MAX);
    reach.max(DEFAULT_RADIUS)
}

/// `Ok` if `radius` is at most the variant's `max_radius`: past the board's reach every cell is
/// empty, and the window's size grows with its square (radius 2,000 would ask for some 2 GB).
pub fn check_radius(loaded: &Loaded, radius: u16) -> PyResult<()> {
    let max = max_radius(loaded);
    if radius <= max {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "window radius {radius} is more than this variant's board reach, {max}"
    )))
}

/// `path` itself if it ends in `.toml` or names a file; else the file of the shipped variant
/// of that name (`tegula.variants.path`, which raises `FileNotFoundError` for an unknown one).
pub fn resolve(py: Python<'_>, path: PathBuf) -> PyResult<PathBuf> {
    if path.extension().is_some_and(|e| e == "toml") || path.is_file() {
        return Ok(path);
    }
    let variants = py.import("tegula.variants")?;
    variants.call_method1("path", (path,))?.extract()
}

/// Set up a seeded game as `tegula play --seed SEED` does.
pub fn new_game(loaded: &Arc<Loaded>, players: u8, seed: u64, radius: u16) -> PyResult<PyGame> {
    check_radius(loaded, radius)?;
    let (pile_seed, _) = sim::game_seeds(seed, 0, players);
    let game = Game::new(
        loaded.rules.clone(),
        players,
        PileOrder::Shuffled(pile_seed),
        false,
    )
    .map_err(|e| SetupError::new_err(e.to_string()))?
    .with_chance_steps();
    Ok(PyGame::new(loaded.clone(), game, Some(seed), radius))
}

/// The seeds `tegula play --seed SEED` uses: the pile's and one per seat for the agents.
#[pyfunction]
pub fn play_seeds(seed: u64, players: u8) -> PyResult<(u64, Vec<u64>)> {
    if players == 0 {
        return Err(PyValueError::new_err("players must be at least 1"));
    }
    Ok(sim::game_seeds(seed, 0, players))
}

/// `players` if the variant allows that many seats; a `ValueError` otherwise (a count outside
/// the range describes no game, so no size computed from it means anything).
fn seats(rules: &Rules, players: u8) -> PyResult<u8> {
    let rs = rules.ruleset();
    let (min, max) = (rs.min_players, rs.max_players);
    if (min..=max).contains(&players) {
        return Ok(players);
    }
    Err(PyValueError::new_err(format!(
        "{players} players; the variant allows {min} to {max}"
    )))
}

/// Tiles placeable in a game with `players` seats (pile, pool, own tiles).
fn pieces(rules: &Rules, players: u8) -> usize {
    let rs = rules.ruleset();
    let pool = rs.pool.as_ref().map_or(0, |w| w.tiles.len());
    let own: usize = rs.player_tiles.iter().map(|t| t.count as usize).sum();
    rules.pile().len() + pool + own * players as usize
}
