//! Abilities: the `[[ability]]` entries of tile-set files (and their overrides in variants),
//! checked and lowered to [`tegula_ruleset::Ability`] values (docs/RULE-LANGUAGE.md).
//!
//! An ability is a trigger (`when`, with `feature`, `owners_turn`, `during_game_only`), a table
//! of `conditions` and one effect: `score` (points per counted thing), `hand` (tiles held),
//! `gain` (a seat resource) or `extra_turn`. Resource ids, a count's tag and a gain's amount
//! expression are resolved against the variant (its resources and tags) when it is checked
//! in the variant and lowered.
//! The checks below reject combinations that mean nothing, each at the key to blame, citing the
//! ability's own rule id. Tag names (`near_building`) are resolved against the variant's tag
//! list when it is lowered, because a tag may come from another set (the base game's cloisters).

use std::ops::Range;

use tegula_ruleset::limits::MAX_POINTS;
use tegula_ruleset::{
    Ability, Condition, Count, Effect, Expr, FeatureKind, Owner, Per, State, Trigger,
};

use crate::diag::{Code, Diagnostic, Source};
use crate::names::suggest;
use crate::raw::{
    PerTable, RawAbility, RawAbilityGain, RawConditions, RawCount, RawFeatureKind, RawOwner,
    RawScore, RawState, RawTrigger, Sp,
};
use crate::tile::CompiledTile;

/// The word of `near_building` that means "cloisters only" (no tag).
pub const CLOISTER: &str = "cloister";

/// Most players a variant may have (the `per_players` thresholds stay within it).
const MAX_PLAYERS: u64 = 8;

pub use crate::tile::AbilityDef;

/// A `bad-ability` diagnostic about entry `a` at `span`.
fn bad(a: &RawAbility, src: &Source, span: &Range<usize>, msg: &str) -> Diagnostic {
    src.diag(
        Code::BadAbility,
        span.clone(),
        format!("ability {} of `{}`: {msg}", a.rule.value, a.tile.value),
    )
    .with_rule(a.rule.value.clone())
}

fn trigger_word(t: RawTrigger) -> &'static str {
    match t {
        RawTrigger::FollowerPlaced => "follower-placed",
        RawTrigger::FeatureCompleted => "feature-completed",
        RawTrigger::FeatureScored => "feature-scored",
        RawTrigger::GameEnd => "game-end",
        RawTrigger::Draw => "draw",
    }
}

fn kind(k: RawFeatureKind) -> FeatureKind {
    k.lowered()
}

fn flag(b: Option<&Sp<bool>>) -> bool {
    b.is_some_and(|b| b.value)
}

/// Check one entry and lower it (tags unresolved). `None` (with diagnostics) when its keys do
/// not fit together.
pub fn check_ability(
    a: &RawAbility,
    src: &Source,
    in_variant: bool,
) -> (Option<AbilityDef>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let when = trigger(a, src, &mut diags);
    let (conditions, near_tag) = conditions(a, src, &mut diags);
    let mut per_players_at = None;
    let effect = effect(a, when, src, &mut diags, &mut per_players_at);
    let count_tag = a.score.as_ref().and_then(|s| s.value.tag.clone());
    let gain = a.gain.as_ref().map(|g| &g.value);
    let gain_resource = gain.map(|g| g.resource.clone());
    let over_feature = |text: Option<Sp<String>>| match (text, when) {
        (
            Some(t),
            Some(Trigger::FeatureCompleted { kind, .. } | Trigger::FeatureScored { kind, .. }),
        ) => Some((t, kind)),
        _ => None,
    };
    let gain_amount = over_feature(gain.and_then(|g| g.amount.clone()));
    let per_value = over_feature(a.score.as_ref().and_then(|s| s.value.per_value.clone()));
    match (when, effect) {
        (Some(when), Some(effect)) if diags.is_empty() => (
            Some(AbilityDef {
                ability: Ability {
                    rule: a.rule.value.clone(),
                    when,
                    conditions,
                    effect,
                    not_in_placing_turn: flag(a.not_in_placing_turn.as_ref()),
                },
                near_tag,
                per_players_at,
                count_tag,
                gain_resource,
                gain_amount,
                per_value,
                span: a.tile.span.clone(),
                in_variant,
            }),
            diags,
        ),
        _ => (None, diags),
    }
}

/// The trigger with its `feature`, `owners_turn` and `during_game_only` keys.
fn trigger(a: &RawAbility, src: &Source, diags: &mut Vec<Diagnostic>) -> Option<Trigger> {
    let word = trigger_word(a.when.value);
    let on_feature = matches!(
        a.when.value,
        RawTrigger::FeatureCompleted | RawTrigger::FeatureScored
    );
    if let (Some(o), false) = (&a.owners_turn, a.when.value == RawTrigger::FeatureCompleted) {
        let msg =
            format!("`owners_turn` only applies to when = \"feature-completed\", not \"{word}\"");
        diags.push(bad(a, src, &o.span, &msg));
    }
    if let (Some(d), false) = (
        &a.during_game_only,
        a.when.value == RawTrigger::FeatureScored,
    ) {
        let msg =
            format!("`during_game_only` only applies to when = \"feature-scored\", not \"{word}\"");
        diags.push(bad(a, src, &d.span, &msg));
    }
    let feature = match (&a.feature, on_feature) {
        (Some(f), false) => {
            let msg = format!(
                "`feature` names the feature of \"feature-completed\" / \"feature-scored\"; \
                 when = \"{word}\" has none"
            );
            diags.push(bad(a, src, &f.span, &msg));
            return None;
        }
        (None, true) => {
            let msg = format!(
                "when = \"{word}\" needs `feature = \"city\"` (or \"road\", \"field\", \
                 \"cloister\")"
            );
            diags.push(bad(a, src, &a.when.span, &msg));
            return None;
        }
        (None, false) => None,
        (Some(f), true) => Some(f),
    };
    Some(match a.when.value {
        RawTrigger::FollowerPlaced => Trigger::FollowerPlaced,
        RawTrigger::GameEnd => Trigger::GameEnd,
        RawTrigger::Draw => Trigger::Draw,
        RawTrigger::FeatureCompleted => {
            let f = feature?;
            if f.value == RawFeatureKind::Field {
                let msg = "a field is never completed (B-3); it is scored at the end: use \
                           when = \"feature-scored\" or \"game-end\"";
                diags.push(bad(a, src, &f.span, msg));
                return None;
            }
            Trigger::FeatureCompleted {
                kind: kind(f.value),
                owners_turn: flag(a.owners_turn.as_ref()),
            }
        }
        RawTrigger::FeatureScored => Trigger::FeatureScored {
            kind: kind(feature?.value),
            during_game_only: flag(a.during_game_only.as_ref()),
        },
    })
}

/// The conditions, in the contract's order (near-building, occupied, min-tiles, owner-present),
/// each checked against the trigger; and the tag name of a near-building condition.
fn conditions(
    a: &RawAbility,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Condition>, Option<Sp<String>>) {
    let mut out = Vec::new();
    let Some(c) = &a.conditions else {
        return (out, None);
    };
    let RawConditions {
        near_building,
        occupied,
        min_tiles,
        owner_present,
    } = &c.value;
    let word = trigger_word(a.when.value);
    let on_feature = matches!(
        a.when.value,
        RawTrigger::FeatureCompleted | RawTrigger::FeatureScored
    );
    let mut near_tag = None;
    if let Some(n) = near_building {
        if a.when.value == RawTrigger::FollowerPlaced {
            let tag = (n.value != CLOISTER).then(|| n.clone());
            near_tag = tag;
            out.push(Condition::Near { tag: None });
        } else {
            let msg = format!(
                "`near_building` is about where a figure is placed; it needs \
                 when = \"follower-placed\", not \"{word}\""
            );
            diags.push(bad(a, src, &n.span, &msg));
        }
    }
    let feature_only = |key: &str, span: &Range<usize>, diags: &mut Vec<Diagnostic>| {
        let msg = format!(
            "`{key}` is about the feature that is completed or scored; it needs \
             when = \"feature-completed\" or \"feature-scored\", not \"{word}\""
        );
        diags.push(bad(a, src, span, &msg));
    };
    if let Some(o) = occupied {
        if !on_feature {
            feature_only("occupied", &o.span, diags);
        } else if o.value {
            out.push(Condition::Occupied);
        }
    }
    if let Some(m) = min_tiles {
        if !on_feature {
            feature_only("min_tiles", &m.span, diags);
        } else {
            out.push(Condition::MinTiles(
                u32::try_from(m.value).unwrap_or(u32::MAX),
            ));
        }
    }
    if let Some(o) = owner_present {
        if !on_feature {
            feature_only("owner_present", &o.span, diags);
        } else if o.value {
            out.push(Condition::OwnerPresent);
        }
    }
    (out, near_tag)
}

/// The keys of `keys` that are given, in order, with their spans (for "exactly one of").
fn given<'a>(keys: &[(&'a str, Option<&'a Range<usize>>)]) -> Vec<(&'a str, &'a Range<usize>)> {
    keys.iter()
        .filter_map(|&(key, span)| span.map(|s| (key, s)))
        .collect()
}

/// The effect: `score`, `hand`, `gain` or `extra_turn`, matched with the trigger.
fn effect(
    a: &RawAbility,
    when: Option<Trigger>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
    per_players_at: &mut Option<Range<usize>>,
) -> Option<Effect> {
    let draw = a.when.value == RawTrigger::Draw;
    let given = given(&[
        ("score", a.score.as_ref().map(|s| &s.span)),
        ("hand", a.hand.as_ref().map(|h| &h.span)),
        ("gain", a.gain.as_ref().map(|g| &g.span)),
        ("extra_turn", a.extra_turn.as_ref().map(|e| &e.span)),
    ]);
    if let [(first, _), (second, span), ..] = given.as_slice() {
        let msg = format!("an ability has one effect: `{first}` or `{second}`, not both");
        diags.push(bad(a, src, span, &msg));
        return None;
    }
    if let Some(g) = &a.gain {
        return gain(a, &g.value, when, src, diags);
    }
    if let Some(e) = &a.extra_turn {
        return extra_turn(a, e, when, src, diags);
    }
    match (&a.score, &a.hand) {
        (Some(_), Some(_)) => None,
        (None, None) => {
            let msg = "no effect: give `score = { … }`, `gain = { … }` or `extra_turn = true` \
                       (or `hand = N` with when = \"draw\")";
            diags.push(bad(a, src, &a.tile.span, msg));
            None
        }
        (None, Some(h)) if !draw => {
            let msg = format!(
                "`hand` changes the owner's draw; it needs when = \"draw\", not \"{}\"",
                trigger_word(a.when.value)
            );
            diags.push(bad(a, src, &h.span, &msg));
            None
        }
        (None, Some(h)) => Some(Effect::Hand(u8::try_from(h.value).unwrap_or(u8::MAX))),
        (Some(_), None) if draw => {
            let msg = "when = \"draw\" acts on the owner's draw; its effect is `hand = N`, not \
                       `score`";
            diags.push(bad(a, src, &a.when.span, msg));
            None
        }
        (Some(s), None) => score(a, &s.value, &s.span, src, diags, per_players_at),
    }
}

/// `gain = { resource, amount }`: the resource id is checked in the variant; the amount is an
/// expression under a trigger with a feature (parsed in the variant), an integer otherwise.
fn gain(
    a: &RawAbility,
    g: &RawAbilityGain,
    when: Option<Trigger>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<Effect> {
    let resource = g.resource.value.clone();
    let on_feature = matches!(
        when?,
        Trigger::FeatureCompleted { .. } | Trigger::FeatureScored { .. }
    );
    if a.when.value == RawTrigger::Draw {
        let msg = "when = \"draw\" acts on the owner's draw; its effect is `hand = N`, not `gain`";
        diags.push(bad(a, src, &a.when.span, msg));
        return None;
    }
    let amount = match &g.amount {
        None => Expr::Int(1),
        // Parsed against the variant's tags when the variant is checked.
        Some(_) if on_feature => Expr::Int(0),
        Some(t) => match t.value.trim().parse::<u32>() {
            Ok(n) if n <= MAX_POINTS => Expr::Int(n),
            _ => {
                let msg = format!(
                    "gain amount `{}`: when = \"{}\" has no feature to count over; give an \
                     integer from 0 to {MAX_POINTS}",
                    t.value,
                    trigger_word(a.when.value)
                );
                diags.push(bad(a, src, &t.span, &msg));
                return None;
            }
        },
    };
    Some(Effect::Gain { resource, amount })
}

/// `extra_turn = true`: only under triggers that act in the owner's own turn, since the extra
/// turn follows the turn in which it is earned.
fn extra_turn(
    a: &RawAbility,
    e: &Sp<bool>,
    when: Option<Trigger>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<Effect> {
    if !e.value {
        let msg = "`extra_turn = false` is no effect; remove it or give another effect";
        diags.push(bad(a, src, &e.span, msg));
        return None;
    }
    match when? {
        Trigger::FollowerPlaced
        | Trigger::FeatureCompleted {
            owners_turn: true, ..
        } => Some(Effect::ExtraTurn),
        _ => {
            let msg = format!(
                "an extra turn follows the owner's own turn: it needs when = \"follower-placed\" \
                 or \"feature-completed\" with `owners_turn = true`, not \"{}\"{}",
                trigger_word(a.when.value),
                if a.when.value == RawTrigger::FeatureCompleted {
                    " without it"
                } else {
                    ""
                }
            );
            diags.push(bad(a, src, &e.span, &msg));
            None
        }
    }
}

/// `score = { per …, count … }`.
fn score(
    a: &RawAbility,
    s: &RawScore,
    at: &Range<usize>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
    per_players_at: &mut Option<Range<usize>>,
) -> Option<Effect> {
    let before = diags.len();
    let per = per(a, s, at, src, diags, per_players_at);
    let count = count(a, s, src, diags);
    if diags.len() > before {
        return None;
    }
    Some(Effect::Score {
        per: per?,
        count: count?,
    })
}

fn per(
    a: &RawAbility,
    s: &RawScore,
    at: &Range<usize>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
    per_players_at: &mut Option<Range<usize>>,
) -> Option<Per> {
    let given = given(&[
        ("per", s.per.as_ref().map(|p| &p.span)),
        ("per_players", s.per_players.as_ref().map(|p| &p.span)),
        ("per_tiles", s.per_tiles.as_ref().map(|p| &p.span)),
        ("per_value", s.per_value.as_ref().map(|p| &p.span)),
    ]);
    match given.as_slice() {
        [] => {
            let msg = "`score` needs the points: `per = N`, `per_players = [[players, points], \
                       …]` or `per_tiles = [[tiles, points], …]`";
            diags.push(bad(a, src, at, msg));
            return None;
        }
        [_] => {}
        [(first, _), (second, span), ..] => {
            let msg = format!("`{first}` and `{second}` both give the points; keep one");
            diags.push(bad(a, src, span, &msg));
            return None;
        }
    }
    if let Some(p) = &s.per {
        return Some(Per::Fixed(u32::try_from(p.value).unwrap_or(u32::MAX)));
    }
    if let Some(v) = &s.per_value {
        let on_feature = matches!(
            a.when.value,
            RawTrigger::FeatureCompleted | RawTrigger::FeatureScored
        );
        if !on_feature {
            let msg = format!(
                "`per_value` counts over the triggering feature; it needs when = \
                 \"feature-completed\" or \"feature-scored\", not \"{}\"",
                trigger_word(a.when.value)
            );
            diags.push(bad(a, src, &v.span, &msg));
            return None;
        }
        // Parsed against the variant's tags when the variant is checked and lowered.
        return Some(Per::Value(Expr::Int(0)));
    }
    if let Some(t) = &s.per_players {
        *per_players_at = Some(t.span.clone());
        let steps = table(a, "per_players", t, src, diags)?;
        if let Some((n, span)) = steps
            .iter()
            .zip(&t.value)
            .find(|((n, _), _)| *n == 0 || *n > MAX_PLAYERS)
            .map(|((n, _), e)| (*n, &e.span))
        {
            let msg = format!("`per_players`: {n} players is outside 1 to {MAX_PLAYERS}");
            diags.push(bad(a, src, span, &msg));
            return None;
        }
        return Some(Per::ByPlayers(
            steps.iter().map(|&(n, p)| (n as u8, p)).collect(),
        ));
    }
    let t = s.per_tiles.as_ref()?;
    let steps = table(a, "per_tiles", t, src, diags)?;
    Some(Per::ByTiles(
        steps
            .iter()
            .map(|&(n, p)| (u32::try_from(n).unwrap_or(u32::MAX), p))
            .collect(),
    ))
}

/// A per table: not empty, thresholds strictly increasing.
fn table(
    a: &RawAbility,
    key: &str,
    t: &Sp<PerTable>,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<(u64, u32)>> {
    if t.value.is_empty() {
        let msg = format!("`{key}` is empty; give at least one [threshold, points] pair");
        diags.push(bad(a, src, &t.span, &msg));
        return None;
    }
    for w in t.value.windows(2) {
        if w[1].value.0 <= w[0].value.0 {
            let msg = format!(
                "`{key}` must list its thresholds in increasing order: {} does not come after \
                 {}",
                w[1].value.0, w[0].value.0
            );
            diags.push(bad(a, src, &w[1].span, &msg));
            return None;
        }
    }
    Some(
        t.value
            .iter()
            .map(|e| (e.value.0, u32::try_from(e.value.1).unwrap_or(u32::MAX)))
            .collect(),
    )
}

/// Whether every key of `s` given applies to `count = word` (`name`); each that does not is
/// reported.
fn keys_fit(
    a: &RawAbility,
    s: &RawScore,
    word: RawCount,
    name: &str,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let before = diags.len();
    let mut stray = |key: &str, span: Option<&Range<usize>>, fits: bool| {
        if let (Some(span), false) = (span, fits) {
            let msg = format!("`{key}` does not apply to count = \"{name}\"");
            diags.push(bad(a, src, span, &msg));
        }
    };
    let followers = word == RawCount::Followers;
    let features = word == RawCount::Features;
    stray("owner", s.owner.as_ref().map(|o| &o.span), followers);
    stray(
        "feature",
        s.feature.as_ref().map(|f| &f.span),
        followers || features,
    );
    stray(
        "state",
        s.state.as_ref().map(|f| &f.span),
        followers || features,
    );
    stray("min_tiles", s.min_tiles.as_ref().map(|f| &f.span), features);
    stray("tag", s.tag.as_ref().map(|f| &f.span), features);
    stray(
        "min_run",
        s.min_run.as_ref().map(|f| &f.span),
        word == RawCount::Lines,
    );
    diags.len() == before
}

/// `count` with the keys that belong to it (`owner`, `feature`, `state`, `min_tiles`,
/// `min_run`).
fn count(a: &RawAbility, s: &RawScore, src: &Source, diags: &mut Vec<Diagnostic>) -> Option<Count> {
    let word = s.count.as_ref().map_or(RawCount::One, |c| c.value);
    let name = match word {
        RawCount::One => "one",
        RawCount::Followers => "followers",
        RawCount::Features => "features",
        RawCount::Lines => "lines",
    };
    if !keys_fit(a, s, word, name, src, diags) {
        return None;
    }
    let state = match s.state.as_ref().map(|s| s.value) {
        None | Some(RawState::Any) => State::Any,
        Some(RawState::Complete) => State::Complete,
        Some(RawState::Incomplete) => State::Incomplete,
    };
    let at = s.count.as_ref().map_or(&a.tile.span, |c| &c.span);
    Some(match word {
        RawCount::One => Count::One,
        RawCount::Followers => Count::Followers {
            owner: match s.owner.as_ref().map(|o| o.value) {
                None | Some(RawOwner::Own) => Owner::Own,
                Some(RawOwner::Others) => Owner::Others,
                Some(RawOwner::Anyone) => Owner::Anyone,
            },
            kind: s.feature.as_ref().map(|f| kind(f.value)),
            state,
        },
        RawCount::Features => {
            let Some(f) = &s.feature else {
                let msg = "count = \"features\" needs `feature = \"road\"` (or \"city\", \
                           \"field\", \"cloister\")";
                diags.push(bad(a, src, at, msg));
                return None;
            };
            Count::Features {
                kind: kind(f.value),
                min_tiles: s
                    .min_tiles
                    .as_ref()
                    .map_or(1, |m| u32::try_from(m.value).unwrap_or(u32::MAX)),
                state,
                // Resolved against the variant's tags when lowered.
                tag: None,
            }
        }
        RawCount::Lines => match &s.min_run {
            None => {
                let msg = "count = \"lines\" needs `min_run = N`: the least gap-free run of \
                           tiles in a row or column";
                diags.push(bad(a, src, at, msg));
                return None;
            }
            Some(m) if m.value == 0 => {
                let msg = "`min_run = 0` would count every row and column of the plane; give \
                           at least 1";
                diags.push(bad(a, src, &m.span, msg));
                return None;
            }
            Some(m) => Count::LinesWithRun(u32::try_from(m.value).unwrap_or(u32::MAX)),
        },
    })
}

/// Check the `[[ability]]` entries of a tile-set file and attach them to their tiles. `known`:
/// every tile id of the file (also of tiles that failed to compile, which get no ability).
pub fn attach(
    entries: &[Sp<RawAbility>],
    known: &[&str],
    tiles: &mut [CompiledTile],
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    for e in entries {
        let e = &e.value;
        if !known.contains(&e.tile.value.as_str()) {
            diags.push(dangling(e, known.iter().copied(), src, "in this file"));
            continue;
        }
        let (def, more) = check_ability(e, src, false);
        diags.extend(more);
        if let (Some(def), Some(t)) = (def, tiles.iter_mut().find(|t| t.id == e.tile.value)) {
            t.abilities.push(def);
        }
    }
}

/// An ability naming a tile that is not there, with the closest id as a suggestion.
fn dangling<'a>(
    e: &RawAbility,
    ids: impl Iterator<Item = &'a str>,
    src: &Source,
    where_: &str,
) -> Diagnostic {
    let mut d = src
        .diag(
            Code::DanglingReference,
            e.tile.span.clone(),
            format!(
                "ability {}: no tile `{}` {where_}",
                e.rule.value, e.tile.value
            ),
        )
        .with_rule(e.rule.value.clone());
    if let Some(s) = suggest(&e.tile.value, ids) {
        d.notes.push(format!("did you mean `{s}`?"));
    }
    d
}

/// A variant's `[[ability]]` entries: each tile named gets exactly the variant's entries for it
/// instead of its file's. `sets_ok`: every set loaded cleanly (else an unknown id may be a
/// missing set's and is not reported).
pub fn apply_overrides(
    entries: &[Sp<RawAbility>],
    tiles: &mut [CompiledTile],
    sets_ok: bool,
    src: &Source,
    diags: &mut Vec<Diagnostic>,
) {
    let mut replaced: Vec<String> = Vec::new();
    for e in entries {
        let e = &e.value;
        let Some(i) = tiles.iter().position(|t| t.id == e.tile.value) else {
            if sets_ok {
                diags.push(dangling(
                    e,
                    tiles.iter().map(|t| t.id.as_str()),
                    src,
                    "in this variant",
                ));
            }
            continue;
        };
        if !replaced.contains(&e.tile.value) {
            replaced.push(e.tile.value.clone());
            tiles[i].abilities.clear();
        }
        let (def, more) = check_ability(e, src, true);
        diags.extend(more);
        if let Some(def) = def {
            tiles[i].abilities.push(def);
        }
    }
}

/// What an ability is checked against in its variant: its tag names, resource ids and fewest
/// players.
pub struct VariantScope<'a> {
    /// The variant's tag list.
    pub tags: &'a [String],
    /// The ids of the variant's `[[resource]]` entries.
    pub resources: &'a [&'a str],
    /// The fewest players.
    pub min_players: u8,
}

/// The names an ability refers to in its variant: a gain's resource, a count's tag and a
/// gain's amount expression, each reported at its own key.
fn check_names(
    t: &CompiledTile,
    def: &AbilityDef,
    cx: &VariantScope,
    src: &Source,
) -> Vec<Diagnostic> {
    let rule = &def.ability.rule;
    let mut out = Vec::new();
    let mut report = |span: Range<usize>, msg: String, note: Option<String>| {
        let d = src.diag(
            Code::BadAbility,
            span,
            format!("ability {rule} of `{}`: {msg}", t.id),
        );
        let d = d.with_rule(rule.clone());
        out.push(match note {
            Some(n) => d.with_note(n),
            None => d,
        });
    };
    if let Some(r) = def
        .gain_resource
        .as_ref()
        .filter(|r| !cx.resources.contains(&r.value.as_str()))
    {
        let note =
            suggest(&r.value, cx.resources.iter().copied()).map(|s| format!("did you mean `{s}`?"));
        let msg = format!(
            "the variant declares no resource `{}` (`[[resource]]`)",
            r.value
        );
        report(r.span.clone(), msg, note);
    }
    if let Some(g) = def
        .count_tag
        .as_ref()
        .filter(|g| !cx.tags.contains(&g.value))
    {
        let note = suggest(&g.value, cx.tags.iter().map(String::as_str))
            .map(|s| format!("did you mean `{s}`?"));
        let msg = format!(
            "no tile or feature of the variant has the tag `{}`",
            g.value
        );
        report(g.span.clone(), msg, note);
    }
    let exprs = [
        ("gain amount", &def.gain_amount),
        ("per_value", &def.per_value),
    ];
    for (what, (text, kind)) in exprs
        .into_iter()
        .filter_map(|(w, e)| Some((w, e.as_ref()?)))
    {
        if let Err(e) = crate::values::parse(&text.value, *kind, cx.tags) {
            let at = crate::values::inner_span(src, text, e.at);
            report(at, format!("{what}: {}", e.message), None);
        }
    }
    out
}

/// Checks against the whole variant: every `near_building` tag is used by some tile of the
/// variant, the names a gain or a count refers to exist ([`VariantScope`]), and a
/// `per_players` table covers the fewest players. `where_(i, def)` is the file of tile `i`'s
/// ability `def`.
pub fn check_in_variant<'a>(
    tiles: &[CompiledTile],
    cx: &VariantScope,
    where_: impl Fn(usize, &AbilityDef) -> &'a Source,
    diags: &mut Vec<Diagnostic>,
) {
    let (tags, min_players) = (cx.tags, cx.min_players);
    for (i, t) in tiles.iter().enumerate() {
        for def in &t.abilities {
            let src = where_(i, def);
            diags.extend(check_names(t, def, cx, src));
            let rule = &def.ability.rule;
            if let Some(tag) = &def.near_tag {
                if !tags.contains(&tag.value) {
                    let mut d = src
                        .diag(
                            Code::BadAbility,
                            tag.span.clone(),
                            format!(
                                "ability {rule} of `{}`: no tile or feature of the variant has \
                                 the tag `{}`",
                                t.id, tag.value
                            ),
                        )
                        .with_rule(rule.clone());
                    let words = tags.iter().map(String::as_str).chain([CLOISTER]);
                    if let Some(s) = suggest(&tag.value, words) {
                        d.notes.push(format!("did you mean `{s}`?"));
                    }
                    diags.push(d);
                }
            }
            if let (
                Some(at),
                Effect::Score {
                    per: Per::ByPlayers(steps),
                    ..
                },
            ) = (&def.per_players_at, &def.ability.effect)
            {
                if steps.first().is_some_and(|&(n, _)| n > min_players) {
                    diags.push(
                        src.diag(
                            Code::BadAbility,
                            at.clone(),
                            format!(
                                "ability {rule} of `{}`: `per_players` starts at {} players, but \
                                 the variant allows {min_players}",
                                t.id, steps[0].0
                            ),
                        )
                        .with_rule(rule.clone()),
                    );
                }
            }
        }
    }
}

/// Every ability is on a tile some player can own: a tile's abilities belong to the seat that
/// placed it (from the pool, the pile or a hand). The one tile nobody places is the start tile:
/// an ability on a tile whose only copy starts on the board (after the variant's `start`) would
/// be accepted and never act. `where_(i, def)` is the file of tile `i`'s ability.
pub fn check_owned<'a>(
    tiles: &[CompiledTile],
    where_: impl Fn(usize, &AbilityDef) -> &'a Source,
    diags: &mut Vec<Diagnostic>,
) {
    for (i, t) in tiles.iter().enumerate() {
        if !t.start || t.count > 0 {
            continue;
        }
        let why = "its only copy is the start tile, which nobody places";
        let fix = "give the tile a pile copy (count = 2) or choose another start tile";
        for def in &t.abilities {
            let rule = &def.ability.rule;
            diags.push(
                where_(i, def)
                    .diag(
                        Code::UnownedAbility,
                        def.span.clone(),
                        format!(
                            "ability {rule} of `{}` would never act: a tile's abilities belong \
                             to the seat that placed it, and {why}",
                            t.id
                        ),
                    )
                    .with_rule(rule.clone())
                    .with_note(format!("{fix}, or remove the ability")),
            );
        }
    }
}

/// The lowered abilities of a tile: `near_building` and count tags resolved to indices into
/// `tags`, a gain's amount parsed against them (checked before: a name that does not resolve
/// here leaves the filter off or the amount 0).
pub fn lower(defs: &[AbilityDef], tags: &[String]) -> Vec<Ability> {
    defs.iter()
        .map(|d| {
            let mut a = d.ability.clone();
            let tag_of = |n: &Sp<String>| tags.iter().position(|t| *t == n.value).map(|i| i as u32);
            if let Effect::Score {
                count: Count::Features { tag, .. },
                ..
            } = &mut a.effect
            {
                *tag = d.count_tag.as_ref().and_then(tag_of);
            }
            let parse = |(text, kind): &(Sp<String>, FeatureKind)| {
                crate::values::parse(&text.value, *kind, tags).unwrap_or(Expr::Int(0))
            };
            if let (Effect::Gain { amount, .. }, Some(e)) = (&mut a.effect, &d.gain_amount) {
                *amount = parse(e);
            }
            if let (
                Effect::Score {
                    per: Per::Value(v), ..
                },
                Some(e),
            ) = (&mut a.effect, &d.per_value)
            {
                *v = parse(e);
            }
            let index = d
                .near_tag
                .as_ref()
                .and_then(|n| tags.iter().position(|t| *t == n.value))
                .map(|i| i as u32);
            for c in &mut a.conditions {
                if let Condition::Near { tag } = c {
                    *tag = index;
                }
            }
            a
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(toml_text: &str) -> (Option<AbilityDef>, Vec<Diagnostic>) {
        let a: RawAbility = toml::from_str(toml_text).expect("an ability table");
        check_ability(&a, &Source::new("t.toml", toml_text.to_string()), false)
    }

    #[test]
    fn defaults_count_once_and_own_followers_in_any_state() {
        let (d, diags) =
            check("tile = \"t\"\nrule = \"X-1\"\nwhen = \"game-end\"\nscore = { per = 1 }\n");
        assert!(diags.is_empty(), "{diags:?}");
        let a = d.unwrap().ability;
        assert_eq!(
            a.effect,
            Effect::Score {
                per: Per::Fixed(1),
                count: Count::One
            }
        );
        assert!(a.conditions.is_empty());
        assert!(!a.not_in_placing_turn);
        let (d, diags) = check(
            "tile = \"t\"\nrule = \"X-1\"\nwhen = \"game-end\"\n\
             score = { per = 1, count = \"followers\" }\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            d.unwrap().ability.effect,
            Effect::Score {
                per: Per::Fixed(1),
                count: Count::Followers {
                    owner: Owner::Own,
                    kind: None,
                    state: State::Any
                }
            }
        );
        let (d, _) = check(
            "tile = \"t\"\nrule = \"X-1\"\nwhen = \"game-end\"\n\
             score = { per = 1, count = \"features\", feature = \"cloister\" }\n",
        );
        assert_eq!(
            d.unwrap().ability.effect,
            Effect::Score {
                per: Per::Fixed(1),
                count: Count::Features {
                    kind: FeatureKind::Cloister,
                    min_tiles: 1,
                    state: State::Any,
                    tag: None
                }
            }
        );
    }

    #[test]
    fn near_cloister_has_no_tag_and_false_conditions_are_none() {
        let (d, diags) = check(
            "tile = \"t\"\nrule = \"X-1\"\nwhen = \"follower-placed\"\n\
             conditions = { near_building = \"cloister\" }\nscore = { per = 1 }\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        let d = d.unwrap();
        assert!(d.near_tag.is_none());
        assert_eq!(d.ability.conditions, [Condition::Near { tag: None }]);
        assert_eq!(
            lower(&[d], &["religious".into()])[0].conditions,
            [Condition::Near { tag: None }]
        );
        let (d, diags) = check(
            "tile = \"t\"\nrule = \"X-1\"\nwhen = \"feature-scored\"\nfeature = \"road\"\n\
             conditions = { occupied = false, owner_present = false }\nscore = { per = 1 }\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert!(d.unwrap().ability.conditions.is_empty());
    }

    #[test]
    fn a_tag_is_resolved_to_its_index() {
        let (d, _) = check(
            "tile = \"t\"\nrule = \"X-1\"\nwhen = \"follower-placed\"\n\
             conditions = { near_building = \"inn\" }\nscore = { per = 1 }\n",
        );
        let tags = vec!["abbey".to_string(), "inn".to_string()];
        assert_eq!(
            lower(&[d.unwrap()], &tags)[0].conditions,
            [Condition::Near { tag: Some(1) }]
        );
    }

    #[test]
    fn several_problems_are_reported_together() {
        // A stray trigger key, a condition for another trigger and a stray count key.
        let (d, diags) = check(
            "tile = \"t\"\nrule = \"X-1\"\nwhen = \"game-end\"\nowners_turn = true\n\
             conditions = { min_tiles = 3 }\nscore = { per = 1, count = \"lines\", min_run = 7, \
             owner = \"own\" }\n",
        );
        assert!(d.is_none());
        assert_eq!(diags.len(), 3, "{diags:?}");
        assert!(diags
            .iter()
            .all(|d| d.code == Code::BadAbility && d.rule.as_deref() == Some("X-1")));
    }
}
