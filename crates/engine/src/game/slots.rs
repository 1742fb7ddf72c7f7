//! The legal placements of the phase in the form the single-cell generator leaves them: only
//! their number. A single-cell tile's placements are, in frontier order, each frontier cell's
//! fitting rotations (in rotation order), so placement `i` is found again by walking the frontier
//! with the tile's per-code rotation counts. The random agent needs only the number and the one it
//! picks, so the draw writes nothing per legal placement; callers that want the whole list
//! ([`Game::placements`]) get it decoded once, in the same order, so the same index is the same
//! placement. The draw's count also leaves each block of [`BLOCK`] frontier cells' share
//! ([`BlockSums`]), so the pick skips whole blocks instead of walking every cell before it.

use std::sync::OnceLock;

use super::{Front, Game, Phase, Placement};
use crate::rules::{FitLookup, TileInfo, ROT_COUNT, ROT_ORDER};

/// The single-cell generator's result: the `Game::n_place` placements of `tile` on the current
/// frontier. While `tile` is `None` the placements are the explicit list `Game::placements`
/// (multi-cell tiles, own tiles, kept and pool tiles, placement rules).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Slots {
    pub(super) tile: Option<u16>,
    /// The placements on each block of frontier cells (empty where the draw counted without
    /// them: declared edge kinds).
    pub(super) sums: BlockSums,
    decoded: Decoded,
}

/// Frontier cells per block of [`BlockSums`]: at most 4 placements each, so a block's share fits
/// a byte.
pub(super) const BLOCK: usize = 8;

/// The counted tile's placements on frontier cells `b * BLOCK .. (b + 1) * BLOCK`, by block `b`.
/// A function of the tile and the frontier (the count's by-product), so it takes no part in
/// equality or hashing; a clone copies it (the clone's pick reads it).
#[derive(Clone, Debug, Default)]
pub(super) struct BlockSums(pub(super) Vec<u8>);

super::not_state!(BlockSums);

/// The placements decoded, for callers that ask for the slice. A function of the game state (the
/// tile and the frontier), so it takes no part in equality or hashing, and a clone starts empty
/// (decoded again if asked).
#[derive(Debug, Default)]
struct Decoded(OnceLock<Vec<Placement>>);

impl Clone for Decoded {
    fn clone(&self) -> Decoded {
        Decoded::default()
    }
}

super::not_state!(Decoded);

impl Game {
    /// The rotation mask of single-cell tile `info` on frontier cell `f`: its fit table by the
    /// cell's requirement code.
    #[inline(always)]
    fn fit_rotations(&self, info: &TileInfo, f: &Front) -> usize {
        match &info.fit_wide {
            None => info.fit.rotations(f.code) as usize,
            Some(wide) => wide.rotations(f.code) as usize,
        }
    }

    /// Placement number `i` of single-cell tile `t` (`i < n_place`): whole blocks of the
    /// frontier skipped by the draw's [`BlockSums`], then the block that holds it walked with
    /// the rotation counts (the mask is read at the cell found). The order is the generator's
    /// (cells in frontier order, rotations in increasing order), so an index names the same
    /// placement as in the decoded list.
    fn nth_fit(&self, t: u16, i: usize) -> Placement {
        let info = &self.rules.tiles[t as usize];
        match &info.fit_wide {
            None => self.nth_fit_in(&info.fit, t, i),
            Some(wide) => self.nth_fit_in(&**wide, t, i),
        }
    }

    /// [`Game::nth_fit`] with the fit tables of the variant's code width.
    #[inline(always)]
    fn nth_fit_in(&self, fit: &impl FitLookup, t: u16, mut i: usize) -> Placement {
        let mut b = 0;
        for &c in &self.legal.slots.sums.0 {
            if i < c as usize {
                break;
            }
            i -= c as usize;
            b += 1;
        }
        let end = ((b + 1) * BLOCK).min(self.board.frontier.len());
        for f in &self.board.frontier[b * BLOCK..end] {
            let c = fit.count(f.code) as usize;
            if i < c {
                let m = fit.rotations(f.code) as usize;
                return at_rotation(t, f, ROT_ORDER[m][i]);
            }
            i -= c;
        }
        unreachable!("a placement index at or past the count")
    }

    /// Legal placement number `i` of the phase (`i < n_place`), without making the list.
    #[inline]
    pub(super) fn placement_at(&self, i: usize) -> Placement {
        match self.legal.slots.tile {
            Some(t) => self.nth_fit(t, i),
            None => self.legal.placements[i],
        }
    }

    /// The legal placements of the phase as a slice: the explicit list, or the counted ones
    /// decoded (once per generation).
    pub(super) fn placement_slice(&self) -> &[Placement] {
        match self.legal.slots.tile {
            Some(_) => self
                .legal
                .slots
                .decoded
                .0
                .get_or_init(|| self.placements_vec()),
            None => &self.legal.placements[..self.legal.n_place],
        }
    }

    /// Append the generated placements to `out` (decoding the counted ones).
    pub(super) fn extend_with_placements(&self, out: &mut Vec<Placement>) {
        let Some(t) = self.legal.slots.tile else {
            out.extend_from_slice(&self.legal.placements[..self.legal.n_place]);
            return;
        };
        let info = &self.rules.tiles[t as usize];
        for f in &self.board.frontier {
            let m = self.fit_rotations(info, f);
            let rotations = &ROT_ORDER[m][..ROT_COUNT[m] as usize];
            out.extend(rotations.iter().map(|&r| at_rotation(t, f, r)));
        }
    }

    /// The generated placements as a list of their own.
    pub(super) fn placements_vec(&self) -> Vec<Placement> {
        let mut out = Vec::with_capacity(self.legal.n_place);
        self.extend_with_placements(&mut out);
        out
    }

    /// Make `list` the legal placements (the explicit form).
    pub(super) fn set_placement_list(&mut self, list: &[Placement]) {
        self.clear_slots();
        self.legal.placements.clear();
        self.legal.placements.extend_from_slice(list);
        self.legal.n_place = list.len();
    }

    /// Turn counted placements into the explicit list (for filters that drop placements).
    pub(super) fn slots_to_list(&mut self) {
        if self.legal.slots.tile.is_some() {
            let mut list = std::mem::take(&mut self.legal.placements);
            list.clear();
            self.extend_with_placements(&mut list);
            self.legal.placements = list;
            self.clear_slots();
        }
    }

    /// Leave the counted form (the explicit list holds the placements from now on).
    #[inline]
    pub(super) fn clear_slots(&mut self) {
        self.legal.slots.tile = None;
        self.forget_decoded();
    }

    /// Drop the decoded list of the previous generation (only built if someone asked).
    #[inline(always)]
    pub(super) fn forget_decoded(&mut self) {
        if self.legal.slots.decoded.0.get().is_some() {
            self.legal.slots.decoded.0.take();
        }
    }

    /// The number of legal placements of the phase ([`Game::placements`]'s length), without
    /// making the list: what an agent that picks uniformly needs.
    pub fn placement_count(&self) -> usize {
        if matches!(self.now.phase, Phase::Place | Phase::Hand) {
            self.legal.n_place
        } else {
            0
        }
    }
}

/// Tile `t` on frontier cell `f` in rotation `r`.
#[inline(always)]
fn at_rotation(t: u16, f: &Front, r: u32) -> Placement {
    Placement {
        tile: t,
        x: f.x,
        y: f.y,
        rotation: r as u8,
    }
}
