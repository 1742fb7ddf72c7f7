//! Tests of the compiler on small tile sets.

use super::*;
use crate::raw::{RawCell, RawSegment};

/// Compile a tile-set text (which must parse) as `test.toml`.
pub(crate) fn compile(text: &str) -> (CompiledSet, Vec<Diagnostic>) {
    let doc: TileSetFile = toml::from_str(text).expect("test TOML parses");
    let loaded = Loaded {
        source: Source::new("test.toml", text.to_string()),
        doc,
    };
    compile_tileset(&loaded)
}

/// Base tile D (city, road, two fields; B-1), the start tile.
pub(crate) const D: &str = r#"
[set]
id = "t"
name = "t"
[[tile]]
id = "D"
count = 3
start = true
sides = ["city", "road", "field", "road"]
segments = [
  { id = "city", kind = "city", sides = ["N"] },
  { id = "road", kind = "road", sides = ["W", "E"] },
  { id = "north", kind = "field", halves = ["Wn", "En"], borders = ["city"] },
  { id = "south", kind = "field", halves = ["Es", "Se", "Sw", "Ws"] },
]
"#;

/// The guard behind `disconnected-feature` (W-18): reported on its own when no
/// `bad-connection` is the root cause, folded under that one when it is.
#[test]
fn a_disconnected_feature_is_reported_unless_folded() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/invalid/bad-connection-not-neighbours.toml"
    ))
    .unwrap();
    let (set, diags) = compile(&text);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].code, Code::BadConnection);
    assert!(diags[0]
        .notes
        .iter()
        .any(|n| n.contains("not edge-connected")));
    assert_eq!(diags[0].labels.len(), 2, "both cells are shown");
    let src = Source::new("test.toml", text);
    let mut alone = Vec::new();
    check_feature_cells(&set.tiles[0], &[], &src, &mut alone);
    assert_eq!(alone.len(), 1, "{alone:?}");
    assert_eq!(alone[0].code, Code::DisconnectedFeature);
}

#[test]
fn tile_d_has_a_city_a_road_and_two_fields_b1() {
    let (set, diags) = compile(D);
    assert!(diags.is_empty(), "{diags:?}");
    let t = &set.tiles[0];
    assert!(t.valid);
    assert_eq!(t.copies(), 4);
    let kinds: Vec<_> = t.features.iter().map(|f| f.kind).collect();
    assert_eq!(
        kinds,
        [
            FeatureKind::City,
            FeatureKind::Road,
            FeatureKind::Field,
            FeatureKind::Field
        ]
    );
    // B-3: the city has one open side, the road two open ends.
    assert_eq!(t.features[0].open_sides, 1);
    assert_eq!(t.features[1].open_sides, 2);
    // B-6: only the northern field borders the city.
    assert_eq!(t.features[2].borders, [0]);
    assert!(t.features[3].borders.is_empty());
    assert_eq!(t.graph.node_count(), 4);
    assert_eq!(t.graph.edge_count(), 0);
}

#[test]
fn two_start_tiles_are_a_bad_count_b1() {
    let second = D[D.find("[[tile]]").unwrap()..].replace("\"D\"", "\"D2\"");
    let text = format!("{D}\n{second}");
    let (_, diags) = compile(&text);
    let bad: Vec<_> = diags.iter().filter(|d| d.code == Code::BadCount).collect();
    assert_eq!(bad.len(), 1, "{diags:?}");
    assert_eq!(bad[0].rule.as_deref(), Some("B-1"));
}

#[test]
fn every_problem_of_a_tile_is_reported_with_its_line() {
    let text = r#"
[set]
id = "t"
name = "t"
[[tile]]
id = "bad"
count = 1
sides = ["city", "road", "field", "any"]
segments = [
  { id = "road", kind = "road", sides = ["E"], pennants = 1 },
  { id = "f1", kind = "field", halves = ["En", "Es", "Se"], borders = ["road"] },
  { id = "f2", kind = "field", halves = ["Sw", "Se", "Ws"] },
]
"#;
    let (set, diags) = compile(text);
    let got: Vec<(&str, usize)> = diags.iter().map(|d| (d.code.as_str(), d.at.line)).collect();
    // City side N touched by nothing (line 8), a pennant on a road (10), a field bordering a
    // road (11), half Se in two fields (12), a half of the `any` side W (12).
    assert!(got.contains(&("side-coverage", 8)), "{got:?}");
    assert!(got.contains(&("segment-shape", 10)), "{got:?}");
    assert!(got.contains(&("bad-border", 11)), "{got:?}");
    assert!(got.contains(&("half-coverage", 12)), "{got:?}");
    assert!(got.contains(&("segment-shape", 12)), "{got:?}");
    assert!(!set.tiles[0].valid);
}

fn cell(id: &str, x: i64, y: i64) -> Sp<RawCell> {
    Sp::unspanned(RawCell {
        id: Sp::unspanned(id.to_string()),
        at: Sp::unspanned(vec![Sp::unspanned(x), Sp::unspanned(y)]),
        sides: Sp::unspanned(vec![Sp::unspanned(RawSideKind::Field); 4]),
    })
}

fn huge(cells: Vec<Sp<RawCell>>) -> Vec<Diagnostic> {
    let tile = RawTile {
        id: Sp::unspanned("huge".into()),
        name: None,
        count: Sp::unspanned(1_000_000_000_000),
        start: false,
        tags: vec![],
        sides: None,
        cells: Some(Sp::unspanned(cells)),
        segments: vec![Sp::unspanned(RawSegment {
            id: Sp::unspanned("w".into()),
            kind: Sp::unspanned(RawSegmentKind::Wonder),
            cell: Some(Sp::unspanned("c0".into())),
            sides: vec![],
            halves: vec![],
            pennants: Sp::unspanned(0),
            borders: vec![],
            hidden_borders: None,
            tags: vec![],
        })],
        connections: vec![],
        note: None,
        placement: vec![],
        rules: vec![],
    };
    let doc = TileSetFile {
        set: crate::raw::SetInfo {
            id: Sp::unspanned("t".into()),
            name: "t".into(),
            description: None,
            glyphs: vec![],
            rules: vec![],
        },
        tile: vec![Sp::unspanned(tile)],
        fact: vec![],
        ability: vec![],
        rule: vec![],
        token: vec![],
        counter: vec![],
        neutral: vec![],
        when: vec![],
        edge: vec![],
    };
    let loaded = Loaded {
        source: Source::new("huge.toml", String::new()),
        doc,
    };
    compile_tileset(&loaded).1
}

#[test]
fn a_tile_with_100000_cells_is_reported_in_bounded_time_and_size() {
    // A long row: connected, so only the size limit and the count are wrong.
    let row: Vec<_> = (0..100_000).map(|i| cell(&format!("c{i}"), i, 0)).collect();
    let diags = huge(row);
    let codes: Vec<_> = diags.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::BadCount, Code::TileShape], "{diags:?}");
    // All on one spot: overlapping, reported a bounded number of times.
    let pile: Vec<_> = (0..100_000).map(|i| cell(&format!("c{i}"), 0, 0)).collect();
    let diags = huge(pile);
    let overlapping = diags
        .iter()
        .filter(|d| d.code == Code::OverlappingCells)
        .count();
    assert!(overlapping > 0 && overlapping <= MAX_CELL_REPORTS);
    // Scattered far apart (coordinates near the i64 limits must not overflow).
    let scattered: Vec<_> = (0..100_000)
        .map(|i| cell(&format!("c{i}"), i64::MAX - 2 * i, i64::MIN + 3 * i))
        .collect();
    let diags = huge(scattered);
    let disconnected = diags
        .iter()
        .filter(|d| d.code == Code::DisconnectedCells)
        .count();
    assert!(disconnected > 0 && disconnected <= MAX_CELL_REPORTS);
}

#[test]
fn a_w21_override_splits_a_joined_field() {
    let text = r#"
[set]
id = "t"
name = "t"
[[tile]]
id = "domino"
count = 1
cells = [
  { id = "a", at = [0, 0], sides = ["field", "field", "field", "field"] },
  { id = "b", at = [0, 1], sides = ["field", "field", "field", "field"] },
]
segments = [
  { id = "a.f", kind = "field", cell = "a", halves = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"] },
  { id = "b.f", kind = "field", cell = "b", halves = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"] },
]
connections = [{ id = "meadow", segments = ["a.f", "b.f"], joined = true, rule = "W-21" }]
"#;
    let (mut set, diags) = compile(text);
    assert!(diags.is_empty(), "{diags:?}");
    let t = &mut set.tiles[0];
    assert_eq!(t.features.len(), 1);
    assert_eq!(t.features[0].cells, [0, 1]);
    assert_eq!(t.cells[0].outer, [true, true, false, true]);
    assert!(t.set_joined("meadow", false));
    assert_eq!(t.features.len(), 2);
    // The separate connection is still an edge of the graph, just not a joining one.
    assert_eq!(t.graph.edge_count(), 1);
    assert!(!t.set_joined("nope", true));
}

mod arbitrary {
    use super::super::*;
    use crate::raw::{RawCell, RawConnection, RawSegment};
    use proptest::prelude::*;

    const IDS: [&str; 5] = ["a", "b", "c", "d", "e"];

    fn id() -> impl Strategy<Value = Sp<String>> {
        (0..IDS.len()).prop_map(|i| Sp::unspanned(IDS[i].to_string()))
    }

    fn side_kind() -> impl Strategy<Value = Sp<RawSideKind>> {
        prop_oneof![
            Just(RawSideKind::City),
            Just(RawSideKind::Road),
            Just(RawSideKind::Field),
            Just(RawSideKind::Any),
            Just(RawSideKind::Edge("water".into())),
            Just(RawSideKind::Edge("undeclared".into()))
        ]
        .prop_map(Sp::unspanned)
    }

    fn cell() -> impl Strategy<Value = Sp<RawCell>> {
        (
            id(),
            prop::collection::vec(-2i64..3, 1..4),
            prop::collection::vec(side_kind(), 3..6),
        )
            .prop_map(|(id, at, sides)| {
                Sp::unspanned(RawCell {
                    id,
                    at: Sp::unspanned(at.into_iter().map(Sp::unspanned).collect()),
                    sides: Sp::unspanned(sides),
                })
            })
    }

    fn segment() -> impl Strategy<Value = Sp<RawSegment>> {
        const KINDS: [RawSegmentKind; 5] = [
            RawSegmentKind::City,
            RawSegmentKind::Road,
            RawSegmentKind::Field,
            RawSegmentKind::Cloister,
            RawSegmentKind::Wonder,
        ];
        const SIDES: [RawSide; 4] = [RawSide::N, RawSide::E, RawSide::S, RawSide::W];
        const HALVES: [RawHalf; 8] = [
            RawHalf::Nw,
            RawHalf::Ne,
            RawHalf::En,
            RawHalf::Es,
            RawHalf::Se,
            RawHalf::Sw,
            RawHalf::Ws,
            RawHalf::Wn,
        ];
        (
            id(),
            0..5usize,
            prop::option::of(id()),
            prop::collection::vec(0..4usize, 0..5),
            prop::collection::vec(0..8usize, 0..9),
            0u8..4,
            prop::collection::vec(id(), 0..3),
        )
            .prop_map(|(id, k, cell, sides, halves, pennants, borders)| {
                Sp::unspanned(RawSegment {
                    id,
                    kind: Sp::unspanned(KINDS[k]),
                    cell,
                    sides: sides.into_iter().map(|s| Sp::unspanned(SIDES[s])).collect(),
                    halves: halves
                        .into_iter()
                        .map(|h| Sp::unspanned(HALVES[h]))
                        .collect(),
                    pennants: Sp::unspanned(pennants),
                    borders,
                    hidden_borders: None,
                    tags: vec![],
                })
            })
    }

    fn connection() -> impl Strategy<Value = Sp<RawConnection>> {
        (id(), prop::collection::vec(id(), 0..4), any::<bool>()).prop_map(|(id, segs, joined)| {
            Sp::unspanned(RawConnection {
                id,
                segments: Sp::unspanned(segs),
                joined: Sp::unspanned(joined),
                rule: None,
            })
        })
    }

    fn tile() -> impl Strategy<Value = Sp<RawTile>> {
        (
            id(),
            0u64..2000,
            any::<bool>(),
            prop::option::of(prop::collection::vec(side_kind(), 3..6)),
            prop::option::of(prop::collection::vec(cell(), 0..6)),
            prop::collection::vec(segment(), 1..8),
            prop::collection::vec(connection(), 0..5),
        )
            .prop_map(|(id, count, start, sides, cells, segments, connections)| {
                Sp::unspanned(RawTile {
                    id,
                    name: None,
                    count: Sp::unspanned(count),
                    start,
                    tags: vec![],
                    sides: sides.map(Sp::unspanned),
                    cells: cells.map(Sp::unspanned),
                    segments,
                    connections,
                    note: None,
                    placement: vec![],
                    rules: vec![],
                })
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Arbitrary (mostly broken) tiles never panic the compiler or the lowering; a tile
        /// marked valid has no error and lowers.
        #[test]
        fn arbitrary_tiles_never_panic(tiles in prop::collection::vec(tile(), 1..4)) {
            let doc = TileSetFile {
                set: crate::raw::SetInfo {
                    id: Sp::unspanned("t".into()),
                    name: "t".into(),
                    description: None,
                    glyphs: vec![],
                    rules: vec![],
                },
                tile: tiles,
                fact: vec![],
                ability: vec![],
                rule: vec![],
                token: vec![],
                counter: vec![],
                neutral: vec![],
                when: vec![],
                edge: vec![Sp::unspanned(crate::raw::RawEdgeKind {
                    id: Sp::unspanned("water".into()),
                    name: "Water".into(),
                })],
            };
            let loaded = Loaded { source: Source::new("a.toml", String::new()), doc };
            let (set, diags) = compile_tileset(&loaded);
            let all_valid = set.tiles.iter().all(|t| t.valid);
            if diags.is_empty() {
                prop_assert!(all_valid);
            }
            for t in &set.tiles {
                let lowered = crate::lower::lower_tile(t, &[]);
                if t.valid {
                    prop_assert!(lowered.is_ok());
                }
            }
        }
    }
}

/// A river tile: `water` declared by the file (R-1), both banks separate fields (R-5).
const RIVER: &str = r#"
[set]
id = "t"
name = "t"
[[edge]]
id = "water"
name = "Water"
[[tile]]
id = "straight"
count = 1
sides = ["field", { edge = "water" }, "field", { edge = "water" }]
segments = [
  { id = "north", kind = "field", halves = ["Wn", "Nw", "Ne", "En"] },
  { id = "south", kind = "field", halves = ["Es", "Se", "Sw", "Ws"] },
]
placement = [{ rule = "continues", edge = "water", cites = "R-3" }]
"#;

#[test]
fn a_declared_edge_parts_two_fields_r1_r5() {
    let (set, diags) = compile(RIVER);
    assert!(diags.is_empty(), "{diags:?}");
    let t = &set.tiles[0];
    assert_eq!(t.cells[0].sides[1], SideKind::Declared(0));
    assert_eq!(t.features_of(FeatureKind::Field).count(), 2);
    let want = PlacementRule::Continues {
        kind: SideKind::Declared(0),
        rule: "R-3".to_string(),
    };
    assert_eq!(t.placement, vec![want]);
}

#[test]
fn a_water_half_in_no_field_and_a_road_on_water_are_reported() {
    let text = RIVER
        .replace(r#""Es", "Se", "Sw", "Ws""#, r#""Es", "Se", "Sw""#)
        .replace(
            "segments = [",
            "segments = [\n  { id = \"r\", kind = \"road\", sides = [\"E\"] },",
        );
    let (_, diags) = compile(&text);
    let codes: Vec<Code> = diags.iter().map(|d| d.code).collect();
    assert!(codes.contains(&Code::HalfCoverage), "{diags:?}");
    assert!(codes.contains(&Code::SegmentShape), "{diags:?}");
}

#[test]
fn an_undeclared_edge_kind_is_a_dangling_reference_with_a_suggestion() {
    let text = RIVER
        .replace(
            r#""field", { edge = "water" }]"#,
            r#""field", { edge = "watr" }]"#,
        )
        .replace(r#"edge = "water", cites"#, r#"edge = "lava", cites"#);
    let (_, diags) = compile(&text);
    let dangling: Vec<_> = diags
        .iter()
        .filter(|d| d.code == Code::DanglingReference)
        .collect();
    assert_eq!(dangling.len(), 2, "{diags:#?}");
    assert!(dangling[0]
        .notes
        .iter()
        .any(|n| n == "did you mean `water`?"));
    assert!(dangling[1].message.contains("`lava`"), "{:?}", dangling[1]);
}
