//! Segments: each raw segment placed on its cell, sides and half-edges, with the checks of what its
//! kind may touch.

use super::*;
use crate::raw::RawSegment;

/// The note on a segment left out of the tile.
const LEFT_OUT: &str =
    "the segment is left out: its sides, half-edges, borders and connections are not checked";

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
            diags.push(duplicate(t, s, src));
            continue;
        }
        let Some(cell) = segment_cell(s, mega, tile, src, diags) else {
            tile.dropped.push(s.id.value.clone());
            continue;
        };
        let kind = segment_kind(s.kind.value);
        let cell_id = &tile.cells[cell].id;
        let cx = Shape {
            src,
            kname: kind_name(kind),
            where_: if mega {
                format!(" of cell `{cell_id}`")
            } else {
                String::new()
            },
            cell_sides: tile.cells[cell].sides,
        };
        let edges = match kind {
            FeatureKind::City | FeatureKind::Road => cx.edge_sides(s, kind, diags),
            FeatureKind::Field => cx.edge_halves(s, diags),
            FeatureKind::Cloister | FeatureKind::Unscored => cx.no_edges(s, diags),
        };
        cx.pennants_and_borders(s, kind, diags);
        let what = format!("segment `{}` of tile `{}`", s.id.value, t.id.value);
        let tags = unique_tags(&s.tags, &what, src, diags);
        let pennants = if kind == FeatureKind::City {
            s.pennants.value.min(2)
        } else {
            0
        };
        tile.segments.push(CompiledSegment {
            id: s.id.value.clone(),
            kind,
            cell,
            sides: edges.sides,
            halves: edges.halves,
            pennants,
            borders: Vec::new(),
            border_segments: Vec::new(),
            tags,
            feature: 0,
            span: s.id.span.clone(),
            side_spans: edges.side_spans,
            half_spans: edges.half_spans,
        });
    }
}

/// A segment id used twice in the tile, labelled with its first use.
fn duplicate(t: &RawTile, s: &RawSegment, src: &Source) -> Diagnostic {
    let mut d = src.diag(
        Code::DuplicateId,
        s.id.span.clone(),
        format!("segment id `{}` is already used in this tile", s.id.value),
    );
    if let Some(first) = t.segments.iter().find(|x| x.value.id.value == s.id.value) {
        d = d.with_label(src.label(first.value.id.span.clone(), "first used here"));
    }
    d
}

/// The index of the segment's cell: 0 on a single-cell tile (which names none), the named cell
/// of a mega tile (W-18); `None` when the segment must be left out.
fn segment_cell(
    s: &RawSegment,
    mega: bool,
    tile: &CompiledTile,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<usize> {
    match (&s.cell, mega) {
        (Some(c), false) => {
            diags.push(src.diag(
                Code::SegmentCell,
                c.span.clone(),
                "a single-cell tile's segments take no `cell`",
            ));
            Some(0)
        }
        (None, false) => Some(0),
        (None, true) => {
            let why = format!(
                "segment `{}` of a mega tile needs `cell` (the id of its cell)",
                s.id.value
            );
            let d = src.diag(Code::SegmentCell, s.id.span.clone(), why);
            diags.push(d.with_rule("W-18").with_note(LEFT_OUT));
            None
        }
        (Some(c), true) => {
            let found = tile.cells.iter().position(|x| x.id == c.value);
            if found.is_none() {
                let why = format!("no cell `{}` in this tile", c.value);
                let mut d = src.diag(Code::DanglingReference, c.span.clone(), why);
                let ids = tile.cells.iter().map(|x| x.id.as_str());
                if let Some(near) = crate::names::suggest(&c.value, ids) {
                    d.notes.push(format!("did you mean `{near}`?"));
                }
                diags.push(d.with_note(LEFT_OUT));
            }
            found
        }
    }
}

/// The sides and half-edges a segment touches, with the spans that name them.
#[derive(Default)]
struct Edges {
    sides: Vec<Side>,
    side_spans: Vec<Range<usize>>,
    halves: Vec<Half>,
    half_spans: Vec<Range<usize>>,
}

/// What the shape checks of one segment need: where to report, its kind's name, its cell (for
/// messages on mega tiles) and the cell's side kinds.
struct Shape<'a> {
    src: &'a Source,
    kname: &'static str,
    where_: String,
    cell_sides: [SideKind; 4],
}

impl Shape<'_> {
    fn diag(&self, span: &Range<usize>, msg: String) -> Diagnostic {
        self.src.diag(Code::SegmentShape, span.clone(), msg)
    }

    /// A city or road segment touches sides of its own kind, each once, and no half-edge.
    fn edge_sides(&self, s: &RawSegment, kind: FeatureKind, diags: &mut Vec<Diagnostic>) -> Edges {
        let kname = self.kname;
        if let Some(h) = s.halves.first() {
            let why = format!(
                "a {kname} segment lists `sides`, not `halves` (only fields touch half-edges)"
            );
            diags.push(self.diag(&h.span, why));
        }
        if s.sides.is_empty() {
            let why = format!("{kname} segment `{}` touches no side", s.id.value);
            diags.push(self.diag(&s.id.span, why));
        }
        let want = if kind == FeatureKind::City {
            SideKind::City
        } else {
            SideKind::Road
        };
        let mut out = Edges::default();
        for sd in &s.sides {
            let sv = side(sd.value);
            let has = self.cell_sides[sv.index()];
            if out.sides.contains(&sv) {
                diags.push(self.diag(&sd.span, format!("side {} is listed twice", sv.name())));
            } else if has != want {
                let why = format!(
                    "a {kname} segment cannot touch side {}{}, which is {}",
                    sv.name(),
                    self.where_,
                    side_kind_name(has)
                );
                diags.push(self.diag(&sd.span, why).with_rule("B-2"));
            } else {
                out.sides.push(sv);
                out.side_spans.push(sd.span.clone());
            }
        }
        out
    }

    /// A field segment touches half-edges of road or field sides, each once, and no side.
    fn edge_halves(&self, s: &RawSegment, diags: &mut Vec<Diagnostic>) -> Edges {
        if let Some(sd) = s.sides.first() {
            let why = "a field segment lists `halves` (half-edges), not `sides`".to_string();
            diags.push(self.diag(&sd.span, why));
        }
        let mut out = Edges::default();
        for h in &s.halves {
            let hv = half(h.value);
            let k = self.cell_sides[hv.side().index()];
            if out.halves.contains(&hv) {
                let why = format!("half-edge {} is listed twice", hv.name());
                diags.push(self.diag(&h.span, why));
            } else if !k.has_field_halves() {
                let why = format!(
                    "a field cannot touch half-edge {}{}: side {} is {}",
                    hv.name(),
                    self.where_,
                    hv.side().name(),
                    side_kind_name(k)
                );
                diags.push(self.diag(&h.span, why).with_rule("B-2"));
            } else {
                out.halves.push(hv);
                out.half_spans.push(h.span.clone());
            }
        }
        out
    }

    /// A cloister or wonder touches neither sides nor half-edges.
    fn no_edges(&self, s: &RawSegment, diags: &mut Vec<Diagnostic>) -> Edges {
        let kname = self.kname;
        if let Some(sd) = s.sides.first() {
            diags.push(self.diag(&sd.span, format!("a {kname} segment touches no side")));
        }
        if let Some(h) = s.halves.first() {
            diags.push(self.diag(&h.span, format!("a {kname} segment touches no half-edge")));
        }
        Edges::default()
    }

    /// Pennants only on cities, 0 to 2 (B-4); borders only on fields (B-6).
    fn pennants_and_borders(&self, s: &RawSegment, kind: FeatureKind, diags: &mut Vec<Diagnostic>) {
        let (kname, span) = (self.kname, &s.pennants.span);
        if s.pennants.value > 0 && kind != FeatureKind::City {
            let why = format!("only cities have pennants, not a {kname} segment");
            diags.push(self.diag(span, why).with_rule("B-4"));
        } else if s.pennants.value > 2 {
            let why = format!("a city piece has 0 to 2 pennants, not {}", s.pennants.value);
            diags.push(self.diag(span, why).with_rule("B-4"));
        }
        if kind == FeatureKind::Field {
            return;
        }
        if let Some(b) = s.borders.first() {
            let why = format!("only fields border cities, not a {kname} segment");
            diags.push(self.diag(&b.span, why).with_rule("B-6"));
        }
    }
}
