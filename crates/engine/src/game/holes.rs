//! The board's holes (AM-1: empty cells whose four orthogonal neighbours are filled), kept up to
//! date from the tiles placed since they were last asked for. A variant with own tiles for holes
//! asks at the start of nearly every turn, and on most turns there is none: this answers that
//! from the few cells around the newest tiles instead of a scan of the whole frontier.

use super::{Game, EMPTY, FRONT};

/// The holes among the first `upto` placed tiles, by board coordinates (positions in the board
/// array move when it grows). A pure function of the board, so it takes no part in equality or
/// hashing; a copy of the game copies it, and it stays true for the copy's board.
#[derive(Clone, Debug, Default)]
pub(super) struct Holes {
    /// How many of the game's placed tiles (`insts`) have been looked around.
    upto: usize,
    /// The holes found, in the order found (only their number is read).
    cells: Vec<(i32, i32)>,
}

impl Holes {
    /// Forget everything (a new game: its tiles are looked around afresh).
    pub(super) fn clear(&mut self) {
        self.upto = 0;
        self.cells.clear();
    }
}

super::not_state!(Holes);

impl Game {
    /// Whether the board has a hole now. A cell becomes a hole only when the last of its
    /// neighbours is filled, so the cells next to the tiles placed since the last call are the
    /// only new candidates; a hole stops being one only when it is filled.
    pub(super) fn any_hole(&mut self) -> bool {
        if self.board.holes.upto > self.board.insts.len() {
            // Not reached (a new game clears the list); a stale list is rebuilt, not trusted.
            self.board.holes.clear();
        }
        let mut holes = std::mem::take(&mut self.board.holes.cells);
        holes.retain(|&(x, y)| self.is_hole(x, y));
        for inst in &self.board.insts[self.board.holes.upto..] {
            for c in &self.rules.tiles[inst.tile as usize].rot[inst.rot as usize] {
                // Placed cells are inner cells (`check_geometry`), so their neighbours are in
                // the array.
                let Some(pos) = self.pos_inner(inst.x + c.dx, inst.y + c.dy) else {
                    continue;
                };
                for s in 0..4 {
                    let n = self.step(pos, s);
                    if self.is_front_hole_at(n) && !holes.contains(&self.xy(n)) {
                        holes.push(self.xy(n));
                    }
                }
            }
        }
        self.board.holes.upto = self.board.insts.len();
        self.board.holes.cells = holes;
        !self.board.holes.cells.is_empty()
    }

    /// Whether `(x, y)` is empty with all four orthogonal neighbours filled (AM-1).
    pub(super) fn is_hole(&self, x: i32, y: i32) -> bool {
        self.pos_inner(x, y)
            .is_some_and(|pos| self.board.cells[pos] >= FRONT && self.surrounded(pos))
    }

    /// Whether the cell at `pos` is a frontier cell (so an inner one, whose neighbours are in
    /// the array) with all four neighbours filled. An empty cell that is not on the frontier
    /// is on the array's edge, where no tile can be placed around it: never a hole.
    fn is_front_hole_at(&self, pos: usize) -> bool {
        let v = self.board.cells[pos];
        v >= FRONT && v != EMPTY && self.surrounded(pos)
    }

    /// Whether all four orthogonal neighbours of the inner cell at `pos` are placed cells.
    fn surrounded(&self, pos: usize) -> bool {
        (0..4).all(|s| self.board.cells[self.step(pos, s)] < FRONT)
    }

    /// The frontier indices of the holes found by the last [`Game::any_hole`], into `out` in
    /// frontier order: the order a scan of the whole frontier would find them in. Only frontier
    /// cells are listed (every hole is one), so each index is in the frontier.
    pub(super) fn hole_fronts(&self, out: &mut Vec<u32>) {
        out.clear();
        let front = |&(x, y): &(i32, i32)| {
            let v = self.board.cells[self.pos_inner(x, y)?];
            (v >= FRONT && v != EMPTY).then_some(v & !FRONT)
        };
        out.extend(self.board.holes.cells.iter().filter_map(front));
        out.sort_unstable();
    }
}
