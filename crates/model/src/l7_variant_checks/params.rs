//! House-rule count parameters of a variant: `follower_count` (how many of a figure each player
//! has) and `tile_count` (the tile distribution), both tables keyed by id, so that a variant
//! extending another changes one number without restating a list (docs/FORMAT.md).

use std::collections::BTreeMap;

use tegula_ruleset::FollowerType;

use crate::compile::CompiledTile;
use crate::diag::{Code, Diagnostic, Source};
use crate::names::suggest;
use crate::raw::{Id, Sp};

/// The most of one figure a player may have (as `followers.count`).
pub const MAX_FOLLOWERS: u64 = 50;
/// The most copies of one tile.
pub const MAX_TILE_COUNT: u64 = 1000;

/// Apply `follower_count`: each entry names a follower type of the variant and sets its count.
pub fn follower_counts(
    counts: &BTreeMap<Id, Sp<u64>>,
    followers: &mut [FollowerType],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    for (id, n) in counts {
        let Some(f) = followers.iter_mut().find(|f| f.id == *id) else {
            let mut d = src.diag(
                Code::DanglingReference,
                n.span.clone(),
                format!("follower_count: the variant has no follower type `{id}`"),
            );
            if let Some(s) = suggest(id, followers.iter().map(|f| f.id.as_str())) {
                d = d.with_note(format!("did you mean `{s}`?"));
            }
            diags.push(d);
            continue;
        };
        match u8::try_from(n.value) {
            Ok(c) if (1..=MAX_FOLLOWERS).contains(&n.value) => f.count = c,
            _ => diags.push(src.diag(
                Code::BadCount,
                n.span.clone(),
                format!(
                    "follower_count.{id} = {}: a player has 1 to {MAX_FOLLOWERS} of a figure \
                     (to remove a figure, leave it out of `followers`)",
                    n.value
                ),
            )),
        }
    }
}

/// Apply `tile_count`: each entry names a tile of the variant and sets how many copies are in
/// the pile (0 removes it; a start tile keeps its start copy). Unknown ids are reported only
/// when every set was read (otherwise the tile may be in the set that failed).
pub fn tile_counts(
    counts: &BTreeMap<Id, Sp<u64>>,
    tiles: &mut [CompiledTile],
    sets_ok: bool,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    for (id, n) in counts {
        if n.value > MAX_TILE_COUNT {
            diags.push(src.diag(
                Code::BadCount,
                n.span.clone(),
                format!(
                    "tile_count.{id} = {}: at most {MAX_TILE_COUNT} copies",
                    n.value
                ),
            ));
            continue;
        }
        match tiles.iter_mut().find(|t| t.id == *id) {
            Some(t) => t.count = n.value,
            None if sets_ok => {
                let mut d = src.diag(
                    Code::DanglingReference,
                    n.span.clone(),
                    format!("tile_count: the variant has no tile `{id}`"),
                );
                if let Some(s) = suggest(id, tiles.iter().map(|t| t.id.as_str())) {
                    d = d.with_note(format!("did you mean `{s}`?"));
                }
                diags.push(d);
            }
            None => {}
        }
    }
}
