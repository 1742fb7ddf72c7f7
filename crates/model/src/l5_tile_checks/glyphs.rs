//! The marks pictures draw for segment and tile tags (`[set] glyphs`, docs/FORMAT.md "Glyphs"):
//! checked against the tags the file's segments and tiles carry, then attached to the tiles that
//! carry them, so the renderer draws what the data chose and names no tag itself.

use crate::diag::{Code, Diagnostic, Source};
pub use crate::raw::GlyphShape;
use crate::raw::{RawGlyph, Sp};
use crate::tile::CompiledTile;

pub use crate::tile::TagGlyph;

/// Check `glyphs` (one entry per tag, each tag carried by some segment or tile of `tiles`) and
/// give every tile the entries for the tags it or its segments carry.
pub fn attach(
    glyphs: &[Sp<RawGlyph>],
    tiles: &mut [CompiledTile],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let on = |t: &CompiledTile, tag: &str| {
        t.tags.iter().any(|x| x == tag)
            || t.segments.iter().any(|s| s.tags.iter().any(|x| x == tag))
    };
    let carried = |tag: &str| tiles.iter().any(|t| on(t, tag));
    for (i, g) in glyphs.iter().enumerate() {
        let tag = &g.value.tag;
        if let Some(first) = glyphs[..i].iter().find(|f| f.value.tag.value == tag.value) {
            let why = format!("a second glyph for tag `{}`: one mark per tag", tag.value);
            let d = src.diag(Code::DuplicateId, tag.span.clone(), why);
            diags.push(d.with_label(src.label(first.value.tag.span.clone(), "first given here")));
        } else if !carried(&tag.value) {
            let why = format!(
                "no segment or tile of this file carries the tag `{}`",
                tag.value
            );
            let note = "a glyph marks the segments or tiles carrying its tag (`tags = [...]` on a segment or a tile)";
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
            .filter(|g| on(t, &g.tag.value))
            .map(|g| TagGlyph {
                tag: g.tag.value.clone(),
                shape: g.shape,
                colour: g.colour.clone(),
            })
            .collect();
    }
}
