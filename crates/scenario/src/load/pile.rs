//! A scenario's top-level `pile` (docs/SCENARIOS.md, "Keys"), checked against its variant's
//! tiles before anything is played: the pile holds no more tiles than the variant has in all,
//! and no more copies of a tile than the variant has (B-1), the start tile's copy counted.

use std::collections::HashMap;

use tegula_model::raw::Sp;
use tegula_model::Code;
use tegula_ruleset::Ruleset;

use super::{tile_list, Ctx};

/// Copies of tile `t` a game of `rs` has: its pile copies, the start copy, and a pool tile
/// (a wonder, W-1) once, though it is not in the draw pile.
pub(super) fn copies_of(rs: &Ruleset, t: u16) -> u32 {
    let tt = &rs.tiles[usize::from(t)];
    let pooled = rs.pool.as_ref().is_some_and(|p| p.tiles.contains(&t));
    tt.count
        .saturating_add(u32::from(tt.start))
        .saturating_add(u32::from(pooled))
}

/// The `pile`, resolved; `None` with an error at the key (or at the first id of a tile used too
/// often) when it is longer than the variant's whole game or uses a tile more often than the
/// variant has it. `used`: copies the start tile takes.
pub(super) fn pile(
    cx: &mut Ctx,
    rs: &Ruleset,
    raw: &Sp<Vec<Sp<String>>>,
    used: &HashMap<u16, u32>,
) -> Option<Vec<u16>> {
    let all: u64 = (0..rs.tiles.len())
        .map(|t| u64::from(copies_of(rs, t as u16)))
        .sum();
    if raw.value.len() as u64 > all {
        let why = format!(
            "the pile lists {} tiles, but a game of variant `{}` has {all} tiles in all (start \
             tile included)",
            raw.value.len(),
            rs.id
        );
        cx.err(Code::BadCount, &raw.span, why).rule = Some("B-1".into());
        return None;
    }
    let tiles = tile_list(cx, rs, &raw.value);
    let mut total = used.clone();
    for &t in &tiles {
        *total.entry(t).or_default() += 1;
    }
    // Report each tile once, at its first copy past the variant's.
    let mut seen = used.clone();
    let mut bad = false;
    for (&t, id) in tiles.iter().zip(&raw.value) {
        let n = seen.entry(t).or_default();
        *n += 1;
        let have = copies_of(rs, t);
        if *n == have + 1 {
            let start = if used.contains_key(&t) {
                " (the start tile's copy included)"
            } else {
                ""
            };
            let why = format!(
                "the pile uses tile `{}` {} times{start}, but variant `{}` has {have}",
                id.value, total[&t], rs.id
            );
            cx.err(Code::BadCount, &id.span, why).rule = Some("B-1".into());
            bad = true;
        }
    }
    (!bad).then_some(tiles)
}
