//! Extra turns (TB-5): a rule of the one form (`Act::ExtraTurn`; a figure's `when_extended` is
//! lowered to one whose test reads `extends(FIGURE)`, `game/rule_counts.rs`; a tile's
//! `[[ability]]` to one the tile carries) gives the actor one more turn. A turn granted this way never grants
//! another, one turn earns at most one, and none is granted when the pile is empty. Only
//! variants with such a rule pay for the check (`Rules::any_extra_turn`).

use super::{Event, Game};

/// What earned an extra turn: a rule of the one form (a figure's `when_extended` and a tile's
/// abilities are lowered to them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum ExtraFrom {
    /// A rule of the one form (index into the ruleset's `when`).
    Rule(u16),
}

impl ExtraFrom {
    /// A few bits for the state hash.
    pub(super) fn bits(self) -> u64 {
        match self {
            ExtraFrom::Rule(i) => 2 << 40 | u64::from(i),
        }
    }
}

impl Game {
    /// Whether this turn may still earn an extra turn: it is no extra turn itself and has not
    /// earned one yet.
    pub(super) fn may_grant_extra(&self) -> bool {
        !self.now.in_extra && self.now.extra_due.is_none()
    }

    /// Note that this turn earned an extra turn (if it may still earn one).
    pub(super) fn grant_extra(&mut self, from: ExtraFrom) {
        if self.may_grant_extra() {
            self.now.extra_due = Some(from);
        }
    }

    /// At the end of a turn: start the extra turn it earned, if any (the same seat draws
    /// again; not in the final round, nor with the pile empty). Returns whether one started.
    pub(super) fn start_extra_turn(&mut self) -> bool {
        self.now.in_extra = false;
        let Some(from) = self.now.extra_due.take() else {
            return false;
        };
        if self.now.in_final || self.deck.drawn >= self.deck.pile.len() {
            return false;
        }
        self.now.in_extra = true;
        if self.log.record {
            let rs = self.rules.ruleset();
            let ExtraFrom::Rule(i) = from;
            let rule = rs.when.get(usize::from(i)).map_or("", |w| &w.rule);
            let rule = rule.to_string();
            self.log.events.push(Event::ExtraTurn {
                turn: self.now.turn,
                player: self.now.active,
                rule,
            });
        }
        self.begin_turn();
        true
    }
}
