//! The short forms lowered to the one rule form (docs/design/rule-form.md, "Lowering the short
//! forms"): a `[[resource]]`'s gain and award and a figure's `payment` and `when_extended` stay
//! in the data as sugar, checked into the model's own types below (the contract has no field
//! for them), and become [`When`] entries of the compiled variant, so the engine runs them
//! through its one dispatcher and `variant explain` says them as rules of the one form.
//!
//! The lowered rules come before the `[[when]]` tables, in the order the engine ran the short
//! forms before (within one event the dispatcher runs its rules in list order, and that order
//! is the order of the effects in the log): resource gains (`feature-completed`) in resource
//! order, figures' `payment` (`feature-paid`) and `when_extended` (`tile-placed`) in figure
//! order, resource awards (`game-over`, after final scoring) in resource order. `[[ability]]`
//! is not lowered (docs/design/rule-form.md, "Lowered: resources, payments, extra turns").

use std::ops::Range;
use std::path::PathBuf;

use tegula_ruleset::{
    Act, Compare, Expr, FollowerType, Quantity, Resource, RuleEvent, Seat, Test, When,
};

use crate::diag::Source;
use crate::raw::{RawFollower, RawResource, Sp};
use crate::short_forms::{Award, Gain, PaymentModifier, ResourceForms, TurnEffect};

/// A lowered rule and where its short form was written (file, 1-based line).
pub type Placed = (When, (PathBuf, usize));

/// Lower the short forms of the resources (`forms`, by resource) and of the figures
/// (`payments`, by figure; `when_extended` read from `raw_followers`) into rules of the one
/// form, with where each was written in `src` (the variant file, where `raw_resources` and
/// `raw_followers` come from).
pub fn lower(
    (resources, forms): (&[Resource], &[ResourceForms]),
    (followers, payments): (&[FollowerType], &[Option<PaymentModifier>]),
    (raw_resources, raw_followers): (&[Sp<RawResource>], &[Sp<RawFollower>]),
    src: &Source,
) -> Vec<Placed> {
    let at = |span: Option<&Range<usize>>| {
        let (file, local) = src.origin(span.map_or(0, |s| s.start));
        let path = crate::reach::normalize(&file.path);
        (path, file.line_col(local).0)
    };
    let raw_resource = |id: &str| raw_resources.iter().find(|r| r.value.id.value == id);
    let raw_follower = |id: &str| raw_followers.iter().find(|f| f.value.id.value == id);
    let mut out = Vec::new();
    for (r, (res, f)) in resources.iter().zip(forms).enumerate() {
        if let Some(g) = f.gain.clone() {
            let raw = raw_resource(&res.id).and_then(|raw| raw.value.gain.as_ref());
            out.push((gain(r as u16, g), at(raw.map(|s| &s.span))));
        }
    }
    for (i, (f, p)) in followers.iter().zip(payments).enumerate() {
        if let Some(p) = p.clone() {
            let raw = raw_follower(&f.id).and_then(|raw| raw.value.payment.as_ref());
            out.push((payment(i as u8, p), at(raw.map(|s| &s.span))));
        }
    }
    for (i, f) in followers.iter().enumerate() {
        let raw = raw_follower(&f.id).and_then(|raw| raw.value.when_extended.as_ref());
        if let Some(t) = raw {
            let effect = crate::short_forms::turn_effect(&t.value);
            out.push((extra_turn(i as u32, effect), at(Some(&t.span))));
        }
    }
    for (r, (res, f)) in resources.iter().zip(forms).enumerate() {
        if let Some(a) = f.award.clone() {
            let raw = raw_resource(&res.id).and_then(|raw| raw.value.award.as_ref());
            out.push((award(r as u16, a), at(raw.map(|s| &s.span))));
        }
    }
    out
}

/// A resource's `gain` (TB-2): when a feature of its kind is completed during the game, the
/// placer of the completing tile gains the amount over the feature's counts.
fn gain(resource: u16, g: Gain) -> When {
    When {
        rule: g.rule,
        event: RuleEvent::FeatureCompleted {
            kinds: vec![g.feature],
        },
        test: None,
        then: vec![Act::Gain {
            resource,
            amount: g.amount,
            to: Seat::Placer,
            spend: false,
        }],
        offer: None,
        tile: None,
    }
}

/// A figure's `payment` (TB-8): whenever a feature is paid to its majority, each winner with a
/// figure of type `figure` on it scores the value over the counts of the part paid.
fn payment(figure: u8, p: PaymentModifier) -> When {
    When {
        rule: p.rule,
        event: RuleEvent::FeaturePaid { kinds: Vec::new() },
        test: None,
        then: vec![Act::Score {
            value: p.value,
            to: Seat::Has(figure),
        }],
        offer: None,
        tile: None,
    }
}

/// A resource's `award` (TB-3): once the game is over, the seats holding the most score it.
fn award(resource: u16, a: Award) -> When {
    When {
        rule: a.rule,
        event: RuleEvent::GameOver,
        test: None,
        then: vec![Act::Score {
            value: Expr::Int(a.most),
            to: Seat::Most(resource),
        }],
        offer: None,
        tile: None,
    }
}

/// A figure's `when_extended` (TB-5): when a tile is placed that extends a feature holding its
/// placer's figure of type `figure` (still open, unless a completing placement counts too), an
/// extra turn.
fn extra_turn(figure: u32, t: TurnEffect) -> When {
    let q = if t.completing {
        Quantity::Extends(figure)
    } else {
        Quantity::ExtendsOpen(figure)
    };
    let act = Act::ExtraTurn;
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
        tile: None,
    }
}
