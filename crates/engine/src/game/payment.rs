//! Majority payments as an event: every payment of a feature's value to its majority (B-5) —
//! the feature's own scoring, a corner figure's field payments, each city of the first edition's
//! field rule — raises the one form's `feature-paid` right after it, with the seats paid and
//! the counts of the part paid. A figure's `payment` (TB-8) is lowered to such a rule by the
//! model. Only variants with a `feature-paid` rule pay for it (`Rules::any_payment`).

use super::Game;

impl Game {
    /// The feature rooted at `root` was just paid to the seats with the greatest `strength`
    /// (B-5: ties all count; top strength 0 pays nobody, and raises nothing). `cities` is the
    /// city count of the payment when it is not the feature's own (one city, or a former
    /// field's).
    pub(super) fn pay_modifiers(&mut self, root: u32, strength: &[u32; 32], cities: Option<u32>) {
        let winners = self.winner_bits(strength);
        if winners != 0 {
            self.rule_paid(root, winners, cities);
        }
    }
}
