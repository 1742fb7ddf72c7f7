//! Tiles and geometry: sides, halves, rotation, edge kinds, placement rules and the lowered tile
//! types with their per-rotation tables.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Ability, FeatureKind};
#[cfg(doc)] // Named by doc links only.
use crate::{PlayerTile, Readings, Ruleset};

/// A side of a cell, clockwise from north.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Side {
    /// North (`y - 1`).
    N = 0,
    /// East (`x + 1`).
    E = 1,
    /// South (`y + 1`).
    S = 2,
    /// West (`x - 1`).
    W = 3,
}

impl Side {
    /// All sides in index order.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// The side with index `i % 4`.
    pub fn from_index(i: usize) -> Side {
        Side::ALL[i % 4]
    }

    /// Index 0..4.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side facing this one across a shared edge.
    pub fn opposite(self) -> Side {
        Side::from_index(self.index() + 2)
    }

    /// This side after `quarter_turns` clockwise quarter turns.
    pub fn rotated(self, quarter_turns: u8) -> Side {
        Side::from_index(self.index() + quarter_turns as usize)
    }

    /// Unit step `(dx, dy)` towards the neighbour on this side.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Side::N => (0, -1),
            Side::E => (1, 0),
            Side::S => (0, 1),
            Side::W => (-1, 0),
        }
    }

    /// The two halves of this side, clockwise.
    pub fn halves(self) -> [Half; 2] {
        [
            Half::from_index(2 * self.index()),
            Half::from_index(2 * self.index() + 1),
        ]
    }

    /// Upper-case letter, as used in the TOML files.
    pub fn name(self) -> &'static str {
        ["N", "E", "S", "W"][self.index()]
    }
}

/// A half-edge of a cell (fields touch half-edges), clockwise from the west half of north.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Half {
    /// West half of the north side.
    Nw = 0,
    /// East half of the north side.
    Ne = 1,
    /// North half of the east side.
    En = 2,
    /// South half of the east side.
    Es = 3,
    /// East half of the south side.
    Se = 4,
    /// West half of the south side.
    Sw = 5,
    /// South half of the west side.
    Ws = 6,
    /// North half of the west side.
    Wn = 7,
}

impl Half {
    /// All halves in index order.
    pub const ALL: [Half; 8] = [
        Half::Nw,
        Half::Ne,
        Half::En,
        Half::Es,
        Half::Se,
        Half::Sw,
        Half::Ws,
        Half::Wn,
    ];

    /// The half with index `i % 8`.
    pub fn from_index(i: usize) -> Half {
        Half::ALL[i % 8]
    }

    /// Index 0..8.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side this half belongs to.
    pub fn side(self) -> Side {
        Side::from_index(self.index() / 2)
    }

    /// The neighbour's half that meets this one across the shared side.
    pub fn opposite(self) -> Half {
        // The facing side is mirrored: Nw<->Sw, Ne<->Se, En<->Wn, Es<->Ws.
        const OPP: [Half; 8] = [
            Half::Sw,
            Half::Se,
            Half::Wn,
            Half::Ws,
            Half::Ne,
            Half::Nw,
            Half::Es,
            Half::En,
        ];
        OPP[self.index()]
    }

    /// This half after `quarter_turns` clockwise quarter turns.
    pub fn rotated(self, quarter_turns: u8) -> Half {
        Half::from_index(self.index() + 2 * quarter_turns as usize)
    }

    /// Two-letter name, as used in the TOML files.
    pub fn name(self) -> &'static str {
        ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"][self.index()]
    }
}

/// Rotate a cell offset `(x, y)` by `quarter_turns` clockwise quarter turns (y grows south).
pub fn rotate_offset(x: i32, y: i32, quarter_turns: u8) -> (i32, i32) {
    let (mut x, mut y) = (x, y);
    for _ in 0..quarter_turns % 4 {
        (x, y) = (-y, x);
    }
    (x, y)
}

/// What an outer side of a cell shows to a neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SideKind {
    /// City edge.
    City,
    /// Road edge (field halves on both sides of the road).
    Road,
    /// Field edge.
    Field,
    /// Matches anything and closes the neighbour's feature on that side (AM-1, AM-3).
    Any,
    /// An edge kind the data declares ([`Ruleset::edge_kinds`], by index): it matches only
    /// itself (and `Any`), carries no feature, and its two halves belong to fields like a
    /// road's, so the fields on either side of it stay apart unless the tile joins them.
    Declared(u8),
}

impl SideKind {
    /// Whether two facing sides may touch (B-2; `Any` matches everything, AM-1; a declared kind
    /// only itself).
    pub fn matches(self, other: SideKind) -> bool {
        self == other || self == SideKind::Any || other == SideKind::Any
    }

    /// Whether both halves of a side of this kind belong to fields (road, field and declared
    /// sides; not city or `Any`).
    pub fn has_field_halves(self) -> bool {
        matches!(
            self,
            SideKind::Road | SideKind::Field | SideKind::Declared(_)
        )
    }
}

/// An edge kind declared by the data (`[[edge]]` in a tile set) beside city, road and field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EdgeKind {
    /// Id as written in the tiles' `sides`.
    pub id: String,
    /// Display name.
    pub name: String,
}

/// A condition on where a tile that carries it may be placed, beside matching edges (B-2).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PlacementRule {
    /// At least one side of this kind meets a placed neighbour: the tile continues the line
    /// these edges draw on the board.
    Continues {
        /// The edge kind.
        kind: SideKind,
        /// Rule id cited when a placement is refused.
        rule: String,
    },
    /// Every side of this kind that faces an empty cell (an open end) keeps room to go on, as
    /// [`Readings::open_end`] reads it.
    RoomAhead {
        /// The edge kind.
        kind: SideKind,
        /// Rule id cited when a placement is refused.
        rule: String,
    },
}

impl PlacementRule {
    /// The rule id it cites.
    pub fn rule(&self) -> &str {
        match self {
            PlacementRule::Continues { rule, .. } | PlacementRule::RoomAhead { rule, .. } => rule,
        }
    }
}

/// The value meaning "no feature" in the per-port tables.
pub const NO_FEATURE: u8 = u8::MAX;

/// One tile type (single-cell or mega tile) with all four rotations precomputed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TileType {
    /// Tile id as written in the TOML (e.g. `D`, `notre-dame`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Id of the set / expansion the tile belongs to.
    pub set: String,
    /// Copies in the draw pile (not counting the start copy, nor the copies held by players as
    /// [`PlayerTile`]s).
    pub count: u32,
    /// Whether one extra copy of this tile starts on the board.
    pub start: bool,
    /// Bit set over [`Ruleset::tags`] of tile-level tags (e.g. `religious`).
    pub tags: u32,
    /// Number of cells the tile covers (1 for ordinary tiles, 5 for the largest mega tiles).
    pub cell_count: u8,
    /// Cell ids as written in the TOML (`["0"]` for a single-cell tile), in cell-index order.
    pub cell_ids: Vec<String>,
    /// Tile-local features (connected components of the tile's segment graph); rotation-invariant.
    pub features: Vec<Feature>,
    /// The four rotations, index = clockwise quarter turns.
    pub rotations: Vec<Rotation>,
    /// Abilities of the tile (its owner's, W-10..W-17), in the rule language.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<Ability>,
    /// Conditions on where the tile may be placed beside matching edges (checked only for the
    /// tiles that carry them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placement: Vec<PlacementRule>,
    /// Rule ids the placement events of this tile cite: its set's, its own, then those its
    /// [`TileType::placement`] rules cite (default: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
}

/// A tile-local feature: the facts the engine needs about one connected component.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Feature {
    /// What it is.
    pub kind: FeatureKind,
    /// Ids of the segments it is made of, as written in the TOML (scenarios and logs name
    /// features by any of these).
    pub segments: Vec<String>,
    /// Bit set of the tile's cells (by cell index) that this feature touches (B-7, W-18).
    pub cells: u8,
    /// Number of outer sides (city/road) of the tile this feature reaches: its open ends before
    /// any neighbour closes them (B-3).
    pub open_sides: u8,
    /// Pennants / coats of arms (cities only, B-4).
    pub pennants: u8,
    /// Bit set over [`Ruleset::tags`] (e.g. `religious`).
    pub tags: u32,
    /// For fields: indices (into the tile's `features`) of the cities it borders (B-6).
    pub borders: Vec<u8>,
}

/// One rotation of a tile: where its cells go and what each outer port connects to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Rotation {
    /// The cells, in the tile's cell order; cell 0 is the anchor at offset `(0, 0)`.
    pub cells: Vec<CellPorts>,
}

/// A cell of a placed tile in one rotation, seen from the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CellPorts {
    /// Offset from the anchor cell, already rotated.
    pub offset: (i8, i8),
    /// Kind of each side, indexed by board [`Side`] (already rotated).
    pub sides: [SideKind; 4],
    /// Bit set of the sides (board [`Side`] index) that are outer, i.e. face the map; the others
    /// face another cell of the same tile and never meet a neighbour.
    pub outer: u8,
    /// Feature (index into [`TileType::features`]) on each city/road side, by board side;
    /// [`NO_FEATURE`] for field / any sides.
    pub side_feature: [u8; 4],
    /// Field feature on each half-edge, by board [`Half`]; [`NO_FEATURE`] on city / any sides.
    pub half_feature: [u8; 8],
    /// Features that sit on this cell without touching a side (cloister, unscored feature, inner fields).
    pub inner: Vec<u8>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_opposites_are_involutions_on_opposite_sides() {
        for h in Half::ALL {
            assert_eq!(h.opposite().opposite(), h);
            assert_eq!(h.opposite().side(), h.side().opposite());
        }
        assert_eq!(Half::Nw.opposite(), Half::Sw);
        assert_eq!(Half::En.opposite(), Half::Wn);
    }

    #[test]
    fn rotation_moves_north_to_east() {
        assert_eq!(Side::N.rotated(1), Side::E);
        assert_eq!(Half::Nw.rotated(1), Half::En);
        assert_eq!(rotate_offset(0, -1, 1), (1, 0));
        assert_eq!(rotate_offset(3, 5, 4), (3, 5));
        // Rotation commutes with taking the opposite half.
        for h in Half::ALL {
            for r in 0..4 {
                assert_eq!(h.rotated(r).opposite(), h.opposite().rotated(r));
            }
        }
    }
}
