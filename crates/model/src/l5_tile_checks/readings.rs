//! The rulebook's *Readings* as variant parameters (`[readings]`, docs/FORMAT.md "Rule
//! parameters"): lowering to [`Readings`] and the check that a reading the variant sets decides
//! something in it (a reading of a rule whose mechanism the variant lacks is a contradiction,
//! reported where the key was written).

use tegula_ruleset::{Condition, Effect, FollowerType, PlacementRule, PlayerTile, Readings};

use crate::tile::CompiledTile;

use crate::diag::{Code, Diagnostic, Source};
use crate::raw::{RawReadings, Sp};

/// What a variant has that the readings decide about.
pub struct Mechanisms<'a> {
    /// The variant's player tiles (AM-4 needs one with a final round).
    pub player_tiles: &'a [PlayerTile],
    /// Whether some tile has an ability with a near-building condition (W-10).
    pub near_building: bool,
    /// Whether the variant has an open pool (W-3, W-6).
    pub pool: bool,
    /// Whether a hand can hold more than one tile: `hand` > 1 or a hand ability (W-12).
    pub hands: bool,
    /// Whether a corner figure scores the fields joined to its field (AM-8).
    pub corner_join: bool,
    /// Whether some tile carries a `room-ahead` placement rule.
    pub room_ahead: bool,
    /// Whether some figure needs an own figure and stands on roads or cities (TB-4).
    pub needs_own_on_lines: bool,
}

/// Whether some figure type needs an own figure on its feature and stands on roads or cities,
/// the features a tile can complete (what TB-4's reading decides about; fields never complete).
pub fn has_needs_own_on_lines(followers: &[FollowerType]) -> bool {
    use tegula_ruleset::FeatureKind::{City, Road};
    followers.iter().any(|f| {
        f.needs_own_figure
            && f.sites
                .iter()
                .any(|s| matches!(s.feature_kind(), Some(City | Road)))
    })
}

/// Whether some tile carries a `room-ahead` placement rule (what R-4's reading decides).
pub fn has_room_ahead(tiles: &[CompiledTile]) -> bool {
    let rules = tiles.iter().flat_map(|t| &t.placement);
    rules
        .into_iter()
        .any(|p| matches!(p, PlacementRule::RoomAhead { .. }))
}

/// Whether some tile has an ability with a near-building condition (what W-10's reading decides).
pub fn has_near_building(tiles: &[CompiledTile]) -> bool {
    tiles.iter().flat_map(|t| &t.abilities).any(|a| {
        a.ability
            .conditions
            .iter()
            .any(|c| matches!(c, Condition::Near { .. }))
    })
}

/// Whether a player's hand can hold more than one tile (what W-12's reading decides about).
pub fn has_hands(hand: u8, tiles: &[CompiledTile]) -> bool {
    hand > 1
        || tiles
            .iter()
            .flat_map(|t| &t.abilities)
            .any(|a| matches!(a.ability.effect, Effect::Hand(n) if n > 1))
}

/// Whether some corner figure scores a farmer field joined to its field: a `corner` table whose
/// join payment is not always 0 (what AM-8's reading decides about; at 0 both readings pay
/// nothing and return the same farmers).
pub fn has_corner_join(followers: &[FollowerType]) -> bool {
    followers
        .iter()
        .any(|f| f.corner.as_ref().is_some_and(|c| !c.join.is_zero()))
}

/// Lower `[readings]`: unset keys keep the registry's reading. A set key whose rule has nothing
/// to decide in this variant is an error at the key.
pub fn lower(
    raw: Option<&Sp<RawReadings>>,
    has: &Mechanisms<'_>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Readings {
    let mut out = Readings::default();
    let Some(r) = raw else { return out };
    let r = &r.value;
    let mut lacks = |span: &std::ops::Range<usize>, key: &str, rule: &str, what: &str| {
        diags.push(src.diag(
            Code::BadVariant,
            span.clone(),
            format!("readings.{key} decides {rule}, but the variant has {what}"),
        ));
    };
    if let Some(v) = &r.final_round_first {
        out.final_round_first = v.value;
        if !has.player_tiles.iter().any(|p| p.final_round) {
            lacks(
                &v.span,
                "final_round_first",
                "AM-4",
                "no player tile with `final_round = true`",
            );
        }
    }
    if let Some(v) = &r.near_building {
        out.near = v.value;
        if !has.near_building {
            lacks(
                &v.span,
                "near_building",
                "W-10",
                "no ability with a `near_building` condition",
            );
        }
    }
    if let Some(v) = &r.threshold_recheck {
        out.threshold_recheck = v.value;
        if !has.pool {
            lacks(&v.span, "threshold_recheck", "W-3", "no `[pool]`");
        }
    }
    if let Some(v) = &r.pool_tile_draw {
        out.pool_tile_draw = v.value;
        if !has.pool {
            lacks(&v.span, "pool_tile_draw", "W-6", "no `[pool]`");
        }
    }
    if let Some(v) = &r.kept_after_pile {
        out.kept_after_pile = v.value;
        if !has.hands {
            lacks(
                &v.span,
                "kept_after_pile",
                "W-12",
                "no hand of more than one tile (`hand` or a `hand` ability)",
            );
        }
    }
    if let Some(v) = &r.joined_field_scoring {
        out.joined_field_scoring = v.value;
        if !has.corner_join {
            lacks(
                &v.span,
                "joined_field_scoring",
                "AM-8",
                "no corner figure that scores a joined field (`corner.join` not always 0)",
            );
        }
    }
    if let Some(v) = &r.open_end {
        out.open_end = v.value;
        if !has.room_ahead {
            let what = "no tile with a `room-ahead` placement rule";
            lacks(&v.span, "open_end", "R-4", what);
        }
    }
    if let Some(v) = &r.needs_own_on_completed {
        out.needs_own_on_completed = v.value;
        if !has.needs_own_on_lines {
            let what = "no figure with `needs_own_figure` that stands on roads or cities";
            lacks(&v.span, "needs_own_on_completed", "TB-4", what);
        }
    }
    if let Some(v) = &r.joined_field_timing {
        out.joined_field_timing = v.value;
        if !has.corner_join {
            lacks(
                &v.span,
                "joined_field_timing",
                "AM-8",
                "no corner figure that scores a joined field (`corner.join` not always 0)",
            );
        }
    }
    out
}
