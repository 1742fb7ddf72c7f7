//! The short forms' checked values, in the model's own types (the contract has no field for
//! them: `rule_form::short` lowers them to rules of the one form): a resource's `gain` and
//! `award` ([`crate::resources::lower`]), a figure's `payment`
//! ([`crate::figure_values::lower_values`]) and `when_extended` ([`turn_effect`]).

use tegula_ruleset::{Expr, FeatureKind};

use crate::raw::{RawTurnAction, RawTurnEffect};

/// A resource's `gain` (TB-2), checked: when a feature of kind `feature` is completed during
/// the game, the seat that placed the completing tile gains `amount` over its counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gain {
    /// The kind of feature whose completion gains.
    pub feature: FeatureKind,
    /// How much the placer gains, over the completed feature's counts.
    pub amount: Expr,
    /// Rule id its events cite.
    pub rule: String,
}

/// A resource's `award` (TB-3), checked: the seats holding the most score `most`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Award {
    /// Points to each seat holding the most.
    pub most: u32,
    /// Rule id its events cite.
    pub rule: String,
}

/// A resource's short forms, as checked (`crate::resources::lower`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceForms {
    /// Its `gain`.
    pub gain: Option<Gain>,
    /// Its `award`.
    pub award: Option<Award>,
}

/// A figure's `payment` (TB-8), checked: added to its owner's payment from its feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaymentModifier {
    /// Rule id cited by the score event of the addition.
    pub rule: String,
    /// The addition, over the counts of the feature being paid.
    pub value: Expr,
}

/// A figure's `when_extended` (TB-5), checked: an extra turn when a placement extends a
/// feature holding the placer's figure of the type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnEffect {
    /// Rule id cited by the event of the effect.
    pub rule: String,
    /// Whether a placement that extends the feature and completes it at once still triggers.
    pub completing: bool,
}

/// A figure's `when_extended`, as the lowering reads it (TB-5; its one effect is the extra
/// turn; `completing` defaults to true).
pub fn turn_effect(t: &RawTurnEffect) -> TurnEffect {
    let RawTurnAction::ExtraTurn = t.effect.value;
    TurnEffect {
        rule: t.rule.value.clone(),
        completing: t.completing.as_ref().is_none_or(|c| c.value),
    }
}

#[cfg(test)]
mod tests {
    use crate::raw::{RawTurnEffect, Sp};

    #[test]
    fn a_when_extended_reads_its_rule_and_completing() {
        #[derive(serde::Deserialize)]
        struct Doc {
            when_extended: Sp<RawTurnEffect>,
        }
        let doc: Doc = toml::from_str(
            "when_extended = { rule = \"TB-5\", effect = \"extra-turn\", completing = false }",
        )
        .expect("a turn effect");
        let effect = super::turn_effect(&doc.when_extended.value);
        let want = super::TurnEffect {
            rule: "TB-5".into(),
            completing: false,
        };
        assert_eq!(effect, want);
    }
}
