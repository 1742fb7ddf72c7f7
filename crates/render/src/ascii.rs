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
//! features (number, kind, segments, cells, pennants, open sides, bordered cities), the
//! connections and the segments' tags (which the SVG draws as glyphs; a board lists the cells of
//! its tagged segments by tag).

use tegula_ruleset::{FeatureKind, Half, Side, SideKind};

use crate::board::{BoardView, FigureAt};
use crate::svg::board::feature_spot;
use crate::view::{CellView, TileView};

/// Width of a cell block in characters.
pub const W: usize = 9;
/// Height of a cell block in lines.
pub const H: usize = 5;

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
        SideKind::Declared(_) => '~',
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

/// A cell's character block.
type Block = [[char; W]; H];

/// The 9×5 character block of cell `ci` of `view`: fields, then cities, roads, inner fields and
/// buildings, then the border, each drawn over the last.
pub fn cell_block(view: &TileView, ci: usize) -> Block {
    let c = &view.cells[ci];
    let mut b = [[' '; W]; H];
    // Half owners (own halves only), for the border's half letters.
    let mut half_owner: [Option<usize>; 8] = [None; 8];
    for (_, seg) in view.segments_in(ci) {
        if seg.kind == FeatureKind::Field {
            for h in &seg.halves {
                half_owner[h.index()].get_or_insert(seg.feature);
            }
        }
    }
    draw_fields(view, ci, &mut b);
    draw_cities(view, ci, &mut b);
    draw_roads(view, ci, &mut b);
    draw_inner(view, ci, &mut b);
    draw_border(c, &half_owner, &mut b);
    for (r, cc) in [(0, 0), (0, W - 1), (H - 1, 0), (H - 1, W - 1)] {
        b[r][cc] = '+';
    }
    b
}

/// Fields inside: `.` over their area (wedge owners with adoption, as in the SVG), the feature
/// number once (at its main half).
fn draw_fields(view: &TileView, ci: usize, b: &mut Block) {
    let wedge: Vec<Option<usize>> = view
        .wedge_owners(ci)
        .iter()
        .map(|o| o.map(|s| view.segments[s].feature))
        .collect();
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
}

/// Cities: a cap for a one-side city, else the wedges and axes of its sides and the centre.
fn draw_cities(view: &TileView, ci: usize, b: &mut Block) {
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
}

/// Roads: the axes of their sides; a road end (`#`) unless a building stands in the cell.
fn draw_roads(view: &TileView, ci: usize, b: &mut Block) {
    let building = view
        .segments_in(ci)
        .any(|(_, s)| matches!(s.kind, FeatureKind::Cloister | FeatureKind::Unscored));
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
}

/// Inner fields (no half) at the inner spots, buildings (`+` cloister, `W` other) in the middle.
fn draw_inner(view: &TileView, ci: usize, b: &mut Block) {
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
            FeatureKind::Cloister | FeatureKind::Unscored => {
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
}

/// The border: `-`/`|` on outer sides, each side's kind letter and its halves' field numbers.
fn draw_border(c: &CellView, half_owner: &[Option<usize>; 8], b: &mut Block) {
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
}

/// The picture of `view` followed by its legend.
pub fn tile_ascii(view: &TileView) -> String {
    let (cw, ch) = view.size();
    let (gw, gh) = (cw.max(1) as usize * W, ch.max(1) as usize * H);
    let mut grid = vec![vec![' '; gw]; gh];
    for (ci, c) in view.cells.iter().enumerate() {
        let b = cell_block(view, ci);
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
    for l in view
        .legend()
        .into_iter()
        .chain(segment_tags(view))
        .chain(view.ability_lines(usize::MAX))
    {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// The line naming the tags of the tile's segments (`[[tile]] segments … tags`), which the
/// SVG draws as glyphs: `segment tags: city (#0) cathedral; road (#2) inn`; none when no segment
/// has a tag.
fn segment_tags(view: &TileView) -> Option<String> {
    let tagged: Vec<String> = view
        .segments
        .iter()
        .filter(|s| !s.tags.is_empty())
        .map(|s| format!("{} (#{}) {}", s.id, s.feature, s.tags.join(" ")))
        .collect();
    (!tagged.is_empty()).then(|| format!("segment tags: {}", tagged.join("; ")))
}

/// The cells of the board's tagged segments by tag (`tags: religious at (0,1) (3,-2); inn at
/// (1,0)`, a line), which the SVG draws as glyphs; empty when no segment has a tag.
fn board_tags(b: &BoardView) -> String {
    let mut by_tag: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for t in &b.tiles {
        for seg in &t.view.segments {
            let c = &t.view.cells[seg.cell];
            for tag in &seg.tags {
                let at = format!("({},{})", t.x + c.x, t.y + c.y);
                by_tag.entry(tag.as_str()).or_default().push(at);
            }
        }
    }
    if by_tag.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = (by_tag.iter())
        .map(|(tag, cells)| format!("{tag} at {}", cells.join(" ")))
        .collect();
    format!("segment tags: {}\n", parts.join("; "))
}

/// The counters lying on the board's tiles by kind (`counters: gold ingot 2 at (0,-1), 1 at
/// (1,0)`, a line); empty when there are none.
fn board_counters(b: &BoardView) -> String {
    let mut by_kind: Vec<(&str, Vec<String>)> = Vec::new();
    for c in &b.counters {
        let at = format!("{} at ({},{})", c.count, c.x, c.y);
        match by_kind.iter_mut().find(|(name, _)| *name == c.name) {
            Some((_, list)) => list.push(at),
            None => by_kind.push((&c.name, vec![at])),
        }
    }
    if by_kind.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = (by_kind.iter())
        .map(|(name, list)| format!("{name} {}", list.join(", ")))
        .collect();
    format!("counters: {}\n", parts.join("; "))
}

/// The neutral figures on the board (`neutral figures: Dragon (D) at (1,-1)`, a line); empty
/// when none stands there.
fn board_neutrals(b: &BoardView) -> String {
    if b.neutrals.is_empty() {
        return String::new();
    }
    let each: Vec<String> = (b.neutrals.iter())
        .map(|m| format!("{} ({}) at ({},{})", m.name, m.symbol, m.x, m.y))
        .collect();
    format!("neutral figures: {}\n", each.join(", "))
}

/// Letter of seat `seat` on a terminal board (`A`, `B`, ...; lower case for a figure of another
/// type than the ruleset's first).
fn seat_letter(seat: u8, first_type: bool) -> char {
    let c = char::from(b'A' + seat % 26);
    if first_type {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

/// What the characters of a board picture mean (figures are keyed above it, per game).
const BOARD_KEY: &str = "\
key: on a tile's border C city, R road, . field, * any with the numbers of the fields beside them;
     inside, the tile's features by number (0-9, then a-z, as `tegula render TILE --format
     ascii` numbers them), + cloister, W wonder, # a road's end; @ corners of the last tile
";

/// A terminal picture of a board: every cell a 9×5 block as in [`tile_ascii`], the last placed
/// tile's corners as `@`, figures as their seat's letter where they stand, then a key (the
/// figures, what the characters mean) and the score table.
pub fn board_ascii(b: &BoardView) -> String {
    let mut grid = board_grid(b);
    place_figures(b, &mut grid);
    let mut out = format!("{}\n", crate::svg::board::board_title(b));
    for row in grid {
        let line: String = row.into_iter().collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&board_key(b));
    out
}

/// The board's character grid: every cell's block, the last tile's corners marked `@`.
fn board_grid(b: &BoardView) -> Vec<Vec<char>> {
    let (min_x, min_y, max_x, max_y) = b.bounds();
    let (cols, rows) = ((max_x - min_x + 1) as usize, (max_y - min_y + 1) as usize);
    let mut grid = vec![vec![' '; cols * W]; rows * H];
    let origin = |x: i32, y: i32| grid_origin((min_x, min_y), x, y);
    for (i, t) in b.tiles.iter().enumerate() {
        for (ci, c) in t.view.cells.iter().enumerate() {
            let mut block = cell_block(&t.view, ci);
            if b.last == Some(i) {
                for (r, cc) in [(0, 0), (0, W - 1), (H - 1, 0), (H - 1, W - 1)] {
                    block[r][cc] = '@';
                }
            }
            let (x0, y0) = origin(t.x + c.x, t.y + c.y);
            for (r, row) in block.iter().enumerate() {
                for (cc, chr) in row.iter().enumerate() {
                    grid[y0 + r][x0 + cc] = *chr;
                }
            }
        }
    }
    grid
}

/// Where the block of board square `(x, y)` starts in the grid whose north-west square is
/// `(min_x, min_y)`: (column, row).
fn grid_origin((min_x, min_y): (i32, i32), x: i32, y: i32) -> (usize, usize) {
    ((x - min_x) as usize * W, (y - min_y) as usize * H)
}

/// Each figure's letter at its feature's spot or on its corner.
fn place_figures(b: &BoardView, grid: &mut [Vec<char>]) {
    let (min_x, min_y, max_x, max_y) = b.bounds();
    let origin = |x: i32, y: i32| grid_origin((min_x, min_y), x, y);
    for fig in &b.figures {
        let letter = seat_letter(fig.seat, fig.follower == 0);
        let (x0, y0, r, cc) = match fig.at {
            FigureAt::Segment { instance, feature } => {
                let Some(t) = b.tiles.get(instance) else {
                    continue;
                };
                let Some((cell, (u, v))) = feature_spot(&t.view, feature) else {
                    continue;
                };
                let c = &t.view.cells[cell];
                let (x0, y0) = origin(t.x + c.x, t.y + c.y);
                let cc = ((u * (W - 1) as f64).round() as usize).clamp(1, W - 2);
                let r = ((v * (H - 1) as f64).round() as usize).clamp(1, H - 2);
                (x0, y0, r, cc)
            }
            FigureAt::Corner { x, y } => {
                if x < min_x || y < min_y || x > max_x + 1 || y > max_y + 1 {
                    continue;
                }
                let (x0, y0) = origin(x, y);
                (x0, y0, 0, 0)
            }
        };
        if let Some(slot) = grid.get_mut(y0 + r).and_then(|g| g.get_mut(x0 + cc)) {
            *slot = letter;
        }
    }
}

/// Under the grid: the figures' key, the symbols' key, tags, counters, the last tile placed,
/// the complete features and the scores.
fn board_key(b: &BoardView) -> String {
    let mut out = String::new();
    let mut key: Vec<String> = b
        .seats
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{} = {}", seat_letter(p as u8, true), s.name))
        .collect();
    if b.figure_types.len() > 1 {
        key.push(format!(
            "lower case: {}",
            b.figure_types[1..]
                .iter()
                .map(|f| f.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out.push_str(&format!("figures: {}\n", key.join(", ")));
    out.push_str(BOARD_KEY);
    out.push_str(&board_tags(b));
    out.push_str(&board_counters(b));
    out.push_str(&board_neutrals(b));
    if let Some(t) = b.last.and_then(|i| b.tiles.get(i)) {
        out.push_str(&format!(
            "last placed (corners @): {} at ({}, {})\n",
            t.view.id,
            t.x + t.view.cells[0].x,
            t.y + t.view.cells[0].y
        ));
    }
    let complete = b
        .completed
        .iter()
        .filter(|(i, f)| {
            b.tiles
                .get(*i)
                .and_then(|t| t.view.features.get(*f))
                .is_some_and(|f| f.kind != FeatureKind::Field)
        })
        .count();
    out.push_str(&format!(
        "complete features (tile pieces): {complete}\n{}",
        crate::board::score_table(b)
    ));
    out
}
