//! Cell-local geometry (units 0..1, x east, y south) and the pen that turns it into pixels.

use std::fmt::Write as _;

use tegula_ruleset::{FeatureKind, Half, Side};

use super::{esc, n, CELL};
use crate::view::{SegmentView, TileView};

/// Cell-local point of the border between half `h - 1` and half `h` (clockwise from the north-west
/// corner).
pub(crate) fn border_point(k: usize) -> (f64, f64) {
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

pub(crate) fn side_mid(s: Side) -> (f64, f64) {
    border_point(2 * s.index() + 1)
}

pub(crate) fn half_mid(h: Half) -> (f64, f64) {
    let (a, b) = (border_point(h.index()), border_point(h.index() + 1));
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// Corners of a side, clockwise.
pub(crate) fn side_corners(s: Side) -> ((f64, f64), (f64, f64)) {
    (border_point(2 * s.index()), border_point(2 * s.index() + 2))
}

pub(crate) struct Pen<'a> {
    pub(crate) out: &'a mut String,
    pub(crate) ox: f64,
    pub(crate) oy: f64,
}

impl Pen<'_> {
    /// Absolute pixel position of a cell-local point.
    pub(crate) fn p(&self, cx: i32, cy: i32, (u, v): (f64, f64)) -> (f64, f64) {
        (
            self.ox + (f64::from(cx) + u) * CELL,
            self.oy + (f64::from(cy) + v) * CELL,
        )
    }
    pub(crate) fn pt(&self, cx: i32, cy: i32, q: (f64, f64)) -> String {
        let (x, y) = self.p(cx, cy, q);
        format!("{},{}", n(x), n(y))
    }
    pub(crate) fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, extra: &str, s: &str) {
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
    pub(crate) fn label(&mut self, x: f64, y: f64, s: &str) {
        self.text(
            x,
            y,
            LABEL_SIZE,
            "middle",
            r##" fill="#111" stroke="#fff" stroke-width="2.5" paint-order="stroke""##,
            s,
        );
    }
}

pub(crate) fn wedge_owners(view: &TileView, cell: usize) -> [Option<usize>; 8] {
    view.wedge_owners(cell)
}

pub(crate) fn inner_field_spot(k: usize) -> (f64, f64) {
    const SPOTS: [(f64, f64); 4] = [(0.78, 0.22), (0.22, 0.78), (0.22, 0.22), (0.78, 0.78)];
    SPOTS[k % 4]
}

pub(crate) fn city_anchor(seg: &SegmentView) -> (f64, f64) {
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
pub(crate) fn city_path(pen: &Pen<'_>, cx: i32, cy: i32, sides: &[Side], narrow: bool) -> String {
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
            } else if let Some(q) = corner_city_control(sides) {
                pen.pt(cx, cy, q)
            } else {
                centre.clone()
            };
            let _ = write!(d, " Q{} {}", ctrl, pen.pt(cx, cy, na));
        }
    }
    d.push_str(" Z");
    d
}

/// The control point of a road bending between adjacent sides `a` and `b` round their shared
/// corner without reaching the centre: four fifths of the way from that corner to the centre.
/// `None` when they are not adjacent.
pub(crate) fn bend_control(a: Side, b: Side) -> Option<(f64, f64)> {
    let corner = if b == a.rotated(1) {
        side_corners(a).1
    } else if a == b.rotated(1) {
        side_corners(b).1
    } else {
        return None;
    };
    Some((
        corner.0 + (0.5 - corner.0) * 0.8,
        corner.1 + (0.5 - corner.1) * 0.8,
    ))
}

pub(crate) fn towards_centre(m: (f64, f64), t: f64) -> (f64, f64) {
    (m.0 + (0.5 - m.0) * t, m.1 + (0.5 - m.1) * t)
}

pub(crate) fn wedge_centroid(h: usize) -> (f64, f64) {
    let a = border_point(h);
    let b = border_point(h + 1);
    ((0.5 + a.0 + b.0) / 3.0, (0.5 + a.1 + b.1) / 3.0)
}

/// Font size of the labels on a tile picture, in pixels.
pub(crate) const LABEL_SIZE: f64 = 9.0;

/// Distance from `p` to the segment `a`–`b`.
fn dist_to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    let (x, y) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - x).powi(2) + (p.1 - y).powi(2)).sqrt()
}

/// Where the buildings (cloisters, wonders) of cell `cell` stand, as (segment index, cell-local
/// point), in file order. The centre when it is clear; otherwise the spot (centre or quadrant
/// centre) farthest from what is already drawn there: roads passing through the centre, city
/// areas, and the buildings placed before. A road that ends in the cell runs to its building.
pub(crate) fn building_spots(view: &TileView, cell: usize) -> Vec<(usize, (f64, f64))> {
    // The centre, the four quarters, then (tried last, taken only when clearly better) the
    // middles of the four sides' inner halves: beside a city of three sides, the open side.
    const SPOTS: [(f64, f64); 9] = [
        (0.5, 0.5),
        (0.72, 0.28),
        (0.28, 0.28),
        (0.72, 0.72),
        (0.28, 0.72),
        (0.5, 0.8),
        (0.8, 0.5),
        (0.5, 0.2),
        (0.2, 0.5),
    ];
    let bent = bent_roads(view, cell);
    let mut obstacles: Vec<((f64, f64), (f64, f64))> = Vec::new();
    for (_, s) in view.segments_in(cell) {
        match s.kind {
            FeatureKind::Road if s.sides.len() > 1 => match bend_control(s.sides[0], s.sides[1]) {
                // A road drawn round its corner is in the way only there.
                Some(q) if bent => {
                    obstacles.push((side_mid(s.sides[0]), q));
                    obstacles.push((q, side_mid(s.sides[1])));
                }
                _ => {
                    for side in &s.sides {
                        obstacles.push((side_mid(*side), (0.5, 0.5)));
                    }
                }
            },
            FeatureKind::City if s.sides.len() > 2 => {
                // A city of three or four sides covers the middle of each of them too.
                let a = city_anchor(s);
                for side in &s.sides {
                    obstacles.push((side_mid(*side), a));
                }
            }
            FeatureKind::City if !s.sides.is_empty() => {
                let a = city_anchor(s);
                obstacles.push((a, a));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (i, s) in view.segments_in(cell) {
        if !matches!(s.kind, FeatureKind::Cloister | FeatureKind::Unscored) {
            continue;
        }
        let clearance = |p: (f64, f64)| {
            obstacles
                .iter()
                .map(|&(a, b)| dist_to_segment(p, a, b))
                .fold(f64::INFINITY, f64::min)
        };
        let spot = if clearance(SPOTS[0]) >= 0.25 {
            SPOTS[0]
        } else {
            let mut best = SPOTS[0];
            for p in SPOTS {
                if clearance(p) > clearance(best) + 1e-9 {
                    best = p;
                }
            }
            best
        };
        obstacles.push((spot, spot));
        out.push((i, spot));
    }
    out
}

/// Whether the roads of cell `cell` bend around the centre: two or more roads of two sides
/// each, every one between adjacent sides (two curved roads side by side, which drawn through
/// the centre would look like a crossing).
pub(crate) fn bent_roads(view: &TileView, cell: usize) -> bool {
    let roads: Vec<_> = view
        .segments_in(cell)
        .filter(|(_, s)| s.kind == FeatureKind::Road && s.sides.len() > 1)
        .collect();
    let all_bends = roads
        .iter()
        .all(|(_, s)| s.sides.len() == 2 && bend_control(s.sides[0], s.sides[1]).is_some());
    all_bends && roads.len() > 1
}

/// The control point of the inner curve of a city over two adjacent sides (a diagonal city):
/// halfway between the centre and the corner the two sides share, so the city stays off the
/// centre and the field between it and a road through the centre is one strip. `None` for any
/// other city.
pub(crate) fn corner_city_control(sides: &[Side]) -> Option<(f64, f64)> {
    let [a, b] = sides else { return None };
    if a.rotated(1) != *b && b.rotated(1) != *a {
        return None;
    }
    let (a0, a1) = side_corners(*a);
    let (b0, b1) = side_corners(*b);
    let shared = [a0, a1].into_iter().find(|p| *p == b0 || *p == b1)?;
    Some((0.5 + (shared.0 - 0.5) * 0.5, 0.5 + (shared.1 - 0.5) * 0.5))
}

/// Centre x and top y (cell-local) of the row of pennant shields on city segment `seg`: above
/// the city's anchor, kept at least 4 px inside the cell so the border never cuts a shield.
pub(crate) fn pennant_row(seg: &SegmentView) -> (f64, f64) {
    let (ax, ay) = city_anchor(seg);
    let half_w = (f64::from(seg.pennants) * 14.0 - 2.0) / 2.0 / CELL;
    let margin = 4.0 / CELL;
    let x = ax.clamp(
        margin + half_w,
        (1.0 - margin - half_w).max(margin + half_w),
    );
    let y = (ay - 8.0 / CELL).clamp(margin, 1.0 - margin - 14.0 / CELL);
    (x, y)
}
