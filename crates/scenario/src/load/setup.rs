//! `[setup]`: a position set by hand, checked against the variant and the scenario's pool and
//! turned into the engine's [`Preset`], applied before the first step.

use tegula_engine::Preset;
use tegula_model::raw::Sp;
use tegula_model::Code;
use tegula_ruleset::Ruleset;

use super::{follower_type, seat, tile_index, unknown_tile, Ctx, Pos};
use crate::raw::{RawHeld, RawSetup, RawSupply, ScenarioFile};

/// Largest preset score (as for expected points).
const MAX_SCORE: i64 = 100_000;

/// The checked `[setup]`, with its position (for failures the engine reports when applying it).
pub(super) fn setup(
    cx: &mut Ctx,
    rs: &Ruleset,
    doc: &ScenarioFile,
    players: u8,
) -> Option<(Preset, Pos)> {
    let raw = doc.setup.as_ref()?;
    let mut preset = Preset {
        scores: scores(cx, raw, players),
        ..Preset::default()
    };
    for s in &raw.supply {
        preset.supply.extend(supply(cx, rs, s, players));
    }
    for (i, h) in raw.held.iter().enumerate() {
        if raw.held[..i].iter().any(|e| e.tile.value == h.tile.value) {
            let why = format!(
                "`{}` is held twice: the pool has one of each (W-1)",
                h.tile.value
            );
            cx.err(Code::BadScenario, &h.tile.span, why);
            continue;
        }
        preset.held.extend(held(cx, rs, doc, h, players));
    }
    preset.track_at = raw.pairs.as_ref().and_then(|p| pairs(cx, rs, p));
    preset.resources = super::resources::holdings(cx, rs, &raw.resources, players);
    Some((preset, cx.pos(&raw.span)))
}

/// `scores`: one a seat, each 0 to [`MAX_SCORE`].
fn scores(cx: &mut Ctx, raw: &RawSetup, players: u8) -> Vec<u32> {
    let Some(s) = &raw.scores else {
        return Vec::new();
    };
    if s.len() != usize::from(players) {
        let why = format!(
            "`scores` lists {} seats, the scenario has {players}",
            s.len()
        );
        cx.err(Code::BadScenario, &s.span, why);
    }
    let mut out = Vec::new();
    for v in s.iter() {
        if (0..=MAX_SCORE).contains(&v.value) {
            out.push(v.value as u32);
        } else {
            let why = format!("score {} out of range (0..={MAX_SCORE})", v.value);
            cx.err(Code::BadCount, &v.span, why);
        }
    }
    out
}

/// One `supply` entry: a seat, a follower type of the variant, 0 to 255 figures.
fn supply(cx: &mut Ctx, rs: &Ruleset, s: &Sp<RawSupply>, players: u8) -> Option<(u8, u8, u8)> {
    let seat = seat(cx, &s.seat, players);
    let ftype = follower_type(cx, rs, &s.follower);
    let count = u8::try_from(s.count.value).ok();
    if count.is_none() {
        let why = format!("count {} out of range (0..=255)", s.count.value);
        cx.err(Code::BadCount, &s.count.span, why);
    }
    Some((seat?, ftype? as u8, count?))
}

/// One `held` entry: a seat and a tile of the open pool (the scenario's `pool` picks, or the
/// whole pool when the variant has no picks).
fn held(
    cx: &mut Ctx,
    rs: &Ruleset,
    doc: &ScenarioFile,
    h: &Sp<RawHeld>,
    players: u8,
) -> Option<(u8, u16)> {
    let seat = seat(cx, &h.seat, players);
    let Some(tile) = tile_index(rs, &h.tile) else {
        unknown_tile(cx, rs, &h.tile);
        return None;
    };
    let Some(pool) = &rs.pool else {
        let why = format!("variant `{}` has no pool (W-1): no tile can be held", rs.id);
        cx.err(Code::BadScenario, &h.tile.span, why);
        return None;
    };
    let open = if pool.pick == 0 {
        pool.tiles.contains(&tile)
    } else {
        doc.pool.iter().any(|p| p.value == h.tile.value)
    };
    if !open {
        let why = format!("tile `{}` is not in the open pool (W-1)", h.tile.value);
        let d = cx.err(Code::BadScenario, &h.tile.span, why);
        if pool.pick > 0 {
            d.notes
                .push("list it in the scenario's `pool` picks".into());
        }
        return None;
    }
    Some((seat?, tile))
}

/// `pairs`: where the marker pairs stand (the variant's first shared track, lowered from its
/// `[pool] thresholds`), 0 to the track's end (W-2).
fn pairs(cx: &mut Ctx, rs: &Ruleset, p: &Sp<i64>) -> Option<u32> {
    let Some(track) = rs.tracks.first().filter(|_| rs.pool.is_some()) else {
        let why = format!("variant `{}` has no pool (W-1) and no marker pairs", rs.id);
        cx.err(Code::BadScenario, &p.span, why);
        return None;
    };
    let cap = i64::from(track.max);
    if !(0..=cap).contains(&p.value) {
        let why = format!("pairs at {} out of range (0..={cap}, W-2)", p.value);
        cx.err(Code::BadCount, &p.span, why);
        return None;
    }
    Some(p.value as u32)
}
