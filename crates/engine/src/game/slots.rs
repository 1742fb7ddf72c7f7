//! The legal placements of the phase in the form the single-cell generator makes them: one word
//! per placement (frontier index << 2 | rotation), decoded on demand. The random agent needs only
//! their number and the one it picks, so the draw no longer writes a 12-byte [`Placement`] per
//! legal placement; callers that want the whole list ([`Game::placements`]) get it decoded once,
//! in the same order, so the same index is the same placement.

use std::sync::OnceLock;

use super::{Game, Phase, Placement};

/// The single-cell generator's result: the placements of `tile` at `words` (frontier index << 2
/// | rotation, generation order). While `tile` is `None` the placements are the explicit list
/// `Game::placements` (multi-cell tiles, own tiles, kept and pool tiles, placement rules).
/// `words` holds exactly the legal placements (no spare words), so the derived equality and hash
/// see only them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Slots {
    pub(super) tile: Option<u16>,
    pub(super) words: Vec<u32>,
    decoded: Decoded,
}

/// The words decoded into placements, for callers that ask for the slice. A function of the
/// game state (the words and the frontier), so it takes no part in equality or hashing, and a
/// clone starts empty (decoded again if asked).
#[derive(Debug, Default)]
struct Decoded(OnceLock<Vec<Placement>>);

impl Clone for Decoded {
    fn clone(&self) -> Decoded {
        Decoded::default()
    }
}

impl PartialEq for Decoded {
    fn eq(&self, _other: &Decoded) -> bool {
        true
    }
}

impl Eq for Decoded {}

impl std::hash::Hash for Decoded {
    fn hash<H: std::hash::Hasher>(&self, _state: &mut H) {}
}

impl Game {
    /// The placement word `s` of tile `t` stands for.
    #[inline(always)]
    fn decode_slot(&self, t: u16, s: u32) -> Placement {
        let f = &self.frontier[(s >> 2) as usize];
        Placement {
            tile: t,
            x: f.x,
            y: f.y,
            rotation: (s & 3) as u8,
        }
    }

    /// Legal placement number `i` of the phase (`i < n_place`), without building the list.
    #[inline]
    pub(super) fn placement_at(&self, i: usize) -> Placement {
        match self.slots.tile {
            Some(t) => self.decode_slot(t, self.slots.words[i]),
            None => self.placements[i],
        }
    }

    /// The legal placements of the phase as a slice: the explicit list, or the words decoded
    /// (once per generation).
    pub(super) fn placement_slice(&self) -> &[Placement] {
        match self.slots.tile {
            Some(t) => self.slots.decoded.0.get_or_init(|| {
                let words = &self.slots.words;
                words.iter().map(|&s| self.decode_slot(t, s)).collect()
            }),
            None => &self.placements[..self.n_place],
        }
    }

    /// Append the generated placements to `out` (decoding the words, if any).
    pub(super) fn extend_with_placements(&self, out: &mut Vec<Placement>) {
        match self.slots.tile {
            Some(t) => out.extend(self.slots.words.iter().map(|&s| self.decode_slot(t, s))),
            None => out.extend_from_slice(&self.placements[..self.n_place]),
        }
    }

    /// The generated placements as a list of their own.
    pub(super) fn placements_vec(&self) -> Vec<Placement> {
        let mut out = Vec::with_capacity(self.n_place);
        self.extend_with_placements(&mut out);
        out
    }

    /// Make `list` the legal placements (the explicit form).
    pub(super) fn set_placement_list(&mut self, list: &[Placement]) {
        self.clear_slots();
        self.placements.clear();
        self.placements.extend_from_slice(list);
        self.n_place = list.len();
    }

    /// Turn generated words into the explicit list (for filters that drop placements).
    pub(super) fn slots_to_list(&mut self) {
        if self.slots.tile.is_some() {
            let mut list = std::mem::take(&mut self.placements);
            list.clear();
            self.extend_with_placements(&mut list);
            self.placements = list;
            self.clear_slots();
        }
    }

    /// Forget the words (the explicit list holds the placements from now on).
    #[inline]
    pub(super) fn clear_slots(&mut self) {
        self.slots.tile = None;
        self.slots.words.clear();
        self.forget_decoded();
    }

    /// Drop the decoded list of the previous generation (only built if someone asked).
    #[inline(always)]
    pub(super) fn forget_decoded(&mut self) {
        if self.slots.decoded.0.get().is_some() {
            self.slots.decoded.0.take();
        }
    }

    /// The number of legal placements of the phase ([`Game::placements`]'s length), without
    /// building the list: what an agent that picks uniformly needs.
    pub fn placement_count(&self) -> usize {
        if matches!(self.phase, Phase::Place | Phase::Hand) {
            self.n_place
        } else {
            0
        }
    }
}
