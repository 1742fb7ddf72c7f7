//! Terminal pictures: each cell a 9×5 character block, a mega tile as its whole footprint.
//!
//! ```text
//! +-2-C-2-+     border: side letter in the middle (C city, R road, . field, * any),
//! 2  000  2     the field feature on each half-edge beside it (city sides show no halves);
//! R111#111R     inside: cities, roads and fields by feature number (0-9, then a-z),
//! 3 33 33 3     `+` cloister, `W` wonder, `#` where a one-side road ends.
//! +-3-.-3-+
//! ```
//! Outer sides are drawn with `-`/`|`, inner sides of a mega tile with spaces. A legend lists the
//! features (number, kind, segments, cells, pennants, open sides, bordered cities) and the
//! connections.

use tegula_ruleset::{FeatureKind, Half, Side, SideKind};

use crate::view::TileView;

const W: usize = 9;
const H: usize = 5;

/// Character naming feature `f`: `0`–`9`, then `a`–`z`, then `?`.
pub fn feature_char(f: usize) -> char {
    match f {
        0..=9 => char::from(b'0' + f as u8),
        10..=35 => char::from(b'a' + (f - 10) as u8),
        _ => '?',
    }
}

fn side_letter(k: SideKind) -> char {
    match k {
        SideKind::City => 'C',
        SideKind::Road => 'R',
        SideKind::Field => '.',
        SideKind::Any => '*',
    }
}

/// Interior spots (row, col) of each wedge, by half index.
/// (The last spot of each wedge is where a field's number goes.)
const WEDGE_SPOTS: [&[(usize, usize)]; 8] = [
    &[(1, 3), (1, 2)],
    &[(1, 5), (1, 6)],
    &[(1, 7)],
    &[(3, 7)],
    &[(3, 5), (3, 6)],
    &[(3, 3), (3, 2)],
    &[(3, 1)],
    &[(1, 1)],
];

/// Spots on the axis from a side towards the centre.
fn axis(s: Side) -> &'static [(usize, usize)] {
    match s {
        Side::N => &[(1, 4)],
        Side::E => &[(2, 7), (2, 6), (2, 5)],
        Side::S => &[(3, 4)],
        Side::W => &[(2, 1), (2, 2), (2, 3)],
    }
}

fn cap(s: Side) -> &'static [(usize, usize)] {
    match s {
        Side::N => &[(1, 3), (1, 4), (1, 5)],
        Side::E => &[(1, 7), (2, 7), (3, 7), (2, 6)],
        Side::S => &[(3, 3), (3, 4), (3, 5)],
        Side::W => &[(1, 1), (2, 1), (3, 1), (2, 2)],
    }
}

/// The picture of `view` followed by its legend.
pub fn tile_ascii(view: &TileView) -> String {
    let (cw, ch) = view.size();
    let (gw, gh) = (cw.max(1) as usize * W, ch.max(1) as usize * H);
    let mut grid = vec![vec![' '; gw]; gh];
    for (ci, c) in view.cells.iter().enumerate() {
        let mut b = [[' '; W]; H];
        // Half owners (own halves only) and wedge owners (with adoption, as in the SVG).
        let mut half_owner: [Option<usize>; 8] = [None; 8];
        for (_, seg) in view.segments_in(ci) {
            if seg.kind == FeatureKind::Field {
                for h in &seg.halves {
                    half_owner[h.index()].get_or_insert(seg.feature);
                }
            }
        }
        let wedge: Vec<Option<usize>> = view
            .wedge_owners(ci)
            .iter()
            .map(|o| o.map(|s| view.segments[s].feature))
            .collect();
        // Fields inside: `.` over their area, the feature number once (at its main half).
        for (h, spots) in WEDGE_SPOTS.iter().enumerate() {
            if wedge[h].is_some() {
                for &(r, col) in *spots {
                    b[r][col] = '.';
                }
            }
        }
        for s in Side::ALL {
            let [h1, h2] = s.halves();
            if let (Some(a), Some(bb)) = (wedge[h1.index()], wedge[h2.index()]) {
                if a == bb {
                    for &(r, col) in axis(s) {
                        b[r][col] = '.';
                    }
                }
            }
        }
        for (_, seg) in view.segments_in(ci) {
            if let Some(h) = seg.main_half() {
                let spots = WEDGE_SPOTS[h.index()];
                let (r, col) = spots[spots.len() - 1];
                b[r][col] = feature_char(seg.feature);
            }
        }
        // Cities.
        for (_, seg) in view.segments_in(ci) {
            if seg.kind != FeatureKind::City || seg.sides.is_empty() {
                continue;
            }
            let ch = feature_char(seg.feature);
            if seg.sides.len() == 1 {
                for &(r, col) in cap(seg.sides[0]) {
                    b[r][col] = ch;
                }
            } else {
                for h in Half::ALL {
                    if seg.sides.contains(&h.side()) {
                        for &(r, col) in WEDGE_SPOTS[h.index()] {
                            b[r][col] = ch;
                        }
                    }
                }
                for s in &seg.sides {
                    for &(r, col) in axis(*s) {
                        b[r][col] = ch;
                    }
                }
                b[2][4] = ch;
            }
        }
        // Roads.
        let building = view
            .segments_in(ci)
            .any(|(_, s)| matches!(s.kind, FeatureKind::Cloister | FeatureKind::Wonder));
        for (_, seg) in view.segments_in(ci) {
            if seg.kind != FeatureKind::Road {
                continue;
            }
            let ch = feature_char(seg.feature);
            for s in &seg.sides {
                for &(r, col) in axis(*s) {
                    b[r][col] = ch;
                }
            }
            if seg.sides.len() == 1 {
                let spots = axis(seg.sides[0]);
                if !building {
                    if spots.len() > 1 {
                        let (r, col) = spots[spots.len() - 1];
                        b[r][col] = '#';
                    } else {
                        b[2][4] = '#';
                    }
                }
            } else if !seg.sides.is_empty() {
                b[2][4] = ch;
            }
        }
        // Inner fields and buildings.
        const INNER: [(usize, usize); 4] = [(1, 6), (3, 2), (1, 2), (3, 6)];
        let mut inner = 0;
        let mut col = 4;
        for (_, seg) in view.segments_in(ci) {
            match seg.kind {
                FeatureKind::Field if seg.halves.is_empty() => {
                    let (r, cc) = INNER[inner % 4];
                    inner += 1;
                    b[r][cc] = feature_char(seg.feature);
                }
                FeatureKind::Cloister | FeatureKind::Wonder => {
                    b[2][col.min(7)] = if seg.kind == FeatureKind::Cloister {
                        '+'
                    } else {
                        'W'
                    };
                    col += 1;
                }
                _ => {}
            }
        }
        // Border.
        for s in Side::ALL {
            let outer = c.outer[s.index()];
            let fill = match (outer, s) {
                (false, _) => ' ',
                (true, Side::N | Side::S) => '-',
                (true, _) => '|',
            };
            let [h1, h2] = s.halves();
            let kind = c.sides[s.index()];
            let half_char = |h: Half| match kind {
                SideKind::City | SideKind::Any => fill,
                _ => half_owner[h.index()].map_or('?', feature_char),
            };
            let (r0, c0) = match s {
                Side::N => (0, 0),
                Side::E => (0, W - 1),
                Side::S => (H - 1, 0),
                Side::W => (0, 0),
            };
            match s {
                Side::N | Side::S => {
                    for slot in b[r0].iter_mut().take(W - 1).skip(1) {
                        *slot = fill;
                    }
                    b[r0][4] = side_letter(kind);
                    // Clockwise: N runs west→east, S runs east→west.
                    let (west, east) = if s == Side::N { (h1, h2) } else { (h2, h1) };
                    b[r0][2] = half_char(west);
                    b[r0][6] = half_char(east);
                }
                Side::E | Side::W => {
                    for row in b.iter_mut().take(H - 1).skip(1) {
                        row[c0] = fill;
                    }
                    b[2][c0] = side_letter(kind);
                    let (north, south) = if s == Side::E { (h1, h2) } else { (h2, h1) };
                    b[1][c0] = half_char(north);
                    b[3][c0] = half_char(south);
                }
            }
        }
        for (r, cc) in [(0, 0), (0, W - 1), (H - 1, 0), (H - 1, W - 1)] {
            b[r][cc] = '+';
        }
        let (x0, y0) = (c.x.max(0) as usize * W, c.y.max(0) as usize * H);
        for (r, row) in b.iter().enumerate() {
            for (cc, chr) in row.iter().enumerate() {
                if let Some(cell) = grid.get_mut(y0 + r).and_then(|g| g.get_mut(x0 + cc)) {
                    *cell = *chr;
                }
            }
        }
    }
    let mut out = String::new();
    out.push_str(&view.id);
    if !view.name.is_empty() {
        out.push_str(" — ");
        out.push_str(&view.name);
    }
    out.push('\n');
    for row in grid {
        let line: String = row.into_iter().collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if view.cells.len() > 1 {
        let cells: Vec<String> = view
            .cells
            .iter()
            .map(|c| format!("{}@{},{}", c.id, c.x, c.y))
            .collect();
        out.push_str(&format!("cells (column,row): {}\n", cells.join(" ")));
    }
    for l in view.legend() {
        out.push_str(&l);
        out.push('\n');
    }
    out
}
