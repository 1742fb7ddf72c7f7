//! The cells of a tile: a single cell for `sides`, or a mega tile's cells with their overlap,
//! connectivity and inner-side checks (W-18).

use super::*;
use crate::raw::RawCell;

/// The cells of a tile (a single cell for `sides`), with overlap / connectivity / inner-side
/// checks. `None` when the tile's shape is unusable.
pub(super) fn compile_cells(
    t: &RawTile,
    edges: &[String],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<CompiledCell>> {
    let id = &t.id.value;
    match (&t.sides, &t.cells) {
        (Some(_), Some(cells)) => {
            let why = format!(
                "tile `{id}` gives both `sides` (a single cell) and `cells` (a mega tile); give one"
            );
            diags.push(src.diag(Code::TileShape, cells.span.clone(), why));
            None
        }
        (None, None) => {
            let why = format!(
                "tile `{id}` gives neither `sides` (a single cell) nor `cells` (a mega tile)"
            );
            diags.push(src.diag(Code::TileShape, t.id.span.clone(), why));
            None
        }
        (Some(sides), None) => {
            let (kinds, spans) = four_sides(sides, edges, src, diags)?;
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
        (None, Some(raw_cells)) => mega_cells(raw_cells, edges, src, diags),
    }
}

/// A mega tile's cells (W-18): read, not overlapping, edge-connected, at most [`MAX_CELLS`],
/// with their neighbours linked and inner sides that agree.
fn mega_cells(
    raw_cells: &Sp<Vec<Sp<RawCell>>>,
    edges: &[String],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<CompiledCell>> {
    if raw_cells.value.is_empty() {
        let why = "a mega tile needs at least one cell";
        diags.push(src.diag(Code::TileShape, raw_cells.span.clone(), why));
        return None;
    }
    let cells = read_cells(&raw_cells.value, edges, src, diags)?;
    let (by_at, overlapping) = overlaps(&cells, src, diags);
    check_connected(&cells, &by_at, src, diags);
    if cells.len() > MAX_CELLS {
        let why = format!(
            "a tile has at most {MAX_CELLS} cells; this one has {}",
            cells.len()
        );
        diags.push(src.diag(Code::TileShape, raw_cells.span.clone(), why));
        return None;
    }
    let mut cells: Vec<CompiledCell> = cells.into_iter().map(|(_, c)| c).collect();
    link_neighbours(&mut cells, &by_at, &overlapping);
    check_inner_sides(&cells, src, diags);
    Some(cells)
}

/// A cell as read, with the span of its `at` (where overlaps and gaps are reported).
type ReadCell = (Range<usize>, CompiledCell);

/// The cells as written: ids unique, `at` two coordinates, four sides. `None` when a cell is
/// unusable (reported) or there is none.
fn read_cells(
    raw: &[Sp<RawCell>],
    edges: &[String],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<ReadCell>> {
    let mut cells = Vec::with_capacity(raw.len().min(1024));
    let mut cell_ids: HashSet<&str> = HashSet::new();
    let mut usable = true;
    for rc in raw {
        let c = &rc.value;
        if !cell_ids.insert(&c.id.value) {
            let why = format!("cell id `{}` is already used in this tile", c.id.value);
            diags.push(src.diag(Code::DuplicateId, c.id.span.clone(), why));
        }
        let [x, y] = c.at.value.as_slice() else {
            let why = "`at` must be two coordinates [x, y]";
            diags.push(src.diag(Code::TileShape, c.at.span.clone(), why));
            usable = false;
            continue;
        };
        let Some((kinds, spans)) = four_sides(&c.sides, edges, src, diags) else {
            usable = false;
            continue;
        };
        let cell = CompiledCell {
            id: c.id.value.clone(),
            at: (x.value, y.value),
            sides: kinds,
            outer: [true; 4],
            neighbour: [None; 4],
            span: c.id.span.clone(),
            side_spans: spans,
        };
        cells.push((c.at.span.clone(), cell));
    }
    (usable && !cells.is_empty()).then_some(cells)
}

/// Coordinates → the first cell there (linear; no pairwise comparison), and which cells lie on
/// an earlier one (reported, at most [`MAX_CELL_REPORTS`]).
fn overlaps(
    cells: &[ReadCell],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> (HashMap<(i64, i64), usize>, Vec<bool>) {
    let mut by_at: HashMap<(i64, i64), usize> = HashMap::with_capacity(cells.len());
    let mut overlapping = vec![false; cells.len()];
    let mut reports = 0;
    for (i, (at_span, c)) in cells.iter().enumerate() {
        let Some(&first) = by_at.get(&c.at) else {
            by_at.insert(c.at, i);
            continue;
        };
        overlapping[i] = true;
        if reports < MAX_CELL_REPORTS {
            let why = format!(
                "cell `{}` is at [{}, {}], where cell `{}` already is",
                c.id, c.at.0, c.at.1, cells[first].1.id
            );
            let d = src.diag(Code::OverlappingCells, at_span.clone(), why);
            diags.push(d.with_rule("W-18"));
        }
        reports += 1;
    }
    (by_at, overlapping)
}

/// Every cell is edge-connected to the anchor (breadth-first over the coordinate map); the
/// others are reported, at most [`MAX_CELL_REPORTS`].
fn check_connected(
    cells: &[ReadCell],
    by_at: &HashMap<(i64, i64), usize>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let mut reached = vec![false; cells.len()];
    reached[0] = true;
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        let (x, y) = cells[i].1.at;
        for s in Side::ALL {
            let Some(j) = step(x, y, s).and_then(|n| by_at.get(&n).copied()) else {
                continue;
            };
            if !reached[j] {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    let mut reports = 0;
    for (i, (at_span, c)) in cells.iter().enumerate() {
        let here = by_at.get(&c.at).copied().unwrap_or(i);
        if reached[here] {
            continue;
        }
        if reports < MAX_CELL_REPORTS {
            let why = format!(
                "cell `{}` at [{}, {}] is not edge-connected to the anchor cell `{}`",
                c.id, c.at.0, c.at.1, cells[0].1.id
            );
            let d = src.diag(Code::DisconnectedCells, at_span.clone(), why);
            diags.push(d.with_rule("W-18"));
        }
        reports += 1;
    }
}

/// Inner sides: a side facing another (non-overlapping) cell of the tile is not outer, and
/// names that cell as its neighbour.
fn link_neighbours(
    cells: &mut [CompiledCell],
    by_at: &HashMap<(i64, i64), usize>,
    overlapping: &[bool],
) {
    for i in 0..cells.len() {
        if overlapping[i] {
            continue;
        }
        let (x, y) = cells[i].at;
        for s in Side::ALL {
            if let Some(&j) = step(x, y, s).and_then(|n| by_at.get(&n)) {
                cells[i].outer[s.index()] = false;
                cells[i].neighbour[s.index()] = Some(j);
            }
        }
    }
}

/// Two cells' facing inner sides show the same kind (W-18).
fn check_inner_sides(cells: &[CompiledCell], src: &Source, diags: &mut Vec<Diagnostic>) {
    for (i, c) in cells.iter().enumerate() {
        for s in Side::ALL {
            let Some(j) = c.neighbour[s.index()].filter(|&j| j > i) else {
                continue;
            };
            let o = s.opposite();
            let (a, b) = (c.sides[s.index()], cells[j].sides[o.index()]);
            if a == b {
                continue;
            }
            let why = format!(
                "inner side {} of cell `{}` is {}, but it faces side {} of cell `{}`, which is {}",
                o.name(),
                cells[j].id,
                side_kind_name(b),
                s.name(),
                c.id,
                side_kind_name(a)
            );
            let span = cells[j].side_spans[o.index()].clone();
            diags.push(
                src.diag(Code::InnerSideMismatch, span, why)
                    .with_rule("W-18"),
            );
        }
    }
}

/// Coverage errors on either side of an inner side whose two kinds differ follow from that
/// mismatch (a side written as field where the neighbour says city leaves its half-edges in
/// no field): each becomes a note of the `inner-side-mismatch`, so that the root cause is the
/// error reported. The tile's diagnostics are `diags[first..]`.
pub(super) fn fold_under_mismatches(
    cells: &[CompiledCell],
    diags: &mut Vec<Diagnostic>,
    first: usize,
) {
    let mut folded: HashSet<usize> = HashSet::new();
    for (i, c) in cells.iter().enumerate() {
        for s in Side::ALL {
            let Some(j) = c.neighbour[s.index()].filter(|&j| j > i) else {
                continue;
            };
            let o = s.opposite();
            if c.sides[s.index()] == cells[j].sides[o.index()] {
                continue;
            }
            let (here, there) = (&cells[j].side_spans[o.index()], &c.side_spans[s.index()]);
            let at = |d: &Diagnostic, span: &Range<usize>| d.at.span.as_ref() == Some(span);
            let Some(root) = (first..diags.len())
                .find(|&k| diags[k].code == Code::InnerSideMismatch && at(&diags[k], here))
            else {
                continue;
            };
            for k in first..diags.len() {
                let coverage = matches!(diags[k].code, Code::SideCoverage | Code::HalfCoverage);
                if coverage && (at(&diags[k], here) || at(&diags[k], there)) {
                    let note = format!("so: {}", diags[k].message);
                    diags[root].notes.push(note);
                    folded.insert(k);
                }
            }
        }
    }
    let mut k = 0;
    diags.retain(|_| {
        k += 1;
        !folded.contains(&(k - 1))
    });
}

/// The neighbouring coordinate across side `s` (`None` on overflow).
pub(super) fn step(x: i64, y: i64, s: Side) -> Option<(i64, i64)> {
    let (dx, dy) = s.delta();
    Some((x.checked_add(i64::from(dx))?, y.checked_add(i64::from(dy))?))
}

/// The name of a declared side kind as written (the built-in kinds always resolve).
fn raw_side_name(k: &RawSideKind) -> &str {
    match k {
        RawSideKind::Edge(id) => id,
        _ => "",
    }
}

/// A cell's four side kinds (N, E, S, W) and their spans.
pub(super) type FourSides = ([SideKind; 4], [Range<usize>; 4]);

/// The four side kinds of `sides`, which must give exactly four.
pub(super) fn four_sides(
    sides: &Sp<Vec<Sp<RawSideKind>>>,
    edges: &[String],
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
    let kinds = std::array::from_fn(|i| {
        let raw = &sides.value[i];
        side_kind(&raw.value, edges).unwrap_or_else(|| {
            let name = raw_side_name(&raw.value);
            let why = format!(
                "side kind `{name}` is not city, road, field, any or an edge kind this file \
                 declares (`[[edge]]`)"
            );
            let mut d = src.diag(Code::DanglingReference, raw.span.clone(), why);
            let known = ["city", "road", "field", "any"].into_iter();
            if let Some(s) =
                crate::names::suggest(name, known.chain(edges.iter().map(|e| e.as_str())))
            {
                d = d.with_note(format!("did you mean `{s}`?"));
            }
            diags.push(d);
            SideKind::Field
        })
    });
    let spans = std::array::from_fn(|i| sides.value[i].span.clone());
    Some((kinds, spans))
}
