//! Lowering: a [`CompiledTile`] → a [`TileType`] with all four rotations precomputed, following
//! the geometry conventions documented at the top of `tegula_ruleset` (cell 0 is the anchor at
//! offset `(0, 0)`; a quarter turn clockwise maps side `s` → `s + 1`, half `h` → `h + 2`, offset
//! `(x, y)` → `(-y, x)`).

use tegula_ruleset::{
    rotate_offset, CellPorts, Feature, Half, Rotation, Side, SideKind, TileType, NO_FEATURE,
};

use crate::tile::{CompiledTile, MAX_CELLS};

/// The tag list of a ruleset made of `tiles`: every tile and feature tag, sorted, each once
/// (bit `i` of a lowered tag set is `tag_names(..)[i]`).
pub fn tag_names(tiles: &[CompiledTile]) -> Vec<String> {
    let mut tags: Vec<String> = tiles
        .iter()
        .flat_map(|t| {
            t.tags
                .iter()
                .chain(t.features.iter().flat_map(|f| f.tags.iter()))
        })
        .cloned()
        .collect();
    tags.sort();
    tags.dedup();
    tags
}

/// Bit set of `names` over `tags` (names not in `tags` are ignored; `tags` has at most 32).
pub fn tag_bits(names: &[String], tags: &[String]) -> u32 {
    names
        .iter()
        .filter_map(|n| tags.iter().position(|t| t == n))
        .filter(|&i| i < 32)
        .fold(0, |acc, i| acc | (1 << i))
}

/// Why a compiled tile cannot be lowered (limits of the flat tables).
pub fn lower_limits(tile: &CompiledTile) -> Result<(), String> {
    if tile.cells.is_empty() || tile.cells.len() > MAX_CELLS {
        return Err(format!(
            "tile `{}` has {} cells; the engine takes 1 to {MAX_CELLS}",
            tile.id,
            tile.cells.len()
        ));
    }
    if tile.features.len() >= usize::from(NO_FEATURE) {
        return Err(format!(
            "tile `{}` has {} features; the engine takes at most {}",
            tile.id,
            tile.features.len(),
            NO_FEATURE - 1
        ));
    }
    if u32::try_from(tile.count).is_err() {
        return Err(format!(
            "tile `{}`: count {} too large",
            tile.id, tile.count
        ));
    }
    let anchor = tile.cells[0].at;
    for c in &tile.cells {
        let dx = c.at.0.checked_sub(anchor.0);
        let dy = c.at.1.checked_sub(anchor.1);
        let fits = |d: Option<i64>| d.is_some_and(|d| (-64..=64).contains(&d));
        if !fits(dx) || !fits(dy) {
            return Err(format!(
                "tile `{}`: cell `{}` lies too far from the anchor",
                tile.id, c.id
            ));
        }
    }
    for f in &tile.features {
        if f.open_sides > 255 || f.pennants > 255 {
            return Err(format!("tile `{}`: a feature is too large", tile.id));
        }
    }
    Ok(())
}

/// Lower one compiled tile. `tags` is the ruleset's tag list (bit `i` = `tags[i]`).
pub fn lower_tile(tile: &CompiledTile, tags: &[String]) -> Result<TileType, String> {
    lower_limits(tile)?;
    let features: Vec<Feature> = tile
        .features
        .iter()
        .map(|f| Feature {
            kind: f.kind,
            segments: f.segments.clone(),
            cells: f.cells.iter().fold(0u8, |acc, &c| acc | (1 << c)),
            open_sides: f.open_sides as u8,
            pennants: f.pennants as u8,
            tags: tag_bits(&f.tags, tags),
            borders: f.borders.iter().map(|&b| b as u8).collect(),
        })
        .collect();
    let rotations = (0..4u8).map(|r| rotation(tile, r)).collect();
    Ok(TileType {
        id: tile.id.clone(),
        name: tile.name.clone(),
        set: tile.set.clone(),
        count: tile.count as u32,
        start: tile.start,
        tags: tag_bits(&tile.tags, tags),
        cell_count: tile.cells.len() as u8,
        cell_ids: tile.cells.iter().map(|c| c.id.clone()).collect(),
        features,
        rotations,
        abilities: Vec::new(),
        placement: tile.placement.clone(),
        rules: tile.rules.clone(),
    })
}

/// The ports of every cell after `r` clockwise quarter turns, computed from the compiled tile.
fn rotation(tile: &CompiledTile, r: u8) -> Rotation {
    let anchor = tile.cells[0].at;
    let cells = tile
        .cells
        .iter()
        .enumerate()
        .map(|(ci, c)| {
            let (x, y) = rotate_offset((c.at.0 - anchor.0) as i32, (c.at.1 - anchor.1) as i32, r);
            let mut sides = [SideKind::Field; 4];
            let mut outer = 0u8;
            let mut side_feature = [NO_FEATURE; 4];
            let mut half_feature = [NO_FEATURE; 8];
            let mut inner: Vec<u8> = Vec::new();
            for s in Side::ALL {
                let b = s.rotated(r).index();
                sides[b] = c.sides[s.index()];
                if c.outer[s.index()] {
                    outer |= 1 << b;
                }
            }
            for seg in tile.segments.iter().filter(|seg| seg.cell == ci) {
                let f = seg.feature as u8;
                for s in &seg.sides {
                    side_feature[s.rotated(r).index()] = f;
                }
                for h in &seg.halves {
                    half_feature[h.rotated(r).index()] = f;
                }
                if seg.sides.is_empty() && seg.halves.is_empty() && !inner.contains(&f) {
                    inner.push(f);
                }
            }
            inner.sort_unstable();
            CellPorts {
                offset: (x as i8, y as i8),
                sides,
                outer,
                side_feature,
                half_feature,
                inner,
            }
        })
        .collect();
    Rotation { cells }
}

/// Turn one cell's ports by `quarter_turns` clockwise quarter turns, directly on the lowered
/// tables (independent of [`lower_tile`], so tests can compare the two).
pub fn turn_cell(c: &CellPorts, quarter_turns: u8) -> CellPorts {
    let (x, y) = rotate_offset(i32::from(c.offset.0), i32::from(c.offset.1), quarter_turns);
    let mut sides = [SideKind::Field; 4];
    let mut side_feature = [NO_FEATURE; 4];
    let mut outer = 0u8;
    for s in Side::ALL {
        let to = s.rotated(quarter_turns).index();
        sides[to] = c.sides[s.index()];
        side_feature[to] = c.side_feature[s.index()];
        if c.outer & (1 << s.index()) != 0 {
            outer |= 1 << to;
        }
    }
    let mut half_feature = [NO_FEATURE; 8];
    for h in Half::ALL {
        half_feature[h.rotated(quarter_turns).index()] = c.half_feature[h.index()];
    }
    CellPorts {
        offset: (x as i8, y as i8),
        sides,
        outer,
        side_feature,
        half_feature,
        inner: c.inner.clone(),
    }
}

/// Turn a whole rotation by `quarter_turns`.
pub fn turn(r: &Rotation, quarter_turns: u8) -> Rotation {
    Rotation {
        cells: r
            .cells
            .iter()
            .map(|c| turn_cell(c, quarter_turns))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::tests::{compile, D};
    use tegula_ruleset::{FeatureKind, SideKind};

    fn lower_first(text: &str) -> TileType {
        let (set, diags) = compile(text);
        assert!(diags.is_empty(), "{diags:?}");
        let tags = vec!["religious".to_string(), "wonder".to_string()];
        lower_tile(&set.tiles[0], &tags).unwrap()
    }

    #[test]
    fn tile_d_turned_once_shows_its_city_to_the_east() {
        let t = lower_first(D);
        let r0 = &t.rotations[0].cells[0];
        assert_eq!(
            r0.sides,
            [
                SideKind::City,
                SideKind::Road,
                SideKind::Field,
                SideKind::Road
            ]
        );
        assert_eq!(r0.side_feature, [0, 1, NO_FEATURE, 1]);
        assert_eq!(r0.half_feature[Half::Wn.index()], 2);
        assert_eq!(r0.half_feature[Half::Nw.index()], NO_FEATURE);
        let r1 = &t.rotations[1].cells[0];
        assert_eq!(
            r1.sides,
            [
                SideKind::Road,
                SideKind::City,
                SideKind::Road,
                SideKind::Field
            ]
        );
        assert_eq!(r1.side_feature, [1, 0, 1, NO_FEATURE]);
        // After a clockwise turn the north field's Wn and En are Ne and Se.
        assert_eq!(r1.half_feature[Half::Ne.index()], 2);
        assert_eq!(r1.half_feature[Half::Se.index()], 2);
        assert_eq!(r1.outer, 0b1111);
        assert_eq!(t.features[2].borders, [0]);
        assert_eq!(t.features[1].open_sides, 2);
        assert_eq!(t.cell_ids, ["0"]);
    }

    #[test]
    fn a_mega_tile_turns_its_offsets_and_inner_sides_w18() {
        let t = lower_first(
            r#"
[set]
id = "t"
name = "t"
[[tile]]
id = "domino"
count = 1
tags = ["wonder"]
cells = [
  { id = "a", at = [0, 0], sides = ["field", "field", "field", "field"] },
  { id = "b", at = [1, 0], sides = ["field", "field", "field", "field"] },
]
segments = [
  { id = "a.f", kind = "field", cell = "a", halves = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"] },
  { id = "b.f", kind = "field", cell = "b", halves = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"] },
  { id = "b.c", kind = "cloister", cell = "b", tags = ["religious"] },
]
connections = [{ id = "m", segments = ["a.f", "b.f"], joined = true }]
"#,
        );
        assert_eq!(t.tags, 0b10);
        assert_eq!(t.cell_count, 2);
        assert_eq!(t.features[0].cells, 0b11);
        assert_eq!(t.features[1].kind, FeatureKind::Cloister);
        assert_eq!(t.features[1].tags, 0b01);
        let offsets: Vec<_> = t.rotations.iter().map(|r| r.cells[1].offset).collect();
        assert_eq!(offsets, [(1, 0), (0, 1), (-1, 0), (0, -1)]);
        // Cell a's east side is inner; after one turn it is its south side.
        assert_eq!(t.rotations[0].cells[0].outer, 0b1101);
        assert_eq!(t.rotations[1].cells[0].outer, 0b1011);
        assert_eq!(t.rotations[0].cells[1].inner, [1]);
    }
}
