//! What one seat knows (OpenSpiel's information state) in variants with hidden tiles, and
//! resampling a state consistent with it (`resample_from_infostate`, for information-set
//! search such as OpenSpiel's ISMCTS).
//!
//! A draw is hidden from every seat but the one that drew when the variant is not of perfect
//! information (a hand of tiles, W-12's kept tiles): the tile stays in that seat's hand until
//! placed. Decisions are public, and a placement reveals its tile.

use std::collections::HashMap;

use tegula_engine::{Action, Game, Rng};

use crate::game::PyGame;
use crate::observe;
use crate::replay;

/// Resampling tries this many draws of the hidden tiles before keeping the state as it is (a
/// draw the engine set aside as unplaceable, B-2, can make a sample inconsistent).
const TRIES: u64 = 32;

/// A decision as short text (tile indices, coordinates, slots).
fn step_text(action: Action) -> String {
    match action {
        Action::Pass => "-".to_string(),
        Action::Take(t) => format!("t{t}"),
        Action::Seat(s) => format!("s{s}"),
        Action::Place(p) => format!("p{}@{},{}/{}", p.tile, p.x, p.y, p.rotation),
        Action::Follower(o) => format!("f{}.{}", o.feature, o.follower),
        Action::Corner(c) => {
            let (o, [x, y]) = (c.option, c.point);
            format!("f{}.{}@{x},{y}", o.feature, o.follower)
        }
        Action::Move(m) => format!("m{},{}#{}", m.x, m.y, m.feature),
        Action::Draw(t) => format!("d{t}"),
        other => format!("{other:?}"),
    }
}

/// Whether seat `player` sees the draw `seat` made.
fn sees(g: &PyGame, player: u8, seat: u8) -> bool {
    g.loaded.codec.perfect_information() || seat == player
}

/// The information state of `player`: every step in order, each seat's decisions, and the draws
/// `player` sees (`d?` for another seat's hidden draw). Two states with equal strings are alike
/// to `player`.
pub fn info_string(g: &PyGame, player: u8) -> String {
    let mut s = format!("seat {player}:");
    for (&action, &(_, seat)) in g.game.history().iter().zip(&g.steps) {
        match action {
            Action::Draw(_) if !sees(g, player, seat) => s.push_str(" d?"),
            Action::Draw(t) => s.push_str(&format!(" d{t}")),
            a => s.push_str(&format!(" {seat}:{}", step_text(a))),
        }
    }
    s
}

/// The draws `player` cannot see whose tile no later placement revealed, as history indices,
/// and the known tile of every other draw (`known[i]`).
fn unknown_draws(g: &PyGame, player: u8) -> (Vec<usize>, Vec<Option<u16>>) {
    let history = g.game.history();
    let mut known = vec![None; history.len()];
    // Per seat, the hidden draws still in its hand, with their true tiles (the true tile only
    // picks which of the hand's interchangeable unknowns a placement reveals).
    let mut hands: HashMap<u8, Vec<(usize, u16)>> = HashMap::new();
    for (i, (&action, &(_, seat))) in history.iter().zip(&g.steps).enumerate() {
        match action {
            Action::Draw(t) if sees(g, player, seat) => known[i] = Some(t),
            Action::Draw(t) => hands.entry(seat).or_default().push((i, t)),
            Action::Place(p) => {
                let hand = hands.entry(seat).or_default();
                if let Some(k) = hand.iter().position(|h| h.1 == p.tile) {
                    known[hand.remove(k).0] = Some(p.tile);
                }
            }
            _ => {}
        }
    }
    let mut unknown: Vec<usize> = hands.into_values().flatten().map(|h| h.0).collect();
    unknown.sort_unstable();
    (unknown, known)
}

/// The information-state tensor of `player` in a variant with hidden tiles: its observation
/// tensor (its own view: another seat's tiles left out, the tiles it has not seen counted as
/// undrawn) followed by, per seat, how many of that seat's draws `player` has not seen and no
/// placement has revealed yet (the tiles the seat holds unseen). A function of the information
/// state: equal `info_string`s give equal tensors.
pub fn info_tensor(g: &PyGame, player: u8, radius: u16) -> Vec<f32> {
    let mut v = observe::flat(&g.game, radius, observe::View(Some(player)));
    let mut held = vec![0.0f32; usize::from(g.game.players())];
    for i in unknown_draws(g, player).0 {
        if let Some(h) = g.steps.get(i).and_then(|s| held.get_mut(usize::from(s.1))) {
            *h += 1.0;
        }
    }
    v.extend(held);
    v
}

/// A state `player` cannot tell from `g`'s: the tiles of the draws hidden from it and not yet
/// revealed are drawn again, without replacement, from the tiles it has not seen, and the
/// history is replayed with them. `None` if no consistent sample was found in a few tries.
pub fn resample(g: &PyGame, player: u8, seed: u64) -> Option<Game> {
    if g.loaded.codec.perfect_information() {
        return Some(g.game.clone());
    }
    let (unknown, known) = unknown_draws(g, player);
    // The tiles `player` has not seen: the pile's multiset less every known draw.
    let mut unseen: Vec<u16> = g.game.pile().to_vec();
    for t in known.iter().flatten() {
        if let Some(k) = unseen.iter().position(|u| u == t) {
            unseen.swap_remove(k);
        }
    }
    unseen.sort_unstable();
    (0..TRIES).find_map(|k| {
        let mut rng = Rng::new(seed.wrapping_add(k));
        let mut pool = unseen.clone();
        let mut draws = known.clone();
        for &i in &unknown {
            if pool.is_empty() {
                return None;
            }
            let j = rng.below(pool.len() as u32) as usize;
            draws[i] = Some(pool.swap_remove(j));
        }
        replay_with(g, &draws)
    })
}

/// `g`'s history replayed on a fresh game with the draws' tiles replaced by `draws`.
fn replay_with(g: &PyGame, draws: &[Option<u16>]) -> Option<Game> {
    let mut game = replay::fresh(&g.loaded, &g.game, false)?;
    for (&action, draw) in g.game.history().iter().zip(draws) {
        let step = match (action, draw) {
            (Action::Draw(_), Some(t)) => Action::Draw(*t),
            (a, _) => a,
        };
        if !replay::apply(&mut game, step) {
            return None;
        }
    }
    Some(game)
}
