//! Segments: each raw segment placed on its cell, sides and half-edges, with the checks of what its
//! kind may touch.

use super::*;

/// Segments: ids, cells, and shape (what each kind may touch).
pub(super) fn compile_segments(
    t: &RawTile,
    mega: bool,
    tile: &mut CompiledTile,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let mut seen: HashSet<&str> = HashSet::new();
    for rs in &t.segments {
        let s = &rs.value;
        if !seen.insert(&s.id.value) {
            let mut d = src.diag(
                Code::DuplicateId,
                s.id.span.clone(),
                format!("segment id `{}` is already used in this tile", s.id.value),
            );
            if let Some(first) = t.segments.iter().find(|x| x.value.id.value == s.id.value) {
                d = d.with_label(src.label(first.value.id.span.clone(), "first used here"));
            }
            diags.push(d);
            continue;
        }
        let cell = match (&s.cell, mega) {
            (Some(c), false) => {
                diags.push(src.diag(
                    Code::SegmentCell,
                    c.span.clone(),
                    "a single-cell tile's segments take no `cell`",
                ));
                0
            }
            (None, false) => 0,
            (None, true) => {
                diags.push(
                    src.diag(
                        Code::SegmentCell,
                        s.id.span.clone(),
                        format!(
                            "segment `{}` of a mega tile needs `cell` (the id of its cell)",
                            s.id.value
                        ),
                    )
                    .with_rule("W-18")
                    .with_note("the segment is left out: its sides, half-edges, borders and connections are not checked"),
                );
                tile.dropped.push(s.id.value.clone());
                continue;
            }
            (Some(c), true) => match tile.cells.iter().position(|x| x.id == c.value) {
                Some(i) => i,
                None => {
                    let mut d = src.diag(
                        Code::DanglingReference,
                        c.span.clone(),
                        format!("no cell `{}` in this tile", c.value),
                    );
                    if let Some(near) =
                        crate::load::suggest(&c.value, tile.cells.iter().map(|x| x.id.as_str()))
                    {
                        d.notes.push(format!("did you mean `{near}`?"));
                    }
                    diags.push(d.with_note(
                        "the segment is left out: its sides, half-edges, borders and connections are not checked",
                    ));
                    tile.dropped.push(s.id.value.clone());
                    continue;
                }
            },
        };
        let kind = segment_kind(s.kind.value);
        let cell_sides = tile.cells[cell].sides;
        let cell_id = tile.cells[cell].id.clone();
        let where_ = if mega {
            format!(" of cell `{cell_id}`")
        } else {
            String::new()
        };
        let shape = |span: Range<usize>, msg: String| src.diag(Code::SegmentShape, span, msg);
        let kname = kind_name(kind);
        let mut sides = Vec::new();
        let mut side_spans = Vec::new();
        let mut halves = Vec::new();
        let mut half_spans = Vec::new();
        match kind {
            FeatureKind::City | FeatureKind::Road => {
                if let Some(h) = s.halves.first() {
                    diags.push(shape(
                        h.span.clone(),
                        format!("a {kname} segment lists `sides`, not `halves` (only fields touch half-edges)"),
                    ));
                }
                if s.sides.is_empty() {
                    diags.push(shape(
                        s.id.span.clone(),
                        format!("{kname} segment `{}` touches no side", s.id.value),
                    ));
                }
                let want = if kind == FeatureKind::City {
                    SideKind::City
                } else {
                    SideKind::Road
                };
                for sd in &s.sides {
                    let sv = side(sd.value);
                    if sides.contains(&sv) {
                        diags.push(shape(
                            sd.span.clone(),
                            format!("side {} is listed twice", sv.name()),
                        ));
                    } else if cell_sides[sv.index()] != want {
                        diags.push(
                            shape(
                                sd.span.clone(),
                                format!(
                                    "a {kname} segment cannot touch side {}{where_}, which is {}",
                                    sv.name(),
                                    side_kind_name(cell_sides[sv.index()])
                                ),
                            )
                            .with_rule("B-2"),
                        );
                    } else {
                        sides.push(sv);
                        side_spans.push(sd.span.clone());
                    }
                }
            }
            FeatureKind::Field => {
                if let Some(sd) = s.sides.first() {
                    diags.push(shape(
                        sd.span.clone(),
                        "a field segment lists `halves` (half-edges), not `sides`".to_string(),
                    ));
                }
                for h in &s.halves {
                    let hv = half(h.value);
                    let k = cell_sides[hv.side().index()];
                    if halves.contains(&hv) {
                        diags.push(shape(
                            h.span.clone(),
                            format!("half-edge {} is listed twice", hv.name()),
                        ));
                    } else if !matches!(k, SideKind::Road | SideKind::Field) {
                        diags.push(
                            shape(
                                h.span.clone(),
                                format!(
                                    "a field cannot touch half-edge {}{where_}: side {} is {}",
                                    hv.name(),
                                    hv.side().name(),
                                    side_kind_name(k)
                                ),
                            )
                            .with_rule("B-2"),
                        );
                    } else {
                        halves.push(hv);
                        half_spans.push(h.span.clone());
                    }
                }
            }
            FeatureKind::Cloister | FeatureKind::Wonder => {
                if let Some(sd) = s.sides.first() {
                    diags.push(shape(
                        sd.span.clone(),
                        format!("a {kname} segment touches no side"),
                    ));
                }
                if let Some(h) = s.halves.first() {
                    diags.push(shape(
                        h.span.clone(),
                        format!("a {kname} segment touches no half-edge"),
                    ));
                }
            }
        }
        if s.pennants.value > 0 && kind != FeatureKind::City {
            diags.push(
                shape(
                    s.pennants.span.clone(),
                    format!("only cities have pennants, not a {kname} segment"),
                )
                .with_rule("B-4"),
            );
        } else if s.pennants.value > 2 {
            diags.push(
                shape(
                    s.pennants.span.clone(),
                    format!("a city piece has 0 to 2 pennants, not {}", s.pennants.value),
                )
                .with_rule("B-4"),
            );
        }
        if kind != FeatureKind::Field {
            if let Some(b) = s.borders.first() {
                diags.push(
                    shape(
                        b.span.clone(),
                        format!("only fields border cities, not a {kname} segment"),
                    )
                    .with_rule("B-6"),
                );
            }
        }
        let mut tags: Vec<String> = Vec::new();
        for tag in &s.tags {
            if !tags.contains(&tag.value) {
                tags.push(tag.value.clone());
            }
        }
        let pennants = if kind == FeatureKind::City {
            s.pennants.value.min(2)
        } else {
            0
        };
        tile.segments.push(CompiledSegment {
            id: s.id.value.clone(),
            kind,
            cell,
            sides,
            halves,
            pennants,
            borders: Vec::new(),
            border_segments: Vec::new(),
            tags,
            feature: 0,
            span: s.id.span.clone(),
            side_spans,
            half_spans,
        });
    }
}
