//! `str(game)`: the state for a person at a terminal — the phase, the seat to act and the tile
//! to place, then the board as `tegula play --board FILE.txt` draws it (every placed tile as a
//! 9×5 block, figures by seat letter, a key and the score table; `tegula_render::ascii`).
//!
//! The pictures need the variant's compiled tile drawings, which the rules do not carry: they
//! are compiled from the variant file once per process and kept by path. A game whose variant
//! file is gone (unpickled elsewhere from its artefact) prints its tiles as a list instead.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tegula_engine::{Game, Phase};
use tegula_model::compile::CompiledTile;
use tegula_render::board::BoardView;

use crate::observe;

/// Compiled drawings by variant file (None: the file did not compile).
type Drawings = Option<Arc<Vec<CompiledTile>>>;

static DRAWINGS: Mutex<Vec<(PathBuf, Drawings)>> = Mutex::new(Vec::new());

/// The tile drawings of the variant at `path`, compiled on first use.
fn drawings(path: &Path, tiles: usize) -> Drawings {
    let mut cache = DRAWINGS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, d)) = cache.iter().find(|(p, _)| p == path) {
        return d.clone();
    }
    let (compiled, _) = tegula_model::variant::compile_variant(path);
    // Drawings of another tile list (the file changed since the rules were built) would draw
    // the wrong tiles: none then.
    let d = compiled
        .map(|v| v.tiles)
        .filter(|t| t.len() == tiles)
        .map(Arc::new);
    cache.push((path.to_path_buf(), d.clone()));
    d
}

/// The first line: the phase, the seat to act and what it places (the board's title names
/// the variant and the turn).
fn headline(game: &Game) -> String {
    let rules = game.rules();
    let mut s = format!("phase {}", observe::phase_name(game.phase()));
    if game.phase() == Phase::Over {
        let w: Vec<String> = game.winners().iter().map(u8::to_string).collect();
        s.push_str(&format!(", over: seat {} won", w.join(" and ")));
    } else if crate::chance::is_chance_node(game) {
        s.push_str(", a tile to draw (chance)");
    } else {
        s.push_str(&format!(", seat {} to act", game.current_player()));
        if game.phase() == Phase::Place {
            s.push_str(&format!(", placing {}", rules.tile_id(game.current_tile())));
        }
    }
    s
}

/// `str(game)`: the headline, the scores, then the ASCII board (or the tile list).
pub fn game_text(path: &Path, game: &Game) -> String {
    let mut s = headline(game);
    s.push('\n');
    s.push_str(&format!("scores {:?}\n", game.scores()));
    let names: Vec<String> = (0..game.players()).map(|p| format!("seat {p}")).collect();
    match drawings(path, game.rules().ruleset().tiles.len()) {
        Some(d) => {
            let view = BoardView::from_game(game, &d, &names);
            s.push_str(&tegula_render::ascii::board_ascii(&view));
        }
        None => {
            s.push_str("board (no drawings: the variant file is not at hand):");
            s.push_str(&observe::state_text(game, observe::View(None)));
            s.push('\n');
        }
    }
    s
}

/// Equality of two games' positions and hidden state: the engine's snapshots (pile order,
/// every decision and draw) compared as text, cheaper checks first.
pub fn same_game(a: &Game, b: &Game) -> bool {
    a.players() == b.players()
        && a.turn() == b.turn()
        && a.state_hash() == b.state_hash()
        && a.history().len() == b.history().len()
        && a.to_json() == b.to_json()
}
