//! Counters taken off scored features' tiles (GM-3, GM-4): every entitled seat takes one at a
//! time, the actor first, then the others in turn order, until no entitled counter is left;
//! each only from the tiles of features it won. Within the turn's scoring step the takes of all
//! the features scored are shared together (GM-4's "several features scored in one turn"); a
//! take anywhere else is settled at once. Which tile a seat takes from, when it has a choice:
//! the tile the most seats are entitled to, then the earliest placed (the automatic reading of
//! GM-4's choice).

use super::when::Ctx;
use super::{Event, FeatureId, Game};
use crate::points;

/// One feature's take: who may take which tiles' counters, into what.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Claim {
    /// The rule (index into the ruleset's `when`).
    rule: u16,
    /// Counter kind and the resource it becomes.
    counter: u16,
    into: u16,
    /// The entitled seats, bit per seat.
    seats: u32,
    /// The feature's tiles (instances).
    tiles: Vec<u32>,
    /// The feature (a segment of it).
    feature: Option<u32>,
    /// The seat whose turn it is.
    actor: u8,
}

impl Game {
    /// The seats `seats` take the counters `counter` on the subject's tiles into resource
    /// `into` (rule `rule`): at once, or with the other takes of the scoring step.
    pub(super) fn act_take(
        &mut self,
        rule: u16,
        (counter, into): (u16, u16),
        seats: u32,
        ctx: &Ctx,
    ) {
        let nr = self.rules.ruleset().resources.len();
        let (c, r) = (usize::from(counter), usize::from(into));
        if seats == 0 || c >= self.rf.counters.len() || r >= nr {
            return;
        }
        let claim = Claim {
            rule,
            counter,
            into,
            seats,
            tiles: self.subject_tiles(ctx),
            feature: ctx.subject_feature(),
            actor: ctx.actor,
        };
        match &mut self.rf.claims {
            Some(pending) => pending.push(claim),
            None => self.settle(&[claim]),
        }
    }

    /// The scoring step begins: takes wait for each other.
    pub(super) fn hold_takes(&mut self) {
        self.rf.claims = Some(Vec::new());
    }

    /// The scoring step ends: the takes it collected are shared out.
    pub(super) fn settle_takes(&mut self) {
        let claims = self.rf.claims.take().unwrap_or_default();
        // By counter kind and resource, in the order first claimed.
        let mut done = vec![false; claims.len()];
        for i in 0..claims.len() {
            if done[i] {
                continue;
            }
            let key = (claims[i].counter, claims[i].into);
            let group: Vec<Claim> = (i..claims.len())
                .filter(|&j| (claims[j].counter, claims[j].into) == key)
                .map(|j| {
                    done[j] = true;
                    claims[j].clone()
                })
                .collect();
            self.settle(&group);
        }
    }

    /// Share the counters of `claims` (one counter kind into one resource) among their seats.
    fn settle(&mut self, claims: &[Claim]) {
        let Some(first) = claims.first() else {
            return;
        };
        let (c, r) = (usize::from(first.counter), usize::from(first.into));
        let seats = claims.iter().fold(0, |m, k| m | k.seats);
        let order = self.in_turn_order(seats, first.actor);
        // Each tile once, with its stock and how many seats may take from it.
        let mut tiles: Vec<(u32, u32, u32)> = Vec::new();
        for k in claims {
            for &t in &k.tiles {
                match tiles.iter_mut().find(|e| e.0 == t) {
                    Some(e) => e.2 |= k.seats,
                    None => tiles.push((t, self.rf.counters_on(c, t), k.seats)),
                }
            }
        }
        tiles.sort_unstable_by_key(|e| (std::cmp::Reverse(e.2.count_ones()), e.0));
        let mut got = vec![0u32; order.len()];
        loop {
            let mut took = false;
            for (i, &p) in order.iter().enumerate() {
                let mine = tiles.iter_mut().find(|e| e.1 > 0 && e.2 >> p & 1 != 0);
                if let Some(e) = mine {
                    e.1 -= 1;
                    got[i] += 1;
                    took = true;
                }
            }
            if !took {
                break;
            }
        }
        for &(t, left, _) in &tiles {
            self.rf.set_counters(c, t, left);
        }
        let nr = self.rules.ruleset().resources.len();
        for (&p, &n) in order.iter().zip(&got).filter(|(_, &n)| n > 0) {
            points::add(&mut self.seats.holdings[usize::from(p) * nr + r], n);
            if self.log.record {
                self.record_collect(claims, p, n);
            }
        }
    }

    /// The event of seat `p` taking `n` counters under `claims`: cited by the first claim that
    /// entitles it, naming its feature when only one does.
    fn record_collect(&mut self, claims: &[Claim], p: u8, n: u32) {
        let mut mine = claims.iter().filter(|k| k.seats >> p & 1 != 0);
        let Some(k) = mine.next() else {
            return;
        };
        let feature = k.feature.filter(|_| mine.next().is_none());
        let rs = self.rules.ruleset();
        let event = Event::Collect {
            turn: self.now.turn,
            rule: rs.when[usize::from(k.rule)].rule.clone(),
            counter: rs.counters[usize::from(k.counter)].id.clone(),
            player: p,
            amount: n,
            resource: rs.resources[usize::from(k.into)].id.clone(),
            feature: feature.map(|f| FeatureId(self.find_ro(f))),
        };
        self.log.events.push(event);
    }
}
