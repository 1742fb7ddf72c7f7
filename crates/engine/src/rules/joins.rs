//! What a placement's joins read of each placed cell, one word per side, in one flat table
//! indexed from the tile instance: the join loop reads a neighbour's side with two loads
//! (instance, word) instead of walking tile type, rotation and cell tables, and tests one
//! packed word instead of a pair of side kinds and three feature bytes.

use tegula_ruleset::SideKind;

use super::{RotCell, TileInfo};

/// Kind code of a side that joins nothing across it (field, declared kind, inner side).
pub(crate) const SIDE_OTHER: u32 = 0;
/// Kind code of a city side.
pub(crate) const SIDE_CITY: u32 = 1;
/// Kind code of a road side.
pub(crate) const SIDE_ROAD: u32 = 2;
/// Kind code of an `Any` side (AM-1, AM-3): it closes the feature it faces.
pub(crate) const SIDE_ANY: u32 = 3;

/// The side word of side `s` of cell `c`: bits 0..8 the side's feature, 8..16 the feature of
/// its first half-edge (`2s`), 16..24 of its second (`2s + 1`), 24..26 its kind code.
fn side_word(c: &RotCell, s: usize) -> u32 {
    let kind = match c.sides[s] {
        SideKind::City => SIDE_CITY,
        SideKind::Road => SIDE_ROAD,
        SideKind::Any => SIDE_ANY,
        SideKind::Field | SideKind::Declared(_) => SIDE_OTHER,
    };
    let (a, b) = (c.half_feature[2 * s], c.half_feature[2 * s + 1]);
    u32::from(c.side_feature[s]) | u32::from(a) << 8 | u32::from(b) << 16 | kind << 24
}

/// The side words of every cell of every tile type in every rotation, flat.
#[derive(Clone, Debug, Default)]
pub(crate) struct JoinTables {
    /// Four side words per cell (north, east, south, west).
    pub words: Vec<[u32; 4]>,
    /// By tile type and rotation: the index of the rotation's cell 0 in `words`.
    pub at: Vec<[u32; 4]>,
}

impl JoinTables {
    /// The tables of `tiles`.
    pub(crate) fn new(tiles: &[TileInfo]) -> JoinTables {
        let mut t = JoinTables::default();
        for info in tiles {
            let mut at = [0; 4];
            for (r, cells) in info.rot.iter().enumerate() {
                at[r] = t.words.len() as u32;
                let words = cells
                    .iter()
                    .map(|c| std::array::from_fn(|s| side_word(c, s)));
                t.words.extend(words);
            }
            t.at.push(at);
        }
        t
    }
}
