//! The frontier (the empty cells next to the map, each with what its neighbours demand) and the
//! placement generator that reads it.

use tegula_ruleset::SideKind;

use super::slots::BLOCK;
use super::{Front, Game, Placement, EMPTY, FRONT};
use crate::rules::{fits, side_code, side_code_mask, FitLookup, RotCell};

impl Game {
    /// The fast generator: frontier cells × rotations against packed side signatures. A
    /// single-cell tile's placements are only counted (`slots` finds one by its index); the
    /// others, and any that placement rules filter, become the explicit list.
    #[inline(always)]
    pub(super) fn generate_placements(&mut self, t: u16) {
        let info = &self.rules.tiles[t as usize];
        let rules = info.has_placement_rules;
        if !info.single {
            self.clear_slots();
            self.generate_multi(t);
        } else {
            self.generate_single(t);
        }
        if rules {
            self.slots_to_list();
            self.filter_placement_rules();
        }
    }

    #[inline(always)]
    fn generate_single(&mut self, t: u16) {
        // Only the count: a placement is found again from its index when it is played
        // (`slots`). Writing every legal placement of every draw, as 12-byte placements or as
        // one word each, was most of the generator's time, while the random agent uses one.
        let info = &self.rules.tiles[t as usize];
        let sums = &mut self.legal.slots.sums.0;
        let n = match &info.fit_wide {
            None => count_fits(&self.board.frontier, &info.fit, sums),
            Some(wide) => count_fits(&self.board.frontier, &**wide, sums),
        };
        self.legal.slots.tile = Some(t);
        self.forget_decoded();
        self.legal.placements.clear();
        self.legal.n_place = n;
    }

    /// Multi-cell tiles (kept out of line: the single-cell path is the hot one): every anchor
    /// that puts some tile cell on a frontier cell. Each candidate is generated once, from its
    /// lowest-indexed cell that lies on the frontier (a mega tile reaches the same anchor from
    /// several frontier cells). The caller left the counted form.
    #[inline(never)]
    fn generate_multi(&mut self, t: u16) {
        let info = &self.rules.tiles[t as usize];
        self.legal.placements.clear();
        for f in &self.board.frontier {
            for r in 0..4u8 {
                let cells = &info.rot[r as usize];
                for (ci, c) in cells.iter().enumerate() {
                    if fits(c.sig, f.req) && self.fits_around(cells, f, ci) {
                        self.legal.placements.push(Placement {
                            tile: t,
                            x: f.x - c.dx,
                            y: f.y - c.dy,
                            rotation: r,
                        });
                    }
                }
            }
        }
        self.legal.n_place = self.legal.placements.len();
    }

    /// Whether the tile `cells`, its cell `ci` on frontier cell `f`, fits there: every cell of
    /// it empty, or on the frontier and fitting (frontier cells of a lower index than `ci` are
    /// left to the candidate generated from them).
    #[inline]
    fn fits_around(&self, cells: &[RotCell], f: &Front, ci: usize) -> bool {
        let c = &cells[ci];
        let (ax, ay) = (f.x - c.dx, f.y - c.dy);
        // On a roomy board every cell of the tile is inside the array, so the position is
        // plain arithmetic; near the edge it is bounds-checked.
        let w = self.board.width as isize;
        let base = f.pos as isize - c.dy as isize * w - c.dx as isize;
        cells.iter().enumerate().all(|(di, d)| {
            let pos = if self.board.roomy {
                Some((base + d.dy as isize * w + d.dx as isize) as usize)
            } else {
                self.pos_inner(ax + d.dx, ay + d.dy)
            };
            pos.is_some_and(|p| {
                let v = self.board.cells[p];
                v == EMPTY
                    || v >= FRONT
                        && di >= ci
                        && fits(d.sig, self.board.frontier[(v & !FRONT) as usize].req)
            })
        })
    }
}

/// The number of placements of a single-cell tile: each frontier cell's fitting rotations, read
/// from the tile's count table by the cell's requirement code. Each block of [`BLOCK`] cells'
/// share goes to `sums`, so that the pick skips whole blocks (`slots.rs`).
#[inline(always)]
fn count_fits(frontier: &[Front], fit: &impl FitLookup, sums: &mut Vec<u8>) -> usize {
    let blocks = frontier.chunks_exact(BLOCK);
    let rest = blocks.remainder();
    sums.clear();
    sums.resize(frontier.len().div_ceil(BLOCK), 0);
    let share =
        |cells: &[Front]| -> u32 { cells.iter().map(|f| u32::from(fit.count(f.code))).sum() };
    let mut n = 0;
    // Whole blocks (a fixed length: the sum is straight-line code), then the rest; at most 4
    // per cell, so a block's share fits a byte.
    for (s, block) in sums.iter_mut().zip(blocks) {
        let c = share(block);
        *s = c as u8;
        n += c as usize;
    }
    if !rest.is_empty() {
        let c = share(rest);
        *sums.last_mut().expect("a block for the rest") = c as u8;
        n += c as usize;
    }
    n
}

/// The requirement code ([`side_code`]) of each side-signature nibble (the `side_bits` of a
/// kind) on each side, so that a placed side's code is read from its cell's packed signature.
const NIBBLE_CODE: [[u16; 16]; 4] = {
    let mut t = [[0u16; 16]; 4];
    let mut s = 0;
    while s < 4 {
        t[s][1] = side_code(SideKind::City, s);
        t[s][2] = side_code(SideKind::Road, s);
        t[s][4] = side_code(SideKind::Field, s);
        t[s][8] = side_code(SideKind::Declared(0), s);
        s += 1;
    }
    t
};

/// [`side_code_mask`] of each side.
const CODE_MASK: [u16; 4] = [
    side_code_mask(0),
    side_code_mask(1),
    side_code_mask(2),
    side_code_mask(3),
];

/// A placed cell shows side `s` (its nibble in the cell's signature `sig`) to the empty or
/// frontier cell at array position `npos`, board position `n`: the cell now demands it, and
/// joins the frontier if it was not on it and lies inside the board (`off`, `width`: the
/// array's, [`Game::pos_inner`]).
#[inline(always)]
pub(super) fn demand(
    cells: &mut [u32],
    frontier: &mut Vec<Front>,
    (npos, n): (usize, (i32, i32)),
    (off, width): (i32, usize),
    s: usize,
    sig: u16,
) {
    let opp = (s + 2) % 4;
    let nibble = (sig >> (4 * s)) & 0xF;
    let shift = 4 * opp;
    let bits = nibble << shift;
    let cbits = NIBBLE_CODE[opp][nibble as usize];
    let ncell = cells[npos];
    if ncell != EMPTY {
        let f = &mut frontier[(ncell & !FRONT) as usize];
        f.req = (f.req & !(0xF << shift)) | bits;
        f.code = (f.code & !CODE_MASK[opp]) | cbits;
    } else if super::cells::inner(n.0, n.1, off, width).is_some() {
        cells[npos] = FRONT | frontier.len() as u32;
        frontier.push(Front {
            pos: npos as u32,
            req: !(0xF << shift) | bits,
            code: cbits,
            x: n.0,
            y: n.1,
        });
    }
}
