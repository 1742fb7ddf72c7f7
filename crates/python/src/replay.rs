//! The ids of a game's history. An action id is relative to the state it was applied in (its
//! window and tile slots), so a restored game finds its ids by replaying its decisions and draws
//! on a fresh game of the same variant and seats.

use tegula_engine::{Action, Game, PileOrder};

use crate::codec::Frame;
use crate::variant::Loaded;

/// The id of every step of `game`'s history (a draw's id is its tile index); -1 for a step the
/// replay could not reproduce or encode (a cell outside the window).
pub fn history_ids(loaded: &Loaded, game: &Game, radius: u16) -> Vec<i64> {
    let history = game.history();
    if history.is_empty() {
        return Vec::new();
    }
    let pile = PileOrder::Scripted(game.pile().to_vec());
    let fresh = Game::new(loaded.rules.clone(), game.players(), pile, false);
    // Chance steps must be on from the start (the first draw is a step), as the game had them.
    let Ok(mut fresh) = fresh.map(|g| match game.chance_steps() {
        true => g.with_chance_steps(),
        false => g,
    }) else {
        return vec![-1; history.len()];
    };
    let mut ids = Vec::with_capacity(history.len());
    for &action in history {
        let id = match action {
            Action::Draw(t) => Some(i64::from(t)),
            a => loaded.codec.encode(&Frame::new(&fresh, radius), a),
        };
        let applied = match action {
            Action::Draw(t) => fresh.apply_draw(t).is_ok(),
            a => fresh.apply(a).is_ok(),
        };
        if !applied {
            break;
        }
        ids.push(id.unwrap_or(-1));
    }
    ids.resize(history.len(), -1);
    ids
}
