//! Scoring: completion after each turn (B-3, B-4), majorities (B-5), final scoring (B-6), feature
//! sizes in distinct cells (B-7, W-18).

use tegula_ruleset::{Counts, FeatureKind, FieldRule, Quantity, Strength};

use super::smallset::SmallSet;
use super::when::FigureRef;
use super::{find, CornerFig, Event, FeatureId, FeatureInfo, Freed, Game, Inst, Phase, Seg, FRONT};
use crate::points;
use crate::rules::when::Kind;
use crate::rules::{FeatInfo, Rules};

impl Game {
    /// Call `f` with every member segment of the feature rooted at `root` (its circular member
    /// list), the tile instance it lies on, and its tile-local feature facts.
    pub(super) fn for_each_member(&self, root: u32, mut f: impl FnMut(Seg, Inst, &FeatInfo)) {
        let mut s = root;
        loop {
            let seg = self.board.segs[s as usize];
            let inst = self.board.insts[seg.inst as usize];
            f(
                seg,
                inst,
                &self.rules.tiles[inst.tile as usize].feats[seg.local as usize],
            );
            s = seg.next;
            if s == root {
                break;
            }
        }
    }

    /// Score features completed this turn (B-3, B-4), after the joins to corner-figure fields
    /// left for the scoring step (AM-8 under `readings.joined_field_timing = "scoring-step"`;
    /// at once they are scored already, so none is left).
    pub(super) fn score_pending(&mut self) {
        if !self.due.pending_fields.is_empty() {
            self.score_joined_fields();
        }
        // GM-4: the takes of the features scored in this step are shared together.
        let takes = self.waits(Kind::FeatureScored);
        if takes {
            self.hold_takes();
        }
        for i in 0..self.due.pending.len() {
            let r = find(&mut self.board.segs, self.due.pending[i]);
            let s = self.board.segs[r as usize];
            if !s.done && s.open <= 0 {
                if self.waits(Kind::FeatureCompleted) {
                    self.rule_completed(r);
                }
                self.score_feature(r, true);
            }
        }
        self.due.pending.clear();
        for i in 0..self.due.pending_cloisters.len() {
            let c = self.due.pending_cloisters[i];
            if !self.board.segs[c as usize].done && self.cloister_neighbours(c) == 8 {
                if self.waits(Kind::FeatureCompleted) {
                    self.rule_completed(c);
                }
                self.score_feature(c, true);
            }
        }
        self.due.pending_cloisters.clear();
        if takes {
            self.settle_takes();
        }
    }

    pub(super) fn cloister_neighbours(&self, seg: u32) -> u32 {
        let s = self.board.segs[seg as usize];
        let inst = self.board.insts[s.inst as usize];
        // The cloister's cell: the first of its segment's (never an empty mask).
        let ci = s.cells.trailing_zeros() as usize;
        let c = &self.rules.tiles[inst.tile as usize].rot[inst.rot as usize][ci];
        let Some(pos) = self.pos(inst.x + c.dx, inst.y + c.dy) else {
            return 0;
        };
        // Placed cells among the 3×3 around it, row by row, less its own.
        let w = self.board.width;
        let rows = [pos - w - 1, pos - 1, pos + w - 1];
        let placed = |r: usize| {
            self.board.cells[r..r + 3]
                .iter()
                .filter(|&&c| c < FRONT)
                .count()
        };
        rows.into_iter().map(placed).sum::<usize>() as u32 - 1
    }

    /// Distinct cells of the feature rooted at `root` (B-7, W-18): each member segment's cells
    /// (tile instance and cell index) into a bit set, or, in a game of more cells than the set
    /// holds, into `buf`, sorted and deduplicated.
    pub(super) fn count_cells(&self, root: u32, buf: &mut Vec<u32>) -> u32 {
        if self.board.insts.len() * 8 > SmallSet::CAP as usize {
            return self.count_cells_sorted(root, buf);
        }
        let mut set = SmallSet::new();
        // The member list alone (each segment keeps its cells): no tile tables are read.
        self.for_each_cell(root, |c| set.insert_if(c, true));
        set.len()
    }

    /// [`Game::count_cells`] by sorting, for games too large for the bit set.
    fn count_cells_sorted(&self, root: u32, buf: &mut Vec<u32>) -> u32 {
        buf.clear();
        self.for_each_cell(root, |c| buf.push(c));
        buf.sort_unstable();
        buf.dedup();
        buf.len() as u32
    }

    /// Call `f` with each cell (instance × 8 + cell index) of each member segment of the
    /// feature rooted at `root`, repeats included.
    #[inline(always)]
    fn for_each_cell(&self, root: u32, mut f: impl FnMut(u32)) {
        let mut s = root;
        loop {
            let seg = self.board.segs[s as usize];
            let mut mask = seg.cells;
            while mask != 0 {
                f(seg.inst * 8 + mask.trailing_zeros());
                mask &= mask - 1;
            }
            s = seg.next;
            if s == root {
                break;
            }
        }
    }

    /// The number of completed cities bordering the field rooted at `root` (B-6): their roots
    /// into a bit set, or, in a game of more segments than it holds, [`Game::bordered_cities`].
    pub(super) fn bordered_city_count(&self, root: u32, buf: &mut Vec<u32>) -> u32 {
        if self.board.segs.len() > SmallSet::CAP as usize {
            return self.bordered_cities(root, buf);
        }
        let mut set = SmallSet::new();
        self.for_each_member(root, |_, inst, feat| {
            for &b in &feat.borders {
                let c = self.find_ro(inst.seg_base + b as u32);
                let cs = self.board.segs[c as usize];
                set.insert_if(c, cs.kind == FeatureKind::City && cs.open <= 0);
            }
        });
        set.len()
    }

    /// Completed cities bordering the field rooted at `root` (each counted once, B-6), their
    /// roots left in `buf` in increasing order.
    pub(super) fn bordered_cities(&self, root: u32, buf: &mut Vec<u32>) -> u32 {
        buf.clear();
        self.for_each_member(root, |_, inst, feat| {
            for &b in &feat.borders {
                let c = self.find_ro(inst.seg_base + b as u32);
                let cs = self.board.segs[c as usize];
                if cs.kind == FeatureKind::City && cs.open <= 0 {
                    buf.push(c);
                }
            }
        });
        buf.sort_unstable();
        buf.dedup();
        buf.len() as u32
    }

    /// Facts about the feature rooted at `root`. `cities` is filled in for fields.
    pub(super) fn info(&self, root: u32, buf: &mut Vec<u32>) -> FeatureInfo {
        let s = self.board.segs[root as usize];
        let inst = self.board.insts[s.inst as usize];
        let (tiles, complete, cities) = match s.kind {
            FeatureKind::Cloister => {
                let n = self.cloister_neighbours(root);
                (n, n == 8, 0)
            }
            FeatureKind::Field => {
                let c = self.bordered_city_count(root, buf);
                (self.count_cells(root, buf), false, c)
            }
            FeatureKind::Unscored => (1, false, 0),
            _ => (self.count_cells(root, buf), s.open <= 0, 0),
        };
        FeatureInfo {
            id: FeatureId(root),
            kind: s.kind,
            tiles,
            pennants: s.pennants as u32,
            cities,
            complete,
            at: [inst.x, inst.y],
            tile: self.rules.tile_id(inst.tile).to_string(),
            segment: self.rules.feature_name(inst.tile, s.local).to_string(),
        }
    }

    /// Whether the feature rooted at `root` is complete (B-3).
    pub(super) fn is_complete(&self, root: u32) -> bool {
        let s = self.board.segs[root as usize];
        match s.kind {
            FeatureKind::Road | FeatureKind::City => s.open <= 0,
            FeatureKind::Cloister => self.cloister_neighbours(root) == 8,
            _ => false,
        }
    }

    /// Score one feature (during the game with `during`, else final scoring).
    pub(super) fn score_feature(&mut self, root: u32, during: bool) {
        self.board.segs[root as usize].done = true;
        let s = self.board.segs[root as usize];
        // Nothing to pay on an unoccupied feature, and nobody to tell when no events are kept;
        // but a rule of the one form may still act on its scoring (W-13-like rules a tile
        // carries among them), so the shortcut holds only while nobody owns a tile carrying
        // rules and no rule waits for scorings.
        let scored = self.waits(Kind::FeatureScored);
        if s.occ == 0 && !self.log.record && self.w.owned.is_empty() && !scored {
            return;
        }
        let (value, cited) = self.feature_value(root, during);
        let rule = cited
            .as_deref()
            .map_or(Cite::Standard { during }, Cite::Given);
        let winners = self.award(root, value, rule);
        if scored {
            self.rule_scored(root, during, winners);
        }
        // Followers return (B-4); farmers never do, and nothing returns at the end.
        if during && s.occ > 0 && s.kind != FeatureKind::Field {
            self.release(root);
        }
    }

    /// Points of the feature rooted at `root` (B-4 during the game, B-6 at the end): the
    /// variant's value expression for its kind, evaluated over its counts. Saturating: a variant's own
    /// numbers times large features must not wrap (`tegula_ruleset::limits`). With them the rule
    /// the branch taken cites, if any, when the game records events (nobody reads it otherwise).
    fn feature_value(&mut self, root: u32, during: bool) -> (u32, Option<String>) {
        let kind = self.board.segs[root as usize].kind;
        let mut buf = std::mem::take(&mut self.tmp.buf);
        // A linear value cites nothing: its rule is the standard one.
        if let Some(lin) = &self.rules.linear_values[Rules::value_slot(kind, during)] {
            let value = lin.eval(&mut FeatureCounts::new(self, root, &mut buf, None));
            self.tmp.buf = buf;
            return (value, None);
        }
        let out = match self.rules.ruleset().scoring.values.of(kind, during) {
            Some(expr) => {
                let mut counts = FeatureCounts::new(self, root, &mut buf, None);
                let (value, rule) = expr.eval_cited(&mut counts);
                (value, rule.filter(|_| self.log.record).map(str::to_string))
            }
            None => (0, None),
        };
        self.tmp.buf = buf;
        out
    }

    /// What a field pays for each completed city under the first edition's procedure
    /// ([`FieldRule::PerCity`]): the field value of the field rooted at `root` with `cities` = 1,
    /// and the rule its branch cites, if any.
    pub(super) fn field_value_per_city(
        &self,
        root: u32,
        buf: &mut Vec<u32>,
    ) -> (u32, Option<&str>) {
        let expr = &self.rules.ruleset().scoring.values.field;
        expr.eval_cited(&mut FeatureCounts::new(self, root, buf, Some(1)))
    }

    /// Segments of the feature rooted at `root` that carry tag `tag`: the union of its segments'
    /// tag counts, summed over every merge (walked when a value asks, so variants whose values
    /// read no tag never pay for it).
    pub(super) fn tag_count(&self, root: u32, tag: u32) -> u32 {
        let mut n = 0;
        self.for_each_member(root, |_, _, feat| {
            // A tag index beyond the bit set (a hand-made artefact) is on no segment.
            n += feat.tags.checked_shr(tag).unwrap_or(0) & 1;
        });
        n
    }

    /// Give `value` to the seats with the greatest strength on the feature rooted at `root`
    /// (B-5; ties all score, top strength 0 scores nothing) and record it under `rule`. Returns
    /// the winners (bit per seat) when a rule of the one form waits for scorings, else 0.
    fn award(&mut self, root: u32, value: u32, rule: Cite<'_>) -> u32 {
        let s = self.board.segs[root as usize];
        let mut strength = [0u32; 32];
        // `occ` counts the figures on the feature: the scan stops at the last of them.
        let mut left = s.occ;
        let mut i = 0;
        while left > 0 && i < self.board.meeples.len() {
            let m = self.board.meeples[i];
            i += 1;
            if self.on_feature(m.seg, root) {
                left -= 1;
                let seat = &mut strength[m.player as usize];
                *seat = seat.saturating_add(self.strength_of(m.ftype, root));
            }
        }
        let winners = self.pay_best(&strength, value);
        if self.log.record {
            let mut buf = std::mem::take(&mut self.tmp.buf);
            let feature = self.info(root, &mut buf);
            self.tmp.buf = buf;
            let rule = match rule {
                Cite::Given(r) => r,
                Cite::Standard { during } => self.rules.scoring_rule(during),
            };
            self.log.events.push(Event::Score {
                turn: self.now.turn,
                rule: rule.to_string(),
                players: winners,
                points: value,
                feature,
            });
        }
        if self.rules.any_payment && s.occ > 0 {
            self.pay_modifiers(root, &strength, None);
        }
        if self.waits(Kind::FeatureScored) {
            self.winner_bits(&strength)
        } else {
            0
        }
    }

    /// Whether segment `seg` belongs to the feature rooted at `root`. Every segment of a feature
    /// has the feature's kind (only like sides and field halves merge, `Rules` checks it), so a
    /// segment of another kind is answered without walking to its root: most figures on the
    /// board stand on features of other kinds than the one scoring.
    #[inline]
    pub(super) fn on_feature(&mut self, seg: u32, root: u32) -> bool {
        // Both tests, without a jump between them: the root is two loads ([`find`]), cheaper
        // than a mispredicted jump over it.
        let same_kind = self.board.segs[seg as usize].kind == self.board.segs[root as usize].kind;
        same_kind & (find(&mut self.board.segs, seg) == root)
    }

    /// Add `value` to the seats of greatest `strength` (B-5: ties all score, a top strength of
    /// 0 scores nothing); returns those seats when the game records events.
    #[inline]
    pub(super) fn pay_best(&mut self, strength: &[u32; 32], value: u32) -> Vec<u8> {
        let best = strength[..self.seats.players as usize]
            .iter()
            .copied()
            .max()
            .unwrap_or(0);
        let mut winners = Vec::new();
        if best > 0 {
            for p in 0..self.seats.players {
                if strength[p as usize] == best {
                    points::credit(&mut self.seats.scores[p as usize], value);
                    if self.log.record {
                        winners.push(p);
                    }
                }
            }
        }
        winners
    }

    /// Take the figures off the scored feature rooted at `root`: figures that move wait for
    /// their owners' decisions (AM-11), figures that stay stay, the others return (B-4).
    pub(super) fn release(&mut self, root: u32) {
        let nf = self.rules.figures.len();
        let mut i = 0;
        let (mut left, mut guests) = (0, 0u8);
        // `occ` counts the figures on the feature: the scan stops at the last of them.
        let mut unseen = self.board.segs[root as usize].occ;
        while unseen > 0 && i < self.board.meeples.len() {
            let m = self.board.meeples[i];
            if !self.on_feature(m.seg, root) {
                i += 1;
                continue;
            }
            unseen -= 1;
            let rules = &*self.rules;
            let fig = &rules.figures[m.ftype as usize];
            if fig.stays {
                left += 1;
                guests = guests.saturating_add(u8::from(!fig.occupies));
                i += 1;
                continue;
            }
            self.board.meeples.swap_remove(i);
            if !self.nf.assigned.is_empty() {
                super::assigned::clear_figure(&mut self.nf.assigned, m);
            }
            if fig.moves.is_some() {
                self.due.freed.push(Freed {
                    player: m.player,
                    ftype: m.ftype,
                    inst: self.board.segs[m.seg as usize].inst,
                    root,
                });
                continue;
            }
            self.seats.supply[m.player as usize * nf + m.ftype as usize] += 1;
            if self.log.record {
                self.log.events.push(Event::Return {
                    turn: self.now.turn,
                    player: m.player,
                    follower: rules.follower_id(m.ftype).to_string(),
                    feature: FeatureId(root),
                    rule: rules.ruleset().followers[usize::from(m.ftype)]
                        .return_rule
                        .clone(),
                });
            }
        }
        self.board.segs[root as usize].occ = left;
        self.board.segs[root as usize].guests = guests;
    }

    /// Score the feature rooted at `root` now (the one form's `score-feature`: AM-7 when a
    /// corner figure is placed beside a field, AM-8 when a field is joined to it): `points` to
    /// its majority citing `rule`, `feature-scored` raised with its winners, then its figures
    /// released.
    pub(super) fn score_now(&mut self, root: u32, points: u32, rule: &str, during: bool) {
        let winners = self.award(root, points, Cite::Given(rule));
        if self.waits(Kind::FeatureScored) {
            self.rule_scored(root, during, winners);
        }
        if self.board.segs[root as usize].occ > 0 {
            self.release(root);
        }
    }

    /// AM-8: fields holding figures that the tile just placed joined to a field a corner
    /// figure stands beside raise the one form's `joined` (with the first such figure); the
    /// rules lowered from the figure's `corner.join` score them.
    pub(super) fn score_joined_fields(&mut self) {
        for i in 0..self.due.pending_fields.len() {
            let r = find(&mut self.board.segs, self.due.pending_fields[i]);
            let s = self.board.segs[r as usize];
            if s.corners == 0 || s.occ == 0 {
                continue;
            }
            let first = self
                .board
                .corner_figs
                .iter()
                .find(|c| self.find_ro(c.seg) == r);
            let Some(&CornerFig {
                player, ftype, seg, ..
            }) = first
            else {
                continue;
            };
            if self.waits(Kind::Joined) {
                self.rule_joined(r, FigureRef { player, ftype, seg });
            }
        }
        self.due.pending_fields.clear();
    }

    /// Final scoring (B-6): incomplete roads, cities and cloisters (unless the variant says they
    /// do not score), then fields (by B-6's procedure or the first edition's).
    pub(super) fn end_game(&mut self) {
        self.now.phase = Phase::Over;
        self.legal.n_place = 0;
        self.legal.options.clear();
        self.drop_pile();
        self.legal.moves.clear();
        self.log.final_from = Some(self.log.events.len());
        // Pool tiles never placed are recorded as unplaceable (W-6).
        for (seat, t) in std::mem::take(&mut self.w.held) {
            self.w.unplaceable.push((seat, t));
            let p = std::mem::replace(&mut self.now.player, seat);
            self.record_fit_discard(t);
            self.now.player = p;
        }
        self.w.kept.clear();
        // W-20: the one rule form's `game-end` (the tiles' carried rules first), then the normal
        // final scoring.
        if self.waits(Kind::GameEnd) {
            self.rule_game_end();
        }
        // Read once: whether incomplete features score, and which field procedure runs.
        let sc = &self.rules.ruleset().scoring;
        let (incomplete, per_city) = (sc.final_incomplete, sc.field_rule == FieldRule::PerCity);
        for pass_fields in [false, true] {
            if pass_fields && per_city {
                self.score_fields_per_city();
                continue;
            }
            if !pass_fields && !incomplete {
                continue;
            }
            let mut i = 0;
            while i < self.board.meeples.len() {
                let seg = self.board.meeples[i].seg;
                i += 1;
                // A feature has its segments' kind: the other pass's figures need no root.
                if (self.board.segs[seg as usize].kind == FeatureKind::Field) != pass_fields {
                    continue;
                }
                let root = find(&mut self.board.segs, seg);
                if !self.board.segs[root as usize].done {
                    self.score_feature(root, false);
                }
            }
        }
        // AM-9: the corner figures' final payments (rules lowered from `corner.final`), then
        // the game-over rules (TB-3's awards lowered from `[[resource]] award`).
        if self.waits(Kind::FigureAtEnd) {
            self.rule_figures_at_end();
        }
        if self.waits(Kind::GameOver) {
            self.rule_game_over();
        }
        if self.log.record {
            let winners = self.winners();
            let resources = self.holdings_by_id();
            let held = (self.held_figures().into_iter())
                .map(|(h, o, f)| (h, o, self.rules.follower_id(f).to_string()))
                .collect();
            let aside = self.nf.set_aside.iter();
            let set_aside = aside.map(|&t| self.rules.tile_id(t).to_string()).collect();
            self.log.events.push(Event::End {
                scores: self.seats.scores.clone(),
                winners,
                resources,
                held,
                set_aside,
            });
        }
    }
}

/// The counts of one feature for its value expression, each computed when first asked.
pub(super) struct FeatureCounts<'a> {
    game: &'a Game,
    root: u32,
    buf: &'a mut Vec<u32>,
    /// Cells, once counted (a value may read `tiles` twice).
    tiles: Option<u32>,
    /// `cities` when the payment counts other cities than the feature borders now: 1 for a
    /// field's payment per city ([`FieldRule::PerCity`]), a former field's own (AM-8 read
    /// field by field).
    cities: Option<u32>,
}

impl<'a> FeatureCounts<'a> {
    pub(super) fn new(
        game: &'a Game,
        root: u32,
        buf: &'a mut Vec<u32>,
        cities: Option<u32>,
    ) -> Self {
        FeatureCounts {
            game,
            root,
            buf,
            tiles: None,
            cities,
        }
    }
}

/// The rule a score event cites: one the data names for the payment, or the data's standard
/// scoring rule for the time of the scoring (resolved only when the event is recorded).
#[derive(Clone, Copy)]
enum Cite<'a> {
    /// This rule.
    Given(&'a str),
    /// The standard scoring rule during the game (`during`) or at its end.
    Standard {
        /// Whether the game is under way.
        during: bool,
    },
}

impl Game {
    /// The strength of a figure of type `ftype` on the feature rooted at `root` (B-5). A
    /// constant is read as it is; only a figure whose strength is an expression evaluates it
    /// over the feature's counts (rare, so its scratch buffer is its own).
    #[inline]
    pub(super) fn strength_of(&self, ftype: u8, root: u32) -> u32 {
        match &self.rules.ruleset().followers[usize::from(ftype)].strength {
            Strength::Fixed(s) => u32::from(*s),
            Strength::Value(e) => {
                e.eval(&mut FeatureCounts::new(self, root, &mut Vec::new(), None))
            }
        }
    }
}

impl Counts for FeatureCounts<'_> {
    fn count(&mut self, q: Quantity) -> u32 {
        let (g, root) = (self.game, self.root);
        match q {
            Quantity::Tiles => match self.tiles {
                Some(n) => n,
                None => *self.tiles.insert(g.count_cells(root, self.buf)),
            },
            Quantity::Pennants => u32::from(g.board.segs[root as usize].pennants),
            Quantity::Neighbours => g.cloister_neighbours(root),
            Quantity::Cities => match self.cities {
                Some(n) => n,
                None => g.bordered_city_count(root, self.buf),
            },
            Quantity::CitiesWith(t) => {
                let n = g.bordered_cities_with(root, t, self.buf);
                self.cities.map_or(n, |c| n.min(c))
            }
            Quantity::Tag(t) => g.tag_count(root, t),
            // The model refuses these in a feature's value (`applies`); the one rule form reads
            // them through its own counts.
            Quantity::Record(_)
            | Quantity::Counters(_)
            | Quantity::Held(_)
            | Quantity::Completed(_)
            | Quantity::Touching(..)
            | Quantity::Extends(_)
            | Quantity::ExtendsOpen(_)
            | Quantity::OwnerActs
            | Quantity::PlacedThisTurn
            | Quantity::OwnerFigure
            | Quantity::Occupants
            | Quantity::OwnerFigures
            | Quantity::Figures { .. }
            | Quantity::Features { .. }
            | Quantity::Lines(_)
            | Quantity::Players
            | Quantity::GameTiles
            | Quantity::Near(_)
            | Quantity::Score
            | Quantity::Taken
            | Quantity::Track(_)
            | Quantity::TrackWas(_)
            | Quantity::OnBoard(_)
            | Quantity::SetAside
            | Quantity::Assigned(_)
            | Quantity::HoldsAssigned(_)
            | Quantity::AssignedWins(_)
            | Quantity::OnTileOf(_) => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::sync::Arc;

    use crate::testkit::{base_ruleset, domino_ruleset, play_random};
    use crate::{Game, Rules};

    /// Every segment against every feature root, and every feature's cell count, against the
    /// plain walks they shortcut: the root found by union-find, and the distinct cells the tile
    /// tables give the feature's members.
    fn check_shortcuts(g: &Game) {
        let mut g = g.clone();
        let roots: Vec<u32> = (0..g.board.segs.len() as u32)
            .filter(|&s| g.find_ro(s) == s)
            .collect();
        for s in 0..g.board.segs.len() as u32 {
            let root = g.find_ro(s);
            for &r in &roots {
                assert_eq!(g.on_feature(s, r), r == root, "segment {s}, root {r}");
            }
        }
        for &r in &roots {
            let mut cells = BTreeSet::new();
            g.for_each_member(r, |seg, _, feat| {
                let mask = if feat.cells == 0 { 1 } else { feat.cells };
                cells.extend(
                    (0..8)
                        .filter(|b| mask & (1 << b) != 0)
                        .map(|b| (seg.inst, b)),
                );
            });
            let mut buf = Vec::new();
            assert_eq!(g.count_cells(r, &mut buf) as usize, cells.len(), "root {r}");
            // Both ways of counting, whatever the game's size would choose.
            assert_eq!(g.count_cells_sorted(r, &mut buf) as usize, cells.len());
            assert_eq!(
                g.bordered_city_count(r, &mut buf),
                g.bordered_cities(r, &mut buf)
            );
        }
    }

    #[test]
    fn feature_shortcuts_agree_with_the_walks() {
        for rs in [base_ruleset(), domino_ruleset()] {
            let rules = Arc::new(Rules::new(rs).unwrap());
            for seed in 0..3 {
                let mut g = Game::seeded(rules.clone(), 2, seed).unwrap();
                play_random(&mut g, seed, check_shortcuts);
            }
        }
    }
}
