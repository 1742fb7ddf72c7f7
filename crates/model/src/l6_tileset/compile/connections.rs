//! Connections: which segments facing each other across an inner side of a mega tile are joined
//! (W-18, W-21), as edges of the tile's graph.

use super::*;
use crate::raw::RawConnection;

/// A pair of facing segments and the (cell, side) where they first meet.
pub(super) type FacingPair = ((usize, usize), (usize, Side));

/// Unordered segment pair key.
pub(super) fn pair(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// Pairs of segments facing each other across an inner side, each with the (cell, side) where
/// they first meet, in a deterministic order.
pub(super) fn facing_pairs(
    tile: &CompiledTile,
    sides: &SideClaims,
    halves: &HalfClaims,
) -> Vec<FacingPair> {
    let mut out: Vec<FacingPair> = Vec::new();
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    let mut push = |a: usize, b: usize, at: (usize, Side)| {
        let p = pair(a, b);
        if seen.insert(p) {
            out.push((p, at));
        }
    };
    for (i, cell) in tile.cells.iter().enumerate() {
        for s in Side::ALL {
            let Some(j) = cell.neighbour[s.index()] else {
                continue;
            };
            if j <= i {
                continue;
            }
            let o = s.opposite();
            let first = |v: Option<&Vec<Claim>>| v.and_then(|v| v.first()).map(|c| c.0);
            if let (Some(a), Some(b)) = (first(sides.get(&(i, s))), first(sides.get(&(j, o)))) {
                if tile.segments[a].kind == tile.segments[b].kind {
                    push(a, b, (i, s));
                }
            }
            for h in s.halves() {
                if let (Some(a), Some(b)) = (
                    first(halves.get(&(i, h))),
                    first(halves.get(&(j, h.opposite()))),
                ) {
                    push(a, b, (i, s));
                }
            }
        }
    }
    out
}

/// A joined connection between segments that do not face each other: the index of its
/// `bad-connection` diagnostic and its two segments.
pub(super) type Misjoined = (usize, [usize; 2]);

/// Connections: well-formed, facing, one per pair; and every facing pair has one. Returns the
/// joined connections between segments that do not face each other.
pub(super) fn compile_connections(
    t: &RawTile,
    tile: &mut CompiledTile,
    facing: &[FacingPair],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Misjoined> {
    let mut misjoined = Vec::new();
    let facing_set: HashSet<(usize, usize)> = facing.iter().map(|(p, _)| *p).collect();
    // Dangling-reference diagnostics (index into `diags`) with the segments the connection meant.
    let mut roots: Vec<Meant> = Vec::new();
    let mut ids: HashSet<&str> = HashSet::new();
    let mut pairs: HashMap<(usize, usize), String> = HashMap::new();
    for rc in &t.connections {
        let c = &rc.value;
        if !ids.insert(&c.id.value) {
            diags.push(duplicate(t, c, src));
            continue;
        }
        if c.segments.value.len() != 2 {
            let why = format!(
                "a connection names exactly 2 segments, not {}",
                c.segments.value.len()
            );
            diags.push(bad(src, &c.segments.span, why));
            continue;
        }
        let Some(ends) = connection_ends(c, tile, src, diags, &mut roots) else {
            continue;
        };
        let (a, b) = (&tile.segments[ends[0]], &tile.segments[ends[1]]);
        if let Some(why) = unjoinable(a, b) {
            diags.push(bad(src, &c.segments.span, why));
            continue;
        }
        let p = pair(ends[0], ends[1]);
        if let Some(prev) = pairs.get(&p) {
            let why = format!(
                "`{}` and `{}` are already connected by `{prev}`",
                a.id, b.id
            );
            diags.push(bad(src, &c.id.span, why));
            continue;
        }
        let faces = facing_set.contains(&p);
        if !faces && c.joined.value {
            // Kept in the graph: the feature it makes may span cells that are not connected;
            // that is this connection's consequence, folded under it.
            misjoined.push((diags.len(), ends));
        }
        if let Some(d) = not_facing(tile, a, b, faces, &c.segments.span, src) {
            // A cell one step off its place: the sides it wrongly faces are its consequence.
            let neighbours = tile.cells[a.cell].neighbour.contains(&Some(b.cell));
            if let Some(m) = misplaced(tile, a, b).filter(|_| neighbours && !faces) {
                let in_cell = (0..tile.segments.len()).filter(|&i| tile.segments[i].cell == m.cell);
                roots.push((diags.len(), in_cell.collect()));
                diags.push(misplaced_diag(tile, d, &m, src));
            } else {
                diags.push(d);
            }
        }
        pairs.insert(p, c.id.value.clone());
        tile.connections.push(CompiledConnection {
            id: c.id.value.clone(),
            segments: [a.id.clone(), b.id.clone()],
            ends,
            joined: c.joined.value,
            rule: c.rule.as_ref().map(|r| r.value.clone()),
            span: c.id.span.clone(),
        });
    }
    missing_connections(tile, facing, &pairs, &roots, src, diags);
    misjoined
}

/// A `dangling-reference` diagnostic (index into the diagnostics) with the segments its
/// connection meant to join: a missing connection between them is the typo's consequence.
type Meant = (usize, Vec<usize>);

/// A `bad-connection` error (W-18).
fn bad(src: &Source, span: &Range<usize>, why: String) -> Diagnostic {
    src.diag(Code::BadConnection, span.clone(), why)
        .with_rule("W-18")
}

/// A connection id used twice in the tile, labelled with its first use.
fn duplicate(t: &RawTile, c: &RawConnection, src: &Source) -> Diagnostic {
    let why = format!(
        "connection id `{}` is already used in this tile",
        c.id.value
    );
    let mut d = src.diag(Code::DuplicateId, c.id.span.clone(), why);
    let first = t
        .connections
        .iter()
        .find(|x| x.value.id.value == c.id.value);
    if let Some(first) = first {
        d = d.with_label(src.label(first.value.id.span.clone(), "first used here"));
    }
    d
}

/// The two segments a connection names; `None` when one is missing (reported, with what the
/// connection meant in `roots`) or was left out of the tile (reported at its cell).
fn connection_ends(
    c: &RawConnection,
    tile: &CompiledTile,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
    roots: &mut Vec<Meant>,
) -> Option<[usize; 2]> {
    let mut ends = [0usize; 2];
    let mut ok = true;
    for (k, sid) in c.segments.value.iter().enumerate() {
        if let Some(i) = tile.segment(&sid.value) {
            ends[k] = i;
            continue;
        }
        ok = false;
        if tile.dropped.contains(&sid.value) {
            continue;
        }
        let ids = tile.segments.iter().map(|x| x.id.as_str());
        let near = crate::names::suggest(&sid.value, ids);
        let why = format!("no segment `{}` in this tile", sid.value);
        let mut d = src.diag(Code::DanglingReference, sid.span.clone(), why);
        if let Some(n) = near {
            d.notes.push(format!("did you mean `{n}`?"));
        }
        // What the connection meant to join: the named segments that exist, and the suggestion.
        let named = c
            .segments
            .value
            .iter()
            .filter_map(|x| tile.segment(&x.value));
        let mut meant: Vec<usize> = named.collect();
        meant.extend(near.and_then(|n| tile.segment(n)));
        roots.push((diags.len(), meant));
        diags.push(d);
    }
    ok.then_some(ends)
}

/// Why segments `a` and `b` cannot be connected at all: different kinds, kinds that are never
/// connected, or the same cell.
fn unjoinable(a: &CompiledSegment, b: &CompiledSegment) -> Option<String> {
    if a.kind != b.kind {
        return Some(format!(
            "`{}` is a {} and `{}` a {}: a connection joins segments of one kind",
            a.id,
            kind_name(a.kind),
            b.id,
            kind_name(b.kind)
        ));
    }
    if !matches!(
        a.kind,
        FeatureKind::City | FeatureKind::Road | FeatureKind::Field
    ) {
        return Some(format!(
            "only cities, roads and fields are connected, not {} segments",
            kind_name(a.kind)
        ));
    }
    if a.cell == b.cell {
        return Some(format!(
            "`{}` and `{}` lie in the same cell; connections join segments of different cells",
            a.id, b.id
        ));
    }
    None
}

/// A connection between segments that do not face each other: of cells that are not
/// neighbours (both cells labelled), or not across the inner side they share.
fn not_facing(
    tile: &CompiledTile,
    a: &CompiledSegment,
    b: &CompiledSegment,
    faces: bool,
    span: &Range<usize>,
    src: &Source,
) -> Option<Diagnostic> {
    let (ca, cb) = (&tile.cells[a.cell], &tile.cells[b.cell]);
    if ca.neighbour.contains(&Some(b.cell)) {
        if faces {
            return None;
        }
        let what = if a.kind == FeatureKind::Field {
            "on facing half-edges of an inner side"
        } else {
            "across an inner side"
        };
        let why = format!("`{}` and `{}` do not face each other {what}", a.id, b.id);
        return Some(bad(src, span, why));
    }
    let why = format!(
        "`{}` lies in cell `{}` and `{}` in cell `{}`, which are not neighbours: a connection \
         joins segments across a side the two cells share",
        a.id, ca.id, b.id, cb.id
    );
    let label = |c: &CompiledCell| {
        let what = format!("cell `{}` at [{}, {}]", c.id, c.at.0, c.at.1);
        src.label(c.span.clone(), what)
    };
    Some(
        bad(src, span, why)
            .with_label(label(ca))
            .with_label(label(cb)),
    )
}

/// A cell that seems off its intended place: where it would make a connection's segments face.
struct Misplaced {
    /// The cell (not the anchor, when one of the two is).
    cell: usize,
    /// Where it would be.
    want: (i64, i64),
    /// The side of the connection's first segment that would face the other.
    side: Side,
}

/// For a connection between segments that do not face each other: the
/// cell that, moved next to the other across a side where the two segments would face, makes
/// them face (that place free of other cells). The anchor (cell 0) stays; otherwise the second
/// segment's cell moves.
fn misplaced(tile: &CompiledTile, a: &CompiledSegment, b: &CompiledSegment) -> Option<Misplaced> {
    let facing_sides = a
        .sides
        .iter()
        .copied()
        .filter(|s| b.sides.contains(&s.opposite()))
        .chain(
            a.halves
                .iter()
                .filter(|h| b.halves.contains(&h.opposite()))
                .map(|h| h.side()),
        );
    let (ca, cb) = (&tile.cells[a.cell], &tile.cells[b.cell]);
    for side in facing_sides {
        let (dx, dy) = side.delta();
        let (cell, want) = if b.cell != 0 {
            (b.cell, (ca.at.0 + i64::from(dx), ca.at.1 + i64::from(dy)))
        } else {
            (a.cell, (cb.at.0 - i64::from(dx), cb.at.1 - i64::from(dy)))
        };
        if tile.cells.iter().all(|c| c.at != want) {
            return Some(Misplaced { cell, want, side });
        }
    }
    None
}

/// The `bad-connection` of a misplaced cell: names the cell, where it is and where the
/// connection says it belongs, with the cell labelled.
fn misplaced_diag(
    tile: &CompiledTile,
    mut d: Diagnostic,
    m: &Misplaced,
    src: &Source,
) -> Diagnostic {
    let c = &tile.cells[m.cell];
    d.message = format!(
        "cell `{}` at [{}, {}] looks misplaced: this connection's segments would face each other \
         across side {} with it at [{}, {}]",
        c.id,
        c.at.0,
        c.at.1,
        m.side.name(),
        m.want.0,
        m.want.1
    );
    d.notes
        .push("check the cell's `at` (or the segments' sides) before adding connections".into());
    d.with_label(src.label(c.span.clone(), format!("cell `{}` is here", c.id)))
}

/// Every facing pair needs a connection (W-18, W-21 for fields); one missing because of a typo
/// in a connection is a note on the typo's diagnostic instead.
fn missing_connections(
    tile: &CompiledTile,
    facing: &[FacingPair],
    pairs: &HashMap<(usize, usize), String>,
    roots: &[Meant],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    for (p, (cell, s)) in facing {
        if pairs.contains_key(p) {
            continue;
        }
        let (a, b) = (&tile.segments[p.0], &tile.segments[p.1]);
        let c = &tile.cells[*cell];
        let both = roots
            .iter()
            .find(|(_, meant)| meant.contains(&p.0) && meant.contains(&p.1));
        let root =
            both.or_else(|| (roots.iter()).find(|(_, m)| m.contains(&p.0) || m.contains(&p.1)));
        let what = format!("{} segments `{}` and `{}`", kind_name(a.kind), a.id, b.id);
        let side = format!("inner side {} of cell `{}`", s.name(), c.id);
        if let Some((root, _)) = root {
            let note = format!("so {what} (facing across {side}) have no connection");
            diags[*root].notes.push(note);
            continue;
        }
        let why = format!(
            "{what} face each other across {side}; add a connection with `joined = true` or \
             `false`"
        );
        let rule = if a.kind == FeatureKind::Field {
            "W-21"
        } else {
            "W-18"
        };
        let span = c.side_spans[s.index()].clone();
        diags.push(src.diag(Code::MissingConnection, span, why).with_rule(rule));
    }
}
