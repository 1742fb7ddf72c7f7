//! Seat resources (docs/FORMAT.md, "Seat resources"): named counters every seat holds, read
//! here. They are gained and awarded through rules of the one form (`effects.rs`; a
//! `[[resource]]`'s gain and award are lowered to such rules by the model).

use std::collections::BTreeMap;

use super::Game;

impl Game {
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
