//! Seat resources in scenarios (docs/FORMAT.md, "Seat resources"): holdings preset by hand
//! (`[setup] resources`) and the expected `gained` and `award` events.

use tegula_model::raw::Sp;
use tegula_model::Code;
use tegula_ruleset::Ruleset;

use super::{names, seat, Ctx, Expected, Pos};
use crate::raw::{RawEvent, RawHolding};

/// `[setup] resources`: `(seat, resource index, amount)` for each valid entry.
pub(super) fn holdings(
    cx: &mut Ctx,
    rs: &Ruleset,
    raw: &[Sp<RawHolding>],
    players: u8,
) -> Vec<(u8, u8, u32)> {
    let mut out = Vec::new();
    for h in raw {
        let seat = seat(cx, &h.seat, players);
        let r = resource(cx, rs, &h.resource);
        // The schema bounds the count (0 to 100000); a hand-built document may not.
        let count = u32::try_from(h.count.value).ok().filter(|&c| c <= 100_000);
        if count.is_none() {
            let why = format!("count {} out of range (0..=100000)", h.count.value);
            cx.err(Code::BadCount, &h.count.span, why);
        }
        if let (Some(s), Some(r), Some(c)) = (seat, r, count) {
            out.push((s, r as u8, c));
        }
    }
    out
}

/// Index of the variant's resource called `name`; an unknown name is a dangling reference
/// listing the known ones.
fn resource(cx: &mut Ctx, rs: &Ruleset, name: &Sp<String>) -> Option<usize> {
    let found = rs.resources.iter().position(|r| r.id == name.value);
    if found.is_none() {
        let known = names(rs.resources.iter().map(|r| format!("`{}`", r.id)));
        let why = if known.is_empty() {
            format!(
                "unknown resource `{}`: the variant declares none",
                name.value
            )
        } else {
            format!("unknown resource `{}` (the variant's: {known})", name.value)
        };
        cx.err(Code::DanglingReference, &name.span, why);
    }
    found
}

/// An expected `gained` or `award` event (the caller saw one of the two keys), with the seats
/// already read from `player` / `players`.
pub(super) fn event(
    cx: &mut Ctx,
    rs: &Ruleset,
    ev: &Sp<RawEvent>,
    seats: Vec<u8>,
    pos: Pos,
) -> Option<Expected> {
    let (name, gained) = match (&ev.gained, &ev.award, &ev.score, &ev.returned) {
        (Some(g), None, None, None) => (g, true),
        (None, Some(a), None, None) => (a, false),
        _ => {
            let why = "an event needs exactly one of `score`, `returned`, `gained` and `award`";
            cx.err(Code::BadExpectation, &ev.span, why);
            return None;
        }
    };
    resource(cx, rs, name)?;
    let rule = match &ev.rule {
        Some(r) if cx.rule_ok(r) => Some(r.value.clone()),
        Some(_) => None,
        None => {
            let why = "a gained or award event needs the `rule` it applies (e.g. \"TB-2\")";
            cx.err(Code::BadExpectation, &ev.span, why);
            None
        }
    };
    misplaced_keys(cx, ev, gained);
    let resource = name.value.clone();
    if gained {
        if let Some(p) = &ev.players {
            cx.err(
                Code::BadExpectation,
                &p.span,
                "a `gained` event takes one `player`",
            );
        }
        let amount = gained_amount(cx, ev)?;
        let player = *seats.first()?;
        return Some(Expected::Gain {
            player,
            resource,
            amount,
            spent: ev.spent,
            rule: rule?,
            pos,
        });
    }
    let points = super::expected_points(cx, ev, "an award event");
    Some(Expected::Award {
        players: seats,
        resource,
        points: points?,
        rule: rule?,
        pos,
    })
}

/// The keys the other kind of event takes: `points` on a gained event; `count` or `spent` on
/// an award.
fn misplaced_keys(cx: &mut Ctx, ev: &Sp<RawEvent>, gained: bool) {
    let (wrong, key) = if gained {
        (
            ev.points.as_ref().map(|p| &p.span),
            "`points` is for award events",
        )
    } else {
        (
            ev.count.as_ref().map(|c| &c.span),
            "`count` is for gained events",
        )
    };
    if let Some(span) = wrong {
        cx.err(Code::BadExpectation, span, key);
    }
    if ev.spent && !gained {
        cx.err(
            Code::BadExpectation,
            &ev.span,
            "`spent` is for gained events",
        );
    }
}

/// A gained event's `count` (1 when not given); `None`, reported, out of a holding's range.
fn gained_amount(cx: &mut Ctx, ev: &Sp<RawEvent>) -> Option<u32> {
    Some(match &ev.count {
        None => 1,
        // A seat's holding is a `u32` (docs/FORMAT.md, "Seat resources"): one gain is at
        // most its largest value, and a gain of 0 is no event.
        Some(c) => match u32::try_from(c.value) {
            Ok(n) if n >= 1 => n,
            _ => {
                let why = format!(
                    "gained count {} is out of range: a gain is 1 to {} (a seat's holding is \
                     a 32-bit counter)",
                    c.value,
                    u32::MAX
                );
                cx.err(Code::BadExpectation, &c.span, why);
                return None;
            }
        },
    })
}
