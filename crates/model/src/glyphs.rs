//! The marks pictures draw for segment tags (`[set] glyphs`, docs/FORMAT.md "Glyphs"): checked
//! against the tags the file's segments carry, then attached to the tiles that carry them, so
//! the renderer draws what the data chose and names no tag itself.

use crate::compile::CompiledTile;
use crate::diag::{Code, Diagnostic, Source};
pub use crate::raw::GlyphShape;
use crate::raw::{RawGlyph, Sp};

/// The mark pictures draw on every segment carrying `tag`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagGlyph {
    /// The segment tag.
    pub tag: String,
    /// The symbol's shape.
    pub shape: GlyphShape,
    /// Fill colour, `#rrggbb`.
    pub colour: String,
}

/// Check `glyphs` (one entry per tag, each tag carried by some segment of `tiles`) and give
/// every tile the entries for the tags its segments carry.
pub fn attach(
    glyphs: &[Sp<RawGlyph>],
    tiles: &mut [CompiledTile],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let carried = |tag: &str| {
        tiles
            .iter()
            .any(|t| t.segments.iter().any(|s| s.tags.iter().any(|x| x == tag)))
    };
    for (i, g) in glyphs.iter().enumerate() {
        let tag = &g.value.tag;
        if let Some(first) = glyphs[..i].iter().find(|f| f.value.tag.value == tag.value) {
            let why = format!("a second glyph for tag `{}`: one mark per tag", tag.value);
            let d = src.diag(Code::DuplicateId, tag.span.clone(), why);
            diags.push(d.with_label(src.label(first.value.tag.span.clone(), "first given here")));
        } else if !carried(&tag.value) {
            let why = format!("no segment of this file carries the tag `{}`", tag.value);
            let note = "a glyph marks the segments carrying its tag (`tags = [...]` on a segment)";
            diags.push(
                src.diag(Code::DanglingReference, tag.span.clone(), why)
                    .with_note(note),
            );
        }
    }
    for t in tiles.iter_mut() {
        t.glyphs = glyphs
            .iter()
            .map(|g| &g.value)
            .filter(|g| t.segments.iter().any(|s| s.tags.contains(&g.tag.value)))
            .map(|g| TagGlyph {
                tag: g.tag.value.clone(),
                shape: g.shape,
                colour: g.colour.clone(),
            })
            .collect();
    }
}
