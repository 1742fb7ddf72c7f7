//! Rules a tile type carries ([`tegula_ruleset::When::tile`]; the `[[ability]]` short form
//! lowers to them, W-10..W-17): placing such a tile from the pile or a hand makes the placer its
//! owner (the pool gives its tiles their owner, `game/pool.rs`), and each event runs the carried
//! rules once per owned tile, in the order the tiles got their owners, with the tile and its
//! owner in the context ([`Carrier`]), before the event's other rules. The draw's hand size
//! (W-12) is read from the `draw` rules the same way.

use std::sync::Arc;

use tegula_ruleset::{Act, FeatureKind};

use super::pool::Owned;
use super::when::{Carrier, Ctx};
use super::Game;
use crate::rules::when::Kind;

impl Game {
    /// The tile just placed from the pile or a hand carries rules: the placer owns it (pool
    /// tiles get their owner where the pool places them).
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

    /// Run the carried rules `carried` (`(tile type, rule)`) of an event about `ctx`: for each
    /// owned tile, in ownership order, the rules its type carries, in file order.
    pub(super) fn raise_carried(&mut self, carried: &[(u16, u16)], ctx: &Ctx) {
        let rules = Arc::clone(&self.rules);
        // By index, not a collected list: this runs for every event of a variant with carried
        // rules; the tiles owned when the event was raised are the ones that act.
        for k in 0..self.w.owned.len() {
            let Some(c) = self.carrier(k) else { break };
            if !carried.iter().any(|(t, _)| *t == c.tile) {
                continue;
            }
            let cx = self.carried_ctx(ctx, c);
            for &(_, i) in carried.iter().filter(|(t, _)| *t == c.tile) {
                self.run_rule(&rules.ruleset().when[usize::from(i)], i, &cx);
            }
        }
    }

    /// The owned tiles, in the order they got their owners.
    fn carriers(&self) -> impl Iterator<Item = Carrier> + '_ {
        (0..self.w.owned.len()).filter_map(|k| self.carrier(k))
    }

    /// The `k`-th owned tile, as a carrier of rules.
    fn carrier(&self, k: usize) -> Option<Carrier> {
        let o: &Owned = self.w.owned.get(k)?;
        Some(Carrier {
            tile: o.tile,
            inst: o.inst,
            owner: o.player,
            fresh: o.turn == self.now.turn,
        })
    }

    /// The context of a carried rule on `c` for an event about `ctx`: where the event has no
    /// subject (the game's end, the draw), the tile is the subject, with its first feature that
    /// never scores (else its first feature) as the subject feature.
    fn carried_ctx(&self, ctx: &Ctx, c: Carrier) -> Ctx {
        let mut cx = Ctx {
            carrier: Some(c),
            ..*ctx
        };
        if ctx.tile.is_none() && ctx.feature.is_none() {
            let inst = self.board.insts[c.inst as usize];
            let feats = &self.rules.tiles[usize::from(inst.tile)].feats;
            let local = feats.iter().position(|f| f.kind == FeatureKind::Unscored);
            cx.tile = Some(c.inst);
            cx.feature = Some(inst.seg_base + local.unwrap_or(0) as u32);
        }
        cx
    }

    /// The number of tiles `player` holds: the variant's hand size, or more where a `draw` rule
    /// that holds gives the seat a larger [`Act::Hand`] (W-12).
    pub(super) fn hand_size(&self, player: u8) -> u8 {
        let rules = Arc::clone(&self.rules);
        let ctx = Ctx::of(self.now.active);
        let mut n = self.rules.hand;
        let mut hand = |g: &Game, i: u16, cx: &Ctx| {
            let w = &rules.ruleset().when[usize::from(i)];
            if !g.rule_holds(w, cx) {
                return;
            }
            for a in &w.then {
                if let Act::Hand { size, to } = a {
                    if g.seat_in(to, cx, player) {
                        n = n.max(*size);
                    }
                }
            }
        };
        for c in self.carriers() {
            let cx = self.carried_ctx(&ctx, c);
            let carried = rules.when.carried(Kind::Draw).iter();
            for &(_, i) in carried.filter(|(t, _)| *t == c.tile) {
                hand(self, i, &cx);
            }
        }
        for &i in rules.when.rules(Kind::Draw) {
            hand(self, i, &ctx);
        }
        n
    }

    /// The points a carried rule scored for `owner`, reported per tile type (the simulator's
    /// ability points).
    pub(super) fn note_carried_points(&mut self, tile: u16, owner: u8, points: u32) {
        let list = &mut self.w.ability_points;
        match list.iter_mut().find(|e| (e.0, e.1) == (tile, owner)) {
            Some(e) => crate::points::add(&mut e.2, points),
            None => list.push((tile, owner, points)),
        }
    }
}
