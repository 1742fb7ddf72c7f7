//! Marks for segment and tile tags (`[set] glyphs` in the tile set, docs/FORMAT.md "Glyphs"): a
//! small symbol beside where a figure on the segment would stand, or in each cell's north-west
//! corner for a tag of the whole tile, in the shape and colour the data chose. Which tag gets
//! which mark is data; this module only knows how to draw each shape.

use std::fmt::Write as _;

use tegula_model::glyphs::{GlyphShape, TagGlyph};

use super::board::segment_spot;
use super::geom::Pen;
use super::{esc, n};
use crate::view::TileView;

/// Half the size of a mark, in pixels.
const R: f64 = 7.0;

/// Layer: every segment's tag marks and the tile's own, after the pennants.
pub(super) fn glyphs(pen: &mut Pen<'_>, view: &TileView) {
    if view.glyphs.is_empty() {
        return;
    }
    // A tag of the whole tile: once in each cell's north-west corner, clear of the features'
    // spots (the same corner on every rotation: the symbol is the tile's, not a side's).
    for (k, g) in view
        .glyphs
        .iter()
        .filter(|g| view.tags.contains(&g.tag))
        .enumerate()
    {
        for c in &view.cells {
            let (x, y) = pen.p(c.x, c.y, (0.12 + 0.15 * k as f64, 0.12));
            mark(pen.out, g, (x, y), &format!("{} (the whole tile)", g.tag));
        }
    }
    for (si, seg) in view.segments.iter().enumerate() {
        let marks = view.glyphs.iter().filter(|g| seg.tags.contains(&g.tag));
        for (k, g) in marks.enumerate() {
            let Some((cell, (u, v))) = segment_spot(view, si) else {
                continue;
            };
            // Beside the figure's spot (up and to the right), further marks to its left.
            let u = (u + 0.17 - 0.15 * k as f64).clamp(0.08, 0.92);
            let v = (v - 0.12).clamp(0.08, 0.92);
            let c = &view.cells[cell];
            let (x, y) = pen.p(c.x, c.y, (u, v));
            let title = format!("{} on #{} {}", g.tag, seg.feature, seg.id);
            mark(pen.out, g, (x, y), &title);
        }
    }
}

/// One mark centred on `(x, y)`.
fn mark(out: &mut String, g: &TagGlyph, (x, y): (f64, f64), title: &str) {
    let shape = match g.shape {
        GlyphShape::Circle => format!(r#"<circle cx="{}" cy="{}" r="{}"/>"#, n(x), n(y), n(R)),
        GlyphShape::Square => format!(
            r#"<rect x="{}" y="{}" width="{}" height="{}"/>"#,
            n(x - R),
            n(y - R),
            n(2.0 * R),
            n(2.0 * R)
        ),
        other => format!(r#"<path d="{}"/>"#, outline(other, x, y)),
    };
    let _ = writeln!(
        out,
        r##"<g class="glyph" fill="{}" stroke="#fff" stroke-width="1"><title>{}</title>{shape}</g>"##,
        esc(&g.colour),
        esc(title)
    );
}

/// The path of a shape drawn as an outline, centred on `(x, y)`.
fn outline(shape: GlyphShape, x: f64, y: f64) -> String {
    let p = |dx: f64, dy: f64| format!("{},{}", n(x + dx * R), n(y + dy * R));
    match shape {
        // Walls and a gabled roof.
        GlyphShape::House => format!(
            "M{} L{} L{} L{} L{} Z",
            p(-0.9, 1.0),
            p(-0.9, 0.0),
            p(0.0, -1.0),
            p(0.9, 0.0),
            p(0.9, 1.0)
        ),
        // A nave, a tall spire, and a cross on top.
        GlyphShape::Spire => format!(
            "M{} L{} L{} L{} L{} L{} L{} Z M{} L{} M{} L{}",
            p(-1.0, 1.0),
            p(-1.0, 0.2),
            p(-0.35, 0.2),
            p(0.0, -1.1),
            p(0.35, 0.2),
            p(1.0, 0.2),
            p(1.0, 1.0),
            p(0.0, -1.1),
            p(0.0, -1.6),
            p(-0.25, -1.4),
            p(0.25, -1.4)
        ),
        GlyphShape::Triangle => format!("M{} L{} L{} Z", p(0.0, -1.0), p(1.0, 0.8), p(-1.0, 0.8)),
        _ => format!(
            "M{} L{} L{} L{} Z",
            p(0.0, -1.0),
            p(1.0, 0.0),
            p(0.0, 1.0),
            p(-1.0, 0.0)
        ),
    }
}
