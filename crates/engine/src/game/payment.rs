//! Payment modifiers: a figure type may add an expression over its feature's counts to its
//! owner's payment from that feature whenever the owner is among the feature's majority. Every
//! majority payment calls [`Game::pay_modifiers`] after paying the feature's value, so a modifier
//! acts in each of them alike (final scoring, a corner figure's scorings, the first edition's
//! field rule), and in no payment that is not a majority's (a corner figure owner's own final
//! score). Only variants with such a figure type pay for the walk (`Rules::any_payment`).

use super::score::FeatureCounts;
use super::{Event, Game};
use crate::points;

impl Game {
    /// Pay the modifiers of the figures on the feature rooted at `root` whose owners have the
    /// greatest `strength` (B-5: ties all count; top strength 0 pays nobody). `cities` is the
    /// city count of the payment when it is not the feature's own (one city, or a former
    /// field's). Each addition is its own score event, citing the modifier's rule.
    pub(super) fn pay_modifiers(&mut self, root: u32, strength: &[u32; 32], cities: Option<u32>) {
        let best = strength[..usize::from(self.seats.players)]
            .iter()
            .copied()
            .max()
            .unwrap_or(0);
        if best == 0 {
            return;
        }
        let rules = self.rules.clone();
        let followers = &rules.ruleset().followers;
        for i in 0..self.board.meeples.len() {
            let m = self.board.meeples[i];
            let Some(modifier) = &followers[usize::from(m.ftype)].payment else {
                continue;
            };
            if strength[usize::from(m.player)] != best || !self.on_feature(m.seg, root) {
                continue;
            }
            let mut buf = std::mem::take(&mut self.tmp.buf);
            let extra = modifier
                .value
                .eval(&mut FeatureCounts::new(self, root, &mut buf, cities));
            points::add(&mut self.seats.scores[usize::from(m.player)], extra);
            // A modifier worth nothing this time (no city yet) says nothing.
            if self.log.record && extra > 0 {
                let mut feature = self.info(root, &mut buf);
                if let Some(n) = cities {
                    feature.cities = n;
                }
                self.log.events.push(Event::Score {
                    turn: self.now.turn,
                    rule: modifier.rule.clone(),
                    players: vec![m.player],
                    points: extra,
                    feature,
                });
            }
            self.tmp.buf = buf;
        }
    }
}
