//! The board array, sized to what is placed: it starts small around the start tile and doubles
//! (re-centred) when a tile comes within a margin of its edge, up to the width the whole pile
//! could need (`full_width`, fixed at setup). A mid-game clone copies a few KiB instead of the
//! ~90 KiB a board for the whole pile took. Coordinates outside the array but inside the full
//! board are empty cells; outside the full board placements are [`MoveError::OutOfBoard`].
//!
//! [`MoveError::OutOfBoard`]: super::MoveError::OutOfBoard

use super::{Game, EMPTY};

impl Game {
    /// Cells kept free between placed cells and the array's edge: a candidate of the generator
    /// (anchored up to `max_offset` from a frontier cell, reaching `max_offset` further) and the
    /// neighbours it reads stay inside the array, so no bounds checks are needed.
    fn board_margin(&self) -> i32 {
        2 * self.rules.max_offset + 4
    }

    /// An empty array of the initial width (setup). Every cell of the array the game holds is
    /// empty (a blank game's has none; a restart empties the previous game's with
    /// [`Game::clear_written`]), so keeping its first cells keeps their value.
    pub(super) fn reset_board(&mut self) {
        let m = (self.board_margin() + self.rules.max_offset) as usize;
        // Odd, so that (0, 0) is the centre; room for about a dozen tiles in every direction
        // (most base games never grow it; a clone copies about 4 KiB of it).
        let w = (2 * (m + 12) + 1).min(self.board.full_width);
        let cells = &mut self.board.cells;
        debug_assert!(cells.iter().all(|&c| c == EMPTY), "a written cell left");
        cells.truncate(w * w);
        cells.resize(w * w, EMPTY);
        self.board.width = w;
        self.board.off = (w / 2) as i32;
        self.board.roomy = w < self.board.full_width || self.board.full_roomy;
    }

    /// Empty the cells the game wrote: its tiles' and its frontier's (no other cell holds a
    /// value). A game covers a few hundred cells of the array's thousands.
    pub(super) fn clear_written(&mut self) {
        for inst in &self.board.insts {
            for c in &self.rules.tiles[inst.tile as usize].rot[inst.rot as usize] {
                if let Some(pos) = self.pos(inst.x + c.dx, inst.y + c.dy) {
                    self.board.cells[pos] = EMPTY;
                }
            }
        }
        for f in &self.board.frontier {
            self.board.cells[f.pos as usize] = EMPTY;
        }
        debug_assert!(
            self.board.cells.iter().all(|&c| c == EMPTY),
            "a written cell left"
        );
    }

    /// Make sure a tile anchored at `(x, y)` leaves the margin free: grow the array if needed.
    #[inline]
    pub(super) fn ensure_room(&mut self, x: i32, y: i32) {
        let m = i64::from(self.board_margin() + self.rules.max_offset);
        let far = i64::from(x).abs().max(i64::from(y).abs()) + m;
        if far > i64::from(self.board.off) && self.board.width < self.board.full_width {
            self.grow(far);
        }
    }

    /// Re-lay the board in an array at least twice as wide and reaching `far` cells from the
    /// centre (capped at the full width).
    #[inline(never)]
    fn grow(&mut self, far: i64) {
        let need = (2 * far.max(0) + 1) as usize;
        let w = (2 * self.board.width + 1)
            .max(need)
            .min(self.board.full_width);
        let off = (w / 2) as i32;
        let mut cells = std::mem::take(&mut self.tmp.cells);
        cells.clear();
        cells.resize(w * w, EMPTY);
        // Only placed cells and frontier cells hold values: copy those (O(tiles), not O(w²)).
        let (ow, ooff) = (self.board.width as i64, i64::from(self.board.off));
        let at = |x: i32, y: i32, w: i64, off: i64| {
            ((i64::from(y) + off) * w + i64::from(x) + off) as usize
        };
        for inst in &self.board.insts {
            for c in &self.rules.tiles[inst.tile as usize].rot[inst.rot as usize] {
                let (x, y) = (inst.x + c.dx, inst.y + c.dy);
                cells[at(x, y, w as i64, i64::from(off))] = self.board.cells[at(x, y, ow, ooff)];
            }
        }
        for f in &self.board.frontier {
            cells[at(f.x, f.y, w as i64, i64::from(off))] = self.board.cells[f.pos as usize];
        }
        for f in &mut self.board.frontier {
            f.pos = ((f.y + off) as usize * w + (f.x + off) as usize) as u32;
        }
        self.tmp.cells = std::mem::replace(&mut self.board.cells, cells);
        self.board.width = w;
        self.board.off = off;
        self.board.roomy = w < self.board.full_width || self.board.full_roomy;
    }

    /// Whether `(x, y)` lies on the full board (where a placement may go at all).
    pub(super) fn on_full_board(&self, x: i32, y: i32) -> bool {
        let half = (self.board.full_width / 2) as i64;
        let (x, y) = (i64::from(x) + half, i64::from(y) + half);
        let w = self.board.full_width as i64;
        x >= 1 && y >= 1 && x < w - 1 && y < w - 1
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::testkit::{base_ruleset, domino_ruleset, play_random};
    use crate::{Game, PileOrder, Rules};

    /// A restarted game is the game `Game::new` sets up, board array included: restarting
    /// empties only the cells the finished game wrote, so a cell it missed would differ here.
    #[test]
    fn restart_empties_the_board_the_last_game_wrote() {
        for rs in [base_ruleset(), domino_ruleset()] {
            let rules = Arc::new(Rules::new(rs).unwrap());
            let mut g = Game::seeded(rules.clone(), 2, 0).unwrap();
            for seed in 1..40 {
                play_random(&mut g, seed, |_| {});
                g.restart(PileOrder::Shuffled(seed)).unwrap();
                assert!(
                    g == Game::seeded(rules.clone(), 2, seed).unwrap(),
                    "seed {seed}"
                );
            }
        }
    }
}
