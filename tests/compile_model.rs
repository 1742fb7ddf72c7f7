//! Integration tests of the compiler: the shipped data compiles cleanly and deterministically,
//! every lowered tile's rotations are consistent (rotating 4 times is the identity), a
//! hand-written mega tile compiles to the expected features (W-18), and random valid single-cell
//! tiles compile without diagnostics and lower consistently (proptest).

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use tegula_model::compile::compile_tileset;
use tegula_model::load::parse_tileset;
use tegula_model::lower::{lower_tile, tag_names, turn};
use tegula_model::variant::{build_variant, compile_tileset_file};
use tegula_model::Source;
use tegula_ruleset::{FeatureKind, Half, Side, SideKind, TileType, NO_FEATURE};

mod common;
use common::show_diags;

fn shipped(dir: &str) -> Vec<PathBuf> {
    common::toml_files_recursive(dir)
}

/// Rotation `r + 1` is rotation `r` turned once; four single turns give rotation 0 back; cell 0
/// stays the anchor; ports agree with side kinds (B-2).
fn check_rotations(t: &TileType) {
    assert_eq!(t.rotations.len(), 4, "{}", t.id);
    for r in 0..4 {
        assert_eq!(
            turn(&t.rotations[r], 1),
            t.rotations[(r + 1) % 4],
            "tile {}: rotation {} turned once",
            t.id,
            r
        );
        assert_eq!(t.rotations[r].cells[0].offset, (0, 0), "{}", t.id);
    }
    let mut again = t.rotations[0].clone();
    for _ in 0..4 {
        again = turn(&again, 1);
    }
    assert_eq!(again, t.rotations[0], "tile {}: four turns", t.id);
    for rot in &t.rotations {
        for c in &rot.cells {
            for s in Side::ALL {
                let f = c.side_feature[s.index()];
                let want = match c.sides[s.index()] {
                    SideKind::City => Some(FeatureKind::City),
                    SideKind::Road => Some(FeatureKind::Road),
                    _ => None,
                };
                match want {
                    Some(k) => assert_eq!(t.features[f as usize].kind, k, "{}", t.id),
                    None => assert_eq!(f, NO_FEATURE, "{}", t.id),
                }
                for h in s.halves() {
                    let f = c.half_feature[h.index()];
                    // Road, field and declared sides (water, R-5) have field halves.
                    if c.sides[s.index()].has_field_halves() {
                        assert_eq!(t.features[f as usize].kind, FeatureKind::Field, "{}", t.id);
                    } else {
                        assert_eq!(f, NO_FEATURE, "{} {:?}", t.id, Half::ALL[h.index()]);
                    }
                }
            }
        }
    }
}

#[test]
fn shipped_tile_sets_compile_cleanly_and_rotate_consistently() {
    let files = shipped("tiles");
    assert!(files.len() >= 2);
    for f in files {
        let (set, diags) = compile_tileset_file(&f);
        assert!(diags.is_empty(), "{}", show_diags(&diags));
        let (_, set) = set.unwrap();
        let tags = tag_names(&set.tiles);
        for t in &set.tiles {
            check_rotations(&lower_tile(t, &tags).unwrap());
        }
    }
}

#[test]
fn shipped_variants_build_and_rotate_consistently() {
    let files = shipped("variants");
    assert!(!files.is_empty());
    for f in files {
        let (rs, diags) = build_variant(&f);
        assert!(diags.is_empty(), "{}", show_diags(&diags));
        let rs = rs.unwrap();
        assert!(rs.min_players <= rs.max_players);
        for t in &rs.tiles {
            check_rotations(t);
        }
        if let Some(s) = rs.start_tile {
            assert!(rs.tiles[s as usize].start);
        }
    }
}

#[test]
fn base_variant_has_72_tiles_with_d_as_start_b1() {
    let (rs, diags) = build_variant(Path::new("variants/base.toml"));
    assert!(diags.is_empty(), "{}", show_diags(&diags));
    let rs = rs.unwrap();
    assert_eq!(rs.tiles.len(), 24);
    assert_eq!(rs.pile_size(), 71);
    assert_eq!(rs.tiles[rs.start_tile.unwrap() as usize].id, "D");
}

#[test]
fn compiling_is_deterministic() {
    for f in shipped("tiles") {
        let a = serde_json::to_string(&compile_tileset_file(&f).0.unwrap().1).unwrap();
        let b = serde_json::to_string(&compile_tileset_file(&f).0.unwrap().1).unwrap();
        assert_eq!(a, b, "{}", f.display());
    }
    for f in shipped("variants") {
        let a = serde_json::to_string(&build_variant(&f).0).unwrap();
        let b = serde_json::to_string(&build_variant(&f).0).unwrap();
        assert_eq!(a, b, "{}", f.display());
    }
}

/// Kind, segment ids, cells, open sides, pennants, borders.
type FeatureSummary<'a> = (FeatureKind, Vec<&'a str>, Vec<usize>, u32, u32, Vec<usize>);

#[test]
fn a_two_cell_city_is_one_feature_spanning_both_cells_w18() {
    let (set, diags) =
        compile_tileset_file(Path::new("tests/fixtures/valid/mega-city-domino.toml"));
    assert!(diags.is_empty(), "{}", show_diags(&diags));
    let (_, set) = set.unwrap();
    let t = &set.tiles[0];
    let summary: Vec<FeatureSummary> = t
        .features
        .iter()
        .map(|f| {
            (
                f.kind,
                f.segments.iter().map(String::as_str).collect(),
                f.cells.clone(),
                f.open_sides,
                f.pennants,
                f.borders.clone(),
            )
        })
        .collect();
    use FeatureKind::*;
    assert_eq!(
        summary,
        [
            // The city crosses the inner side; only a's north side is open (B-3).
            (City, vec!["a.city", "b.city"], vec![0, 1], 1, 1, vec![]),
            (Field, vec!["a.field"], vec![0], 0, 0, vec![0]),
            (Road, vec!["b.road"], vec![1], 1, 0, vec![]),
            (Field, vec!["b.field-e"], vec![1], 0, 0, vec![0]),
            (Field, vec!["b.field-w"], vec![1], 0, 0, vec![0]),
        ]
    );
    assert_eq!(t.graph.edge_count(), 1);
    let lowered = lower_tile(t, &tag_names(&set.tiles)).unwrap();
    assert_eq!(lowered.features[0].cells, 0b11);
    check_rotations(&lowered);
}

/// A random valid single-cell tile as TOML: side kinds, cities / roads / fields as random
/// groupings of the sides / half-edges they may touch, pennants, maybe a cloister. Each field
/// borders the cities whose sides its half-edges meet at a corner of the cell (B-6, worked out
/// here independently of the validator: the half-edge at a side's west/north end meets the side
/// before it clockwise, the other half the side after it).
fn tile_toml(
    kinds: [u8; 4],
    city_group: [u8; 4],
    road_group: [u8; 4],
    half_group: [u8; 8],
    pennants: [u8; 4],
    cloister: bool,
) -> String {
    const KIND: [&str; 4] = ["city", "road", "field", "any"];
    let names: Vec<String> = kinds
        .iter()
        .map(|&k| format!("\"{}\"", KIND[k as usize]))
        .collect();
    let mut segs = Vec::new();
    for g in 0..4u8 {
        let sides: Vec<String> = (0..4)
            .filter(|&s| kinds[s] == 0 && city_group[s] == g)
            .map(|s| format!("\"{}\"", Side::ALL[s].name()))
            .collect();
        if !sides.is_empty() {
            segs.push(format!(
                "{{ id = \"city-{g}\", kind = \"city\", sides = [{}], pennants = {} }}",
                sides.join(", "),
                pennants[g as usize]
            ));
        }
    }
    for g in 0..4u8 {
        let sides: Vec<String> = (0..4)
            .filter(|&s| kinds[s] == 1 && road_group[s] == g)
            .map(|s| format!("\"{}\"", Side::ALL[s].name()))
            .collect();
        if !sides.is_empty() {
            segs.push(format!(
                "{{ id = \"road-{g}\", kind = \"road\", sides = [{}] }}",
                sides.join(", ")
            ));
        }
    }
    for g in 0..4u8 {
        let halves: Vec<String> = (0..8)
            .filter(|&h| matches!(kinds[h / 2], 1 | 2) && half_group[h] == g)
            .map(|h| format!("\"{}\"", Half::ALL[h].name()))
            .collect();
        if !halves.is_empty() {
            let mut b: Vec<String> = (0..8)
                .filter(|&h| matches!(kinds[h / 2], 1 | 2) && half_group[h] == g)
                .map(|h| {
                    if h % 2 == 0 {
                        (h / 2 + 3) % 4
                    } else {
                        (h / 2 + 1) % 4
                    }
                })
                .filter(|&side| kinds[side] == 0)
                .map(|side| format!("\"city-{}\"", city_group[side]))
                .collect();
            b.sort();
            b.dedup();
            segs.push(format!(
                "{{ id = \"field-{g}\", kind = \"field\", halves = [{}], borders = [{}] }}",
                halves.join(", "),
                b.join(", ")
            ));
        }
    }
    if cloister || segs.is_empty() {
        segs.push("{ id = \"cloister\", kind = \"cloister\", tags = [\"religious\"] }".into());
    }
    format!(
        "#:schema ../schema/tileset.schema.json\n[set]\nid = \"random\"\nname = \"Random\"\n\n[[tile]]\nid = \"r\"\ncount = 1\nsides = [{}]\nsegments = [\n  {},\n]\n",
        names.join(", "),
        segs.join(",\n  ")
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_single_cell_tiles_compile_and_rotate_consistently(
        kinds in prop::array::uniform4(0u8..4),
        city_group in prop::array::uniform4(0u8..4),
        road_group in prop::array::uniform4(0u8..4),
        half_group in prop::array::uniform8(0u8..4),
        pennants in prop::array::uniform4(0u8..3),
        cloister in any::<bool>(),
    ) {
        let text = tile_toml(kinds, city_group, road_group, half_group, pennants, cloister);
        let (loaded, diags) = parse_tileset(Source::new("random.toml", text.clone()));
        prop_assert!(diags.is_empty(), "{}\n{}", text, show_diags(&diags));
        let (set, diags) = compile_tileset(&loaded.unwrap());
        prop_assert!(diags.is_empty(), "{}\n{}", text, show_diags(&diags));
        let t = &set.tiles[0];
        // Every city / road side is open (single cell), so open sides add up to those sides.
        let open: u32 = t.features.iter().map(|f| f.open_sides).sum();
        prop_assert_eq!(open as usize, kinds.iter().filter(|&&k| k < 2).count());
        let lowered = lower_tile(t, &tag_names(&set.tiles)).unwrap();
        check_rotations(&lowered);
    }
}

#[test]
fn a_variant_overrides_a_meadow_connection_before_features_are_computed_w21() {
    let (set, diags) = compile_tileset_file(Path::new("tests/fixtures/valid/mega-meadow.toml"));
    assert!(diags.is_empty(), "{}", show_diags(&diags));
    assert_eq!(set.unwrap().1.tiles[0].features.len(), 1);
    let (rs, diags) = build_variant(Path::new("tests/fixtures/valid/variant-w21.toml"));
    assert!(diags.is_empty(), "{}", show_diags(&diags));
    let rs = rs.unwrap();
    let t = &rs.tiles[0];
    assert_eq!(t.features.len(), 2);
    assert_eq!(t.features[0].cells, 0b01);
    assert_eq!(t.features[1].cells, 0b10);
    // `copies = 2` doubles the count.
    assert_eq!(t.count, 2);
    // The base game's D, after the domino, is the start tile.
    assert_eq!(rs.start_tile, Some(1));
}
