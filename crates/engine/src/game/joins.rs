//! AM-8 read as `readings.joined_field_scoring = "each-field"`: when a placement joins fields
//! holding farmers to a corner-figure field, each of those fields scores on its own, as it was
//! before the placement. The placement merges the fields (union-find, `place.rs`), so what they
//! were is recorded first; only variants with this reading pay for it
//! ([`crate::rules::Rules`]'s `each_field_joins`: some rule of the one form's `score-feature`
//! has `each_part`, as the model lowers `corner.join` under this reading).

use tegula_ruleset::{Expr, FeatureKind, NO_FEATURE};

use super::score::FeatureCounts;
use super::{find, Event, Game, Placement, FRONT, OPP_HALF};
use crate::rules::when::Kind;

/// A field holding farmers and no corner figure next to the tile being placed, as it was
/// before the placement joined anything to it.
#[derive(Clone, Debug)]
pub(crate) struct FieldBefore {
    /// Its root then; after the joins `find` of it is the root of the field it became part of.
    root: u32,
    /// Each seat's farmer strength on it (B-5).
    strength: [u32; 32],
    /// Roots (then) of the cities it bordered, complete or not: the placement may complete
    /// them, and a city complete once the tile is placed counts, as in the registry's reading.
    cities: Vec<u32>,
}

impl Game {
    /// Record the fields holding farmers and no corner figure that placement `p` will join by
    /// a field half-edge (the same pairs of half-edges `place_unchecked` unites). Call before
    /// placing; the scoring of the joins reads them ([`Game::score_each_field_before`]).
    pub(super) fn record_fields_before(&mut self, p: Placement) {
        // Joins still waiting for the scoring step (an earlier placement of this turn, W-6)
        // keep their records.
        if self.due.pending_fields.is_empty() {
            self.tmp.fields_before.clear();
        }
        // With no corner figure on the board no field can join one.
        if self.board.corner_figs.is_empty() {
            return;
        }
        let mut before = std::mem::take(&mut self.tmp.fields_before);
        let rules = &*self.rules;
        for c in &rules.tiles[p.tile as usize].rot[p.rotation as usize] {
            let Some(pos) = self.pos(p.x + c.dx, p.y + c.dy) else {
                continue;
            };
            for s in (0..4usize).filter(|s| c.outer & (1 << s) != 0) {
                // Empty and frontier cells (the tile's own cells too: not yet written) join
                // nothing.
                let ncell = self.board.cells[self.step(pos, s)];
                if ncell >= FRONT {
                    continue;
                }
                let ninst = self.board.insts[(ncell >> 4) as usize];
                let nc = &rules.tiles[ninst.tile as usize].rot[ninst.rot as usize]
                    [(ncell & 0x7) as usize];
                for h in [2 * s, 2 * s + 1] {
                    let theirs = nc.half_feature[OPP_HALF[h]];
                    if c.half_feature[h] == NO_FEATURE || theirs == NO_FEATURE {
                        continue;
                    }
                    let root = self.find_ro(ninst.seg_base + u32::from(theirs));
                    let seg = self.board.segs[root as usize];
                    let new = before.iter().all(|f| self.find_ro(f.root) != root);
                    if seg.occ > 0 && seg.corners == 0 && new {
                        before.push(self.field_before(root));
                    }
                }
            }
        }
        self.tmp.fields_before = before;
    }

    /// The farmer strengths on the field rooted at `root` and the cities it borders, now.
    fn field_before(&self, root: u32) -> FieldBefore {
        let mut strength = [0u32; 32];
        for m in &self.board.meeples {
            if self.find_ro(m.seg) == root {
                let seat = &mut strength[m.player as usize];
                *seat = seat.saturating_add(self.strength_of(m.ftype, root));
            }
        }
        let mut cities = Vec::new();
        self.for_each_member(root, |_, inst, feat| {
            cities.extend(feat.borders.iter().map(|&b| inst.seg_base + u32::from(b)));
        });
        let mut cities: Vec<u32> = cities.into_iter().map(|c| self.find_ro(c)).collect();
        cities.sort_unstable();
        cities.dedup();
        FieldBefore {
            root,
            strength,
            cities,
        }
    }

    /// AM-8, each field on its own: every recorded field that is now part of the joined field
    /// rooted at `joined` is paid the join `value` with `cities` the completed cities it
    /// bordered, to its own farmer majority; then all farmers of the joined field return.
    pub(super) fn score_each_field_before(&mut self, joined: u32, value: &Expr, rule: &str) {
        let before = std::mem::take(&mut self.tmp.fields_before);
        for f in &before {
            if find(&mut self.board.segs, f.root) != joined {
                continue;
            }
            let cities = self.completed_now(&f.cities);
            self.award_part(joined, &f.strength, cities, (value, rule));
        }
        // Kept, not cleared: the same tile may join other fields to another corner-figure field.
        self.tmp.fields_before = before;
        if self.board.segs[joined as usize].occ > 0 {
            self.release(joined);
        }
    }

    /// How many distinct cities of `cities` (roots from before the placement) are complete now.
    fn completed_now(&mut self, cities: &[u32]) -> u32 {
        let mut buf = std::mem::take(&mut self.tmp.buf);
        buf.clear();
        for &c in cities {
            let r = find(&mut self.board.segs, c);
            let s = self.board.segs[r as usize];
            if s.kind == FeatureKind::City && s.open <= 0 {
                buf.push(r);
            }
        }
        // This tile may have joined two of them into one city.
        buf.sort_unstable();
        buf.dedup();
        let n = buf.len() as u32;
        self.tmp.buf = buf;
        n
    }

    /// Pay one former field's part: the join `value` with its `cities` (other counts are the
    /// joined field's) to its majority. The event names the joined field (the feature that
    /// exists now) with the cities of the part that scored.
    fn award_part(&mut self, joined: u32, strength: &[u32; 32], cities: u32, pay: (&Expr, &str)) {
        let (value, rule) = pay;
        let mut buf = std::mem::take(&mut self.tmp.buf);
        let points = value.eval(&mut FeatureCounts::new(
            self,
            joined,
            &mut buf,
            Some(cities),
        ));
        self.tmp.buf = buf;
        let players = self.pay_best(strength, points);
        if self.log.record {
            let mut buf = std::mem::take(&mut self.tmp.buf);
            let mut feature = self.info(joined, &mut buf);
            self.tmp.buf = buf;
            feature.cities = cities;
            self.log.events.push(Event::Score {
                turn: self.now.turn,
                rule: rule.to_string(),
                players,
                points,
                feature,
            });
        }
        if self.rules.any_payment {
            self.pay_modifiers(joined, strength, Some(cities));
        }
        // Each part is a scoring of its own: `feature-scored` with that part's winners.
        if self.waits(Kind::FeatureScored) {
            let winners = self.winner_bits(strength);
            self.rule_scored(joined, true, winners);
        }
    }
}
