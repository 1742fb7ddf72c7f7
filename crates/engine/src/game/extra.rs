//! Turn effects: a figure type may give its owner one more turn when a placement of theirs
//! extends the feature the figure already stood on (TB-5). "Extends" means that a segment of
//! the tile just placed joined that feature; a tile whose sides carry no segment (one that only
//! closes its neighbours' features) extends nothing, a mega tile extends like any tile. A turn
//! granted this way never grants another, and none is granted when the pile is empty. Only
//! variants with such a figure type pay for the check (`Rules::any_extra_turn`).

use super::{find, Event, Game};

impl Game {
    /// After a placement: note an extra turn if the tile just placed joined a feature holding
    /// one of the placer's figures whose type grants one (and, unless its type says a
    /// completing placement grants too, the feature is still open). A granted turn grants none.
    pub(super) fn note_extension(&mut self) {
        if self.in_extra || self.extra_due.is_some() {
            return;
        }
        let inst = *self.insts.last().expect("just placed");
        let n = self.rules.tiles[usize::from(inst.tile)].feats.len() as u32;
        for i in 0..self.meeples.len() {
            let m = self.meeples[i];
            let Some(completing) = self.rules.figures[usize::from(m.ftype)].extra_turn else {
                continue;
            };
            if m.player != self.player {
                continue;
            }
            let root = find(&mut self.segs, m.seg);
            let joined = (0..n).any(|f| find(&mut self.segs, inst.seg_base + f) == root);
            if joined && (completing || !self.is_complete(root)) {
                self.extra_due = Some(m.ftype);
                return;
            }
        }
    }

    /// At the end of a turn: start the extra turn it earned, if any (the same seat draws
    /// again; not in the final round, nor with the pile empty). Returns whether one started.
    pub(super) fn start_extra_turn(&mut self) -> bool {
        self.in_extra = false;
        let Some(ftype) = self.extra_due.take() else {
            return false;
        };
        if self.in_final || self.drawn >= self.pile.len() {
            return false;
        }
        self.in_extra = true;
        if self.record {
            let rules = &self.rules.ruleset().followers[usize::from(ftype)];
            let rule = rules.when_extended.as_ref().map_or("", |t| t.rule.as_str());
            self.events.push(Event::ExtraTurn {
                turn: self.turn,
                player: self.active,
                rule: rule.to_string(),
            });
        }
        self.begin_turn();
        true
    }
}
