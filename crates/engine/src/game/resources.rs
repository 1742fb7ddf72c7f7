//! Seat resources (docs/FORMAT.md, "Seat resources"): named counters every seat holds, gained
//! when the tile a seat placed completes a feature during the game, and worth an award at the
//! end to the seats holding the most. Variants without resources never reach this file: the
//! callers test [`crate::rules::Rules::gains`] and the empty resource list first.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::score::FeatureCounts;
use super::{Event, FeatureId, Game};
use crate::points;

impl Game {
    /// The gains for the feature rooted at `root`, just completed during the game: the seat that
    /// placed the completing tile gains each resource's amount for the feature's kind, whoever
    /// wins the feature and whether or not it has a figure there. Completion in final scoring
    /// never comes here (only the turn's scoring step calls it).
    pub(super) fn gain_resources(&mut self, root: u32) {
        let rules = Arc::clone(&self.rules);
        let list = &rules.ruleset().resources;
        let kind = self.board.segs[root as usize].kind;
        let seat = self.now.last_placer;
        let mut buf = std::mem::take(&mut self.tmp.buf);
        for (r, res) in list.iter().enumerate() {
            let Some(gain) = res.gain.as_ref().filter(|g| g.feature == kind) else {
                continue;
            };
            let amount = gain
                .amount
                .eval(&mut FeatureCounts::new(self, root, &mut buf, None));
            if amount == 0 {
                continue;
            }
            points::add(
                &mut self.seats.holdings[seat as usize * list.len() + r],
                amount,
            );
            if self.log.record {
                self.log.events.push(Event::Gain {
                    turn: self.now.turn,
                    rule: gain.rule.clone(),
                    player: seat,
                    resource: res.id.clone(),
                    amount,
                    feature: Some(FeatureId(root)),
                    spent: false,
                });
            }
        }
        self.tmp.buf = buf;
    }

    /// The end-of-game awards: for each resource with one, every seat holding the most scores
    /// it (ties all score); when nobody holds any, nobody scores.
    pub(super) fn award_resources(&mut self) {
        let rules = Arc::clone(&self.rules);
        let list = &rules.ruleset().resources;
        for (r, res) in list.iter().enumerate() {
            let Some(award) = &res.award else {
                continue;
            };
            let mut held = [0u32; 32];
            let seats = held.iter_mut().take(self.seats.players as usize);
            for (slot, &n) in seats.zip(self.seats.holdings.iter().skip(r).step_by(list.len())) {
                *slot = n;
            }
            let winners = self.pay_best(&held, award.most);
            if self.log.record && !winners.is_empty() {
                self.log.events.push(Event::Award {
                    turn: self.now.turn,
                    rule: award.rule.clone(),
                    players: winners,
                    resource: res.id.clone(),
                    held: held.iter().copied().max().unwrap_or(0),
                    points: award.most,
                });
            }
        }
    }

    /// How much of resource `resource` (index into the ruleset's resources) seat `seat` holds;
    /// 0 for an index out of range.
    pub fn holding(&self, seat: u8, resource: usize) -> u32 {
        let n = self.rules.ruleset().resources.len();
        if resource >= n {
            return 0;
        }
        let i = seat as usize * n + resource;
        self.seats.holdings.get(i).copied().unwrap_or(0)
    }

    /// Each resource's holdings by seat, keyed by resource id (the end event's form).
    pub fn holdings_by_id(&self) -> BTreeMap<String, Vec<u32>> {
        let list = &self.rules.ruleset().resources;
        let seats = 0..self.seats.players;
        list.iter()
            .enumerate()
            .map(|(r, res)| {
                (
                    res.id.clone(),
                    seats.clone().map(|p| self.holding(p, r)).collect(),
                )
            })
            .collect()
    }

    /// Every seat's holdings, seat by seat (`seat * resources + resource`, the order of the
    /// ruleset's resources); empty when the variant declares none.
    pub fn holdings(&self) -> &[u32] {
        &self.seats.holdings
    }
}
