//! The cells of a tile: a single cell for `sides`, or a mega tile's cells with their overlap,
//! connectivity and inner-side checks (W-18).

use super::*;

/// The cells of a tile (a single cell for `sides`), with overlap / connectivity / inner-side
/// checks. `None` when the tile's shape is unusable.
pub(super) fn compile_cells(
    t: &RawTile,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<CompiledCell>> {
    match (&t.sides, &t.cells) {
        (Some(_), Some(cells)) => {
            diags.push(src.diag(
                Code::TileShape,
                cells.span.clone(),
                format!(
                    "tile `{}` gives both `sides` (a single cell) and `cells` (a mega tile); give one",
                    t.id.value
                ),
            ));
            None
        }
        (None, None) => {
            diags.push(src.diag(
                Code::TileShape,
                t.id.span.clone(),
                format!(
                    "tile `{}` gives neither `sides` (a single cell) nor `cells` (a mega tile)",
                    t.id.value
                ),
            ));
            None
        }
        (Some(sides), None) => {
            let (kinds, spans) = four_sides(sides, src, diags)?;
            Some(vec![CompiledCell {
                id: "0".to_string(),
                at: (0, 0),
                sides: kinds,
                outer: [true; 4],
                neighbour: [None; 4],
                span: sides.span.clone(),
                side_spans: spans,
            }])
        }
        (None, Some(raw_cells)) => {
            if raw_cells.value.is_empty() {
                diags.push(src.diag(
                    Code::TileShape,
                    raw_cells.span.clone(),
                    "a mega tile needs at least one cell",
                ));
                return None;
            }
            let mut cells = Vec::with_capacity(raw_cells.value.len().min(1024));
            let mut cell_ids: HashSet<&str> = HashSet::new();
            let mut usable = true;
            for rc in &raw_cells.value {
                let c = &rc.value;
                if !cell_ids.insert(&c.id.value) {
                    diags.push(src.diag(
                        Code::DuplicateId,
                        c.id.span.clone(),
                        format!("cell id `{}` is already used in this tile", c.id.value),
                    ));
                }
                let at = match c.at.value.as_slice() {
                    [x, y] => (x.value, y.value),
                    _ => {
                        diags.push(src.diag(
                            Code::TileShape,
                            c.at.span.clone(),
                            "`at` must be two coordinates [x, y]",
                        ));
                        usable = false;
                        continue;
                    }
                };
                let Some((kinds, spans)) = four_sides(&c.sides, src, diags) else {
                    usable = false;
                    continue;
                };
                cells.push((
                    rc.span.clone(),
                    c.at.span.clone(),
                    CompiledCell {
                        id: c.id.value.clone(),
                        at,
                        sides: kinds,
                        outer: [true; 4],
                        neighbour: [None; 4],
                        span: c.id.span.clone(),
                        side_spans: spans,
                    },
                ));
            }
            if !usable || cells.is_empty() {
                return None;
            }
            // Coordinates → first cell there (linear; no pairwise comparison).
            let mut by_at: HashMap<(i64, i64), usize> = HashMap::with_capacity(cells.len());
            let mut overlapping = vec![false; cells.len()];
            let mut reports = 0;
            for (i, (_, at_span, c)) in cells.iter().enumerate() {
                if let Some(&first) = by_at.get(&c.at) {
                    overlapping[i] = true;
                    if reports < MAX_CELL_REPORTS {
                        diags.push(
                            src.diag(
                                Code::OverlappingCells,
                                at_span.clone(),
                                format!(
                                    "cell `{}` is at [{}, {}], where cell `{}` already is",
                                    c.id, c.at.0, c.at.1, cells[first].2.id
                                ),
                            )
                            .with_rule("W-18"),
                        );
                    }
                    reports += 1;
                } else {
                    by_at.insert(c.at, i);
                }
            }
            // Edge-connectivity from the anchor (breadth-first over the coordinate map).
            let mut reached = vec![false; cells.len()];
            reached[0] = true;
            let mut stack = vec![0usize];
            while let Some(i) = stack.pop() {
                let (x, y) = cells[i].2.at;
                for s in Side::ALL {
                    let Some(n) = step(x, y, s) else { continue };
                    if let Some(&j) = by_at.get(&n) {
                        if !reached[j] {
                            reached[j] = true;
                            stack.push(j);
                        }
                    }
                }
            }
            let mut reports = 0;
            for (i, (_, at_span, c)) in cells.iter().enumerate() {
                let here = by_at.get(&c.at).copied().unwrap_or(i);
                if !reached[here] {
                    if reports < MAX_CELL_REPORTS {
                        diags.push(
                            src.diag(
                                Code::DisconnectedCells,
                                at_span.clone(),
                                format!(
                                    "cell `{}` at [{}, {}] is not edge-connected to the anchor cell `{}`",
                                    c.id, c.at.0, c.at.1, cells[0].2.id
                                ),
                            )
                            .with_rule("W-18"),
                        );
                    }
                    reports += 1;
                }
            }
            if cells.len() > MAX_CELLS {
                diags.push(src.diag(
                    Code::TileShape,
                    raw_cells.span.clone(),
                    format!(
                        "a tile has at most {MAX_CELLS} cells; this one has {}",
                        cells.len()
                    ),
                ));
                return None;
            }
            // Inner sides: a side facing another (non-overlapping) cell of the tile.
            let mut cells: Vec<CompiledCell> = cells.into_iter().map(|(_, _, c)| c).collect();
            for i in 0..cells.len() {
                if overlapping[i] {
                    continue;
                }
                let (x, y) = cells[i].at;
                for s in Side::ALL {
                    let Some(n) = step(x, y, s) else { continue };
                    if let Some(&j) = by_at.get(&n) {
                        cells[i].outer[s.index()] = false;
                        cells[i].neighbour[s.index()] = Some(j);
                    }
                }
            }
            for (i, c) in cells.iter().enumerate() {
                for s in Side::ALL {
                    let Some(j) = c.neighbour[s.index()] else {
                        continue;
                    };
                    if j <= i {
                        continue;
                    }
                    let a = c.sides[s.index()];
                    let b = cells[j].sides[s.opposite().index()];
                    if a != b {
                        diags.push(
                            src.diag(
                                Code::InnerSideMismatch,
                                cells[j].side_spans[s.opposite().index()].clone(),
                                format!(
                                    "inner side {} of cell `{}` is {}, but it faces side {} of cell `{}`, which is {}",
                                    s.opposite().name(),
                                    cells[j].id,
                                    side_kind_name(b),
                                    s.name(),
                                    c.id,
                                    side_kind_name(a)
                                ),
                            )
                            .with_rule("W-18"),
                        );
                    }
                }
            }
            Some(cells)
        }
    }
}

/// The neighbouring coordinate across side `s` (`None` on overflow).
pub(super) fn step(x: i64, y: i64, s: Side) -> Option<(i64, i64)> {
    let (dx, dy) = s.delta();
    Some((x.checked_add(i64::from(dx))?, y.checked_add(i64::from(dy))?))
}

pub(super) type FourSides = ([SideKind; 4], [Range<usize>; 4]);

pub(super) fn four_sides(
    sides: &Sp<Vec<Sp<RawSideKind>>>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<FourSides> {
    if sides.value.len() != 4 {
        diags.push(src.diag(
            Code::TileShape,
            sides.span.clone(),
            format!(
                "`sides` must give 4 kinds (N, E, S, W); it gives {}",
                sides.value.len()
            ),
        ));
        return None;
    }
    let kinds = std::array::from_fn(|i| side_kind(sides.value[i].value));
    let spans = std::array::from_fn(|i| sides.value[i].span.clone());
    Some((kinds, spans))
}
