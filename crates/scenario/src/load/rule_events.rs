//! Expected events of the one rule form's effects: a rule's `points` with no feature
//! (`{ points = 3, player = 1, rule = … }`), a token taken (`token`), counters put on a tile
//! (`counters`, no player) and counters collected (`collect`).

use tegula_model::raw::Sp;
use tegula_model::Code;
use tegula_ruleset::Ruleset;

use super::{coordinates, names, Ctx, Expected, Pos};
use crate::raw::RawEvent;

/// Whether `ev` is one of these events (then [`event`] reads it).
pub(super) fn is_rule_event(ev: &RawEvent) -> bool {
    let others =
        ev.score.is_some() || ev.returned.is_some() || ev.gained.is_some() || ev.award.is_some();
    let held = ev.captured.is_some() || ev.exchanged.is_some() || ev.redeemed.is_some();
    ev.token.is_some() || ev.counters.is_some() || ev.collect.is_some() || held || !others
}

/// Whether `ev` names its seats (every event but `counters`).
pub(super) fn has_seats(ev: &RawEvent) -> bool {
    ev.counters.is_none()
}

/// One expected event of the one form's effects, `seats` read from `player` / `players`.
pub(super) fn event(
    cx: &mut Ctx,
    rs: &Ruleset,
    ev: &Sp<RawEvent>,
    seats: Vec<u8>,
    pos: Pos,
) -> Option<Expected> {
    let keys = [
        ev.score.is_some(),
        ev.returned.is_some(),
        ev.gained.is_some(),
        ev.award.is_some(),
        ev.token.is_some(),
        ev.counters.is_some(),
        ev.collect.is_some(),
        ev.captured.is_some(),
        ev.exchanged.is_some(),
        ev.redeemed.is_some(),
    ];
    if keys.iter().filter(|&&k| k).count() > 1 {
        let why = "an event needs exactly one of `score`, `returned`, `gained`, `award`, \
                   `token`, `counters`, `collect`, `captured`, `exchanged` and `redeemed` (or \
                   `points` alone)";
        cx.err(Code::BadExpectation, &ev.span, why);
        return None;
    }
    let rule = rule(cx, ev)?;
    if let Some(t) = &ev.token {
        known(cx, t, rs.tokens.iter().map(|k| k.id.clone()), "token")?;
        let player = one_seat(cx, ev, &seats)?;
        let token = t.value.clone();
        return Some(Expected::Token {
            player,
            token,
            rule,
            pos,
        });
    }
    if let Some(c) = &ev.counters {
        return counters(cx, rs, ev, c, (rule, pos));
    }
    if let Some(e) = held_event(cx, rs, ev, &seats, (&rule, pos)) {
        return e;
    }
    if let Some(c) = &ev.collect {
        known(cx, c, rs.counters.iter().map(|k| k.id.clone()), "counter")?;
        let player = one_seat(cx, ev, &seats)?;
        let amount = count(cx, &ev.count, "count")?;
        let counter = c.value.clone();
        return Some(Expected::Collect {
            player,
            counter,
            amount,
            rule,
            pos,
        });
    }
    let points = super::expected_points(cx, ev, "a rule's points event")?;
    Some(Expected::Points {
        players: seats,
        points,
        rule,
        pos,
    })
}

/// A `captured`, `exchanged` or `redeemed` event, if `ev` is one (`Some(None)` after a
/// diagnostic).
fn held_event(
    cx: &mut Ctx,
    rs: &Ruleset,
    ev: &Sp<RawEvent>,
    seats: &[u8],
    (rule, pos): (&str, Pos),
) -> Option<Option<Expected>> {
    let (which, f) = match (&ev.captured, &ev.exchanged, &ev.redeemed) {
        (Some(f), _, _) => (0, f),
        (_, Some(f), _) => (1, f),
        (_, _, Some(f)) => (2, f),
        _ => return None,
    };
    let figures = rs.followers.iter().map(|k| k.id.clone());
    if known(cx, f, figures, "figure").is_none() {
        return Some(None);
    }
    let Some(player) = one_seat(cx, ev, seats) else {
        return Some(None);
    };
    let (follower, rule) = (f.value.clone(), rule.to_string());
    let owner = match (&ev.owner, which) {
        (Some(o), 0) if (0..8).contains(&o.value) => o.value as u8,
        (None, 0) => {
            let why = "a `captured` event needs the figure's `owner` (a seat)";
            cx.err(Code::BadExpectation, &ev.span, why);
            return Some(None);
        }
        (Some(o), _) if which != 0 => {
            let why = "`owner` goes only with `captured`";
            cx.err(Code::BadExpectation, &o.span, why);
            return Some(None);
        }
        _ => player,
    };
    Some(Some(match which {
        0 => Expected::Capture {
            player,
            owner,
            follower,
            rule,
            pos,
        },
        1 => Expected::Exchange {
            player,
            follower,
            rule,
            pos,
        },
        _ => Expected::Redeem {
            player,
            follower,
            points: super::expected_points(cx, ev, "a `redeemed` event")?,
            rule,
            pos,
        },
    }))
}

fn counters(
    cx: &mut Ctx,
    rs: &Ruleset,
    ev: &Sp<RawEvent>,
    c: &Sp<String>,
    (rule, pos): (String, Pos),
) -> Option<Expected> {
    known(cx, c, rs.counters.iter().map(|k| k.id.clone()), "counter")?;
    if let Some(p) = ev.player.as_ref().map(|p| &p.span) {
        cx.err(Code::BadExpectation, p, "a `counters` event names no seat");
    }
    let Some(at) = &ev.at else {
        let why = "a `counters` event needs `at = [x, y]`, the tile's anchor cell";
        cx.err(Code::BadExpectation, &ev.span, why);
        return None;
    };
    let (x, y) = coordinates(cx, at)?;
    let added = count(cx, &ev.count, "count")?;
    Some(Expected::Counters {
        counter: c.value.clone(),
        at: [x, y],
        added,
        rule,
        pos,
    })
}

/// The event's `rule`, required and known.
fn rule(cx: &mut Ctx, ev: &Sp<RawEvent>) -> Option<String> {
    match &ev.rule {
        Some(r) => cx.rule_ok(r).then(|| r.value.clone()),
        None => {
            let why = "this event needs the `rule` whose effect it is (its rule id)";
            cx.err(Code::BadExpectation, &ev.span, why);
            None
        }
    }
}

/// `name` is one of `ids` (a token or counter of the variant); else a dangling reference.
fn known(
    cx: &mut Ctx,
    name: &Sp<String>,
    ids: impl Iterator<Item = String>,
    what: &str,
) -> Option<()> {
    let ids: Vec<String> = ids.collect();
    if ids.contains(&name.value) {
        return Some(());
    }
    let have = names(ids.iter().map(|i| format!("`{i}`")));
    let why = format!("unknown {what} `{}` (the variant's: {have})", name.value);
    cx.err(Code::DanglingReference, &name.span, why);
    None
}

fn one_seat(cx: &mut Ctx, ev: &Sp<RawEvent>, seats: &[u8]) -> Option<u8> {
    if let Some(p) = &ev.players {
        cx.err(
            Code::BadExpectation,
            &p.span,
            "this event takes one `player`",
        );
    }
    seats.first().copied()
}

/// The `count` of a `counters` or `collect` event: 1 to 100000, default 1.
fn count(cx: &mut Ctx, v: &Option<Sp<i64>>, key: &str) -> Option<u32> {
    match v {
        None => Some(1),
        Some(c) if (1..=100_000).contains(&c.value) => Some(c.value as u32),
        Some(c) => {
            cx.err(
                Code::BadExpectation,
                &c.span,
                format!("{key} must be 1 to 100000"),
            );
            None
        }
    }
}
