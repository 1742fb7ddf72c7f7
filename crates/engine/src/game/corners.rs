//! Named corners for corner figures (AM-6): every legal corner of a follower option's field on
//! the tile just placed, and the check of an [`Action::Corner`] that names one of them.

use tegula_ruleset::NO_FEATURE;

use super::figures::CORNER_POINT;
#[cfg(doc)]
use super::Action;
use super::{CornerChoice, FollowerOption, Game, MoveError};
use crate::rules::CORNER_HALVES;

impl Game {
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
        if !corner_figure || self.check_follower(o).is_err() || !self.options.contains(&o) {
            return Vec::new();
        }
        let inst = *self.insts.last().expect("a tile was placed");
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
