//! Turn effects: a figure type may give its owner one more turn when a placement of theirs
//! extends the feature the figure already stood on (TB-5). "Extends" means that a segment of
//! the tile just placed joined that feature; a tile whose sides carry no segment (one that only
//! closes its neighbours' features) extends nothing, a mega tile extends like any tile. A turn
//! granted this way never grants another, and none is granted when the pile is empty. A tile
//! ability may grant the same extra turn (`Effect::ExtraTurn`), under the same limits. Only
//! variants with such a figure type or ability pay for the check (`Rules::any_extra_turn`).

use super::{find, Event, Game};

/// What earned an extra turn: a figure type's turn effect, or ability `index` of a tile type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum ExtraFrom {
    /// The figure type (index into the ruleset's followers).
    Figure(u8),
    /// Tile type and the index of the ability among its abilities.
    Ability(u16, u8),
    /// A rule of the one form (index into the ruleset's `when`).
    Rule(u16),
}

impl ExtraFrom {
    /// A few bits for the state hash (a figure's are its type, as before abilities could grant).
    pub(super) fn bits(self) -> u64 {
        match self {
            ExtraFrom::Figure(t) => u64::from(t),
            ExtraFrom::Ability(tile, i) => 1 << 40 | u64::from(tile) << 8 | u64::from(i),
            ExtraFrom::Rule(i) => 2 << 40 | u64::from(i),
        }
    }
}

impl Game {
    /// After a placement: note an extra turn if the tile just placed joined a feature holding
    /// one of the placer's figures whose type grants one (and, unless its type says a
    /// completing placement grants too, the feature is still open). A granted turn grants none.
    pub(super) fn note_extension(&mut self) {
        if !self.may_grant_extra() {
            return;
        }
        let inst = *self.board.insts.last().expect("just placed");
        let n = self.rules.tiles[usize::from(inst.tile)].feats.len() as u32;
        for i in 0..self.board.meeples.len() {
            let m = self.board.meeples[i];
            let Some(completing) = self.rules.figures[usize::from(m.ftype)].extra_turn else {
                continue;
            };
            if m.player != self.now.player {
                continue;
            }
            let root = find(&mut self.board.segs, m.seg);
            let joined = (0..n).any(|f| self.on_feature(inst.seg_base + f, root));
            if joined && (completing || !self.is_complete(root)) {
                self.now.extra_due = Some(ExtraFrom::Figure(m.ftype));
                return;
            }
        }
    }

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
            let rule = match from {
                ExtraFrom::Figure(t) => {
                    let effect = rs.followers[usize::from(t)].when_extended.as_ref();
                    effect.map_or("", |t| t.rule.as_str())
                }
                ExtraFrom::Ability(tile, i) => rs.tiles[usize::from(tile)].abilities
                    [usize::from(i)]
                .rule
                .as_str(),
                ExtraFrom::Rule(i) => rs.when.get(usize::from(i)).map_or("", |w| &w.rule),
            };
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
