//! The 8 Wonders of Humanity mega tiles (issue 3, items 3 and 4): the rulebook's per-wonder facts
//! (the rule registry: each wonder's W-10 .. W-17 entry; W-5, W-18, W-19, W-21) stated as
//! invariants over the compiled and lowered model of `variants/wonders.toml`, for **every
//! rotation**; the W-21 meadow override of `variants/wonders-meadows.toml`; and the deliberately
//! wrong copy of Notre-Dame that must fail validation with the rule id of the fact it breaks.
//!
//! The expectations below are written from the rulebook table, not read back from the tile files,
//! so a wrong tile file (or a wrong compiler / lowering) makes these tests fail.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;
use tegula_model::variant::build_variant;
use tegula_model::Code;
use tegula_ruleset::{
    rotate_offset, FeatureKind, Half, Rotation, Ruleset, Side, SideKind, TileType, NO_FEATURE,
};

/// What the rulebook says about one wonder (its W-10 .. W-17 entry in the rule registry).
struct Want {
    /// Tile id as the commands accept it.
    id: &'static str,
    /// Set id (I or II).
    set: &'static str,
    /// Cells spanned by each city feature (W-18), sorted.
    cities: &'static [u32],
    /// (cells spanned, open ends) of each road feature (W-18), sorted.
    roads: &'static [(u32, u32)],
    /// Field features after the rulebook's meadow connections (W-21).
    fields: usize,
    /// Field features bordering no city (W-19).
    fields_without_city: usize,
    /// Cloisters on the tile.
    cloisters: usize,
}

const WANT: [Want; 8] = [
    // 1 city in 1 cell; a 2-cell road forking into 2 open ends; 2 roads of 1 cell; 4 fields.
    Want {
        id: "stonehenge",
        set: "wonders-1",
        cities: &[1],
        roads: &[(1, 1), (1, 1), (2, 2)],
        fields: 4,
        fields_without_city: 3,
        cloisters: 0,
    },
    // 1 city over 4 cells; 2 roads of 1 cell; 4 fields, the one between the roads without city.
    Want {
        id: "circus-maximus",
        set: "wonders-1",
        cities: &[4],
        roads: &[(1, 1), (1, 1)],
        fields: 4,
        fields_without_city: 1,
        cloisters: 0,
    },
    // 1 city over 2 cells; a 2-cell road with 1 open end (ends at cloister and cathedral); a 1-cell
    // road; 4 fields, the cloister's field without city; a cloister.
    Want {
        id: "notre-dame",
        set: "wonders-1",
        cities: &[2],
        roads: &[(1, 2), (2, 1)],
        fields: 4,
        fields_without_city: 3,
        cloisters: 1,
    },
    // 1 city over 3 cells; 2 roads of 1 cell; 5 fields, only the one between the roads without
    // city (the only one the seed names).
    Want {
        id: "alhambra",
        set: "wonders-1",
        cities: &[3],
        roads: &[(1, 1), (1, 1)],
        fields: 5,
        fields_without_city: 1,
        cloisters: 0,
    },
    // 2 cities of 1 cell; a 1-cell road; a 2-cell road forking into 2 open ends; 3 fields.
    Want {
        id: "abu-simbel",
        set: "wonders-2",
        cities: &[1, 1],
        roads: &[(1, 2), (2, 2)],
        fields: 3,
        fields_without_city: 1,
        cloisters: 0,
    },
    // 2 separate cities of 1 cell; a road over 3 cells; 3 fields.
    Want {
        id: "tikal",
        set: "wonders-2",
        cities: &[1, 1],
        roads: &[(3, 1)],
        fields: 3,
        fields_without_city: 0,
        cloisters: 0,
    },
    // 2 separate cities of 1 cell; 2 roads of 1 cell; a 2-cell road; 3 fields.
    Want {
        id: "angkor-wat",
        set: "wonders-2",
        cities: &[1, 1],
        roads: &[(1, 1), (1, 2), (2, 1)],
        fields: 3,
        fields_without_city: 1,
        cloisters: 0,
    },
    // 1 city of 1 cell; a 1-cell road forking into 3 open ends; a 2-cell road; 4 fields.
    Want {
        id: "terracotta-army",
        set: "wonders-2",
        cities: &[1],
        roads: &[(1, 3), (2, 2)],
        fields: 4,
        fields_without_city: 3,
        cloisters: 0,
    },
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Build a variant; fail with its diagnostics when it does not build or has errors.
fn build(rel: &str) -> Ruleset {
    let (rs, diags) = build_variant(&root().join(rel));
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{rel} has errors: {errors:#?}");
    rs.unwrap_or_else(|| panic!("{rel} did not build: {diags:#?}"))
}

fn wonders() -> &'static Ruleset {
    static RS: OnceLock<Ruleset> = OnceLock::new();
    RS.get_or_init(|| build("variants/wonders.toml"))
}

fn tile<'a>(rs: &'a Ruleset, id: &str) -> &'a TileType {
    rs.tiles
        .iter()
        .find(|t| t.id == id)
        .unwrap_or_else(|| panic!("tile `{id}` missing from {}", rs.id))
}

fn offsets(r: &Rotation) -> Vec<(i32, i32)> {
    r.cells
        .iter()
        .map(|c| (i32::from(c.offset.0), i32::from(c.offset.1)))
        .collect()
}

fn step((x, y): (i32, i32), s: Side) -> (i32, i32) {
    let (dx, dy) = s.delta();
    (x + dx, y + dy)
}

/// Whether the given cells are edge-connected (W-18: a feature over several cells is one piece).
fn edge_connected(cells: &[(i32, i32)]) -> bool {
    let Some(&first) = cells.first() else {
        return true;
    };
    let all: BTreeSet<_> = cells.iter().copied().collect();
    let mut seen = BTreeSet::from([first]);
    let mut todo = vec![first];
    while let Some(c) = todo.pop() {
        for s in Side::ALL {
            let n = step(c, s);
            if all.contains(&n) && seen.insert(n) {
                todo.push(n);
            }
        }
    }
    seen.len() == all.len()
}

/// Offsets (in rotation `r`) of the cells in a feature's cell bit set.
fn feature_cells(t: &TileType, r: usize, bits: u8) -> Vec<(i32, i32)> {
    let offs = offsets(&t.rotations[r]);
    (0..t.cell_count as usize)
        .filter(|i| bits & (1 << i) != 0)
        .map(|i| offs[i])
        .collect()
}

/// Open ends of feature `f` seen through the ports of rotation `r`: outer sides showing it.
fn open_ends(t: &TileType, r: usize, f: usize) -> u32 {
    t.rotations[r]
        .cells
        .iter()
        .map(|c| {
            Side::ALL
                .iter()
                .filter(|s| {
                    c.outer & (1 << s.index()) != 0 && c.side_feature[s.index()] as usize == f
                })
                .count() as u32
        })
        .sum()
}

/// All invariants of one wonder in one rotation.
fn check_rotation(want: &Want, t: &TileType, r: usize) {
    let id = want.id;
    let rot = &t.rotations[r];
    let base = &t.rotations[0];
    assert_eq!(rot.cells.len(), 5, "{id} r{r}: 5 cells (W-18)");

    // Shape: 5 distinct, edge-connected offsets; the anchor stays at (0, 0); rotation r is
    // rotation 0 turned r quarter turns clockwise.
    let offs = offsets(rot);
    assert_eq!(offs[0], (0, 0), "{id} r{r}: anchor");
    let distinct: BTreeSet<_> = offs.iter().copied().collect();
    assert_eq!(distinct.len(), 5, "{id} r{r}: overlapping cells {offs:?}");
    assert!(
        edge_connected(&offs),
        "{id} r{r}: cells not edge-connected {offs:?}"
    );
    let q = r as u8;
    for (i, (c, c0)) in rot.cells.iter().zip(&base.cells).enumerate() {
        let (x0, y0) = offsets(base)[i];
        assert_eq!(
            offs[i],
            rotate_offset(x0, y0, q),
            "{id} r{r}: offset of cell {i}"
        );
        for s in Side::ALL {
            let sr = s.rotated(q).index();
            assert_eq!(
                c.sides[sr],
                c0.sides[s.index()],
                "{id} r{r}: cell {i} side {}",
                s.name()
            );
            assert_eq!(
                c.outer & (1 << sr) != 0,
                c0.outer & (1 << s.index()) != 0,
                "{id} r{r}: cell {i} outer bit of side {}",
                s.name()
            );
            assert_eq!(
                c.side_feature[sr],
                c0.side_feature[s.index()],
                "{id} r{r}: side feature"
            );
        }
        for h in Half::ALL {
            assert_eq!(
                c.half_feature[h.rotated(q).index()],
                c0.half_feature[h.index()],
                "{id} r{r}: cell {i} half {}",
                h.name()
            );
        }
        assert_eq!(c.inner, c0.inner, "{id} r{r}: inner features of cell {i}");
    }

    // Sides: outer exactly where no cell of the tile is next; inner sides agree in kind with the
    // facing cell; the outer sides (a pentomino's perimeter) are ordinary city/road/field
    // sides, so the wonder can be placed next to ordinary tiles (W-5).
    let at: HashMap<(i32, i32), usize> = offs.iter().enumerate().map(|(i, &o)| (o, i)).collect();
    let mut outer_sides = 0;
    for (i, c) in rot.cells.iter().enumerate() {
        for s in Side::ALL {
            let facing = at.get(&step(offs[i], s));
            let outer = c.outer & (1 << s.index()) != 0;
            assert_eq!(
                outer,
                facing.is_none(),
                "{id} r{r}: outer bit of cell {i} {}",
                s.name()
            );
            let kind = c.sides[s.index()];
            match facing {
                None => {
                    outer_sides += 1;
                    assert!(
                        matches!(kind, SideKind::City | SideKind::Road | SideKind::Field),
                        "{id} r{r}: outer side {kind:?} is not an ordinary side"
                    );
                }
                Some(&j) => {
                    let o = &rot.cells[j];
                    assert_eq!(
                        o.sides[s.opposite().index()],
                        kind,
                        "{id} r{r}: inner side kinds"
                    );
                    // No wonder keeps a city or road apart across its cells: facing city/road
                    // pieces are one feature (only meadows have red circles, W-21).
                    assert_eq!(
                        o.side_feature[s.opposite().index()],
                        c.side_feature[s.index()],
                        "{id} r{r}: city/road across the inner side of cell {i} {}",
                        s.name()
                    );
                }
            }
            // Ports agree with the side kinds.
            let sf = c.side_feature[s.index()];
            let [h1, h2] = s.halves();
            match kind {
                SideKind::City | SideKind::Road => {
                    let want_kind = if kind == SideKind::City {
                        FeatureKind::City
                    } else {
                        FeatureKind::Road
                    };
                    assert_ne!(sf, NO_FEATURE, "{id} r{r}: {kind:?} side without feature");
                    assert_eq!(
                        t.features[sf as usize].kind, want_kind,
                        "{id} r{r}: side feature kind"
                    );
                }
                _ => assert_eq!(sf, NO_FEATURE, "{id} r{r}: field side with a city/road"),
            }
            for h in [h1, h2] {
                let hf = c.half_feature[h.index()];
                if kind == SideKind::City {
                    assert_eq!(hf, NO_FEATURE, "{id} r{r}: city side with a field half");
                } else {
                    assert_ne!(hf, NO_FEATURE, "{id} r{r}: half {} without field", h.name());
                    assert_eq!(
                        t.features[hf as usize].kind,
                        FeatureKind::Field,
                        "{id} r{r}"
                    );
                }
            }
        }
    }
    // A pentomino's perimeter: 20 cell sides minus 2 per pair of edge-adjacent cells (12 for the
    // tree-like shapes, 10 for the P with its 2x2 block).
    let pairs = offs
        .iter()
        .map(|&o| {
            [Side::E, Side::S]
                .iter()
                .filter(|&&s| at.contains_key(&step(o, s)))
                .count()
        })
        .sum::<usize>();
    assert_eq!(outer_sides, 20 - 2 * pairs, "{id} r{r}: outer sides");
    assert!(outer_sides >= 10, "{id} r{r}: {outer_sides} outer sides");

    // W-5 / W-19: exactly one wonder building, on one cell, touching no side or half (on no
    // feature).
    let wonders: Vec<usize> = (0..t.features.len())
        .filter(|&f| t.features[f].kind == FeatureKind::Unscored)
        .collect();
    assert_eq!(wonders.len(), 1, "{id}: one wonder building (W-5)");
    let w = wonders[0];
    assert_eq!(
        t.features[w].cells.count_ones(),
        1,
        "{id}: the building is in one cell"
    );
    let holders: Vec<usize> = (0..5)
        .filter(|&i| rot.cells[i].inner.contains(&(w as u8)))
        .collect();
    assert_eq!(holders.len(), 1, "{id} r{r}: the building sits on one cell");
    assert_eq!(
        t.features[w].cells,
        1 << holders[0],
        "{id}: building cell bit"
    );
    for c in &rot.cells {
        assert!(
            !c.side_feature.contains(&(w as u8)),
            "{id} r{r}: the building touches a side"
        );
        assert!(
            !c.half_feature.contains(&(w as u8)),
            "{id} r{r}: the building touches a half"
        );
    }

    // W-18: cities and roads span the rulebook's number of cells, each as one edge-connected
    // piece in this rotation; roads have the rulebook's open ends, counted from this rotation's
    // ports (and agreeing with the feature's own count).
    let mut cities = Vec::new();
    let mut roads = Vec::new();
    for (f, feat) in t.features.iter().enumerate() {
        let cells = feature_cells(t, r, feat.cells);
        match feat.kind {
            FeatureKind::City | FeatureKind::Road => {
                assert!(
                    edge_connected(&cells),
                    "{id} r{r}: {:?} {:?} not connected",
                    feat.kind,
                    feat.segments
                );
                let ends = open_ends(t, r, f);
                assert_eq!(
                    ends,
                    u32::from(feat.open_sides),
                    "{id} r{r}: open sides of {:?}",
                    feat.segments
                );
                if feat.kind == FeatureKind::City {
                    cities.push(feat.cells.count_ones());
                } else {
                    roads.push((feat.cells.count_ones(), ends));
                }
            }
            _ => {}
        }
    }
    cities.sort_unstable();
    roads.sort_unstable();
    assert_eq!(cities, want.cities, "{id} r{r}: city spans (W-18)");
    assert_eq!(
        roads, want.roads,
        "{id} r{r}: road spans and open ends (W-18)"
    );

    // W-21 / W-19: field count; fields border only cities; the fields bordering no city; every
    // field is reachable through this rotation's ports.
    let fields: Vec<usize> = (0..t.features.len())
        .filter(|&f| t.features[f].kind == FeatureKind::Field)
        .collect();
    assert_eq!(fields.len(), want.fields, "{id}: fields (W-21)");
    for &f in &fields {
        for &b in &t.features[f].borders {
            assert_eq!(
                t.features[b as usize].kind,
                FeatureKind::City,
                "{id}: a field borders a non-city"
            );
        }
        let seen = rot
            .cells
            .iter()
            .any(|c| c.half_feature.contains(&(f as u8)) || c.inner.contains(&(f as u8)));
        assert!(
            seen,
            "{id} r{r}: field {:?} unreachable",
            t.features[f].segments
        );
    }
    let without = fields
        .iter()
        .filter(|&&f| t.features[f].borders.is_empty())
        .count();
    assert_eq!(
        without, want.fields_without_city,
        "{id}: fields without city (W-19)"
    );

    // Cloisters (Notre-Dame): on one cell, religious (W-10, W-22).
    let cloisters: Vec<usize> = (0..t.features.len())
        .filter(|&f| t.features[f].kind == FeatureKind::Cloister)
        .collect();
    assert_eq!(cloisters.len(), want.cloisters, "{id}: cloisters");
    for &f in &cloisters {
        let religious = wonders_tag("religious");
        assert!(
            t.features[f].tags & (1 << religious) != 0,
            "{id}: cloister not religious"
        );
        assert_eq!(
            rot.cells
                .iter()
                .filter(|c| c.inner.contains(&(f as u8)))
                .count(),
            1,
            "{id} r{r}: cloister on one cell"
        );
    }
}

fn wonders_tag(name: &str) -> u32 {
    wonders()
        .tag(name)
        .unwrap_or_else(|| panic!("tag `{name}` unknown"))
}

#[test]
fn all_eight_wonders_are_in_the_variant_once_each() {
    let rs = wonders();
    let wonder_bit = 1 << wonders_tag("wonder");
    let ids: BTreeSet<&str> = rs
        .tiles
        .iter()
        .filter(|t| t.tags & wonder_bit != 0)
        .map(|t| t.id.as_str())
        .collect();
    let want: BTreeSet<&str> = WANT.iter().map(|w| w.id).collect();
    assert_eq!(ids, want);
    for w in &WANT {
        let t = tile(rs, w.id);
        assert_eq!(t.set, w.set, "{}", w.id);
        // One copy, in the open pool rather than the draw pile (W-1).
        assert_eq!(t.count, 0, "{}: not in the draw pile", w.id);
        let i = rs.tiles.iter().position(|x| x.id == w.id).unwrap() as u16;
        let pool = &rs
            .pool
            .as_ref()
            .expect("the wonders variant has a pool")
            .tiles;
        assert_eq!(
            pool.iter().filter(|&&p| p == i).count(),
            1,
            "{}: one copy, in the pool",
            w.id
        );
        assert!(!t.start, "{}: not a start tile", w.id);
        assert_eq!(t.cell_count, 5, "{}: 5 cells", w.id);
        assert_eq!(t.rotations.len(), 4, "{}: 4 rotations", w.id);
    }
}

#[test]
fn every_wonder_holds_the_rulebook_facts_in_every_rotation() {
    let rs = wonders();
    for w in &WANT {
        let t = tile(rs, w.id);
        for r in 0..4 {
            check_rotation(w, t, r);
        }
    }
}

/// A shape normalised under rotation and reflection (a free pentomino).
fn free_shape(offs: &[(i32, i32)]) -> Vec<(i32, i32)> {
    let mut best: Option<Vec<(i32, i32)>> = None;
    for mirror in [false, true] {
        for q in 0..4 {
            let mut v: Vec<(i32, i32)> = offs
                .iter()
                .map(|&(x, y)| rotate_offset(if mirror { -x } else { x }, y, q))
                .collect();
            let mx = v.iter().map(|p| p.0).min().unwrap_or(0);
            let my = v.iter().map(|p| p.1).min().unwrap_or(0);
            for p in &mut v {
                *p = (p.0 - mx, p.1 - my);
            }
            v.sort_unstable();
            best = match best {
                Some(b) if b <= v => Some(b),
                _ => Some(v),
            };
        }
    }
    best.unwrap_or_default()
}

#[test]
fn each_wonder_has_a_different_shape_but_stonehenge_and_notre_dame() {
    // Seed 000: "mega kartičky v různých tvarech" (mega tiles in various shapes). The position words
    // force a P-pentomino on both Stonehenge (road "vlevo nahoře a uprostřed", city "vpravo
    // nahoře", roads "dole uprostřed a vpravo") and Notre-Dame (road "nahoře a uprostřed", city
    // "vlevo dole a uprostřed", clay "nahoře a vpravo", cloister field "vpravo nahoře"); every
    // other wonder has a pentomino of its own.
    let rs = wonders();
    let shape = |id: &str| free_shape(&offsets(&tile(rs, id).rotations[0]));
    assert_eq!(shape("stonehenge"), shape("notre-dame"));
    let shapes: BTreeSet<Vec<(i32, i32)>> = WANT
        .iter()
        .filter(|w| w.id != "notre-dame")
        .map(|w| shape(w.id))
        .collect();
    assert_eq!(shapes.len(), WANT.len() - 1);
}

/// Cells of a feature in rotation 0, as (column, row) of the tile's bounding box (0, 0 = top
/// left), with the box's width.
fn box_cells(t: &TileType, bits: u8) -> (BTreeSet<(i32, i32)>, i32) {
    let offs = offsets(&t.rotations[0]);
    let minx = offs.iter().map(|o| o.0).min().unwrap_or(0);
    let maxx = offs.iter().map(|o| o.0).max().unwrap_or(0);
    let miny = offs.iter().map(|o| o.1).min().unwrap_or(0);
    let cells = feature_cells(t, 0, bits)
        .into_iter()
        .map(|(x, y)| (x - minx, y - miny))
        .collect();
    (cells, maxx - minx + 1)
}

#[test]
fn stonehenge_road_and_city_lie_where_the_seed_says() {
    // Seed 000: "Jedna cesta ze 2 úseků … (vlevo nahoře a uprostřed na kartičce). Jedno město v 1
    // poli (vpravo nahoře na kartičce)."
    let t = tile(wonders(), "stonehenge");
    let road = t
        .features
        .iter()
        .find(|f| f.kind == FeatureKind::Road && f.cells.count_ones() == 2)
        .expect("the 2-cell road");
    let (cells, width) = box_cells(t, road.cells);
    assert_eq!(width, 3, "3 cells wide: left, centre, right");
    assert_eq!(
        cells,
        BTreeSet::from([(0, 0), (1, 0)]),
        "top-left and centre"
    );
    let city = t
        .features
        .iter()
        .find(|f| f.kind == FeatureKind::City)
        .expect("the city");
    assert_eq!(
        box_cells(t, city.cells).0,
        BTreeSet::from([(2, 0)]),
        "top right"
    );
}

#[test]
fn notre_dame_cloister_field_lies_top_right_and_touches_no_city() {
    // Seed 000: "Louka obklopující klášter na kartičce s divem Notre-Dame (vpravo nahoře)" touches
    // only the wonder.
    let t = tile(wonders(), "notre-dame");
    let cloister = t
        .features
        .iter()
        .find(|f| f.kind == FeatureKind::Cloister)
        .expect("the cloister");
    let field = t
        .features
        .iter()
        .find(|f| {
            f.kind == FeatureKind::Field
                && f.cells & cloister.cells != 0
                && f.cells != cloister.cells
        })
        .expect("a field around the cloister reaching another cell");
    assert!(field.borders.is_empty(), "{field:?}");
    let (cells, width) = box_cells(t, field.cells);
    assert!(cells.contains(&(width - 1, 0)), "top right: {cells:?}");
}

#[test]
fn alhambra_has_one_joined_meadow_and_only_the_field_between_the_roads_lacks_a_city() {
    // Seed 000: "Pět luk (modrý kroužek označuje propojenou louku a červené kroužky označují
    // oddělené louky)"; "Louka mezi cestami na kartičce s divem Alhambra (uprostřed vpravo)".
    let t = tile(wonders(), "alhambra");
    let fields: Vec<_> = t
        .features
        .iter()
        .filter(|f| f.kind == FeatureKind::Field)
        .collect();
    let segments: usize = fields.iter().map(|f| f.segments.len()).sum();
    // A forest of field segments: each joined connection merges two features into one.
    assert_eq!(segments - fields.len(), 1, "exactly one blue circle");
    let without: Vec<_> = fields.iter().filter(|f| f.borders.is_empty()).collect();
    assert_eq!(without.len(), 1);
    // It lies in the centre row, right of the city column: the centre and right cells, both
    // touched by a road.
    let (cells, _) = box_cells(t, without[0].cells);
    assert_eq!(cells, BTreeSet::from([(1, 1), (2, 1)]), "centre right");
    for road in t.features.iter().filter(|f| f.kind == FeatureKind::Road) {
        assert!(road.cells & without[0].cells != 0, "between the roads");
    }
}

#[test]
fn every_wonder_fits_next_to_base_tiles_in_every_rotation() {
    // W-5/W-6: a wonder is placed by the normal rules, so every empty square around it must be
    // fillable by some base-game tile matching all the wonder sides it touches (otherwise a real
    // map could never close around it).
    let rs = wonders();
    let wonder_bit = 1 << wonders_tag("wonder");
    let base: Vec<&TileType> = rs
        .tiles
        .iter()
        .filter(|t| t.set == "base" && t.cell_count == 1 && t.tags & wonder_bit == 0)
        .collect();
    assert!(!base.is_empty(), "no base tiles in the variant");
    for w in &WANT {
        let t = tile(rs, w.id);
        for (r, rot) in t.rotations.iter().enumerate() {
            let offs = offsets(rot);
            let mut needs: HashMap<(i32, i32), Vec<(Side, SideKind)>> = HashMap::new();
            for (i, c) in rot.cells.iter().enumerate() {
                for s in Side::ALL {
                    if c.outer & (1 << s.index()) != 0 {
                        // The neighbour's side facing this one must show the same kind.
                        needs
                            .entry(step(offs[i], s))
                            .or_default()
                            .push((s.opposite(), c.sides[s.index()]));
                    }
                }
            }
            for (square, need) in &needs {
                let fits = base.iter().any(|b| {
                    b.rotations.iter().any(|br| {
                        need.iter()
                            .all(|&(s, k)| br.cells[0].sides[s.index()].matches(k))
                    })
                });
                assert!(
                    fits,
                    "{} r{r}: no base tile fits at {square:?} needing {need:?}",
                    w.id
                );
            }
        }
    }
}

#[test]
fn meadow_override_changes_the_stonehenge_field_count() {
    // W-21: players may agree other meadow connections; `wonders-meadows` joins Stonehenge's
    // `meadow-5` (red in the rulebook), which must merge the city field into the ring field.
    let printed = tile(wonders(), "stonehenge");
    let agreed_rs = build("variants/wonders-meadows.toml");
    let agreed = tile(&agreed_rs, "stonehenge");
    let fields = |t: &TileType| {
        t.features
            .iter()
            .filter(|f| f.kind == FeatureKind::Field)
            .count()
    };
    let without_city = |t: &TileType| {
        t.features
            .iter()
            .filter(|f| f.kind == FeatureKind::Field && f.borders.is_empty())
            .count()
    };
    assert_eq!(fields(printed), 4);
    assert_eq!(fields(agreed), 3);
    assert_eq!(without_city(printed), 3);
    assert_eq!(without_city(agreed), 2);
    // The two fields merged are exactly those of `meadow-5`.
    let merged = agreed
        .features
        .iter()
        .find(|f| f.segments.iter().any(|s| s == "top-right.field"))
        .expect("top-right field");
    assert!(
        merged.segments.iter().any(|s| s == "right.field"),
        "{merged:?}"
    );
    // Every other wonder is unchanged.
    for w in WANT.iter().filter(|w| w.id != "stonehenge") {
        assert_eq!(tile(&agreed_rs, w.id), tile(wonders(), w.id), "{}", w.id);
    }
}

#[test]
fn wrong_copy_of_notre_dame_fails_with_the_w18_fact() {
    // Issue 3, "Done when": a wonder whose city is made to span 3 cells fails validation with the
    // rule id of the fact it breaks.
    let path = root().join("tests/fixtures/invalid/fact-mismatch-wonder.toml");
    let diags = tegula_model::validate::validate_paths(std::slice::from_ref(&path));
    let hit = diags.iter().find(|d| d.code == Code::FactMismatch);
    let hit = hit.unwrap_or_else(|| panic!("no fact-mismatch: {diags:#?}"));
    assert_eq!(hit.rule.as_deref(), Some("W-18"), "{hit:#?}");
    assert!(hit.message.contains("city_cells"), "{}", hit.message);
    let errors = diags.iter().filter(|d| d.is_error()).count();
    assert_eq!(
        errors, 1,
        "only the broken fact should be reported: {diags:#?}"
    );
}

#[test]
fn the_shipped_wonder_files_validate_clean() {
    let paths: Vec<PathBuf> = [
        "tiles/wonders-1",
        "tiles/wonders-2",
        "variants/wonders.toml",
        "variants/wonders-meadows.toml",
    ]
    .iter()
    .map(|p| root().join(Path::new(p)))
    .collect();
    let diags = tegula_model::validate::validate_paths(&paths);
    assert!(diags.is_empty(), "{diags:#?}");
}

proptest! {
    /// Turning rotation `a` by `b` more quarter turns gives rotation `a + b` (the lowered tables
    /// are one consistent rotation group), for a random wonder.
    #[test]
    fn rotations_compose(w in 0..WANT.len(), a in 0..4usize, b in 0..4u8) {
        let t = tile(wonders(), WANT[w].id);
        let ra = &t.rotations[a];
        let rab = &t.rotations[(a + b as usize) % 4];
        for (c, cab) in ra.cells.iter().zip(&rab.cells) {
            let (x, y) = (i32::from(c.offset.0), i32::from(c.offset.1));
            prop_assert_eq!(rotate_offset(x, y, b), (i32::from(cab.offset.0), i32::from(cab.offset.1)));
            for s in Side::ALL {
                prop_assert_eq!(c.sides[s.index()], cab.sides[s.rotated(b).index()]);
                prop_assert_eq!(c.side_feature[s.index()], cab.side_feature[s.rotated(b).index()]);
            }
            for h in Half::ALL {
                prop_assert_eq!(c.half_feature[h.index()], cab.half_feature[h.rotated(b).index()]);
            }
        }
    }

    /// Placed at a random spot in a random rotation, a wonder covers 5 distinct board squares and
    /// each of its cities and roads covers an edge-connected set of them (W-18).
    #[test]
    fn placed_wonder_features_stay_connected(w in 0..WANT.len(), r in 0..4usize, x in -50i32..50, y in -50i32..50) {
        let t = tile(wonders(), WANT[w].id);
        let squares: Vec<(i32, i32)> = offsets(&t.rotations[r]).iter().map(|&(dx, dy)| (x + dx, y + dy)).collect();
        prop_assert_eq!(squares.iter().collect::<BTreeSet<_>>().len(), 5);
        for f in &t.features {
            if matches!(f.kind, FeatureKind::City | FeatureKind::Road | FeatureKind::Field) {
                let cells: Vec<(i32, i32)> = (0..5).filter(|i| f.cells & (1 << i) != 0).map(|i| squares[i]).collect();
                prop_assert!(edge_connected(&cells), "{:?} {:?}", f.kind, f.segments);
            }
        }
    }
}
