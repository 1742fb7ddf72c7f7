//! Scoring: completion after each turn (B-3, B-4), majorities (B-5), final scoring (B-6), feature
//! sizes in distinct cells (B-7, W-18).

use tegula_ruleset::FeatureKind;

use super::{find, Event, FeatureId, FeatureInfo, Game, Inst, Phase, Seg, FRONT};
use crate::rules::FeatInfo;

impl Game {
    /// Call `f` with every member segment of the feature rooted at `root` (its circular member
    /// list), the tile instance it lies on, and its tile-local feature facts.
    fn for_each_member(&self, root: u32, mut f: impl FnMut(Seg, Inst, &FeatInfo)) {
        let mut s = root;
        loop {
            let seg = self.segs[s as usize];
            let inst = self.insts[seg.inst as usize];
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

    /// Score features completed this turn (B-3, B-4).
    pub(super) fn score_pending(&mut self) {
        for i in 0..self.pending.len() {
            let r = find(&mut self.segs, self.pending[i]);
            let s = self.segs[r as usize];
            if !s.done && s.open <= 0 {
                self.score_feature(r, true);
            }
        }
        self.pending.clear();
        for i in 0..self.pending_cloisters.len() {
            let c = self.pending_cloisters[i];
            if !self.segs[c as usize].done && self.cloister_neighbours(c) == 8 {
                self.score_feature(c, true);
            }
        }
        self.pending_cloisters.clear();
    }

    pub(super) fn cloister_neighbours(&self, seg: u32) -> u32 {
        let s = self.segs[seg as usize];
        let inst = self.insts[s.inst as usize];
        let info = &self.rules.tiles[inst.tile as usize];
        let cellmask = info.feats[s.local as usize].cells;
        let ci = if cellmask == 0 {
            0
        } else {
            cellmask.trailing_zeros() as usize
        };
        let c = &info.rot[inst.rot as usize][ci];
        let Some(pos) = self.pos(inst.x + c.dx, inst.y + c.dy) else {
            return 0;
        };
        let w = self.width as isize;
        let mut n = 0;
        for d in [-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1] {
            if self.cells[(pos as isize + d) as usize] < FRONT {
                n += 1;
            }
        }
        n
    }

    /// Distinct cells of the feature rooted at `root` (B-7, W-18).
    pub(super) fn count_cells(&self, root: u32, buf: &mut Vec<u32>) -> u32 {
        buf.clear();
        self.for_each_member(root, |seg, _, feat| {
            let mask = if feat.cells == 0 { 1 } else { feat.cells };
            for b in 0..8 {
                if mask & (1 << b) != 0 {
                    buf.push(seg.inst * 8 + b);
                }
            }
        });
        buf.sort_unstable();
        buf.dedup();
        buf.len() as u32
    }

    /// Completed cities bordering the field rooted at `root` (each counted once, B-6).
    pub(super) fn bordered_cities(&self, root: u32, buf: &mut Vec<u32>) -> u32 {
        buf.clear();
        self.for_each_member(root, |_, inst, feat| {
            for &b in &feat.borders {
                let c = self.find_ro(inst.seg_base + b as u32);
                let cs = self.segs[c as usize];
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
        let s = self.segs[root as usize];
        let inst = self.insts[s.inst as usize];
        let (tiles, complete, cities) = match s.kind {
            FeatureKind::Cloister => {
                let n = self.cloister_neighbours(root);
                (n, n == 8, 0)
            }
            FeatureKind::Field => {
                let c = self.bordered_cities(root, buf);
                (self.count_cells(root, buf), false, c)
            }
            FeatureKind::Wonder => (1, false, 0),
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

    /// Score one feature (during the game with `during`, else final scoring).
    pub(super) fn score_feature(&mut self, root: u32, during: bool) {
        self.segs[root as usize].done = true;
        let s = self.segs[root as usize];
        if s.occ == 0 && !self.record {
            return;
        }
        // Strength per seat (B-5).
        let mut strength = [0u32; 32];
        let rules = &*self.rules;
        let followers = &rules.ruleset().followers;
        if s.occ > 0 {
            for i in 0..self.meeples.len() {
                let m = self.meeples[i];
                if find(&mut self.segs, m.seg) == root {
                    strength[m.player as usize] +=
                        followers[m.ftype as usize].strength_on(u32::from(s.pennants));
                }
            }
        }
        let sc = &rules.ruleset().scoring;
        let mut buf = std::mem::take(&mut self.scratch);
        let value = match s.kind {
            FeatureKind::Road => {
                let n = self.count_cells(root, &mut buf);
                n * if during {
                    sc.road_complete_per_tile
                } else {
                    sc.road_incomplete_per_tile
                }
            }
            FeatureKind::City => {
                let n = self.count_cells(root, &mut buf);
                let p = s.pennants as u32;
                if during {
                    let per_tile = match sc.small_city_per_tile {
                        Some(v) if n == 2 => v,
                        _ => sc.city_complete_per_tile,
                    };
                    n * per_tile + p * sc.city_complete_per_pennant
                } else {
                    n * sc.city_incomplete_per_tile + p * sc.city_incomplete_per_pennant
                }
            }
            FeatureKind::Cloister => {
                if during {
                    sc.cloister_complete
                } else {
                    sc.cloister_incomplete_base
                        + sc.cloister_incomplete_per_neighbour * self.cloister_neighbours(root)
                }
            }
            FeatureKind::Field => self.bordered_cities(root, &mut buf) * sc.field_per_city,
            FeatureKind::Wonder => 0,
        };
        let best = strength[..self.players as usize]
            .iter()
            .copied()
            .max()
            .unwrap_or(0);
        let mut winners = Vec::new();
        if best > 0 {
            for p in 0..self.players {
                if strength[p as usize] == best {
                    self.scores[p as usize] += value;
                    if self.record {
                        winners.push(p);
                    }
                }
            }
        }
        if self.record {
            let rule = if during { "B-4" } else { "B-6" };
            let feature = self.info(root, &mut buf);
            self.events.push(Event::Score {
                turn: self.turn,
                rule: rule.to_string(),
                players: winners,
                points: value,
                feature,
            });
        }
        self.scratch = buf;
        // Followers return (B-4); farmers never do, and nothing returns at the end.
        if during && s.occ > 0 && s.kind != FeatureKind::Field {
            let nf = followers.len();
            let mut i = 0;
            while i < self.meeples.len() {
                let m = self.meeples[i];
                if find(&mut self.segs, m.seg) == root {
                    self.meeples.swap_remove(i);
                    self.supply[m.player as usize * nf + m.ftype as usize] += 1;
                    if self.record {
                        self.events.push(Event::Return {
                            turn: self.turn,
                            player: m.player,
                            follower: followers[m.ftype as usize].id.clone(),
                            feature: FeatureId(root),
                        });
                    }
                } else {
                    i += 1;
                }
            }
            self.segs[root as usize].occ = 0;
        }
    }

    /// Final scoring (B-6): incomplete roads, cities and cloisters, then fields.
    pub(super) fn end_game(&mut self) {
        self.phase = Phase::Over;
        self.n_place = 0;
        self.options.clear();
        self.drawn = self.pile.len();
        for pass_fields in [false, true] {
            let mut i = 0;
            while i < self.meeples.len() {
                let root = find(&mut self.segs, self.meeples[i].seg);
                let s = self.segs[root as usize];
                if !s.done && (s.kind == FeatureKind::Field) == pass_fields {
                    self.score_feature(root, false);
                }
                i += 1;
            }
        }
        if self.record {
            let winners = self.winners();
            self.events.push(Event::End {
                scores: self.scores.clone(),
                winners,
            });
        }
    }
}
