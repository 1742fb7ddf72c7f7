//! What a variant needs to be playable at all (issue 9, item 4): tiles, a start tile, a game
//! small enough for the engine ([`MAX_GAME_CELLS`]) and few enough corner figures
//! ([`MAX_CORNER_FIGURES`]). Numbers within a file are bounded by the
//! schema (`range` on the raw types, from `tegula_ruleset::limits`); these checks need the whole
//! compiled variant.

use std::ops::Range;

use tegula_ruleset::limits::{MAX_BOARD_SIDE, MAX_CORNER_FIGURES, MAX_GAME_CELLS};

use crate::compiled_variant::CompiledVariant;
use crate::raw::{RawSetRef, Sp, VariantFile};
use crate::{Code, Diagnostic, Source};

/// Report what makes the compiled variant `v` (of the variant file `doc`, text `src`)
/// unplayable, at its `sets` entries or its figures. `sets_ok`: every set was read and compiled
/// cleanly (otherwise a missing tile may only be the consequence of an error already reported).
pub(crate) fn check_playable(
    v: &CompiledVariant,
    doc: &VariantFile,
    sets_ok: bool,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    check_corner_figures(v, doc, src, diags);
    let at = sets_span(&doc.sets);
    if sets_ok && v.tiles.is_empty() {
        diags.push(src.diag(
            Code::BadVariant,
            at.clone(),
            "the variant has no tiles: its sets (and `only` lists) select none",
        ));
    } else if sets_ok && !v.tiles.iter().any(|t| t.start) {
        diags.push(
            src.diag(
                Code::BadCount,
                at.clone(),
                "the variant has no start tile: mark one tile of its sets `start = true`",
            )
            .with_rule("B-1"),
        );
    }
    let cells = game_cells(v);
    if cells > MAX_GAME_CELLS {
        diags.push(src.diag(
            Code::BadVariant,
            at,
            format!(
                "the tiles of a game cover {cells} cells (the draw pile, the start tile, the \
                 players' own tiles for {} players and the pool); the engine plays at most \
                 {MAX_GAME_CELLS}, so that a game laid in one line still ends inside its board \
                 ({MAX_BOARD_SIDE} × {MAX_BOARD_SIDE} cells around the start tile)",
                v.max_players
            ),
        ));
    }
}

/// Corner figures of all players together within [`MAX_CORNER_FIGURES`], reported at the first
/// corner figure type.
fn check_corner_figures(
    v: &CompiledVariant,
    doc: &VariantFile,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let corner = |f: &&tegula_ruleset::FollowerType| f.corner.is_some();
    let each: u64 = v
        .followers
        .iter()
        .filter(corner)
        .map(|f| u64::from(f.count))
        .sum();
    let all = each * u64::from(v.max_players);
    let first = v.followers.iter().find(|f| f.corner.is_some());
    if let (true, Some(first)) = (all > MAX_CORNER_FIGURES, first) {
        let raw = doc.followers.iter().find(|f| f.value.id.value == first.id);
        let at = raw.map_or(0..0, |f| f.span.clone());
        diags.push(
            src.diag(
                Code::BadFigure,
                at,
                format!(
                    "{} players with {each} corner figures each have {all}; the engine plays at \
                     most {MAX_CORNER_FIGURES}",
                    v.max_players
                ),
            )
            .with_rule("AM-6"),
        );
    }
}

/// From the first `sets` entry to the last (the file start when there is none).
fn sets_span(sets: &[Sp<RawSetRef>]) -> Range<usize> {
    match (sets.first(), sets.last()) {
        (Some(a), Some(b)) => a.span.start..b.span.end,
        _ => 0..0,
    }
}

/// The cells of one game as the lowered ruleset will count them
/// (`tegula_ruleset::Ruleset::game_cells` for the most players): the players' own tiles and the
/// pool's tiles leave the draw pile, one start copy, every player's own tiles, each pool tile once.
pub fn game_cells(v: &CompiledVariant) -> u64 {
    let cells = |i: usize| v.tiles.get(i).map_or(0, |t| t.cells.len() as u64);
    let held: Vec<usize> = v.player_tiles.iter().map(|p| usize::from(p.tile)).collect();
    let pooled: Vec<usize> = v
        .pool
        .iter()
        .flat_map(|p| &p.tiles)
        .map(|&t| usize::from(t))
        .collect();
    let mut n = 0u64;
    for (i, t) in v.tiles.iter().enumerate() {
        if !held.contains(&i) && !pooled.contains(&i) {
            n = n.saturating_add(t.count.saturating_mul(cells(i)));
        }
    }
    if let Some(s) = v.tiles.iter().position(|t| t.start) {
        n = n.saturating_add(cells(s));
    }
    for p in &v.player_tiles {
        let each = u64::from(p.count) * u64::from(v.max_players);
        n = n.saturating_add(each.saturating_mul(cells(usize::from(p.tile))));
    }
    pooled.iter().fold(n, |n, &i| n.saturating_add(cells(i)))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::variant::{compile_variant, lower_variant};

    /// The validator counts a game's cells exactly as the engine will (from the lowered
    /// ruleset), for every shipped variant and for every player count it allows.
    #[test]
    fn game_cells_agree_with_the_lowered_ruleset() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
        let mut n = 0;
        // The house variants (variants/house/) extend the shipped ones: walk both levels.
        let files = std::fs::read_dir(&dir)
            .unwrap()
            .chain(std::fs::read_dir(dir.join("house")).unwrap())
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "toml"));
        for e in files {
            let (v, diags) = compile_variant(&e.path());
            let v = v.unwrap();
            assert!(diags.is_empty(), "{}: {diags:?}", e.path().display());
            let rs = lower_variant(&v).0.unwrap();
            assert_eq!(
                super::game_cells(&v),
                rs.game_cells(v.max_players),
                "{}",
                e.path().display()
            );
            n += 1;
        }
        assert!(n >= 14);
    }
}
