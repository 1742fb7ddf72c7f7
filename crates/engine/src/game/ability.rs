//! Tile abilities (W-10..W-17) executed from the rule language of the ruleset: triggers call
//! into here, conditions and counts are evaluated over the board, and every effect (points, a
//! seat resource, an extra turn) goes to the tile's owner with an event citing the ability's
//! rule id. The owner is the seat that placed the tile, whether from the pool, the pile or a
//! hand; the start tile has none.

use std::collections::BTreeMap;

use tegula_ruleset::{
    Ability, Condition, Count, Effect, FeatureKind, NearCells, Owner, Per, State, Trigger,
};

use super::extra::ExtraFrom;
use super::pool::Owned;
use super::score::FeatureCounts;
use super::{find, Event, FeatureId, Game};
use crate::points;

/// One owned ability: its owner, tile, index among the tile's abilities, tile instance.
type Active = (u8, u16, usize, u32);

impl Game {
    /// The tile just placed from the pile or a hand carries abilities: the placer owns it
    /// (pool tiles get their owner where the pool places them).
    pub(super) fn own_placed_tile(&mut self, tile: u16) {
        if self.rules.owns_on_place[usize::from(tile)] {
            self.w.owned.push(Owned {
                player: self.now.player,
                inst: self.board.insts.len() as u32 - 1,
                tile,
                turn: self.now.turn,
                pooled: false,
            });
        }
    }

    /// Abilities of owned placed tiles whose trigger satisfies `want`.
    fn active(&self, want: impl Fn(&Trigger) -> bool) -> Vec<Active> {
        let mut out = Vec::new();
        for o in &self.w.owned {
            let abilities = &self.rules.ruleset().tiles[o.tile as usize].abilities;
            for (i, a) in abilities.iter().enumerate() {
                if want(&a.when) && !(a.not_in_placing_turn && o.turn == self.now.turn) {
                    out.push((o.player, o.tile, i, o.inst));
                }
            }
        }
        out
    }

    fn ability(&self, tile: u16, i: usize) -> Ability {
        self.rules.ruleset().tiles[tile as usize].abilities[i].clone()
    }

    /// The number of tiles in `player`'s hand: the variant's hand size unless an owned ability
    /// says more (W-12).
    pub(super) fn hand_size(&self, player: u8) -> u8 {
        let mut n = self.rules.hand;
        for (owner, tile, i, _) in self.active(|t| *t == Trigger::Draw) {
            if let Effect::Hand(h) = self.ability(tile, i).effect {
                if owner == player {
                    n = n.max(h);
                }
            }
        }
        n
    }

    /// The owner placed a figure from supply on segment `seg` of the tile just placed (W-10).
    #[inline]
    pub(super) fn on_follower_placed(&mut self, seg: u32) {
        if !self.w.owned.is_empty() {
            self.on_follower_placed_now(seg);
        }
    }

    fn on_follower_placed_now(&mut self, seg: u32) {
        let me = self.now.player;
        for (owner, tile, i, _) in self.active(|t| *t == Trigger::FollowerPlaced) {
            let a = self.ability(tile, i);
            if owner != me || !a.conditions.iter().all(|c| self.placed_cond(c, seg)) {
                continue;
            }
            let root = find(&mut self.board.segs, seg);
            self.apply_effect(owner, (tile, i), &a, root);
        }
    }

    /// A feature was completed, before its own scoring (W-11).
    #[inline]
    pub(super) fn on_completed(&mut self, root: u32) {
        if !self.w.owned.is_empty() {
            self.on_completed_now(root);
        }
    }

    fn on_completed_now(&mut self, root: u32) {
        let kind = self.board.segs[root as usize].kind;
        let active_seat = self.now.active;
        let list = self.active(|t| match *t {
            Trigger::FeatureCompleted { kind: k, .. } => k == kind,
            _ => false,
        });
        for (owner, tile, i, _) in list {
            let a = self.ability(tile, i);
            let owners_turn = matches!(
                a.when,
                Trigger::FeatureCompleted {
                    owners_turn: true,
                    ..
                }
            );
            if owners_turn && owner != active_seat {
                continue;
            }
            if a.conditions
                .iter()
                .all(|c| self.feature_cond(c, root, owner))
            {
                self.apply_effect(owner, (tile, i), &a, root);
            }
        }
    }

    /// A feature is being scored, before its figures leave (W-13).
    #[inline]
    pub(super) fn on_scored(&mut self, root: u32, during: bool) {
        if !self.w.owned.is_empty() {
            self.on_scored_now(root, during);
        }
    }

    fn on_scored_now(&mut self, root: u32, during: bool) {
        let kind = self.board.segs[root as usize].kind;
        let list = self.active(|t| match *t {
            Trigger::FeatureScored {
                kind: k,
                during_game_only,
            } => k == kind && (during || !during_game_only),
            _ => false,
        });
        for (owner, tile, i, _) in list {
            let a = self.ability(tile, i);
            if a.conditions
                .iter()
                .all(|c| self.feature_cond(c, root, owner))
            {
                self.apply_effect(owner, (tile, i), &a, root);
            }
        }
    }

    /// The end of the game, before final scoring (W-14..W-17, W-20).
    #[inline]
    pub(super) fn on_game_end(&mut self) {
        if !self.w.owned.is_empty() {
            self.on_game_end_now();
        }
    }

    fn on_game_end_now(&mut self) {
        for (owner, tile, i, inst) in self.active(|t| *t == Trigger::GameEnd) {
            let a = self.ability(tile, i);
            let inst = self.board.insts[inst as usize];
            let feats = &self.rules.tiles[inst.tile as usize].feats;
            let local = feats
                .iter()
                .position(|f| f.kind == FeatureKind::Unscored)
                .unwrap_or(0);
            self.apply_effect(owner, (tile, i), &a, inst.seg_base + local as u32);
        }
    }

    /// Apply ability `i` of `tile` (`a`) for its owner, about the feature rooted at `root`
    /// (a hand size acts in the draw instead).
    fn apply_effect(&mut self, owner: u8, (tile, i): (u16, usize), a: &Ability, root: u32) {
        match &a.effect {
            Effect::Score { per, count } => self.score_effect(owner, tile, a, per, count, root),
            Effect::Gain { resource, amount } => {
                let mut buf = std::mem::take(&mut self.tmp.buf);
                let root = find(&mut self.board.segs, root);
                let n = amount.eval(&mut FeatureCounts::new(self, root, &mut buf, None));
                self.tmp.buf = buf;
                self.gain_from_ability(owner, &a.rule, resource, n, root);
            }
            // Only triggers acting in the owner's own turn may grant one (the validator).
            Effect::ExtraTurn if owner == self.now.active => {
                self.grant_extra(ExtraFrom::Ability(tile, i as u8));
            }
            Effect::ExtraTurn | Effect::Hand(_) => {}
        }
    }

    /// The owner gains `amount` of resource `r` (an ability's gain, `rule`).
    fn gain_from_ability(&mut self, owner: u8, rule: &str, id: &str, amount: u32, root: u32) {
        let list = &self.rules.ruleset().resources;
        // The validator refuses an unknown resource; a hand-made ruleset's gains nothing.
        let Some(r) = list.iter().position(|r| r.id == id).filter(|_| amount > 0) else {
            return;
        };
        let resource = id.to_string();
        points::add(
            &mut self.seats.holdings[owner as usize * list.len() + r],
            amount,
        );
        if self.log.record {
            self.log.events.push(Event::Gain {
                turn: self.now.turn,
                rule: rule.to_string(),
                player: owner,
                resource,
                amount,
                feature: Some(FeatureId(root)),
                spent: false,
            });
        }
    }

    /// Score `per × count` to the owner.
    fn score_effect(
        &mut self,
        owner: u8,
        tile: u16,
        a: &Ability,
        per: &Per,
        count: &Count,
        root: u32,
    ) {
        let points = self.per(per, root).saturating_mul(self.count(count, owner));
        if points == 0 {
            return;
        }
        points::add(&mut self.seats.scores[owner as usize], points);
        match self
            .w
            .ability_points
            .iter_mut()
            .find(|e| (e.0, e.1) == (tile, owner))
        {
            Some(e) => points::add(&mut e.2, points),
            None => self.w.ability_points.push((tile, owner, points)),
        }
        if self.log.record {
            let mut buf = std::mem::take(&mut self.tmp.buf);
            let root = find(&mut self.board.segs, root);
            let feature = self.info(root, &mut buf);
            self.tmp.buf = buf;
            self.log.events.push(Event::Score {
                turn: self.now.turn,
                rule: a.rule.clone(),
                players: vec![owner],
                points,
                feature,
            });
        }
    }

    /// Points per counted thing; a value is evaluated over the feature rooted at `root`.
    fn per(&mut self, per: &Per, root: u32) -> u32 {
        let pick = |table: &[(u32, u32)], n: u32| {
            table
                .iter()
                .filter(|e| e.0 <= n)
                .max_by_key(|e| e.0)
                .map_or(0, |e| e.1)
        };
        match per {
            Per::Fixed(v) => *v,
            Per::ByPlayers(t) => {
                let t: Vec<(u32, u32)> = t.iter().map(|&(a, b)| (u32::from(a), b)).collect();
                pick(&t, u32::from(self.seats.players))
            }
            Per::ByTiles(t) => pick(t, self.tiles_in_game()),
            Per::Value(e) => {
                let mut buf = std::mem::take(&mut self.tmp.buf);
                let root = find(&mut self.board.segs, root);
                let v = e.eval(&mut FeatureCounts::new(self, root, &mut buf, None));
                self.tmp.buf = buf;
                v
            }
        }
    }

    /// The pieces this game deals (W-15): pile, start tile, pool, players' own tiles.
    pub fn tiles_in_game(&self) -> u32 {
        let held: u32 = self
            .rules
            .ruleset()
            .player_tiles
            .iter()
            .map(|p| u32::from(p.count))
            .sum();
        self.rules.dealt + held * u32::from(self.seats.players)
    }

    fn state_ok(&self, state: State, root: u32) -> bool {
        match state {
            State::Any => true,
            State::Complete => self.is_complete(root),
            State::Incomplete => !self.is_complete(root),
        }
    }

    /// Evaluate a count for `owner` over the current board.
    fn count(&mut self, c: &Count, owner: u8) -> u32 {
        match *c {
            Count::One => 1,
            Count::Followers {
                owner: o,
                kind,
                state,
            } => {
                let mut n = 0;
                for i in 0..self.board.meeples.len() {
                    let m = self.board.meeples[i];
                    let whose = match o {
                        Owner::Own => m.player == owner,
                        Owner::Others => m.player != owner,
                        Owner::Anyone => true,
                    };
                    let root = find(&mut self.board.segs, m.seg);
                    let k = self.board.segs[root as usize].kind;
                    if whose && kind.is_none_or_eq(k) && self.state_ok(state, root) {
                        n += 1;
                    }
                }
                n
            }
            Count::Features {
                kind,
                min_tiles,
                state,
                tag,
            } => {
                let mut buf = std::mem::take(&mut self.tmp.buf);
                let mut n = 0;
                for i in 0..self.board.segs.len() as u32 {
                    let s = self.board.segs[i as usize];
                    if s.parent != i || s.kind != kind {
                        continue;
                    }
                    if tag.is_some_and(|t| self.tag_count(i, t) == 0) {
                        continue;
                    }
                    if self.count_cells(i, &mut buf) >= min_tiles && self.state_ok(state, i) {
                        n += 1;
                    }
                }
                self.tmp.buf = buf;
                n
            }
            Count::LinesWithRun(run) => self.lines(run),
        }
    }

    /// Rows plus columns holding a gap-free run of at least `run` filled cells (W-17).
    fn lines(&self, run: u32) -> u32 {
        let mut rows: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
        let mut cols: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
        for i in &self.board.insts {
            for c in &self.rules.tiles[i.tile as usize].rot[i.rot as usize] {
                let (x, y) = (i.x + c.dx, i.y + c.dy);
                rows.entry(y).or_default().push(x);
                cols.entry(x).or_default().push(y);
            }
        }
        let has_run = |v: &mut Vec<i32>| {
            v.sort_unstable();
            let (mut best, mut cur) = (0u32, 0u32);
            for k in 0..v.len() {
                cur = if k > 0 && v[k] == v[k - 1] + 1 {
                    cur + 1
                } else {
                    1
                };
                best = best.max(cur);
            }
            best >= run
        };
        let mut n = 0;
        for v in rows.values_mut().chain(cols.values_mut()) {
            n += u32::from(has_run(v));
        }
        n
    }

    /// A condition about the triggering feature (W-11, W-13).
    fn feature_cond(&mut self, c: &Condition, root: u32, owner: u8) -> bool {
        match c {
            Condition::Occupied => self.board.segs[root as usize].occ > 0,
            Condition::MinTiles(n) => {
                let mut buf = std::mem::take(&mut self.tmp.buf);
                let cells = self.count_cells(root, &mut buf);
                self.tmp.buf = buf;
                cells >= *n
            }
            Condition::OwnerPresent => self
                .board
                .meeples
                .iter()
                .any(|m| m.player == owner && self.find_ro(m.seg) == root),
            Condition::Near { .. } => false,
        }
    }

    /// A condition about the figure just placed on segment `seg` (W-10).
    fn placed_cond(&self, c: &Condition, seg: u32) -> bool {
        let Condition::Near { tag } = c else {
            return false;
        };
        let s = self.board.segs[seg as usize];
        let inst = self.board.insts[s.inst as usize];
        let info = &self.rules.tiles[inst.tile as usize];
        let mask = info.feats[s.local as usize].cells.max(1);
        let cells = &info.rot[inst.rot as usize];
        cells.iter().enumerate().any(|(ci, c)| {
            mask & (1 << ci) != 0 && self.tagged_near(inst.x + c.dx, inst.y + c.dy, *tag)
        })
    }

    /// Whether one of the 8 cells around `(x, y)` holds a cloister or a feature tagged `tag`;
    /// or `(x, y)` itself, when the variant reads W-10 that way (`readings.near`).
    fn tagged_near(&self, x: i32, y: i32, tag: Option<u32>) -> bool {
        let own_cell = self.rules.ruleset().readings.near == NearCells::AroundOrOn;
        let mut near = false;
        self.around(x, y, own_cell, |v| {
            let inst = self.board.insts[(v >> 4) as usize];
            let t = &self.rules.ruleset().tiles[inst.tile as usize];
            let ci = v & 7;
            near |= t.features.iter().any(|f| {
                let on_cell = f.cells.max(1) & (1 << ci) != 0;
                let tagged = tag.is_some_and(|g| f.tags & (1 << g) != 0);
                on_cell && (f.kind == FeatureKind::Cloister || tagged)
            });
        });
        near
    }
}

/// `None` matches any kind.
trait KindFilter {
    fn is_none_or_eq(&self, k: FeatureKind) -> bool;
}

impl KindFilter for Option<FeatureKind> {
    fn is_none_or_eq(&self, k: FeatureKind) -> bool {
        self.is_none_or(|want| want == k)
    }
}
