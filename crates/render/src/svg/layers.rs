//! The drawing layers of one tile, bottom to top: cell backgrounds, fields, cities, roads,
//! buildings and inner fields, pennants, sides, connections (labels are in [`super::labels`]).
//! Each layer is one function drawing every cell of the tile.

use std::fmt::Write as _;

use tegula_ruleset::{FeatureKind, Side, SideKind};

use super::geom::*;
use super::{esc, feature_colour, n, CELL};
use crate::view::{SegmentView, TileView};

/// 1. Cell backgrounds.
pub(super) fn backgrounds(pen: &mut Pen<'_>, view: &TileView) {
    for c in &view.cells {
        let (x, y) = pen.p(c.x, c.y, (0.0, 0.0));
        let _ = writeln!(
            pen.out,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#efe9da"/>"##,
            n(x),
            n(y),
            n(CELL),
            n(CELL)
        );
    }
}

/// 2. Fields: wedges merged per segment, one sub-path per run of consecutive wedges.
///
/// A field whose runs meet only at the centre of a cell that nothing else crosses (between two
/// bent roads) is joined there by a patch drawn over the other fields.
pub(super) fn fields(pen: &mut Pen<'_>, view: &TileView) {
    let mut patches = Vec::new();
    for (ci, c) in view.cells.iter().enumerate() {
        let owners = wedge_owners(view, ci);
        for (si, seg) in view.segments_in(ci) {
            if seg.kind != FeatureKind::Field {
                continue;
            }
            let mine: Vec<bool> = owners.iter().map(|o| *o == Some(si)).collect();
            if !mine.iter().any(|m| *m) {
                continue;
            }
            let mut d = String::new();
            if mine.iter().all(|m| *m) {
                let _ = write!(d, "M{}", pen.pt(c.x, c.y, border_point(0)));
                for k in 1..8 {
                    let _ = write!(d, " L{}", pen.pt(c.x, c.y, border_point(k)));
                }
                d.push_str(" Z");
            } else {
                // Start each run at a wedge whose predecessor is not ours.
                let runs = (0..8).filter(|&k| mine[k] && !mine[(k + 7) % 8]).count();
                if runs > 1 && centre_free(view, ci) {
                    patches.push((ci, si));
                }
                for start in 0..8usize {
                    if !mine[start] || mine[(start + 7) % 8] {
                        continue;
                    }
                    let mut end = start;
                    while mine[(end + 1) % 8] && (end + 1) % 8 != start {
                        end = (end + 1) % 8;
                    }
                    let len = (end + 8 - start) % 8 + 1;
                    let _ = write!(d, "M{}", pen.pt(c.x, c.y, (0.5, 0.5)));
                    for k in 0..=len {
                        let _ = write!(d, " L{}", pen.pt(c.x, c.y, border_point(start + k)));
                    }
                    d.push_str(" Z ");
                }
            }
            let colour = feature_colour(view, seg.feature);
            let _ = writeln!(
                pen.out,
                r#"<path d="{}" fill="{colour}" stroke="{colour}" stroke-width="0.6"><title>#{} field {}</title></path>"#,
                d.trim_end(),
                seg.feature,
                esc(&seg.id)
            );
        }
    }
    for (ci, si) in patches {
        let seg = &view.segments[si];
        let colour = feature_colour(view, seg.feature);
        let _ = writeln!(
            pen.out,
            r#"<path d="{}" fill="{colour}" stroke="{colour}" stroke-width="0.6"><title>#{} field {}</title></path>"#,
            centre_patch(pen, view, ci),
            seg.feature,
            esc(&seg.id)
        );
    }
}

/// The middle of cell `cell` that a field split into runs owns: the area inside the bent roads
/// (along each road's curve, from one to the next), or a small diamond round the centre.
fn centre_patch(pen: &Pen<'_>, view: &TileView, cell: usize) -> String {
    let c = &view.cells[cell];
    let mut bends: Vec<(Side, Side)> = view
        .segments_in(cell)
        .filter(|(_, s)| s.kind == FeatureKind::Road && s.sides.len() == 2)
        .map(|(_, s)| {
            let (a, b) = (s.sides[0], s.sides[1]);
            // Clockwise: from the side whose next side is the other.
            if a.rotated(1) == b {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect();
    if !bent_roads(view, cell) {
        bends.clear();
    }
    bends.sort();
    let mut d = String::new();
    for (a, b) in &bends {
        let q = bend_control(*a, *b).unwrap_or((0.5, 0.5));
        let _ = write!(
            d,
            "{}{} Q{} {} ",
            if d.is_empty() { "M" } else { "L" },
            pen.pt(c.x, c.y, side_mid(*a)),
            pen.pt(c.x, c.y, q),
            pen.pt(c.x, c.y, side_mid(*b))
        );
    }
    if d.is_empty() {
        let q = [(0.5, 0.3), (0.7, 0.5), (0.5, 0.7), (0.3, 0.5)].map(|q| pen.pt(c.x, c.y, q));
        let _ = write!(d, "M{} L{} L{} L{} ", q[0], q[1], q[2], q[3]);
    }
    d.push('Z');
    d
}

/// Whether nothing is drawn through the centre of cell `cell`: no city of two or more sides,
/// and no road through it (roads of two or more sides there are all [`bent_roads`]).
fn centre_free(view: &TileView, cell: usize) -> bool {
    let through: Vec<_> = view
        .segments_in(cell)
        .filter(|(_, s)| s.sides.len() > 1 && s.kind != FeatureKind::Field)
        .collect();
    let no_city = !through.iter().any(|(_, s)| s.kind == FeatureKind::City);
    no_city && (through.is_empty() || bent_roads(view, cell))
}

/// 3. Cities.
pub(super) fn cities(pen: &mut Pen<'_>, view: &TileView) {
    let mut through_centre = vec![false; view.cells.len()];
    for seg in view.segments.iter().filter(|s| s.kind == FeatureKind::City) {
        let c = &view.cells[seg.cell];
        // A corner city keeps off the centre (`corner_city_control`): it neither crosses another
        // city nor needs to be narrowed under one (two corner cities facing each other).
        let through = seg.sides.len() > 1 && corner_city_control(&seg.sides).is_none();
        let narrow = through && through_centre[seg.cell];
        if through {
            through_centre[seg.cell] = true;
        }
        let d = city_path(pen, c.x, c.y, &seg.sides, narrow);
        if d.is_empty() {
            continue;
        }
        let _ = writeln!(
            pen.out,
            r##"<path d="{d}" fill="{}" stroke="#6d4c2f" stroke-width="1.5"><title>#{} city {}</title></path>"##,
            feature_colour(view, seg.feature),
            seg.feature,
            esc(&seg.id)
        );
    }
}

/// 4. Roads.
pub(super) fn roads(pen: &mut Pen<'_>, view: &TileView) {
    let mut junctions: Vec<usize> = Vec::new();
    for seg in view.segments.iter().filter(|s| s.kind == FeatureKind::Road) {
        let path = road_path(pen, view, seg, &mut junctions);
        draw_road(pen, view, seg, &path);
    }
    for cell in junctions {
        let c = &view.cells[cell];
        let (x, y) = pen.p(c.x, c.y, (0.5, 0.5));
        let _ = writeln!(
            pen.out,
            r##"<rect class="junction" x="{}" y="{}" width="18.0" height="18.0" fill="#6b4f3a" stroke="#222" stroke-width="1.2"><title>junction: the roads end here</title></rect>"##,
            n(x - 9.0),
            n(y - 9.0)
        );
    }
}

/// A road segment's outline: the SVG path, the spot of its end square (a gate or house) and
/// the hub where three or more arms meet, in picture units.
struct RoadPath {
    d: String,
    end: Option<(f64, f64)>,
    hub: Option<(f64, f64)>,
}

/// The path of road segment `seg`: to its building, its end or a junction (noted in
/// `junctions`) for a road end; round the corner beside another bent road; else through the
/// centre.
fn road_path(
    pen: &Pen<'_>,
    view: &TileView,
    seg: &SegmentView,
    junctions: &mut Vec<usize>,
) -> RoadPath {
    let c = &view.cells[seg.cell];
    let building = building_spots(view, seg.cell).first().map(|b| b.1);
    let ends = road_ends(view, seg.cell);
    let mut d = String::new();
    let mut end = None;
    let mut hub = None;
    if seg.sides.len() == 1 {
        let m = side_mid(seg.sides[0]);
        // To its building (drawn over the end), to the junction where three or more roads
        // end, or a short way in, ending in a small square (a gate or house).
        let e = match building {
            Some(b) => b,
            None if ends >= 3 => towards_centre(m, 0.9),
            None => towards_centre(m, 0.6),
        };
        let _ = write!(d, "M{} L{}", pen.pt(c.x, c.y, m), pen.pt(c.x, c.y, e));
        if building.is_none() {
            if ends >= 3 {
                if !junctions.contains(&seg.cell) {
                    junctions.push(seg.cell);
                }
            } else {
                end = Some(e);
            }
        }
    } else if let (true, Some(q)) = (
        bent_roads(view, seg.cell),
        bend_control(seg.sides[0], seg.sides[seg.sides.len() - 1]),
    ) {
        // Beside another bent road: a curve round the corner, clear of the centre.
        let (a, b) = (side_mid(seg.sides[0]), side_mid(seg.sides[1]));
        let _ = write!(
            d,
            "M{} Q{} {}",
            pen.pt(c.x, c.y, a),
            pen.pt(c.x, c.y, q),
            pen.pt(c.x, c.y, b)
        );
    } else if !seg.sides.is_empty() {
        // Through the centre: first side → centre → second side, then the other arms.
        let centre = pen.pt(c.x, c.y, (0.5, 0.5));
        let _ = write!(
            d,
            "M{} L{}",
            pen.pt(c.x, c.y, side_mid(seg.sides[0])),
            centre
        );
        if let Some(s) = seg.sides.get(1) {
            let _ = write!(d, " L{}", pen.pt(c.x, c.y, side_mid(*s)));
        }
        for s in seg.sides.iter().skip(2) {
            let _ = write!(d, " M{} L{}", centre, pen.pt(c.x, c.y, side_mid(*s)));
        }
        if seg.sides.len() > 2 {
            hub = Some(pen.p(c.x, c.y, (0.5, 0.5)));
        }
    }
    RoadPath { d, end, hub }
}

/// Road segment `seg` drawn along `path`: its dark outline, the hub's disc, the coloured road,
/// the end square.
fn draw_road(pen: &mut Pen<'_>, view: &TileView, seg: &SegmentView, path: &RoadPath) {
    let c = &view.cells[seg.cell];
    let (d, hub, end) = (path.d.trim_end(), path.hub, path.end);
    let _ = writeln!(
        pen.out,
        r##"<path d="{d}" fill="none" stroke="#555" stroke-width="12" stroke-linejoin="round"/>"##
    );
    if let Some((x, y)) = hub {
        // The arms meet here: a disc covers their butt ends (outline now, fill after).
        let _ = writeln!(
            pen.out,
            r##"<circle cx="{}" cy="{}" r="6.0" fill="#555"/>"##,
            n(x),
            n(y)
        );
    }
    let _ = writeln!(
        pen.out,
        r#"<path d="{d}" fill="none" stroke="{}" stroke-width="8" stroke-linejoin="round"><title>#{} road {}</title></path>"#,
        feature_colour(view, seg.feature),
        seg.feature,
        esc(&seg.id)
    );
    if let Some((x, y)) = hub {
        let _ = writeln!(
            pen.out,
            r#"<circle cx="{}" cy="{}" r="4.0" fill="{}"/>"#,
            n(x),
            n(y),
            feature_colour(view, seg.feature)
        );
    }
    if let Some(e) = end {
        let (x, y) = pen.p(c.x, c.y, e);
        let _ = writeln!(
            pen.out,
            r##"<rect x="{}" y="{}" width="10.0" height="10.0" fill="#6b4f3a" stroke="#222" stroke-width="1"/>"##,
            n(x - 5.0),
            n(y - 5.0)
        );
    }
}

/// Number of roads that end in cell `cell` (one-side road segments).
pub(crate) fn road_ends(view: &TileView, cell: usize) -> usize {
    view.segments_in(cell)
        .filter(|(_, s)| s.kind == FeatureKind::Road && s.sides.len() == 1)
        .count()
}

/// 5. Inner fields, buildings.
pub(super) fn buildings(pen: &mut Pen<'_>, view: &TileView) {
    for (ci, c) in view.cells.iter().enumerate() {
        let mut inner = 0;
        let spots = building_spots(view, ci);
        for (si, seg) in view.segments_in(ci) {
            match seg.kind {
                FeatureKind::Field if seg.halves.is_empty() => {
                    let (x, y) = pen.p(c.x, c.y, inner_field_spot(inner));
                    inner += 1;
                    let _ = writeln!(
                        pen.out,
                        r##"<circle cx="{}" cy="{}" r="10.0" fill="{}" stroke="#33691e" stroke-width="1"><title>#{} inner field {}</title></circle>"##,
                        n(x),
                        n(y),
                        feature_colour(view, seg.feature),
                        seg.feature,
                        esc(&seg.id)
                    );
                }
                FeatureKind::Cloister | FeatureKind::Unscored => {
                    let q = spots.iter().find(|b| b.0 == si).map_or((0.5, 0.5), |b| b.1);
                    let (x, y) = pen.p(c.x, c.y, q);
                    if seg.kind == FeatureKind::Cloister {
                        let _ = writeln!(
                            pen.out,
                            r##"<path d="M{},{} h20.0 v-14.0 l-10.0,-10.0 l-10.0,10.0 Z" fill="#c0392b" stroke="#222" stroke-width="1.2"><title>#{} cloister {}</title></path>"##,
                            n(x - 10.0),
                            n(y + 10.0),
                            seg.feature,
                            esc(&seg.id)
                        );
                    } else {
                        let mut d = String::new();
                        for k in 0..10 {
                            let r = if k % 2 == 0 { 18.0 } else { 8.0 };
                            let a = std::f64::consts::PI * (f64::from(k) / 5.0 - 0.5);
                            let _ = write!(
                                d,
                                "{}{},{} ",
                                if k == 0 { "M" } else { "L" },
                                n(x + r * a.cos()),
                                n(y + r * a.sin())
                            );
                        }
                        let _ = writeln!(
                            pen.out,
                            r##"<path d="{}Z" fill="#e6b422" stroke="#7a5c00" stroke-width="1.2"><title>#{} wonder {}</title></path>"##,
                            d,
                            seg.feature,
                            esc(&seg.id)
                        );
                    }
                }
                _ => {}
            }
        }
    }
}

/// 6. Pennants (small shields on their city).
pub(super) fn pennants(pen: &mut Pen<'_>, view: &TileView) {
    for seg in view
        .segments
        .iter()
        .filter(|s| s.kind == FeatureKind::City && s.pennants > 0)
    {
        let c = &view.cells[seg.cell];
        let (ax, y) = pen.p(c.x, c.y, pennant_row(seg));
        for k in 0..seg.pennants {
            let x = ax + (f64::from(k) - f64::from(seg.pennants - 1) / 2.0) * 14.0;
            let _ = writeln!(
                pen.out,
                r##"<path d="M{},{} h12.0 v6.0 q0.0,6.0 -6.0,8.0 q-6.0,-2.0 -6.0,-8.0 Z" fill="#1e5aa8" stroke="#fff" stroke-width="1"><title>pennant of #{} {}</title></path>"##,
                n(x - 6.0),
                n(y),
                seg.feature,
                esc(&seg.id)
            );
        }
    }
}

/// 2b. Declared edges (water, R-1): a blue band over the fields it parts (R-5), under the
/// cities and the roads that cross it. Two declared sides that meet at a corner (a bend) are
/// one quarter circle round that corner, which leaves the cell's centre to the road or field
/// beyond the bend; any other declared side is a band from its middle to the cell's centre.
pub(super) fn declared_edges(pen: &mut Pen<'_>, view: &TileView) {
    for c in &view.cells {
        let declared: Vec<(Side, u8)> = Side::ALL
            .into_iter()
            .filter_map(|s| match c.sides[s.index()] {
                SideKind::Declared(k) => Some((s, k)),
                _ => None,
            })
            .collect();
        let d = match declared[..] {
            [] => continue,
            [(a, _), (b, _)] if adjacent(a, b) => bend(pen, c.x, c.y, side_mid(a), side_mid(b)),
            _ => declared
                .iter()
                .map(|&(s, _)| {
                    let (m, o) = (pen.pt(c.x, c.y, side_mid(s)), pen.pt(c.x, c.y, (0.5, 0.5)));
                    format!("M{m} L{o}")
                })
                .collect::<Vec<_>>()
                .join(" "),
        };
        let names: Vec<&str> = declared.iter().map(|(s, _)| s.name()).collect();
        let _ = writeln!(
            pen.out,
            r##"<path d="{d}" fill="none" stroke="#3a8fd6" stroke-width="14" stroke-linejoin="round"><title>sides {}: declared edge {}</title></path>"##,
            names.join(", "),
            declared[0].1
        );
    }
}

/// Whether two sides meet at a corner.
fn adjacent(a: Side, b: Side) -> bool {
    (a.index() + 1) % 4 == b.index() || (b.index() + 1) % 4 == a.index()
}

/// A curve from side middle `a` to side middle `b` round their common corner: the quadratic
/// Bézier whose tangents at both ends run along the sides (its control point is the cell's
/// centre), a quarter circle's usual approximation; it keeps clear of the centre.
fn bend(pen: &Pen<'_>, x: i32, y: i32, a: (f64, f64), b: (f64, f64)) -> String {
    let [a, c, b] = [a, (0.5, 0.5), b].map(|q| pen.pt(x, y, q));
    format!("M{a} Q{c} {b}")
}

/// 7. Sides: `any` sides, inner sides dashed, outer outline bold.
pub(super) fn sides(pen: &mut Pen<'_>, view: &TileView) {
    for c in &view.cells {
        for s in Side::ALL {
            let (a, b) = side_corners(s);
            let (x1, y1) = pen.p(c.x, c.y, a);
            let (x2, y2) = pen.p(c.x, c.y, b);
            if c.outer[s.index()] {
                if c.sides[s.index()] == SideKind::Any {
                    // Inset dotted purple line: matches anything, closes the neighbour (AM-1).
                    let (ix, iy) = (
                        (0.5 - (a.0 + b.0) / 2.0) * 10.0,
                        (0.5 - (a.1 + b.1) / 2.0) * 10.0,
                    );
                    let _ = writeln!(
                        pen.out,
                        r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#8e44ad" stroke-width="3" stroke-dasharray="3 3"><title>side {}: any</title></line>"##,
                        n(x1 + ix),
                        n(y1 + iy),
                        n(x2 + ix),
                        n(y2 + iy),
                        s.name()
                    );
                }
                let _ = writeln!(
                    pen.out,
                    r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#222" stroke-width="3" stroke-linecap="square"/>"##,
                    n(x1),
                    n(y1),
                    n(x2),
                    n(y2)
                );
            } else if matches!(s, Side::E | Side::S) {
                let _ = writeln!(
                    pen.out,
                    r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#444" stroke-width="1" stroke-dasharray="4 3"/>"##,
                    n(x1),
                    n(y1),
                    n(x2),
                    n(y2)
                );
            }
        }
    }
}

/// 8. Connections: blue = joined, red = kept apart (W-21).
pub(super) fn connections(pen: &mut Pen<'_>, view: &TileView) {
    for conn in &view.connections {
        let (Some(sa), Some(sb)) = (view.segments.get(conn.a), view.segments.get(conn.b)) else {
            continue;
        };
        let Some(side) = view.shared_side(sa.cell, sb.cell) else {
            continue;
        };
        let c = &view.cells[sa.cell];
        let spots: Vec<(f64, f64)> = if sa.kind == FeatureKind::Field {
            side.halves()
                .into_iter()
                .filter(|h| sa.halves.contains(h) && sb.halves.contains(&h.opposite()))
                .map(half_mid)
                .collect()
        } else {
            vec![side_mid(side)]
        };
        let colour = if conn.joined { "#1565c0" } else { "#c62828" };
        let what = if conn.joined { "joined" } else { "separate" };
        let rule = conn
            .rule
            .as_deref()
            .map(|r| format!(" ({r})"))
            .unwrap_or_default();
        for q in spots {
            let (x, y) = pen.p(c.x, c.y, q);
            let _ = writeln!(
                pen.out,
                r##"<circle cx="{}" cy="{}" r="4.5" fill="{colour}" stroke="#fff" stroke-width="1.2"><title>{}: {} / {} {what}{}</title></circle>"##,
                n(x),
                n(y),
                esc(&conn.id),
                esc(&sa.id),
                esc(&sb.id),
                esc(&rule)
            );
        }
    }
}
