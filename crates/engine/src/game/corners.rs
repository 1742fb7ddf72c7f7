//! Corners for corner figures (AM-6): the corner-figure options of the tile just placed, the
//! legal corners of its fields, every legal corner of an option (named corners), and the check
//! of an [`Action::Corner`] that names one of them.

use tegula_ruleset::NO_FEATURE;

#[cfg(doc)]
use super::Action;
use super::{CornerChoice, FollowerOption, Game, MoveError, FRONT};
use crate::rules::{CORNER_HALVES, MAX_TILE_CELLS};

/// Offset of each corner's point from its cell, by corner `NW, NE, SE, SW` (point `(x, y)` is
/// the north-west corner of cell `(x, y)`).
const CORNER_POINT: [(i32, i32); 4] = [(0, 0), (1, 0), (1, 1), (0, 1)];
/// The four cells around a point and the corner of each that touches it. The entry whose
/// corner is `k` is the cell whose corner `k` the point is (its offset is `-CORNER_POINT[k]`).
const AROUND_POINT: [(i32, i32, usize); 4] = [(-1, -1, 2), (0, -1, 3), (-1, 0, 1), (0, 0, 0)];
/// The eight cells around a cell, as offsets.
pub(super) const NEIGHBOURS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
/// By neighbour ([`NEIGHBOURS`]) and its field corners (bit per corner), the corners of the
/// middle cell still possible: a corner the neighbour touches stays when the neighbour's corner
/// at that point is field; a corner it does not touch always stays.
const AROUND_MASKS: [[u8; 16]; 8] = around_masks();

/// [`AROUND_MASKS`], worked out from [`CORNER_POINT`]: neighbour `(dx, dy)` touches corner `k`
/// (point offset `(px, py)`) with its corner at offset `(px - dx, py - dy)` from it, if any.
const fn around_masks() -> [[u8; 16]; 8] {
    let mut t = [[0u8; 16]; 8];
    let mut nb = 0;
    while nb < 8 {
        let (dx, dy) = NEIGHBOURS[nb];
        let mut fc = 0;
        while fc < 16 {
            let mut k = 0;
            while k < 4 {
                let (px, py) = CORNER_POINT[k];
                let mut keep = 1;
                let mut ck = 0;
                while ck < 4 {
                    if CORNER_POINT[ck].0 == px - dx && CORNER_POINT[ck].1 == py - dy {
                        keep = (fc >> ck) & 1;
                    }
                    ck += 1;
                }
                t[nb][fc] |= (keep as u8) << k;
                k += 1;
            }
            fc += 1;
        }
        nb += 1;
    }
    t
}

impl Game {
    /// Corner-figure options (AM-6) of the tile just placed for the figure types in
    /// `in_supply` (bit per type), run on every placement of a variant with corner figures:
    /// no allocation.
    pub(super) fn corner_options(&mut self, in_supply: u16) {
        let offered = self.rules.corner_figs & in_supply;
        if offered == 0 {
            return;
        }
        let mut options = std::mem::take(&mut self.legal.options);
        self.each_legal_corner(|feature, _| {
            let mut may = offered;
            while may != 0 {
                let follower = may.trailing_zeros() as u8;
                may &= may - 1;
                options.push(FollowerOption { feature, follower });
            }
        });
        self.legal.options = options;
    }

    /// AM-6: for each field of the tile just placed without a corner figure, its first corner
    /// (in cell order, then `NW, NE, SE, SW`) where four filled cells meet with field in all four
    /// cell corners.
    pub(super) fn legal_corners(&self) -> Vec<(u8, (i32, i32))> {
        let mut out = Vec::new();
        self.each_legal_corner(|local, point| out.push((local, point)));
        out
    }

    /// [`Game::legal_corners`], each handed to `found` in order. Where four filled cells meet
    /// with field in all four cell corners is read for all four corners of a cell at once
    /// ([`Game::field_corners_around`], no jumps); the field tests (no corner figure, not found
    /// yet) run only for those corners, which are few.
    fn each_legal_corner(&self, mut found: impl FnMut(u8, (i32, i32))) {
        let inst = *self.board.insts.last().expect("a tile was placed");
        let cells = &self.rules.tiles[inst.tile as usize].rot[inst.rot as usize];
        // One root per corner at most: a tile's cells have four corners each.
        let mut roots = [0u32; 4 * MAX_TILE_CELLS];
        let mut n = 0;
        for c in cells {
            let (x, y) = (inst.x + c.dx, inst.y + c.dy);
            // Placed cells are inner cells (`check_geometry`): none is skipped here.
            let Some(pos) = self.pos_inner(x, y) else {
                continue;
            };
            let mut corners = c.field_corners & self.field_corners_around(pos);
            while corners != 0 {
                let k = corners.trailing_zeros() as usize;
                corners &= corners - 1;
                let local = c.half_feature[CORNER_HALVES[k].0];
                let root = self.find_ro(inst.seg_base + u32::from(local));
                if self.board.segs[root as usize].corners > 0 || roots[..n].contains(&root) {
                    continue;
                }
                roots[n] = root;
                n += 1;
                found(local, (x + CORNER_POINT[k].0, y + CORNER_POINT[k].1));
            }
        }
    }

    /// The corners of the filled inner cell at `pos` where the three other cells around the
    /// point are filled with field in their corner there, bit per corner (AM-6): each of the
    /// eight neighbours clears the corners it touches and lacks field at ([`AROUND_MASKS`]).
    /// Eight reads and no jump on which neighbours are filled, which the branch predictor
    /// cannot learn in a random game. An inner cell's neighbours are in the array, so they
    /// are addressed by offsets, without coordinates.
    fn field_corners_around(&self, pos: usize) -> u8 {
        let w = self.board.width as isize;
        let around = NEIGHBOURS.iter().zip(&AROUND_MASKS);
        around.fold(0xF, |legal, (&(dx, dy), masks)| {
            let at = pos as isize + dy as isize * w + dx as isize;
            // Field corners are four bits: the mask says so to the bounds check.
            legal & masks[usize::from(self.field_corners_of(at as usize) & 0xF)]
        })
    }

    /// The field corners (bit per corner) of the cell at array position `pos`, none when it is
    /// empty. An empty cell reads the first tile's first cell and masks the answer away: a
    /// mask, not a jump on whether the cell is filled.
    fn field_corners_of(&self, pos: usize) -> u8 {
        let v = self.board.cells[pos];
        let filled = v < FRONT;
        let v = v & 0u32.wrapping_sub(u32::from(filled));
        let inst = self.board.insts[(v >> 4) as usize];
        // A rotation is below four: the mask says so to the bounds check.
        let rot = &self.rules.tiles[inst.tile as usize].rot[usize::from(inst.rot & 3)];
        rot[(v & 7) as usize].field_corners & 0u8.wrapping_sub(u8::from(filled))
    }

    /// Whether the four cells around `point` are filled and each one's corner there is field
    /// on both of its half-edges (AM-6; mega-tile cells count as cells, W-22).
    pub(super) fn corner_is_field(&self, (px, py): (i32, i32)) -> bool {
        AROUND_POINT.iter().all(|&(dx, dy, k)| {
            (self.pos(px + dx, py + dy)).is_some_and(|pos| self.corner_is_field_at(pos, k))
        })
    }

    /// Whether the cell at array position `pos` is filled and its corner `k` is field.
    fn corner_is_field_at(&self, pos: usize, k: usize) -> bool {
        let v = self.board.cells[pos];
        if v >= FRONT {
            return false;
        }
        let inst = self.board.insts[(v >> 4) as usize];
        let cell = &self.rules.tiles[inst.tile as usize].rot[inst.rot as usize][(v & 7) as usize];
        cell.field_corners & (1 << k) != 0
    }

    /// AM-6: the board points where the corner figure of option `o` may stand — the corners of
    /// the tile just placed that touch `o`'s field where four filled cells meet and all four cell
    /// corners there are field — in the tile's cell order, then `NW, NE, SE, SW` (point `(x, y)`
    /// is the north-west corner of cell `(x, y)`). The first is where [`Action::Follower`] puts
    /// the figure; [`Action::Corner`] names any of them. Empty when `o` is not one of
    /// [`Game::follower_options`] now, or not a corner figure's.
    pub fn corner_points(&self, o: FollowerOption) -> Vec<[i32; 2]> {
        let corner_figure =
            (self.rules.figures.get(o.follower as usize)).is_some_and(|f| f.corner.is_some());
        // The listed options, not `check_follower` alone: after a pool tile no corner figure is
        // offered (W-7), though its field may have a corner.
        if !corner_figure || self.check_follower(o).is_err() || !self.legal.options.contains(&o) {
            return Vec::new();
        }
        let inst = *self.board.insts.last().expect("a tile was placed");
        let root = self.find_ro(inst.seg_base + u32::from(o.feature));
        let cells = &self.rules.tiles[inst.tile as usize].rot[inst.rot as usize];
        let mut out = Vec::new();
        for c in cells {
            for (k, &(px, py)) in CORNER_POINT.iter().enumerate() {
                let point = [inst.x + c.dx + px, inst.y + c.dy + py];
                let local = c.half_feature[CORNER_HALVES[k].0];
                // A point inside a mega tile is a corner of several of its cells: listed once.
                if local == NO_FEATURE
                    || self.find_ro(inst.seg_base + u32::from(local)) != root
                    || out.contains(&point)
                    || !self.corner_is_field((point[0], point[1]))
                {
                    continue;
                }
                out.push(point);
            }
        }
        out
    }

    /// Check an [`Action::Corner`]: its option must be legal ([`Game::check_follower`]), its
    /// figure a corner figure, and its point one of the option's [`Game::corner_points`].
    pub fn check_corner(&self, c: CornerChoice) -> Result<(), MoveError> {
        self.check_follower(c.option)?;
        let follower = c.option.follower;
        if self.rules.figures[follower as usize].corner.is_none() {
            return Err(MoveError::NotACornerFigure { follower });
        }
        if !self.corner_points(c.option).contains(&c.point) {
            return Err(MoveError::NotACorner {
                feature: c.option.feature,
                point: c.point,
            });
        }
        Ok(())
    }
}
