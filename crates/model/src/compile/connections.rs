//! Connections: which segments facing each other across an inner side of a mega tile are joined
//! (W-18, W-21), as edges of the tile's graph.

use super::*;

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
    let mut roots: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut ids: HashSet<&str> = HashSet::new();
    let mut pairs: HashMap<(usize, usize), String> = HashMap::new();
    for rc in &t.connections {
        let c = &rc.value;
        if !ids.insert(&c.id.value) {
            let mut d = src.diag(
                Code::DuplicateId,
                c.id.span.clone(),
                format!(
                    "connection id `{}` is already used in this tile",
                    c.id.value
                ),
            );
            if let Some(first) = t
                .connections
                .iter()
                .find(|x| x.value.id.value == c.id.value)
            {
                d = d.with_label(src.label(first.value.id.span.clone(), "first used here"));
            }
            diags.push(d);
            continue;
        }
        let bad = |span: Range<usize>, msg: String| {
            src.diag(Code::BadConnection, span, msg).with_rule("W-18")
        };
        if c.segments.value.len() != 2 {
            diags.push(bad(
                c.segments.span.clone(),
                format!(
                    "a connection names exactly 2 segments, not {}",
                    c.segments.value.len()
                ),
            ));
            continue;
        }
        let mut ends = [0usize; 2];
        let mut ok = true;
        for (k, sid) in c.segments.value.iter().enumerate() {
            match tile.segment(&sid.value) {
                Some(i) => ends[k] = i,
                None if tile.dropped.contains(&sid.value) => ok = false, // reported at its cell
                None => {
                    let near = crate::load::suggest(
                        &sid.value,
                        tile.segments.iter().map(|x| x.id.as_str()),
                    );
                    let mut d = src.diag(
                        Code::DanglingReference,
                        sid.span.clone(),
                        format!("no segment `{}` in this tile", sid.value),
                    );
                    if let Some(n) = near {
                        d.notes.push(format!("did you mean `{n}`?"));
                    }
                    // What the connection meant to join: the named segments that exist, and the
                    // suggestion; a missing connection between them is this typo's consequence.
                    let mut meant: Vec<usize> = c
                        .segments
                        .value
                        .iter()
                        .filter_map(|x| tile.segment(&x.value))
                        .collect();
                    meant.extend(near.and_then(|n| tile.segment(n)));
                    roots.push((diags.len(), meant));
                    diags.push(d);
                    ok = false;
                }
            }
        }
        if !ok {
            continue;
        }
        let (a, b) = (&tile.segments[ends[0]], &tile.segments[ends[1]]);
        let span = c.segments.span.clone();
        if a.kind != b.kind {
            diags.push(bad(
                span,
                format!(
                    "`{}` is a {} and `{}` a {}: a connection joins segments of one kind",
                    a.id,
                    kind_name(a.kind),
                    b.id,
                    kind_name(b.kind)
                ),
            ));
            continue;
        }
        if !matches!(
            a.kind,
            FeatureKind::City | FeatureKind::Road | FeatureKind::Field
        ) {
            diags.push(bad(
                span,
                format!(
                    "only cities, roads and fields are connected, not {} segments",
                    kind_name(a.kind)
                ),
            ));
            continue;
        }
        if a.cell == b.cell {
            diags.push(bad(
                span,
                format!(
                    "`{}` and `{}` lie in the same cell; connections join segments of different cells",
                    a.id, b.id
                ),
            ));
            continue;
        }
        let p = pair(ends[0], ends[1]);
        if let Some(prev) = pairs.get(&p) {
            diags.push(bad(
                c.id.span.clone(),
                format!(
                    "`{}` and `{}` are already connected by `{prev}`",
                    a.id, b.id
                ),
            ));
            continue;
        }
        let neighbours = tile.cells[a.cell].neighbour.contains(&Some(b.cell));
        if !facing_set.contains(&p) && c.joined.value {
            // Kept in the graph: the feature it makes may span cells that are not connected;
            // that is this connection's consequence, folded under it.
            misjoined.push((diags.len(), ends));
        }
        if !neighbours {
            let (ca, cb) = (&tile.cells[a.cell], &tile.cells[b.cell]);
            diags.push(
                bad(
                    span,
                    format!(
                        "`{}` lies in cell `{}` and `{}` in cell `{}`, which are not neighbours: a connection joins segments across a side the two cells share",
                        a.id, ca.id, b.id, cb.id
                    ),
                )
                .with_label(src.label(ca.span.clone(), format!("cell `{}` at [{}, {}]", ca.id, ca.at.0, ca.at.1)))
                .with_label(src.label(cb.span.clone(), format!("cell `{}` at [{}, {}]", cb.id, cb.at.0, cb.at.1))),
            );
        } else if !facing_set.contains(&p) {
            let what = if a.kind == FeatureKind::Field {
                "on facing half-edges of an inner side"
            } else {
                "across an inner side"
            };
            diags.push(bad(
                span,
                format!("`{}` and `{}` do not face each other {what}", a.id, b.id),
            ));
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
    for (p, (cell, s)) in facing {
        if pairs.contains_key(p) {
            continue;
        }
        let (a, b) = (&tile.segments[p.0], &tile.segments[p.1]);
        let rule = if a.kind == FeatureKind::Field {
            "W-21"
        } else {
            "W-18"
        };
        let c = &tile.cells[*cell];
        if let Some((root, _)) = roots
            .iter()
            .find(|(_, meant)| meant.contains(&p.0) && meant.contains(&p.1))
            .or_else(|| {
                roots
                    .iter()
                    .find(|(_, m)| m.contains(&p.0) || m.contains(&p.1))
            })
        {
            diags[*root].notes.push(format!(
                "so {} segments `{}` and `{}` (facing across inner side {} of cell `{}`) have no connection",
                kind_name(a.kind),
                a.id,
                b.id,
                s.name(),
                c.id
            ));
            continue;
        }
        diags.push(
            src.diag(
                Code::MissingConnection,
                c.side_spans[s.index()].clone(),
                format!(
                    "{} segments `{}` and `{}` face each other across inner side {} of cell `{}`; add a connection with `joined = true` or `false`",
                    kind_name(a.kind),
                    a.id,
                    b.id,
                    s.name(),
                    c.id
                ),
            )
            .with_rule(rule),
        );
    }
    misjoined
}
