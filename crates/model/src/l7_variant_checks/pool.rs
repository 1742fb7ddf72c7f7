//! The open pool: a variant's `[pool]` table (the wonders of W-1 .. W-4 and W-30) checked
//! against the variant's tiles and followers and resolved to a [`tegula_ruleset::PoolRules`]
//! and the [`Thresholds`] that the rule form lowers to a rule of the one form
//! (`rule_form::lower_pool`).
//!
//! Like player tiles, the tile sets keep stating how many copies exist (the facts count them);
//! lowering takes the pool tiles out of the draw pile ([`crate::variant::lower_variant`]).

use tegula_ruleset::{FollowerType, PlayerTile, PoolRules};

use crate::compile::CompiledTile;
use crate::diag::{Code, Diagnostic, Source};
use crate::names::suggest;
use crate::raw::RawPool;

/// What the pool check needs to know about the variant.
pub struct PoolContext<'a> {
    /// The variant's tiles, in ruleset order.
    pub tiles: &'a [CompiledTile],
    /// Its follower types, in ruleset order.
    pub followers: &'a [FollowerType],
    /// Its player tiles.
    pub player_tiles: &'a [PlayerTile],
    /// Most players.
    pub max_players: u8,
    /// Every set loaded cleanly (otherwise a missing tag may be a missing set's).
    pub sets_ok: bool,
}

fn bad(src: &Source, span: &std::ops::Range<usize>, rule: &str, msg: String) -> Diagnostic {
    src.diag(Code::BadPool, span.clone(), format!("pool: {msg}"))
        .with_rule(rule)
}

/// The pool's thresholds (W-2, W-3, W-30) as the variant says them, before they are lowered
/// to a rule of the one form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// Where the pairs start (W-2: 10).
    pub first: u32,
    /// How far the remaining pairs move after a first take (W-2: 5).
    pub step: u32,
    /// The furthest they go (W-2: 25).
    pub cap: u32,
    /// The score of a second take (W-30: 50); `None`: one each.
    pub second: Option<u32>,
    /// The follower type gained with a take.
    pub figure: u8,
    /// How many come with the first take (W-2: 2).
    pub gain_first: u8,
    /// How many with the second (W-30: 1).
    pub gain_second: u8,
    /// Where `thresholds` is written in the variant file (for `variant explain`).
    pub span: std::ops::Range<usize>,
}

/// Check the pool and resolve it; `None` (with diagnostics) when it does not fit together.
pub fn pool(
    p: &RawPool,
    cx: &PoolContext<'_>,
    src: &Source,
) -> (Option<(PoolRules, Thresholds)>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let tiles = pool_tiles(p, cx, src, &mut diags);
    let th = &p.thresholds.value;
    check_thresholds(p, src, &mut diags);
    let pick = p.pick.as_ref().map_or(1, |p| p.value);
    check_pick(p, cx, tiles.len(), src, &mut diags);
    check_second(p, src, &mut diags);
    let gain = &p.gain.value;
    let follower = gain_follower(p, cx, src, &mut diags);
    if !diags.is_empty() || tiles.is_empty() {
        return (None, diags);
    }
    let u32_of = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    let u8_of = |v: u64| u8::try_from(v).unwrap_or(u8::MAX);
    let figure = follower.map_or(0, |f| f as u8);
    let rules = PoolRules {
        tiles: tiles.iter().map(|&i| i as u16).collect(),
        pick: u8_of(pick),
        claim_figure: figure,
        rules: crate::citations::pool(p.rules.as_ref()),
    };
    let thresholds = Thresholds {
        first: u32_of(th.first.value),
        step: u32_of(th.step.value),
        cap: u32_of(th.cap.value),
        second: p.second.as_ref().map(|s| u32_of(s.value)),
        figure,
        gain_first: u8_of(gain.first.value),
        gain_second: gain.second.as_ref().map_or(0, |g| u8_of(g.value)),
        span: p.thresholds.span.clone(),
    };
    (Some((rules, thresholds)), diags)
}

/// The indices of the tiles with the pool's tag; a tag no tile has, or a tagged tile that is
/// the start tile, a player tile or has more than one copy, is reported.
fn pool_tiles(
    p: &RawPool,
    cx: &PoolContext<'_>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Vec<usize> {
    let tiles: Vec<usize> = cx
        .tiles
        .iter()
        .enumerate()
        .filter(|(_, t)| t.tags.contains(&p.tag.value))
        .map(|(i, _)| i)
        .collect();
    if tiles.is_empty() && cx.sets_ok {
        let mut d = bad(
            src,
            &p.tag.span,
            "W-1",
            format!("no tile of the variant has the tag `{}`", p.tag.value),
        );
        let all = cx
            .tiles
            .iter()
            .flat_map(|t| t.tags.iter().map(String::as_str));
        if let Some(s) = suggest(&p.tag.value, all) {
            d.notes.push(format!("did you mean `{s}`?"));
        }
        diags.push(d);
    }
    let unfit: Vec<String> = tiles
        .iter()
        .filter_map(|&i| {
            let t = &cx.tiles[i];
            let held = cx.player_tiles.iter().any(|pt| usize::from(pt.tile) == i);
            if t.start {
                Some(format!("`{}` is the start tile", t.id))
            } else if held {
                Some(format!("`{}` is a player tile", t.id))
            } else if t.count != 1 {
                Some(format!("`{}` has {} copies", t.id, t.count))
            } else {
                None
            }
        })
        .collect();
    if !unfit.is_empty() {
        let msg = format!(
            "the pool holds one copy of each tile with the tag `{}`, but {}",
            p.tag.value,
            unfit.join(", ")
        );
        diags.push(bad(src, &p.tag.span, "W-1", msg));
    }
    tiles
}

/// The pairs' thresholds move on (`step` > 0) and start within their `cap`.
fn check_thresholds(p: &RawPool, src: &Source, diags: &mut Vec<Diagnostic>) {
    let th = &p.thresholds.value;
    if th.step.value == 0 {
        let msg = "`step = 0` would leave the remaining pairs where the first was taken; the \
                   pairs move on (W-2: 5)"
            .to_string();
        diags.push(bad(src, &th.step.span, "W-2", msg));
    }
    if th.first.value > th.cap.value {
        let msg = format!(
            "the pairs start at {} but may go no further than `cap = {}`; first <= cap",
            th.first.value, th.cap.value
        );
        diags.push(bad(src, &th.first.span, "W-2", msg));
    }
}

/// A second take lies beyond the pairs' cap and names the follower marking its tile (W-30).
fn check_second(p: &RawPool, src: &Source, diags: &mut Vec<Diagnostic>) {
    let th = &p.thresholds.value;
    let gain = &p.gain.value;
    match (&p.second, &gain.second) {
        (Some(s), _) if s.value <= th.cap.value => {
            let msg = format!(
                "the second take at {} must lie beyond the pairs' last position `cap = {}` \
                 (W-30: 50)",
                s.value, th.cap.value
            );
            diags.push(bad(src, &s.span, "W-30", msg));
        }
        (Some(s), None) => {
            let msg = "a second take needs `gain.second`: the follower that marks the second \
                       tile (W-30: 1)"
                .to_string();
            diags.push(bad(src, &s.span, "W-30", msg));
        }
        (None, Some(g)) => {
            let msg = "`gain.second` without `second`: there is no second take".to_string();
            diags.push(bad(src, &g.span, "W-30", msg));
        }
        _ => {}
    }
}

/// Enough tagged tiles for every seat's `pick` at setup (W-1).
fn check_pick(
    p: &RawPool,
    cx: &PoolContext<'_>,
    tagged: usize,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let pick = p.pick.as_ref().map_or(1, |p| p.value);
    let need = pick.saturating_mul(u64::from(cx.max_players));
    if let (Some(at), true) = (&p.pick, need > tagged as u64 && tagged > 0) {
        diags.push(
            src.diag(
                Code::BadCount,
                at.span.clone(),
                format!(
                    "pool: {} players × {pick} each need {need} tiles with the tag `{}`, but the \
                     variant has {}",
                    cx.max_players, p.tag.value, tagged
                ),
            )
            .with_rule("W-1")
            .with_note("each player picks their tiles into the pool at setup (W-1)"),
        );
    }
}

/// The index of the follower that marks taken pool tiles (`gain.follower`), reported when the
/// variant has none of that name.
fn gain_follower(
    p: &RawPool,
    cx: &PoolContext<'_>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let gain = &p.gain.value;
    let follower = cx
        .followers
        .iter()
        .position(|f| f.id == gain.follower.value);
    if follower.is_none() {
        let mut d = src
            .diag(
                Code::DanglingReference,
                gain.follower.span.clone(),
                format!(
                    "pool: no follower `{}` in this variant",
                    gain.follower.value
                ),
            )
            .with_rule("W-2");
        if let Some(s) = suggest(
            &gain.follower.value,
            cx.followers.iter().map(|f| f.id.as_str()),
        ) {
            d.notes.push(format!("did you mean `{s}`?"));
        }
        diags.push(d);
    }
    follower
}
