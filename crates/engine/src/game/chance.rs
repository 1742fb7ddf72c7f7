//! Chance as a step: the draw (B-2) as a chance node. With chance steps on, every draw stops at
//! [`Phase::Draw`], where the outcomes are the remaining tile types weighted by their counts, and
//! [`Game::apply_draw`] (or [`Game::draw_default`], the seeded order) decides it. Without them
//! (the default) draws follow the seeded order inside the move, exactly as before.

use super::{Action, Game, MoveError, Phase, Resume};
use crate::rng::Rng;

/// [`Game::current_player`] during a chance step: no seat acts.
pub const CHANCE: u8 = u8::MAX;

impl Game {
    /// Whether the game waits for a chance outcome ([`Phase::Draw`]).
    pub fn is_chance_node(&self) -> bool {
        self.now.phase == Phase::Draw
    }

    /// Whether draws are chance steps ([`Game::set_chance_steps`]).
    pub fn chance_steps(&self) -> bool {
        self.deck.chance
    }

    /// Turn chance steps on or off. On: the next draw stops at [`Phase::Draw`] (the tile drawn
    /// so far stays). Off: draws follow the pile order inside the move again; a waiting chance
    /// step is decided by [`Game::draw_default`]. A game built with [`Game::with_chance_steps`]
    /// has them from the first draw.
    pub fn set_chance_steps(&mut self, on: bool) {
        self.deck.chance = on;
        if on {
            self.deck.revealed = self.deck.drawn;
        } else {
            self.deck.revealed = self.deck.pile.len();
            if self.now.phase == Phase::Draw {
                self.resume_draw();
            }
        }
    }

    /// The same game as [`Game::new`] with chance steps from the very first draw.
    pub fn with_chance_steps(mut self) -> Game {
        self.deck.chance = true;
        let pile = super::PileOrder::Scripted(self.deck.pile.clone());
        let seed = self.deck.seed;
        // Scripted with the same order: the board and the draws stay as built.
        if self.restart(pile).is_ok() {
            self.deck.seed = seed;
        }
        self
    }

    /// The remaining tiles as a multiset: how many of each tile type (by tile index) are still
    /// in the undrawn pile. This is what a player may know; the order is hidden.
    pub fn remaining_counts(&self) -> &[u16] {
        &self.deck.left
    }

    /// The outcomes of the chance step: each remaining tile type of the pile group being drawn
    /// with its probability (its count over the number of undrawn tiles of that group), by tile
    /// index. Empty outside [`Phase::Draw`].
    pub fn chance_outcomes(&self) -> Vec<(u16, f64)> {
        if self.now.phase != Phase::Draw {
            return Vec::new();
        }
        let group = self.drawing_group();
        let in_group = |&(t, _): &(usize, &u16)| self.rules.group(t as u16) == group;
        let counts = self.deck.left.iter().enumerate().filter(in_group);
        let total: u32 = counts.clone().map(|(_, &c)| u32::from(c)).sum();
        let mut out = Vec::new();
        for (t, &c) in counts {
            if c > 0 {
                out.push((t as u16, f64::from(c) / f64::from(total)));
            }
        }
        out
    }

    /// The pile group the next draw comes from: the first with tiles left (groups are drawn in
    /// order; 0 when the pile is one group).
    pub(super) fn drawing_group(&self) -> u8 {
        if self.rules.group_of.is_empty() {
            return 0;
        }
        let left = self.deck.left.iter().enumerate().filter(|&(_, &c)| c > 0);
        left.map(|(t, _)| self.rules.group(t as u16))
            .min()
            .unwrap_or(0)
    }

    /// Whether a chance step may draw `tile`: one is left and it is of the group being drawn.
    pub(super) fn may_draw(&self, tile: u16) -> bool {
        let left = self.deck.left.get(tile as usize).is_some_and(|&c| c > 0);
        left && self.rules.group(tile) == self.drawing_group()
    }

    /// Decide the chance step: `tile` is drawn (it must be among the remaining tiles). On error
    /// the game is unchanged.
    pub fn apply_draw(&mut self, tile: u16) -> Result<(), MoveError> {
        if self.now.phase != Phase::Draw {
            return Err(MoveError::WrongPhase {
                phase: self.now.phase,
            });
        }
        if !self.may_draw(tile) {
            return Err(MoveError::NotInPile { tile });
        }
        let Some(i) = self.deck.pile[self.deck.drawn..]
            .iter()
            .position(|&t| t == tile)
        else {
            return Err(MoveError::NotInPile { tile });
        };
        self.deck.pile.swap(self.deck.drawn, self.deck.drawn + i);
        self.log.history.push(Action::Draw(tile));
        self.resume_draw();
        Ok(())
    }

    /// Decide the chance step by the seeded order: the next tile of the pile, the tile a game
    /// without chance steps draws. Returns false outside [`Phase::Draw`].
    pub fn draw_default(&mut self) -> bool {
        if self.now.phase != Phase::Draw {
            return false;
        }
        self.log
            .history
            .push(Action::Draw(self.deck.pile[self.deck.drawn]));
        self.resume_draw();
        true
    }

    /// Shuffle the undrawn part of the pile with `seed` (a redeal for information-set search:
    /// one sample of the hidden order consistent with what the players know). The remaining
    /// multiset, and so [`Game::state_hash`], is unchanged; what was drawn stays.
    pub fn determinize(&mut self, seed: u64) {
        let mut from = self.deck.drawn.min(self.deck.pile.len());
        let mut rng = Rng::new(seed);
        if self.rules.group_of.is_empty() {
            rng.shuffle(&mut self.deck.pile[from..]);
            return;
        }
        // Each pile group's undrawn part on its own: the groups stay in order.
        while from < self.deck.pile.len() {
            let group = self.rules.group(self.deck.pile[from]);
            let rest = &self.deck.pile[from..];
            let len = rest.iter().position(|&t| self.rules.group(t) != group);
            let end = from + len.unwrap_or(rest.len());
            rng.shuffle(&mut self.deck.pile[from..end]);
            from = end;
        }
    }

    /// The tile at `drawn` is decided: draw it and go on where the draw stopped.
    pub(super) fn resume_draw(&mut self) {
        self.deck.revealed = if self.deck.chance {
            self.deck.drawn + 1
        } else {
            self.deck.pile.len()
        };
        // Reset before resuming, so that a game that never stops has the same state.
        match std::mem::replace(&mut self.deck.resume, Resume::Draw) {
            Resume::Draw => self.draw(),
            Resume::W6(pooled) => self.w6_draw(pooled),
        }
        if self.deck.chance {
            self.deck.revealed = self.deck.drawn;
        }
    }

    /// The next tile of the pile (the caller checked that one is left), or `None` after entering
    /// a chance step that resumes `resume`.
    #[inline]
    pub(super) fn next_tile(&mut self, resume: Resume) -> Option<u16> {
        if self.deck.drawn >= self.deck.revealed {
            self.now.phase = Phase::Draw;
            self.deck.resume = resume;
            return None;
        }
        let t = self.deck.pile[self.deck.drawn];
        self.deck.drawn += 1;
        self.deck.left[t as usize] -= 1;
        self.zobrist = self.zobrist.wrapping_sub(self.rules.left_keys[t as usize]);
        Some(t)
    }

    /// The game ends: the undrawn pile leaves the game.
    pub(super) fn drop_pile(&mut self) {
        self.deck.drawn = self.deck.pile.len();
        self.deck.revealed = self.deck.pile.len();
        self.zobrist = self.zobrist.wrapping_sub(self.left_hash());
        self.deck.left.fill(0);
    }

    /// Count the pile's tiles by type (setup).
    pub(super) fn count_pile(&mut self) {
        self.deck.left.clear();
        self.deck.left.resize(self.rules.tiles.len(), 0);
        for &t in &self.deck.pile {
            self.deck.left[t as usize] += 1;
        }
        self.deck.revealed = if self.deck.chance {
            0
        } else {
            self.deck.pile.len()
        };
    }
}
