//! Labels `#feature segment-id`, placed greedily where they overlap least with each other and
//! with buildings, pennants and road ends.

use tegula_ruleset::{FeatureKind, Half, Side};

use super::geom::*;
use super::CELL;
use crate::view::{SegmentView, TileView};

/// 9. Labels: `#feature segment-id`, placed greedily where they overlap least.
pub(super) fn labels(pen: &mut Pen<'_>, view: &TileView) {
    // Labels already placed in other cells (tile-wide cell units): a label near a cell's edge
    // must not cover one across the edge.
    let mut done: Vec<Bbox> = Vec::new();
    for (ci, c) in view.cells.iter().enumerate() {
        let spots_of_buildings = building_spots(view, ci);
        let mut wanted = wanted_labels(view, ci, &spots_of_buildings);
        wanted.sort_by_key(|w| w.0);
        let (dx, dy) = (f64::from(c.x), f64::from(c.y));
        let mut obstacles = cell_obstacles(view, ci, &spots_of_buildings);
        obstacles.extend(
            done.iter()
                .map(|b| (b.0 - dx, b.1 - dy, b.2 - dx, b.3 - dy)),
        );
        let mut labels = place_greedily(wanted, &obstacles);
        repair(&mut labels, &obstacles);
        for (text, _, b) in labels {
            done.push((b.0 + dx, b.1 + dy, b.2 + dx, b.3 + dy));
            let (px, py) = pen.p(c.x, c.y, ((b.0 + b.2) / 2.0, (b.1 + b.3) / 2.0));
            pen.label(px, py + 2.5, &text);
        }
    }
}

/// The labels cell `ci` wants, each with its order (buildings first, roads last) and its
/// candidate centres, best first.
fn wanted_labels(
    view: &TileView,
    ci: usize,
    spots_of_buildings: &[(usize, (f64, f64))],
) -> Vec<Wanted> {
    let owners = wedge_owners(view, ci);
    let mut inner = 0;
    let mut wanted: Vec<Wanted> = Vec::new();
    for (si, seg) in view.segments_in(ci) {
        let text = format!("#{} {}", seg.feature, seg.id);
        let (order, spots) = match seg.kind {
            FeatureKind::Cloister | FeatureKind::Unscored => {
                let (x, y) = spots_of_buildings
                    .iter()
                    .find(|b| b.0 == si)
                    .map_or((0.5, 0.5), |b| b.1);
                (0, vec![(x, y + 0.22), (x, y - 0.22), (x, y + 0.12)])
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
    wanted
}

/// What a label should not cover in cell `ci`: buildings, pennants and road ends.
fn cell_obstacles(
    view: &TileView,
    ci: usize,
    spots_of_buildings: &[(usize, (f64, f64))],
) -> Vec<Bbox> {
    let mut placed: Vec<(f64, f64, f64, f64)> = Vec::new();
    for &(_, (x, y)) in spots_of_buildings {
        placed.push((x - 0.15, y - 0.15, x + 0.15, y + 0.12));
    }
    let ends = super::layers::road_ends(view, ci);
    for (_, seg) in view.segments_in(ci) {
        if seg.kind == FeatureKind::City && seg.pennants > 0 {
            let (x, y) = pennant_row(seg);
            let half_w = (f64::from(seg.pennants) * 14.0 - 2.0) / 2.0 / CELL;
            placed.push((x - half_w, y, x + half_w, y + 14.0 / CELL));
        }
        if seg.kind == FeatureKind::Road && seg.sides.len() == 1 && spots_of_buildings.is_empty() {
            let e = if ends >= 3 {
                (0.5, 0.5)
            } else {
                towards_centre(side_mid(seg.sides[0]), 0.6)
            };
            let r = if ends >= 3 { 0.08 } else { 0.05 };
            placed.push((e.0 - r, e.1 - r, e.0 + r, e.1 + r));
        }
    }
    placed
}

/// The box of a label `w` wide centred at `q`, kept inside the cell.
fn box_at(q: (f64, f64), w: f64) -> Bbox {
    let h = (LABEL_SIZE + 2.0) / CELL;
    let x =
        q.0.clamp(w / 2.0 + 0.01, (1.0 - w / 2.0 - 0.01).max(w / 2.0 + 0.01));
    let y = q.1.clamp(h / 2.0 + 0.02, 1.0 - h / 2.0 - 0.02);
    (x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0)
}

/// First pass: greedily, in order, each label at the first spot free of what is placed so far
/// (else at its least-overlapping spot).
fn place_greedily(wanted: Vec<Wanted>, obstacles: &[Bbox]) -> Vec<Placed> {
    let mut labels: Vec<Placed> = Vec::new();
    for (_, text, spots) in wanted {
        let w = label_width(&text);
        let others: Vec<Bbox> = obstacles
            .iter()
            .copied()
            .chain(labels.iter().map(|l| l.2))
            .collect();
        let mut best: Option<(Bbox, f64)> = None;
        for &q in &spots {
            let b = box_at(q, w);
            let overlap = overlap_with(b, &others, 1.0);
            if best.is_none_or(|(_, o)| overlap < o) {
                best = Some((b, overlap));
            }
            if overlap == 0.0 {
                break;
            }
        }
        if let Some((b, _)) = best {
            labels.push((text, spots, b));
        }
    }
    labels
}

/// Repair: a label still on another label tries its spots and rings around its first spot
/// again, against everything placed (overlapping a label costs ten times more than overlapping
/// a building or road end).
fn repair(labels: &mut [Placed], obstacles: &[Bbox]) {
    for _ in 0..2 {
        for i in 0..labels.len() {
            let others_labels: Vec<Bbox> = (0..labels.len())
                .filter(|&j| j != i)
                .map(|j| labels[j].2)
                .collect();
            if overlap_with(labels[i].2, &others_labels, 1.0) == 0.0 {
                continue;
            }
            let w = label_width(&labels[i].0);
            let cost =
                |b: Bbox| overlap_with(b, &others_labels, 10.0) + overlap_with(b, obstacles, 1.0);
            let mut best = (labels[i].2, cost(labels[i].2));
            let first = labels[i].1.first().copied().unwrap_or((0.5, 0.5));
            let rings = [0.08, 0.16, 0.24, 0.32].into_iter().flat_map(|d| {
                [
                    (0.0, 1.0),
                    (0.0, -1.0),
                    (1.0, 0.0),
                    (-1.0, 0.0),
                    (0.7, 0.7),
                    (-0.7, 0.7),
                    (0.7, -0.7),
                    (-0.7, -0.7),
                ]
                .map(|(dx, dy)| (first.0 + dx * d, first.1 + dy * d))
            });
            for q in labels[i].1.clone().into_iter().chain(rings) {
                let b = box_at(q, w);
                let c = cost(b);
                if c < best.1 {
                    best = (b, c);
                }
            }
            labels[i].2 = best.0;
        }
    }
}

/// A box (x0, y0, x1, y1) in cell units.
type Bbox = (f64, f64, f64, f64);

/// A label being placed: text, candidate centres, chosen box.
type Placed = (String, Vec<(f64, f64)>, Bbox);

/// Total overlap area of `b` with `others`, times `weight`.
fn overlap_with(b: Bbox, others: &[Bbox], weight: f64) -> f64 {
    others
        .iter()
        .map(|p| {
            let ox = (b.2.min(p.2) - b.0.max(p.0)).max(0.0);
            let oy = (b.3.min(p.3) - b.1.max(p.1)).max(0.0);
            ox * oy * weight
        })
        .sum()
}

/// A label to place: order, text, candidate centres (cell units).
type Wanted = (u8, String, Vec<(f64, f64)>);

/// Width of one label character in pixels (monospace, 0.6 em).
const LABEL_CHAR: f64 = LABEL_SIZE * 0.6;

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
    for t in [0.5, 0.75] {
        for &h in &order {
            let c = wedge_centroid(h);
            let m = half_mid(Half::from_index(h));
            v.push((c.0 + (m.0 - c.0) * t, c.1 + (m.1 - c.1) * t));
        }
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
