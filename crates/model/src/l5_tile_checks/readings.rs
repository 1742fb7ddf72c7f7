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
    let mut rd = Reader { src, diags };
    let final_round = has.player_tiles.iter().any(|p| p.final_round);
    let no_final_round = (!final_round).then_some("no player tile with `final_round = true`");
    rd.read(
        &r.final_round_first,
        &mut out.final_round_first,
        ("final_round_first", "AM-4"),
        no_final_round,
    );
    let no_near = (!has.near_building).then_some("no ability with a `near_building` condition");
    rd.read(
        &r.near_building,
        &mut out.near,
        ("near_building", "W-10"),
        no_near,
    );
    let no_pool = (!has.pool).then_some("no `[pool]`");
    rd.read(
        &r.threshold_recheck,
        &mut out.threshold_recheck,
        ("threshold_recheck", "W-3"),
        no_pool,
    );
    rd.read(
        &r.pool_tile_draw,
        &mut out.pool_tile_draw,
        ("pool_tile_draw", "W-6"),
        no_pool,
    );
    let no_hands =
        (!has.hands).then_some("no hand of more than one tile (`hand` or a `hand` ability)");
    rd.read(
        &r.kept_after_pile,
        &mut out.kept_after_pile,
        ("kept_after_pile", "W-12"),
        no_hands,
    );
    let no_join = (!has.corner_join)
        .then_some("no corner figure that scores a joined field (`corner.join` not always 0)");
    rd.read(
        &r.joined_field_scoring,
        &mut out.joined_field_scoring,
        ("joined_field_scoring", "AM-8"),
        no_join,
    );
    let no_room = (!has.room_ahead).then_some("no tile with a `room-ahead` placement rule");
    rd.read(&r.open_end, &mut out.open_end, ("open_end", "R-4"), no_room);
    let no_own_on_lines = (!has.needs_own_on_lines)
        .then_some("no figure with `needs_own_figure` that stands on roads or cities");
    let own = &mut out.needs_own_on_completed;
    rd.read(
        &r.needs_own_on_completed,
        own,
        ("needs_own_on_completed", "TB-4"),
        no_own_on_lines,
    );
    rd.read(
        &r.joined_field_timing,
        &mut out.joined_field_timing,
        ("joined_field_timing", "AM-8"),
        no_join,
    );
    walk_readings(r, &mut out);
    out
}

/// `readings.shuffle_back` and `walk_timing` set in a variant whose rules (`when`, lowered)
/// shuffle no tiles back / start no walk from a `before-scoring` rule, and `needs_own_alone` in
/// one with no figure that needs an own figure or no effect taking figures off the board,
/// decide nothing: an error at the key, as for the other readings.
pub fn check_walk_readings(
    raw: Option<&Sp<RawReadings>>,
    (when, followers): (&[tegula_ruleset::When], &[FollowerType]),
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(r) = raw else { return };
    let acts = || when.iter().flat_map(|w| w.then.iter().map(move |a| (w, a)));
    let shuffles = acts().any(|(_, a)| *a == tegula_ruleset::Act::ShuffleBack);
    let walks = acts().any(|(w, a)| {
        matches!(a, tegula_ruleset::Act::Walk(_))
            && matches!(w.event, tegula_ruleset::RuleEvent::BeforeScoring { .. })
    });
    let mut lacking = |at: Option<std::ops::Range<usize>>, key: &str, what: &str| {
        if let Some(at) = at {
            let msg = format!("readings.{key} decides {what}, but no rule of the variant has one");
            diags.push(src.diag(Code::BadVariant, at, msg));
        }
    };
    if !shuffles {
        let at = r.value.shuffle_back.as_ref().map(|v| v.span.clone());
        lacking(
            at,
            "shuffle_back",
            "where a `shuffle_back` effect puts tiles",
        );
    }
    if !walks {
        let at = r.value.walk_timing.as_ref().map(|v| v.span.clone());
        lacking(
            at,
            "walk_timing",
            "when a `before-scoring` rule's walk is made",
        );
    }
    let offered = when
        .iter()
        .flat_map(|w| w.offer.iter().flat_map(|o| &o.then));
    let needs_own = followers.iter().any(|f| f.needs_own_figure);
    if !needs_own || !acts().map(|(_, a)| a).chain(offered).any(removes) {
        let at = r.value.needs_own_alone.as_ref().map(|v| v.span.clone());
        lacking(
            at,
            "needs_own_alone",
            "what becomes of a figure with `needs_own_figure` whose owner's last figure an \
             effect (`return_on`, `return = \"chosen\"`, `capture`) takes off the board",
        );
    }
}

/// `shuffle_back` and `walk_timing`: what they decide about is the variant's own `[[when]]` (a
/// `shuffle_back` effect, a walk of a `before-scoring` rule), whose rules the data declares, so
/// there is no registry rule to cite and nothing to check beside the value.
fn walk_readings(r: &RawReadings, out: &mut Readings) {
    if let Some(v) = &r.shuffle_back {
        out.shuffle_back = v.value;
    }
    if let Some(v) = &r.walk_timing {
        out.walk_timing = v.value;
    }
    if let Some(v) = &r.needs_own_alone {
        out.needs_own_alone = v.value;
    }
}

/// Whether effect `a` (or an effect it holds: a walk's `on_enter`) takes a chosen or standing
/// figure off the board.
pub fn removes(a: &tegula_ruleset::Act) -> bool {
    use tegula_ruleset::Act;
    match a {
        Act::ReturnOn { .. } | Act::ReturnChosen | Act::Capture { .. } => true,
        Act::Walk(w) => w.on_enter.iter().any(removes),
        _ => false,
    }
}

/// Reads the keys of `[readings]` into a [`Readings`], reporting a key whose rule has nothing
/// to decide in the variant.
struct Reader<'a> {
    src: &'a Source,
    diags: &'a mut Vec<Diagnostic>,
}

impl Reader<'_> {
    /// The reading `v` of `readings.KEY` (when set) into `slot`; `lacking`: what the variant
    /// lacks for the rule to decide anything (`None`: it has it).
    fn read<T: Copy>(
        &mut self,
        v: &Option<Sp<T>>,
        slot: &mut T,
        (key, rule): (&str, &str),
        lacking: Option<&str>,
    ) {
        let Some(v) = v else { return };
        *slot = v.value;
        if let Some(what) = lacking {
            self.diags.push(self.src.diag(
                Code::BadVariant,
                v.span.clone(),
                format!("readings.{key} decides {rule}, but the variant has {what}"),
            ));
        }
    }
}
