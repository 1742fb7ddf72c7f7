//! Player tiles: a variant's `player_tiles` entries (tiles every player holds in their own supply,
//! like the abbey of AM-1) checked against the variant's tiles and resolved to tile indices.
//!
//! The tile sets keep stating how many copies exist (the box contents, which the facts count);
//! lowering takes a player tile's copies out of the draw pile
//! ([`crate::variant::lower_variant`]).

use tegula_ruleset::{PlayerTile, TileSite};

use crate::compile::CompiledTile;
use crate::diag::{Code, Diagnostic, Source};
use crate::names::suggest;
use crate::raw::{RawPlayerTile, RawTileSite, Sp};

/// Check the entries and resolve them against `tiles` (the variant's tiles, in ruleset order).
/// `sets_ok`: every tile set loaded cleanly (otherwise an unknown id may be a missing set's, and
/// is not reported). Entries with problems are left out of the result.
pub fn player_tiles(
    entries: &[Sp<RawPlayerTile>],
    tiles: &[CompiledTile],
    max_players: u8,
    sets_ok: bool,
    src: &Source,
) -> (Vec<PlayerTile>, Vec<Diagnostic>) {
    let mut out: Vec<PlayerTile> = Vec::new();
    let mut diags = Vec::new();
    for (n, e) in entries.iter().enumerate() {
        let e = &e.value;
        if entries[..n]
            .iter()
            .any(|o| o.value.tile.value == e.tile.value)
        {
            diags.push(src.diag(
                Code::BadVariant,
                e.tile.span.clone(),
                format!("tile `{}` is named twice in `player_tiles`", e.tile.value),
            ));
            continue;
        }
        let Some(index) = tiles.iter().position(|t| t.id == e.tile.value) else {
            if sets_ok {
                diags.push(dangling(e, tiles, src));
            }
            continue;
        };
        match check(e, &tiles[index], max_players, src) {
            Some(d) => diags.push(d),
            None => out.push(PlayerTile {
                tile: u16::try_from(index).unwrap_or(u16::MAX),
                count: u8::try_from(e.count.value).unwrap_or(u8::MAX),
                site: match e.site.as_ref().map(|s| s.value) {
                    Some(RawTileSite::Hole) => TileSite::Enclosed,
                    None | Some(RawTileSite::Anywhere) => TileSite::Anywhere,
                },
                final_round: e.final_round.as_ref().is_some_and(|f| f.value),
                rule: e.rule.as_ref().map_or_else(
                    || crate::citations::PLAYER_TILE.to_string(),
                    |r| r.value.clone(),
                ),
            }),
        }
    }
    (out, diags)
}

/// An unknown tile id, with the closest id of the variant as a suggestion.
fn dangling(e: &RawPlayerTile, tiles: &[CompiledTile], src: &Source) -> Diagnostic {
    let mut d = src.diag(
        Code::DanglingReference,
        e.tile.span.clone(),
        format!(
            "player tile `{}`: no such tile in this variant",
            e.tile.value
        ),
    );
    if let Some(s) = suggest(&e.tile.value, tiles.iter().map(|t| t.id.as_str())) {
        d.notes.push(format!("did you mean `{s}`?"));
    }
    d
}

/// The start tile cannot be held by players; the sets must provide a copy per player and count.
fn check(e: &RawPlayerTile, t: &CompiledTile, max_players: u8, src: &Source) -> Option<Diagnostic> {
    if t.start {
        return Some(
            src.diag(
                Code::BadVariant,
                e.tile.span.clone(),
                format!(
                    "player tile `{}` is the start tile; it starts on the board, so players \
                     cannot hold it",
                    t.id
                ),
            )
            .with_rule("B-1"),
        );
    }
    let need = u64::from(max_players).saturating_mul(e.count.value);
    (t.count < need).then(|| {
        src.diag(
            Code::BadCount,
            e.count.span.clone(),
            format!(
                "player tile `{}`: {} players × {} each need {need} copies, but the sets \
                 provide {}",
                t.id, max_players, e.count.value, t.count
            ),
        )
        .with_rule("AM-1")
        .with_note("each player holds their own copies from the start (AM-1: one abbey per colour)")
    })
}
