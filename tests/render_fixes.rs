//! Faithful tile pictures (issue 10, item 4): one test per defect found, each over every shipped
//! tile in every rotation, reading the SVG that `tegula render` writes.
//!
//! - a diagonal city (two adjacent sides) keeps off the cell centre, so the field between it and
//!   a road through the centre is one strip, not two triangles (base O, P);
//! - where three or more roads end in a cell without a building there is one junction mark at
//!   the centre (L, W, X), and no separate road-end squares;
//! - a road ending in a cell with a building runs to the building (wonders);
//! - a building keeps clear of a road through its cell (Notre-Dame);
//! - labels are at least 9 px and never overlap on the unrotated tiles;
//! - pennants lie inside their cell (am-3, am-9);
//! - the legend past 10 features names every feature with its picture character, aligned.

use tegula_model::compile::{compile_tileset, CompiledTile};
use tegula_model::load::{parse_tileset, read_source};
use tegula_model::validate::{classify, FileKind};
use tegula_render::{files, svg, TileView};
use tegula_ruleset::FeatureKind;

mod common;
use common::root;

fn shipped() -> Vec<CompiledTile> {
    let mut out = Vec::new();
    for path in files::tileset_files(&root().join("tiles")).unwrap() {
        let source = read_source(&path).unwrap();
        if classify(&source.text) != FileKind::TileSet {
            continue;
        }
        let (loaded, _) = parse_tileset(source);
        let (set, _) = compile_tileset(&loaded.unwrap());
        out.extend(set.tiles);
    }
    assert!(out.len() >= 45, "all shipped tiles");
    out
}

/// Every (tile id, rotation, view, svg).
fn pictures() -> Vec<(String, u8, TileView, String)> {
    let mut v = Vec::new();
    for t in shipped() {
        for r in 0..4 {
            let view = TileView::from_compiled(&t, r);
            let svg = svg::tile_svg(&view);
            v.push((t.id.clone(), r, view, svg));
        }
    }
    v
}

/// Pixel origin of cell (x, y) in a tile picture (margin 20, title 22).
fn cell_px(x: i32, y: i32) -> (f64, f64) {
    (20.0 + f64::from(x) * 120.0, 42.0 + f64::from(y) * 120.0)
}

fn nums(s: &str) -> Vec<f64> {
    s.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|w| !w.is_empty())
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// The `d` attribute of the element whose `<title>` is `title`.
fn path_d<'a>(svg: &'a str, title: &str) -> Option<&'a str> {
    let i = svg.find(&format!("<title>{title}</title>"))?;
    let start = svg[..i].rfind("<path d=\"")? + 9;
    Some(&svg[start..start + svg[start..].find('"')?])
}

fn svg_text(s: &str) -> String {
    s.replace('&', "&amp;")
}

#[test]
fn diagonal_cities_keep_off_the_centre_so_the_field_beside_them_is_one_strip() {
    let mut seen = 0;
    for (id, r, view, svg) in pictures() {
        for seg in &view.segments {
            let adjacent = seg.kind == FeatureKind::City
                && seg.sides.len() == 2
                && (seg.sides[0].rotated(1) == seg.sides[1]
                    || seg.sides[1].rotated(1) == seg.sides[0]);
            if !adjacent || view.cells.len() > 1 {
                continue;
            }
            seen += 1;
            let d = path_d(
                &svg,
                &svg_text(&format!("#{} city {}", seg.feature, seg.id)),
            )
            .unwrap_or_else(|| panic!("{id} r{r}: city path"));
            let q = d.split('Q').nth(1).expect("a curved inner edge");
            let p = nums(q);
            let (cx, cy) = cell_px(0, 0);
            // Quadratic from the end of one side via the control to the start of the other:
            // its middle point must be well off the centre.
            let start = nums(d.split('Q').next().unwrap());
            let (x0, y0) = (start[start.len() - 2], start[start.len() - 1]);
            let mid = (
                0.25 * x0 + 0.5 * p[0] + 0.25 * p[2],
                0.25 * y0 + 0.5 * p[1] + 0.25 * p[3],
            );
            let off = ((mid.0 - cx - 60.0).powi(2) + (mid.1 - cy - 60.0).powi(2)).sqrt();
            assert!(
                off > 15.0,
                "{id} r{r}: the diagonal city reaches the centre ({off:.1} px)"
            );
        }
    }
    assert!(seen >= 8, "O and P in 4 rotations at least ({seen})");
}

#[test]
fn junctions_draw_one_mark_at_the_centre() {
    let mut seen = 0;
    for (id, r, view, svg) in pictures() {
        let junction_cells: Vec<usize> = (0..view.cells.len())
            .filter(|&c| {
                let ends = view
                    .segments_in(c)
                    .filter(|(_, s)| s.kind == FeatureKind::Road && s.sides.len() == 1)
                    .count();
                let building = view
                    .segments_in(c)
                    .any(|(_, s)| matches!(s.kind, FeatureKind::Cloister | FeatureKind::Wonder));
                ends >= 3 && !building
            })
            .collect();
        assert_eq!(
            svg.matches("class=\"junction\"").count(),
            junction_cells.len(),
            "{id} r{r}"
        );
        for c in junction_cells {
            seen += 1;
            let (x, y) = cell_px(view.cells[c].x, view.cells[c].y);
            let mark = format!(
                "class=\"junction\" x=\"{:.1}\" y=\"{:.1}\"",
                x + 51.0,
                y + 51.0
            );
            assert!(svg.contains(&mark), "{id} r{r}: junction at the centre");
        }
        if ["L", "W", "X"].contains(&id.as_str()) {
            assert!(
                !svg.contains("width=\"10.0\" height=\"10.0\" fill=\"#6b4f3a\""),
                "{id} r{r}: no separate road ends at a junction"
            );
        }
    }
    assert!(seen >= 12, "L, W and X in 4 rotations ({seen})");
}

/// Centre of the building drawn for segment title `title`, from its path.
fn building_centre(svg: &str, title: &str, kind: FeatureKind) -> (f64, f64) {
    let d = path_d(svg, title).unwrap_or_else(|| panic!("{title}"));
    let p = nums(d);
    match kind {
        // Cloister: M x-10,y+10 …
        FeatureKind::Cloister => (p[0] + 10.0, p[1] - 10.0),
        // Wonder star: first point straight above the centre, radius 18.
        _ => (p[0], p[1] + 18.0),
    }
}

#[test]
fn roads_run_to_their_building_and_buildings_keep_clear_of_roads_through_the_cell() {
    let mut seen = 0;
    for (id, r, view, svg) in pictures() {
        for (ci, cell) in view.cells.iter().enumerate() {
            let buildings: Vec<_> = view
                .segments_in(ci)
                .filter(|(_, s)| matches!(s.kind, FeatureKind::Cloister | FeatureKind::Wonder))
                .map(|(_, s)| {
                    let title = format!(
                        "#{} {} {}",
                        s.feature,
                        tegula_render::view::kind_name(s.kind),
                        s.id
                    );
                    building_centre(&svg, &svg_text(&title), s.kind)
                })
                .collect();
            if buildings.is_empty() {
                continue;
            }
            let (ox, oy) = cell_px(cell.x, cell.y);
            for (_, road) in view
                .segments_in(ci)
                .filter(|(_, s)| s.kind == FeatureKind::Road)
            {
                let title = svg_text(&format!("#{} road {}", road.feature, road.id));
                let d = path_d(&svg, &title).unwrap();
                let p = nums(d);
                if road.sides.len() == 1 {
                    seen += 1;
                    let end = (p[2], p[3]);
                    assert!(
                        buildings
                            .iter()
                            .any(|b| (b.0 - end.0).abs() < 1.0 && (b.1 - end.1).abs() < 1.0),
                        "{id} r{r}: road {} ends at {end:?}, not at a building {buildings:?}",
                        road.id
                    );
                } else {
                    // Through the centre: every building at least 25 px from the centre lines.
                    for b in &buildings {
                        for s in &road.sides {
                            let m = match s {
                                tegula_ruleset::Side::N => (60.0, 0.0),
                                tegula_ruleset::Side::E => (120.0, 60.0),
                                tegula_ruleset::Side::S => (60.0, 120.0),
                                tegula_ruleset::Side::W => (0.0, 60.0),
                            };
                            let (ax, ay, bx, by) = (ox + m.0, oy + m.1, ox + 60.0, oy + 60.0);
                            let t = (((b.0 - ax) * (bx - ax) + (b.1 - ay) * (by - ay))
                                / ((bx - ax).powi(2) + (by - ay).powi(2)))
                            .clamp(0.0, 1.0);
                            let dist = ((b.0 - ax - t * (bx - ax)).powi(2)
                                + (b.1 - ay - t * (by - ay)).powi(2))
                            .sqrt();
                            assert!(
                                dist >= 25.0,
                                "{id} r{r}: building {b:?} on road {} ({dist:.1} px)",
                                road.id
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(seen >= 4, "roads into buildings checked ({seen})");
}

#[test]
fn labels_are_readable_and_do_not_overlap() {
    for (id, r, _, svg) in pictures() {
        let mut boxes = Vec::new();
        for part in svg.split("<text ").skip(1) {
            if !part.contains("paint-order=\"stroke\"") {
                continue;
            }
            let attr = |name: &str| -> f64 {
                let i = part.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                part[i..i + part[i..].find('"').unwrap()].parse().unwrap()
            };
            let size = attr("font-size");
            assert!(size >= 9.0, "{id}: label font {size} px");
            let text = &part[part.find('>').unwrap() + 1..part.find("</text>").unwrap()];
            let chars = text.replace("&amp;", "&").chars().count() as f64;
            let (x, y) = (attr("x"), attr("y") - 2.5);
            let (w, h) = (chars * size * 0.6 + 3.0, size + 2.0);
            boxes.push((
                x - w / 2.0,
                y - h / 2.0,
                x + w / 2.0,
                y + h / 2.0,
                text.to_string(),
            ));
        }
        if r != 0 {
            continue;
        }
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                let ox = a.2.min(b.2) - a.0.max(b.0);
                let oy = a.3.min(b.3) - a.1.max(b.1);
                assert!(
                    ox <= 0.5 || oy <= 0.5,
                    "{id}: labels `{}` and `{}` overlap",
                    a.4,
                    b.4
                );
            }
        }
    }
}

#[test]
fn pennants_lie_inside_their_cell() {
    let mut seen = 0;
    for (id, r, view, svg) in pictures() {
        for seg in view.segments.iter().filter(|s| s.pennants > 0) {
            let title = svg_text(&format!("pennant of #{} {}", seg.feature, seg.id));
            let c = &view.cells[seg.cell];
            let (ox, oy) = cell_px(c.x, c.y);
            let mut from = 0;
            let mut found = 0;
            while let Some(i) = svg[from..].find(&format!("<title>{title}</title>")) {
                let at = from + i;
                let start = svg[..at].rfind("<path d=\"M").unwrap() + 10;
                let p = nums(&svg[start..start + 20]);
                let (x, y) = (p[0], p[1]);
                assert!(
                    x >= ox + 3.0
                        && x + 12.0 <= ox + 117.0
                        && y >= oy + 3.0
                        && y + 14.0 <= oy + 117.0,
                    "{id} r{r}: pennant at ({x}, {y}) is cut by the border of cell ({ox}, {oy})"
                );
                found += 1;
                seen += 1;
                from = at + 1;
            }
            assert_eq!(found, usize::from(seg.pennants), "{id} r{r}");
        }
    }
    assert!(seen >= 4 * 10, "every pennant of every rotation ({seen})");
}

#[test]
fn the_legend_past_ten_features_names_each_with_its_picture_character() {
    let tile = shipped().into_iter().find(|t| t.id == "X").unwrap();
    let mut view = TileView::from_compiled(&tile, 0);
    let base = view.features.clone();
    while view.features.len() < 12 {
        view.features.extend(base.iter().cloned());
    }
    let lines: Vec<String> = view
        .legend()
        .into_iter()
        .filter(|l| l.starts_with('#'))
        .collect();
    assert_eq!(lines.len(), view.features.len());
    for (i, l) in lines.iter().enumerate() {
        let want = format!("({})", tegula_render::ascii::feature_char(i));
        assert_eq!(&l[4..7], want, "line {i}: {l}");
    }
    let ascii = tegula_render::ascii::tile_ascii(&view);
    assert!(
        ascii.contains("#9  (9) ") && ascii.contains("#10 (a) "),
        "{ascii}"
    );
}
