//! The short forms lowered to the one rule form (docs/design/rule-form.md, "Lowering the short
//! forms"): a `[[resource]]`'s gain and award and a figure's `when_extended` and `payment` stay
//! in the data as sugar, and become [`When`] entries of the compiled variant, so the engine runs
//! them through its one dispatcher and `variant explain` says them as rules of the one form.
//!
//! The lowered rules come before the `[[when]]` tables, in the order the engine ran the short
//! forms before (within one event the dispatcher runs its rules in list order, and that order
//! is the order of the effects in the log): resource gains in resource order, figures'
//! `payment` and `when_extended` in figure order, resource awards in resource order.

use std::path::PathBuf;

use tegula_ruleset::{
    Act, Compare, Expr, FollowerType, Quantity, Resource, RuleEvent, Seat, Test, TurnAction, When,
};

use crate::diag::Source;
use crate::raw::{RawFollower, RawResource, Sp};

/// A lowered rule and where its short form was written (file, 1-based line).
pub type Placed = (When, (PathBuf, usize));

/// Lower the short forms of `resources` and `followers` (taking them out of the contract's
/// resource and figure entries) into rules of the one form, with where each was written in
/// `src` (the variant file, where `raw_resources` and `raw_followers` come from).
pub fn lower(
    resources: &mut [Resource],
    followers: &mut [FollowerType],
    (raw_resources, raw_followers): (&[Sp<RawResource>], &[Sp<RawFollower>]),
    src: &Source,
) -> Vec<Placed> {
    let at = |offset: usize| {
        let (file, local) = src.origin(offset);
        let path = crate::validate::normalize(&file.path);
        (path, file.line_col(local).0)
    };
    let raw_resource = |id: &str| raw_resources.iter().find(|r| r.value.id.value == id);
    let mut out = Vec::new();
    for (r, res) in resources.iter_mut().enumerate() {
        let Some(g) = res.gain.take() else {
            continue;
        };
        let span = raw_resource(&res.id).and_then(|raw| raw.value.gain.as_ref());
        let w = When {
            rule: g.rule,
            event: RuleEvent::FeatureCompleted {
                kinds: vec![g.feature],
            },
            test: None,
            then: vec![Act::Gain {
                resource: r as u16,
                amount: g.amount,
                to: Seat::Placer,
                spend: false,
            }],
            offer: None,
        };
        out.push((w, at(span.map_or(0, |s| s.span.start))));
    }
    let raw_follower = |id: &str| raw_followers.iter().find(|f| f.value.id.value == id);
    for (i, f) in followers.iter_mut().enumerate() {
        let Some(t) = f.when_extended.take() else {
            continue;
        };
        let span = raw_follower(&f.id).and_then(|raw| raw.value.when_extended.as_ref());
        out.push((
            extra_turn(i as u32, t),
            at(span.map_or(0, |s| s.span.start)),
        ));
    }
    out
}

/// A figure's `when_extended` (TB-5): when a tile is placed that extends a feature holding its
/// placer's figure of type `figure` (still open, unless a completing placement counts too), an
/// extra turn.
fn extra_turn(figure: u32, t: tegula_ruleset::TurnEffect) -> When {
    let q = if t.completing {
        Quantity::Extends(figure)
    } else {
        Quantity::ExtendsOpen(figure)
    };
    let act = match t.effect {
        TurnAction::ExtraTurn => Act::ExtraTurn,
    };
    When {
        rule: t.rule,
        event: RuleEvent::TilePlaced { tag: None },
        test: Some(Test::Cmp(
            Compare::Gt,
            Box::new(Expr::Count(q)),
            Box::new(Expr::Int(0)),
        )),
        then: vec![act],
        offer: None,
    }
}
