//! The steps of a game's history as ids and seats. An action id is relative to the state it was
//! applied in (its window and tile slots), and whether a draw is hidden depends on the seat that
//! drew, so a restored game finds both by replaying its decisions and draws on a fresh game of
//! the same variant and seats.

use tegula_engine::{Action, Game, PileOrder};

use crate::codec::Frame;
use crate::variant::Loaded;

/// One step of the history: its id (a draw's id is its tile index; -1 for a step a replay could
/// not reproduce or encode) and the seat that decided it (for a draw, the seat that drew).
pub type Step = (i64, u8);

/// A fresh game of `game`'s variant, seats, pile and chance mode, before any step, recording
/// events if `record`. The pile is shuffled with `game`'s seed when it has one (so a log of the
/// replay names the same seed and pile), else scripted in `game`'s order.
pub fn fresh(loaded: &Loaded, game: &Game, record: bool) -> Option<Game> {
    let pile = match game.seed() {
        Some(seed) => PileOrder::Shuffled(seed),
        None => PileOrder::Scripted(game.setup_pile().to_vec()),
    };
    let fresh = Game::new(loaded.rules.clone(), game.players(), pile, record).ok()?;
    // Chance steps must be on from the start (the first draw is a step), as the game had them.
    Some(if game.chance_steps() {
        fresh.with_chance_steps()
    } else {
        fresh
    })
}

/// The seat deciding the next step of `game`: the drawing seat at a chance node.
pub fn seat(game: &Game) -> u8 {
    if game.is_chance_node() {
        game.turn_seat()
    } else {
        game.current_player()
    }
}

/// Apply one step of a history; whether the engine took it.
pub fn apply(game: &mut Game, action: Action) -> bool {
    match action {
        Action::Draw(t) => game.apply_draw(t).is_ok(),
        a => game.apply(a).is_ok(),
    }
}

/// The steps of `game`'s history.
pub fn history_steps(loaded: &Loaded, game: &Game, radius: u16) -> Vec<Step> {
    let history = game.history();
    if history.is_empty() {
        return Vec::new();
    }
    let Some(mut fresh) = fresh(loaded, game, false) else {
        return vec![(-1, 0); history.len()];
    };
    let mut steps = Vec::with_capacity(history.len());
    for &action in history {
        let id = match action {
            Action::Draw(t) => Some(i64::from(t)),
            a => loaded.codec.encode(&Frame::new(&fresh, radius), a),
        };
        let who = seat(&fresh);
        if !apply(&mut fresh, action) {
            break;
        }
        steps.push((id.unwrap_or(-1), who));
    }
    steps.resize(history.len(), (-1, 0));
    steps
}

/// `game` replayed with its events recorded (the Python API plays without them, so a clone
/// copies no event list; a log asks for them): `None` if the replay fails.
pub fn recorded(loaded: &Loaded, game: &Game) -> Option<Game> {
    let mut fresh = fresh(loaded, game, true)?;
    for &action in game.history() {
        if !apply(&mut fresh, action) {
            return None;
        }
    }
    Some(fresh)
}
