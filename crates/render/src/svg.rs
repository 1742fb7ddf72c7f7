//! SVG pictures of tiles and contact sheets, written as plain text (no dependencies).
//!
//! Geometry (cell-local units, 0..1, x east, y south; one cell = [`CELL`] pixels):
//! - a field segment is the union of the wedges between the cell centre and its half-edges; the
//!   wedges of city/any sides (which have no halves) go to the nearest field of the cell, and the
//!   city is drawn over them;
//! - a city segment is the polygon over its sides: a cap for one side, a region through the centre
//!   for several (sides joined along the border when adjacent, by an inward curve otherwise);
//! - a road segment is a thick line from each of its side midpoints to the centre; a one-side road
//!   ends in a small square (gate, house, junction) or at the building of its cell;
//! - inner fields are discs, the cloister a small church, the wonder a gold star, pennants small
//!   blue shields;
//! - outer sides are bold, inner sides of a mega tile thin dashed lines; a connection is a dot on
//!   the inner side where its two segments meet: blue when joined, red when kept apart (W-21).
//!
//! Every feature has its own shade (greens for fields, browns/oranges for cities, light greys for
//! roads) and every segment a label `#feature segment-id`. Output is deterministic: fixed order,
//! numbers printed with one decimal.

use std::fmt::Write as _;

use tegula_ruleset::{FeatureKind, Half, Side, SideKind};

use crate::view::{plural, SegmentView, TileView};

/// Size of one cell in pixels.
pub const CELL: f64 = 120.0;
const MARGIN: f64 = 20.0;
const LINE: f64 = 13.0;
/// Width of one title character (14 px bold monospace).
const TITLE_CHAR: f64 = 8.6;

const FIELD_SHADES: [&str; 10] = [
    "#9ccc65", "#66bb6a", "#c5e1a5", "#7cb342", "#a5d6a7", "#558b2f", "#dce775", "#81c784",
    "#aed581", "#43a047",
];
const CITY_SHADES: [&str; 8] = [
    "#d9a05b", "#c0703a", "#e8b878", "#a0522d", "#f0a050", "#b8864b", "#e07b39", "#8d5a2b",
];
const ROAD_SHADES: [&str; 6] = [
    "#f4f4f4", "#d6d6d6", "#e6e6e6", "#c8c8c8", "#fbfbfb", "#dedede",
];

/// Fill colour of feature `f` of `view`.
pub fn feature_colour(view: &TileView, f: usize) -> &'static str {
    let rank = view.kind_rank(f);
    match view.features[f].kind {
        FeatureKind::Field => FIELD_SHADES[rank % FIELD_SHADES.len()],
        FeatureKind::City => CITY_SHADES[rank % CITY_SHADES.len()],
        FeatureKind::Road => ROAD_SHADES[rank % ROAD_SHADES.len()],
        FeatureKind::Cloister => "#c0392b",
        FeatureKind::Wonder => "#e6b422",
    }
}

/// Format a coordinate with one decimal (never `-0.0`).
fn n(v: f64) -> String {
    let s = format!("{v:.1}");
    if s == "-0.0" {
        "0.0".to_string()
    } else {
        s
    }
}

/// Escape text for XML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Cell-local point of the border between half `h - 1` and half `h` (clockwise from the north-west
/// corner).
fn border_point(k: usize) -> (f64, f64) {
    const B: [(f64, f64); 8] = [
        (0.0, 0.0),
        (0.5, 0.0),
        (1.0, 0.0),
        (1.0, 0.5),
        (1.0, 1.0),
        (0.5, 1.0),
        (0.0, 1.0),
        (0.0, 0.5),
    ];
    B[k % 8]
}

fn side_mid(s: Side) -> (f64, f64) {
    border_point(2 * s.index() + 1)
}

fn half_mid(h: Half) -> (f64, f64) {
    let (a, b) = (border_point(h.index()), border_point(h.index() + 1));
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// Corners of a side, clockwise.
fn side_corners(s: Side) -> ((f64, f64), (f64, f64)) {
    (border_point(2 * s.index()), border_point(2 * s.index() + 2))
}

struct Pen<'a> {
    out: &'a mut String,
    ox: f64,
    oy: f64,
}

impl Pen<'_> {
    /// Absolute pixel position of a cell-local point.
    fn p(&self, cx: i32, cy: i32, (u, v): (f64, f64)) -> (f64, f64) {
        (
            self.ox + (f64::from(cx) + u) * CELL,
            self.oy + (f64::from(cy) + v) * CELL,
        )
    }
    fn pt(&self, cx: i32, cy: i32, q: (f64, f64)) -> String {
        let (x, y) = self.p(cx, cy, q);
        format!("{},{}", n(x), n(y))
    }
    fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, extra: &str, s: &str) {
        let _ = writeln!(
            self.out,
            r##"<text x="{}" y="{}" font-size="{}" text-anchor="{anchor}"{extra}>{}</text>"##,
            n(x),
            n(y),
            n(size),
            esc(s)
        );
    }
    /// A label with a white halo, for text on the picture.
    fn label(&mut self, x: f64, y: f64, s: &str) {
        self.text(
            x,
            y,
            7.5,
            "middle",
            r##" fill="#111" stroke="#fff" stroke-width="2.5" paint-order="stroke""##,
            s,
        );
    }
}

fn wedge_owners(view: &TileView, cell: usize) -> [Option<usize>; 8] {
    view.wedge_owners(cell)
}

fn inner_field_spot(k: usize) -> (f64, f64) {
    const SPOTS: [(f64, f64); 4] = [(0.78, 0.22), (0.22, 0.78), (0.22, 0.22), (0.78, 0.78)];
    SPOTS[k % 4]
}

fn city_anchor(seg: &SegmentView) -> (f64, f64) {
    if seg.sides.is_empty() {
        return (0.5, 0.5);
    }
    let k = seg.sides.len() as f64;
    let (sx, sy) = seg
        .sides
        .iter()
        .map(|s| side_mid(*s))
        .fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    let (x, y) = (sx / k, sy / k);
    if seg.sides.len() == 1 {
        (x + (0.5 - x) * 0.16, y + (0.5 - y) * 0.16)
    } else {
        (x, y)
    }
}

/// SVG path data of a city segment's area (absolute coordinates).
fn city_path(pen: &Pen<'_>, cx: i32, cy: i32, sides: &[Side], narrow: bool) -> String {
    let mut d = String::new();
    if sides.is_empty() {
        return d;
    }
    let centre = pen.pt(cx, cy, (0.5, 0.5));
    let k = sides.len();
    for (i, s) in sides.iter().enumerate() {
        let (a, b) = side_corners(*s);
        if i == 0 {
            let _ = write!(d, "M{}", pen.pt(cx, cy, a));
        }
        let _ = write!(d, " L{}", pen.pt(cx, cy, b));
        let next = sides[(i + 1) % k];
        if k == 1 || next != s.rotated(1) {
            let (na, _) = side_corners(next);
            let ctrl = if narrow && k > 1 {
                // A bridge over another city: push the curve past the centre (waist 0.2 wide).
                let mid = ((b.0 + na.0) / 2.0, (b.1 + na.1) / 2.0);
                pen.pt(
                    cx,
                    cy,
                    (0.5 + (0.5 - mid.0) * 0.6, 0.5 + (0.5 - mid.1) * 0.6),
                )
            } else {
                centre.clone()
            };
            let _ = write!(d, " Q{} {}", ctrl, pen.pt(cx, cy, na));
        }
    }
    d.push_str(" Z");
    d
}

/// Draw one tile with its top-left corner at `(ox, oy)`.
fn draw_tile(out: &mut String, view: &TileView, ox: f64, oy: f64) {
    let mut pen = Pen { out, ox, oy };
    let _ = writeln!(pen.out, r#"<g class="tile" id="tile-{}">"#, esc(&view.id));
    // 1. Cell backgrounds.
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
    // 2. Fields: wedges merged per segment, one sub-path per run of consecutive wedges.
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
    // 3. Cities.
    let mut through_centre = vec![false; view.cells.len()];
    for seg in view.segments.iter().filter(|s| s.kind == FeatureKind::City) {
        let c = &view.cells[seg.cell];
        let narrow = seg.sides.len() > 1 && through_centre[seg.cell];
        if seg.sides.len() > 1 {
            through_centre[seg.cell] = true;
        }
        let d = city_path(&pen, c.x, c.y, &seg.sides, narrow);
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
    // 4. Roads.
    for seg in view.segments.iter().filter(|s| s.kind == FeatureKind::Road) {
        let c = &view.cells[seg.cell];
        let building = view
            .segments_in(seg.cell)
            .any(|(_, s)| matches!(s.kind, FeatureKind::Cloister | FeatureKind::Wonder));
        let mut d = String::new();
        let mut end = None;
        let mut hub = None;
        if seg.sides.len() == 1 {
            let m = side_mid(seg.sides[0]);
            let t = if building { 0.4 } else { 0.6 };
            let e = (m.0 + (0.5 - m.0) * t, m.1 + (0.5 - m.1) * t);
            let _ = write!(d, "M{} L{}", pen.pt(c.x, c.y, m), pen.pt(c.x, c.y, e));
            if !building {
                end = Some(e);
            }
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
        let d = d.trim_end();
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
    // 5. Inner fields, buildings.
    for (ci, c) in view.cells.iter().enumerate() {
        let mut inner = 0;
        let mut buildings = 0;
        for (_, seg) in view.segments_in(ci) {
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
                FeatureKind::Cloister | FeatureKind::Wonder => {
                    let (x, y) = pen.p(c.x, c.y, (0.5 + 0.25 * f64::from(buildings), 0.5));
                    buildings += 1;
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
    // 6. Pennants (small shields on their city).
    for seg in view
        .segments
        .iter()
        .filter(|s| s.kind == FeatureKind::City && s.pennants > 0)
    {
        let c = &view.cells[seg.cell];
        let (ax, ay) = pen.p(c.x, c.y, city_anchor(seg));
        for k in 0..seg.pennants {
            let x = ax + (f64::from(k) - f64::from(seg.pennants - 1) / 2.0) * 14.0;
            let y = ay - 8.0;
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
    // 7. Sides: `any` sides, inner sides dashed, outer outline bold.
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
    // 8. Connections: blue = joined, red = kept apart (W-21).
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
    // 9. Labels: `#feature segment-id`, placed greedily where they overlap least.
    for (ci, c) in view.cells.iter().enumerate() {
        let owners = wedge_owners(view, ci);
        let mut inner = 0;
        let mut buildings = 0u8;
        let mut wanted: Vec<Wanted> = Vec::new();
        for (si, seg) in view.segments_in(ci) {
            let text = format!("#{} {}", seg.feature, seg.id);
            let (order, spots) = match seg.kind {
                FeatureKind::Cloister | FeatureKind::Wonder => {
                    let x = 0.5 + 0.25 * f64::from(buildings);
                    buildings += 1;
                    (0, vec![(x, 0.77), (x, 0.23), (x, 0.62)])
                }
                FeatureKind::Field if seg.halves.is_empty() => {
                    let q = inner_field_spot(inner);
                    inner += 1;
                    (1, vec![(q.0, q.1 + 0.15), (q.0, q.1 - 0.15), q])
                }
                FeatureKind::City => (2, city_label_spots(seg)),
                FeatureKind::Road => (4, road_label_spots(seg, label_width(&text))),
                FeatureKind::Field => (3, field_label_spots(seg, &owners, si)),
            };
            wanted.push((order, text, spots));
        }
        wanted.sort_by_key(|w| w.0);
        // Buildings and road ends are obstacles too.
        let mut placed: Vec<(f64, f64, f64, f64)> = Vec::new();
        for k in 0..buildings {
            let x = 0.5 + 0.25 * f64::from(k);
            placed.push((x - 0.15, 0.35, x + 0.15, 0.62));
        }
        for (_, seg) in view.segments_in(ci) {
            if seg.kind == FeatureKind::City && seg.pennants > 0 {
                let (x, y) = city_anchor(seg);
                let half_w = (f64::from(seg.pennants) * 14.0 - 2.0) / 2.0 / CELL;
                placed.push((x - half_w, y - 8.0 / CELL, x + half_w, y + 6.0 / CELL));
            }
            if seg.kind == FeatureKind::Road && seg.sides.len() == 1 && buildings == 0 {
                let e = towards_centre(side_mid(seg.sides[0]), 0.6);
                placed.push((e.0 - 0.05, e.1 - 0.05, e.0 + 0.05, e.1 + 0.05));
            }
        }
        for (_, text, spots) in wanted {
            let w = label_width(&text);
            let h = 10.0 / CELL;
            let mut best: Option<((f64, f64), f64)> = None;
            for q in spots {
                let x =
                    q.0.clamp(w / 2.0 + 0.01, (1.0 - w / 2.0 - 0.01).max(w / 2.0 + 0.01));
                let y = q.1.clamp(h / 2.0 + 0.02, 1.0 - h / 2.0 - 0.02);
                let bx = (x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0);
                let overlap: f64 = placed
                    .iter()
                    .map(|p| {
                        let ox = (bx.2.min(p.2) - bx.0.max(p.0)).max(0.0);
                        let oy = (bx.3.min(p.3) - bx.1.max(p.1)).max(0.0);
                        ox * oy
                    })
                    .sum();
                if best.is_none_or_worse(overlap) {
                    best = Some(((x, y), overlap));
                }
                if overlap == 0.0 {
                    break;
                }
            }
            let Some(((x, y), _)) = best else { continue };
            placed.push((x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0));
            let (px, py) = pen.p(c.x, c.y, (x, y));
            pen.label(px, py + 2.5, &text);
        }
    }
    let _ = writeln!(pen.out, "</g>");
}

/// A label to place: order, text, candidate centres (cell units).
type Wanted = (u8, String, Vec<(f64, f64)>);

/// Width of one label character in pixels (monospace, 0.6 em).
const LABEL_CHAR: f64 = 4.5;

trait Worse {
    fn is_none_or_worse(&self, overlap: f64) -> bool;
}

impl Worse for Option<((f64, f64), f64)> {
    fn is_none_or_worse(&self, overlap: f64) -> bool {
        match self {
            None => true,
            Some((_, o)) => overlap < *o,
        }
    }
}

fn towards_centre(m: (f64, f64), t: f64) -> (f64, f64) {
    (m.0 + (0.5 - m.0) * t, m.1 + (0.5 - m.1) * t)
}

fn city_label_spots(seg: &SegmentView) -> Vec<(f64, f64)> {
    let mut v = Vec::new();
    if seg.sides.len() == 1 {
        let m = side_mid(seg.sides[0]);
        for t in [0.36, 0.2, 0.5] {
            v.push(towards_centre(m, t));
        }
    } else {
        let a = city_anchor(seg);
        v.push((a.0, a.1 + 0.12));
        v.push((a.0, a.1 - 0.12));
        for s in &seg.sides {
            v.push(towards_centre(side_mid(*s), 0.3));
        }
        v.push(a);
    }
    v
}

/// Width of a label in cell units.
fn label_width(text: &str) -> f64 {
    (text.chars().count() as f64 * LABEL_CHAR + 3.0) / CELL
}

/// Beside the road arms (a label never hides the road or its end).
fn road_label_spots(seg: &SegmentView, w: f64) -> Vec<(f64, f64)> {
    let mut v = Vec::new();
    for t in [0.3, 0.5, 0.15] {
        for s in &seg.sides {
            let (x, y) = towards_centre(side_mid(*s), t);
            match s {
                Side::N | Side::S => {
                    v.push((x + w / 2.0 + 0.06, y));
                    v.push((x - w / 2.0 - 0.06, y));
                }
                Side::E | Side::W => {
                    v.push((x, y - 0.1));
                    v.push((x, y + 0.1));
                }
            }
        }
    }
    if v.is_empty() {
        v.push((0.5, 0.5));
    }
    v
}

fn wedge_centroid(h: usize) -> (f64, f64) {
    let a = border_point(h);
    let b = border_point(h + 1);
    ((0.5 + a.0 + b.0) / 3.0, (0.5 + a.1 + b.1) / 3.0)
}

fn field_label_spots(seg: &SegmentView, owners: &[Option<usize>; 8], si: usize) -> Vec<(f64, f64)> {
    let own: Vec<bool> = (0..8)
        .map(|k| seg.halves.iter().any(|h| h.index() == k))
        .collect();
    // The middle half of its largest run first.
    let mut order: Vec<usize> = seg.main_half().map(|h| h.index()).into_iter().collect();
    order.extend((0..8).filter(|&k| own[k]));
    let mut v = Vec::new();
    for &h in &order {
        v.push(wedge_centroid(h));
    }
    for &h in &order {
        let c = wedge_centroid(h);
        let m = half_mid(Half::from_index(h));
        v.push(((c.0 + m.0) / 2.0, (c.1 + m.1) / 2.0));
    }
    // Adopted wedges (under a city, mostly) only as a last resort.
    for k in (0..8).filter(|&k| !own[k] && owners[k] == Some(si)) {
        v.push(wedge_centroid(k));
    }
    if v.is_empty() {
        v.push((0.5, 0.5));
    }
    v
}

/// The `<svg>` element, a white background and the bold title line at the top left.
fn svg_open(out: &mut String, w: f64, h: f64, title: &str) {
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="monospace">"#,
        w = n(w),
        h = n(h)
    );
    let _ = writeln!(
        out,
        r##"<rect x="0.0" y="0.0" width="{}" height="{}" fill="#ffffff"/>"##,
        n(w),
        n(h)
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="14.0" font-weight="bold">{}</text>"#,
        n(MARGIN),
        n(MARGIN + 12.0),
        esc(title)
    );
}

/// An SVG picture of one tile, with a legend of its features and connections under it.
pub fn tile_svg(view: &TileView) -> String {
    let (cw, ch) = view.size();
    let lines = view.legend();
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    let title = if view.name.is_empty() {
        view.id.clone()
    } else {
        format!("{} — {}", view.id, view.name)
    };
    let w = (f64::from(cw) * CELL)
        .max(longest * 6.0)
        .max(title.chars().count() as f64 * TITLE_CHAR)
        + 2.0 * MARGIN;
    let tile_h = f64::from(ch) * CELL;
    let h = MARGIN + 22.0 + tile_h + 12.0 + LINE * lines.len() as f64 + MARGIN;
    let mut out = String::new();
    svg_open(&mut out, w, h, &title);
    draw_tile(&mut out, view, MARGIN, MARGIN + 22.0);
    let mut y = MARGIN + 22.0 + tile_h + 12.0 + 9.0;
    for l in &lines {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="10.0">{}</text>"#,
            n(MARGIN),
            n(y),
            esc(l)
        );
        y += LINE;
    }
    out.push_str("</svg>\n");
    out
}

/// A contact sheet: every tile of `views` in a grid (rows of at most 8 cells' width), each with
/// its id, name and count under it.
pub fn sheet_svg(title: &str, views: &[TileView]) -> String {
    const GAP: f64 = 24.0;
    const CAPTION: f64 = 4.0 * LINE + 6.0;
    let max_row = 8.0 * CELL;
    // Lay out: slot width = tile width (at least one cell plus gap).
    let mut placed = Vec::with_capacity(views.len());
    let (mut x, mut y, mut row_h, mut total_w) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for v in views {
        let (cw, ch) = v.size();
        let (tw, th) = (f64::from(cw) * CELL, f64::from(ch) * CELL);
        if x > 0.0 && x + tw > max_row {
            x = 0.0;
            y += row_h + CAPTION + GAP;
            row_h = 0.0;
        }
        placed.push((x, y, tw));
        x += tw + GAP;
        total_w = total_w.max(x - GAP);
        row_h = row_h.max(th);
    }
    let body_h = if views.is_empty() {
        0.0
    } else {
        y + row_h + CAPTION
    };
    let total: u64 = views.iter().map(|v| v.count + u64::from(v.start)).sum();
    let heading = format!(
        "{title} — {} tile type{}, {total} tile{}",
        views.len(),
        plural(views.len()),
        plural(total as usize)
    );
    let w = total_w
        .max(4.0 * CELL)
        .max(heading.chars().count() as f64 * TITLE_CHAR)
        + 2.0 * MARGIN;
    let h = MARGIN + 26.0 + body_h + MARGIN;
    let mut out = String::new();
    svg_open(&mut out, w, h, &heading);
    let top = MARGIN + 26.0;
    for (v, &(x, y, tw)) in views.iter().zip(&placed) {
        let (_, ch) = v.size();
        let (ox, oy) = (MARGIN + x, top + y);
        draw_tile(&mut out, v, ox, oy);
        let cap_y = oy + f64::from(ch) * CELL + 12.0;
        let max_chars = ((tw / 6.0) as usize).max(8);
        let mut count = format!("×{}", v.count);
        if v.start {
            count.push_str(" + start");
        }
        let (name1, name2) = wrap2(&v.name, max_chars);
        let lines = [
            (v.id.clone(), r#" font-weight="bold""#, 11.0),
            (name1, "", 9.0),
            (name2, "", 9.0),
            (count, "", 9.0),
        ];
        for (k, (text, extra, size)) in lines.iter().filter(|l| !l.0.is_empty()).enumerate() {
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" font-size="{}"{extra}>{}</text>"#,
                n(ox),
                n(cap_y + LINE * k as f64),
                n(*size),
                esc(text)
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// Split `s` into at most two lines of `max` characters at spaces (the rest truncated with `…`).
fn wrap2(s: &str, max: usize) -> (String, String) {
    if s.chars().count() <= max {
        return (s.to_string(), String::new());
    }
    let mut first = String::new();
    let mut rest = s;
    for (i, ch) in s.char_indices() {
        if ch == ' ' {
            if s[..i].chars().count() > max {
                break;
            }
            first = s[..i].to_string();
            rest = &s[i + 1..];
        }
    }
    if first.is_empty() {
        let head: String = s.chars().take(max).collect();
        rest = &s[head.len()..];
        first = head;
    }
    (first, truncate(rest, max))
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_one_decimal_and_no_negative_zero() {
        assert_eq!(n(1.0), "1.0");
        assert_eq!(n(-0.0001), "0.0");
        assert_eq!(n(12.345), "12.3");
    }

    #[test]
    fn text_is_escaped_for_xml() {
        assert_eq!(
            esc(r#"<a & 'b' "c">"#),
            "&lt;a &amp; &apos;b&apos; &quot;c&quot;&gt;"
        );
        assert_eq!(esc("x\u{1}y"), "x y");
    }

    #[test]
    fn names_wrap_on_two_lines() {
        assert_eq!(wrap2("Cloister", 20), ("Cloister".into(), String::new()));
        assert_eq!(
            wrap2("City cap with straight road", 20),
            ("City cap with".into(), "straight road".into())
        );
        let (a, b) = wrap2("Supercalifragilisticexpialidocious and more words", 10);
        assert_eq!(a.chars().count(), 10);
        assert!(b.ends_with('…') && b.chars().count() == 10);
    }

    #[test]
    fn half_edge_points_run_clockwise_from_the_north_west_corner() {
        // Ruleset convention: halves Nw Ne En Es Se Sw Ws Wn clockwise.
        assert_eq!(half_mid(Half::Nw), (0.25, 0.0));
        assert_eq!(half_mid(Half::En), (1.0, 0.25));
        assert_eq!(half_mid(Half::Se), (0.75, 1.0));
        assert_eq!(half_mid(Half::Wn), (0.0, 0.25));
        assert_eq!(side_mid(Side::E), (1.0, 0.5));
    }
}
