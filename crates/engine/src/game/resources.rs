//! Seat resources (docs/FORMAT.md, "Seat resources"): named counters every seat holds, gained
//! through rules of the one form (a `[[resource]]`'s gain is lowered to one: `effects.rs`), and
//! worth an award at the end to the seats holding the most. Variants without resources never
//! reach this file: the caller tests the empty resource list first.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{Event, Game};

impl Game {
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
            let seats = held.iter_mut().take(self.players as usize);
            for (slot, &n) in seats.zip(self.holdings.iter().skip(r).step_by(list.len())) {
                *slot = n;
            }
            let winners = self.pay_best(&held, award.most);
            if self.record && !winners.is_empty() {
                self.events.push(Event::Award {
                    turn: self.turn,
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
        self.holdings.get(i).copied().unwrap_or(0)
    }

    /// Each resource's holdings by seat, keyed by resource id (the end event's form).
    pub fn holdings_by_id(&self) -> BTreeMap<String, Vec<u32>> {
        let list = &self.rules.ruleset().resources;
        let seats = 0..self.players;
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
        &self.holdings
    }
}
