//! Presets: a position set by hand before the first placement (scores, supplies, pool tiles
//! held, where the threshold pairs stand, seat resources). They exist for hand-worked test
//! positions (scenario `[setup]`), which would otherwise need a scripted game reaching them; a normal game never
//! uses one. A preset is checked as a whole and refused with a reason, never half applied, and it
//! is part of the state: snapshots carry it, so a preset game reads back equal.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Action, Game, Phase};

/// A position set by hand. Empty parts leave the game's own values.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// Every seat's score, in seat order (empty: unchanged).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<u32>,
    /// Figures in supply: `(seat, follower type index, count)`, applied after `held` (whose
    /// takes add to supplies, W-2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supply: Vec<(u8, u8, u8)>,
    /// Pool tiles taken and not yet placed, `(seat, tile index)`: each leaves the open pool as if
    /// the seat had taken it (W-2: its take count, its gain and the pairs' move), and is offered
    /// from the seat's next turn on (W-5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<(u8, u16)>,
    /// Where the first shared track stands (the pool's threshold pairs, W-2), applied after
    /// `held`; at most the track's end. Written `pairs_at`, as before the thresholds became a
    /// rule of the one form.
    #[serde(default, rename = "pairs_at", skip_serializing_if = "Option::is_none")]
    pub track_at: Option<u32>,
    /// Seat resources held: `(seat, resource index, amount)` (docs/FORMAT.md, "Seat
    /// resources").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<(u8, u8, u32)>,
}

/// Why a preset is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PresetError {
    /// A tile has been placed (besides the start tile) or a preset was already applied.
    TooLate,
    /// `scores` does not list one score a seat.
    Seats {
        /// Scores given.
        given: usize,
        /// Seats in the game.
        players: u8,
    },
    /// A seat that does not exist.
    Seat(u8),
    /// A follower type index the rules do not have.
    Follower(u8),
    /// A tile that is not in the open pool (or the variant has no pool).
    NotInPool(u16),
    /// A track's position preset in a variant without a shared track, or past its end.
    NoTrack,
    /// A resource index the rules do not have.
    Resource(u8),
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PresetError::TooLate => {
                write!(f, "a preset applies once, before the first placement")
            }
            PresetError::Seats { given, players } => {
                write!(f, "{given} scores for {players} seats")
            }
            PresetError::Seat(s) => write!(f, "seat {s} does not exist"),
            PresetError::Follower(t) => write!(f, "follower type {t} does not exist"),
            PresetError::NotInPool(t) => write!(f, "tile {t} is not in the open pool"),
            PresetError::NoTrack => {
                write!(
                    f,
                    "the variant has no shared track there (the pool's pairs)"
                )
            }
            PresetError::Resource(r) => write!(f, "resource {r} does not exist"),
        }
    }
}

impl std::error::Error for PresetError {}

impl Game {
    /// Set a position by hand before the first placement (see [`Preset`]): the held pool tiles
    /// (taken as W-2 takes them), then the track, the supplies and the scores. Checked as a
    /// whole first: on an error nothing changes.
    pub fn preset(&mut self, p: Preset) -> Result<(), PresetError> {
        self.check_preset(&p)?;
        for &(seat, tile) in &p.held {
            self.preset_take(seat, tile);
        }
        if let (Some(at), Some(t)) = (p.track_at, self.rf.tracks.first_mut()) {
            t.at = at;
        }
        let nf = self.rules.figures.len();
        for &(seat, ftype, count) in &p.supply {
            self.seats.supply[seat as usize * nf + ftype as usize] = count;
        }
        if !p.scores.is_empty() {
            for (s, &given) in self.seats.scores.iter_mut().zip(&p.scores) {
                *s = crate::points::Score::from(given);
            }
        }
        let nr = self.rules.ruleset().resources.len();
        for &(seat, r, amount) in &p.resources {
            self.seats.holdings[seat as usize * nr + r as usize] = amount;
        }
        self.log.preset = Some(Box::new((self.log.history.len(), p)));
        Ok(())
    }

    /// The preset applied, if any, and the number of decisions made before it.
    pub fn preset_applied(&self) -> Option<(usize, &Preset)> {
        self.log.preset.as_deref().map(|(at, p)| (*at, p))
    }

    fn check_preset(&self, p: &Preset) -> Result<(), PresetError> {
        let placed = (self.log.history.iter()).any(|a| matches!(a, Action::Place(_)));
        let early = matches!(self.now.phase, Phase::Place | Phase::Hand | Phase::Draw);
        if placed || !early || self.log.preset.is_some() {
            return Err(PresetError::TooLate);
        }
        if !p.scores.is_empty() && p.scores.len() != self.seats.players as usize {
            let (given, players) = (p.scores.len(), self.seats.players);
            return Err(PresetError::Seats { given, players });
        }
        let seats = (p.held.iter().map(|h| h.0))
            .chain(p.supply.iter().map(|s| s.0))
            .chain(p.resources.iter().map(|r| r.0));
        if let Some(s) = seats.into_iter().find(|&s| s >= self.seats.players) {
            return Err(PresetError::Seat(s));
        }
        let nf = self.rules.figures.len();
        if let Some(s) = p.supply.iter().find(|s| usize::from(s.1) >= nf) {
            return Err(PresetError::Follower(s.1));
        }
        let nr = self.rules.ruleset().resources.len();
        if let Some(r) = p.resources.iter().find(|r| usize::from(r.1) >= nr) {
            return Err(PresetError::Resource(r.1));
        }
        let track = self.rf.tracks.first();
        if p.track_at
            .is_some_and(|at| track.is_none_or(|t| at > t.max))
        {
            return Err(PresetError::NoTrack);
        }
        let mut pool = self.w.pool.clone();
        for &(_, tile) in &p.held {
            let Some(i) = pool.iter().position(|&t| t == tile) else {
                return Err(PresetError::NotInPool(tile));
            };
            pool.remove(i);
        }
        Ok(())
    }
}
