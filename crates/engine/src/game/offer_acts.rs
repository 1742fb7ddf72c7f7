//! The effects of an answered offer (`Offer::then`) on the chosen option.

use tegula_ruleset::{Act, Seat, CHOSEN};

use super::score::FeatureCounts;
use super::{find, ChoiceOption, Event, FeatureId, Game};

impl Game {
    /// Run `rule`'s offer effects for `seat`, who chose `option`.
    pub(super) fn run_offer(&mut self, rule: u16, seat: u8, option: ChoiceOption) {
        let rules = self.rules.clone();
        let when = &rules.ruleset().when[usize::from(rule)];
        let Some(offer) = when.offer.as_ref() else {
            return;
        };
        for act in &offer.then {
            self.offer_act(&when.rule, act, seat, option);
        }
    }

    fn offer_act(&mut self, rule: &str, act: &Act, seat: u8, option: ChoiceOption) {
        match act {
            Act::Score { value, to } => {
                if let (Some(root), Some(to)) =
                    (self.chosen_root(seat, option), self.one_seat(to, seat))
                {
                    self.score_chosen(rule, root, value, to);
                }
            }
            Act::Gain {
                resource,
                amount,
                to,
                spend,
            } => {
                let resource = match (*resource, option) {
                    (CHOSEN, ChoiceOption::Kind { resource, .. }) => resource,
                    (CHOSEN, _) => return,
                    (r, _) => r,
                };
                if let Some(to) = self.one_seat(to, seat) {
                    let n = amount.eval(&mut Constant);
                    self.change_holding(to, resource, n, *spend);
                }
            }
            Act::ReturnChosen => self.return_chosen(rule, seat, option),
            _ => {}
        }
    }

    /// The seat an effect of an offer reaches (the chooser, the actor or the placer).
    fn one_seat(&self, to: &Seat, chooser: u8) -> Option<u8> {
        match to {
            Seat::Chooser => Some(chooser),
            Seat::Actor => Some(self.active),
            Seat::Placer | Seat::Owner => Some(self.last_placer),
            _ => None,
        }
    }

    /// The root of the feature the chosen figure stands on.
    fn chosen_root(&mut self, seat: u8, option: ChoiceOption) -> Option<u32> {
        let i = self.chosen_meeple(seat, option)?;
        Some(find(&mut self.segs, self.meeples[i].seg))
    }

    /// The index into `meeples` of the chosen figure.
    fn chosen_meeple(&self, seat: u8, option: ChoiceOption) -> Option<usize> {
        let ChoiceOption::Figure {
            x,
            y,
            feature,
            follower,
        } = option
        else {
            return None;
        };
        self.meeples.iter().position(|m| {
            let s = self.segs[m.seg as usize];
            let inst = self.insts[s.inst as usize];
            m.player == seat
                && m.ftype == follower
                && s.local == feature
                && (inst.x, inst.y) == (x, y)
        })
    }

    fn score_chosen(&mut self, rule: &str, root: u32, value: &tegula_ruleset::Expr, to: u8) {
        let mut buf = std::mem::take(&mut self.tmp.buf);
        let points = value.eval(&mut FeatureCounts::new(self, root, &mut buf, None));
        let info = self.record.then(|| self.info(root, &mut buf));
        self.tmp.buf = buf;
        let s = &mut self.scores[usize::from(to)];
        *s = s.saturating_add(points);
        if let Some(feature) = info {
            self.events.push(Event::Score {
                turn: self.turn,
                rule: rule.to_string(),
                players: vec![to],
                points,
                feature,
            });
        }
    }

    fn change_holding(&mut self, seat: u8, resource: u16, n: u32, spend: bool) {
        let nr = self.rules.ruleset().resources.len();
        let Some(h) = self
            .holdings
            .get_mut(usize::from(seat) * nr + usize::from(resource))
        else {
            return;
        };
        *h = if spend {
            h.saturating_sub(n)
        } else {
            h.saturating_add(n)
        };
    }

    /// The chosen figure returns to its owner's supply.
    fn return_chosen(&mut self, rule: &str, seat: u8, option: ChoiceOption) {
        let Some(i) = self.chosen_meeple(seat, option) else {
            return;
        };
        let m = self.meeples.remove(i);
        let root = find(&mut self.segs, m.seg);
        let occupies = self.rules.figures[usize::from(m.ftype)].occupies;
        let s = &mut self.segs[root as usize];
        s.occ = s.occ.saturating_sub(1);
        if !occupies {
            s.guests = s.guests.saturating_sub(1);
        }
        let nf = self.rules.figures.len();
        self.supply[usize::from(m.player) * nf + usize::from(m.ftype)] += 1;
        if self.record {
            self.events.push(Event::Return {
                turn: self.turn,
                player: m.player,
                follower: self.rules.follower_id(m.ftype).to_string(),
                feature: FeatureId(root),
                rule: Some(rule.to_string()),
            });
        }
    }
}

/// Counts for a value that reads no feature (an amount): every quantity is 0.
struct Constant;

impl tegula_ruleset::Counts for Constant {
    fn count(&mut self, _q: tegula_ruleset::Quantity) -> u32 {
        0
    }
}
