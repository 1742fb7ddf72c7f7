//! The turn's phases: a player's own tiles instead of drawing (AM-1), the draw (B-2), the end of
//! the turn with scoring and freed figures (B-4, AM-11, AM-12), and the final round of own tiles
//! after the pile is empty (AM-4).

use std::sync::Arc;

use tegula_ruleset::{FinalRoundFirst, KeptAfterPile, PlayerTile, TileSite};

use super::choice::Stage;
use super::walk::WalkResume;
use super::{Event, Game, MoveError, Phase, Placement, Resume};
use crate::rules::fits;
use crate::rules::when::Kind;

impl Game {
    /// Place a checked placement: the drawn tile, or (in [`Phase::Hand`]) one of the player's
    /// own tiles, which leaves their supply.
    pub(super) fn play_checked_placement(&mut self, p: Placement) {
        let pooled = self.now.phase == Phase::Hand && self.w.must_place;
        if self.now.phase == Phase::Hand && !pooled {
            let pts = &self.rules.ruleset().player_tiles;
            if let Some(i) = pts.iter().position(|t| t.tile == p.tile) {
                self.seats.held[self.now.player as usize * pts.len() + i] -= 1;
            }
        }
        if self.now.phase == Phase::Place && p.tile != self.now.current {
            // A kept tile is placed; the drawn one is kept instead (W-12).
            let me = self.now.player;
            if let Some(k) = self.w.kept.iter().position(|&k| k == (me, p.tile)) {
                self.w.kept[k].1 = self.now.current;
            }
        }
        let w6 = (self.now.phase == Phase::Place)
            .then_some(self.w.w6)
            .flatten();
        self.place_drawn(p);
        if pooled {
            self.after_pool_tile(p.tile);
        } else if let Some(pooled) = w6 {
            self.after_w6_tile(pooled);
        }
    }

    /// Record the draw of `t`, when the game records events. Inlined: an unrecorded game (a
    /// simulation) pays one test per draw, not a call.
    #[inline(always)]
    pub(super) fn record_draw(&mut self, t: u16) {
        if self.log.record {
            self.push_draw_event(t);
        }
    }

    #[inline(never)]
    fn push_draw_event(&mut self, t: u16) {
        self.log.events.push(Event::Draw {
            turn: self.now.turn + 1,
            player: self.now.player,
            tile: self.rules.tile_id(t).to_string(),
            rule: self.rules.draw_rule(t).map(str::to_string),
        });
    }

    /// At the start: cite the rule that allows this many players, when the variant names one
    /// and the game seats more than its count.
    pub(super) fn record_seating(&mut self) {
        let Some(s) = &self.rules.ruleset().seats_rule else {
            return;
        };
        if self.log.record && self.seats.players > s.above {
            let rule = s.rule.clone();
            let seats = self.seats.players;
            self.log.events.push(Event::Seating {
                turn: 0,
                seats,
                rule,
            });
        }
    }

    pub(super) fn record_discard(&mut self, t: u16, rule: &str) {
        if self.log.record {
            self.log.events.push(Event::Discard {
                turn: self.now.turn + 1,
                player: self.now.player,
                tile: self.rules.tile_id(t).to_string(),
                rule: rule.to_string(),
            });
        }
    }

    #[inline]
    pub(super) fn record_pass(&mut self, turn: u32) {
        if self.log.record {
            self.log.events.push(Event::Pass {
                turn,
                player: self.now.player,
                rule: None,
            });
        }
    }

    /// After the follower decision: score (B-4, AM-8), then let freed figures move (AM-11),
    /// then the next turn.
    #[inline]
    pub(super) fn end_turn(&mut self) {
        if self.waits(Kind::BeforeScoring) {
            if self.placed_may_match(Kind::BeforeScoring) {
                self.rule_before_scoring();
            }
            let now = !self.walk_after_scoring();
            if now && self.nf.walk.is_some() && self.walk_next(WalkResume::Scoring) {
                // Once the walk is over, `end_turn_scoring` (game/walk.rs).
                return;
            }
        }
        self.end_turn_scoring();
    }

    /// The turn's scoring, then `turn-end` and its offers (a walk waiting for the scoring is
    /// made before them).
    pub(super) fn end_turn_scoring(&mut self) {
        self.score_pending();
        if self.waits(Kind::TurnEnd) {
            self.rule_turn_end();
        }
        if self.nf.walk.is_some() && self.walk_next(WalkResume::TurnEnd) {
            // Once the walk is over, `end_turn_offers` (game/walk.rs).
            return;
        }
        self.end_turn_offers();
    }

    /// The offers of the end of the turn, then the freed figures and the next turn.
    pub(super) fn end_turn_offers(&mut self) {
        if !self.rf.offers.is_empty() && self.make_offers(Stage::TurnEnd) {
            // Once they are answered, `after_scoring` (game/choice.rs).
            return;
        }
        self.after_scoring();
    }

    /// After the turn's scoring (and its offers): freed figures move (AM-11), then the next
    /// turn.
    #[inline]
    pub(super) fn after_scoring(&mut self) {
        if self.due.freed.is_empty() {
            if self.rules.plain_turns && !self.now.in_final {
                // No own tiles, no pool: straight to the next seat's draw.
                self.now.player = (self.now.active + 1) % self.seats.players;
                self.now.active = self.now.player;
                self.draw();
            } else {
                self.finish_turn();
            }
            return;
        }
        self.order_freed();
        self.next_freed();
    }

    /// When no freed figure waits any more: the next seat's turn, or the next seat of the
    /// final round.
    #[inline]
    pub(super) fn finish_turn(&mut self) {
        self.now.player = self.now.active;
        if self.waits(Kind::TurnFinished) && self.rule_turn_finished() {
            return;
        }
        self.continue_turn();
    }

    /// The next seat's turn, or the next seat of the final round.
    #[inline]
    pub(super) fn continue_turn(&mut self) {
        self.now.player = self.now.active;
        if self.rules.any_extra_turn && self.start_extra_turn() {
            return;
        }
        if self.now.in_final {
            self.next_final_seat();
        } else {
            self.now.player = (self.now.player + 1) % self.seats.players;
            self.begin_turn();
        }
    }

    /// Start the current seat's turn: a choice of own tiles where some can be placed (AM-1),
    /// else the draw.
    #[inline]
    pub(super) fn begin_turn(&mut self) {
        self.now.active = self.now.player;
        if self.rules.when.kinds != 0 {
            self.rule_turn_start();
            if !self.rf.offers.is_empty() && self.make_offers(Stage::TurnStart) {
                // Once they are answered, `begin_turn_after_offers` (game/choice.rs).
                return;
            }
        }
        self.begin_turn_after_offers();
    }

    /// The turn's own tiles (AM-1) or its draw.
    #[inline]
    pub(super) fn begin_turn_after_offers(&mut self) {
        if !self.w.held.is_empty() && self.offer_pool_tile() {
            return;
        }
        if self.offer_own_tiles(false) {
            return;
        }
        self.draw();
    }

    /// Enter [`Phase::Hand`] if the current player holds own tiles (those of the final round
    /// only, with `final_round`) with at least one legal placement.
    #[inline]
    fn offer_own_tiles(&mut self, final_round: bool) -> bool {
        let n = self.rules.ruleset().player_tiles.len();
        if n == 0 {
            return false;
        }
        self.offer_held_tiles(final_round, n)
    }

    #[inline(never)]
    fn offer_held_tiles(&mut self, final_round: bool, n: usize) -> bool {
        let base = self.now.player as usize * n;
        if self.seats.held[base..base + n].iter().all(|&h| h == 0) {
            return false;
        }
        // Tiles only for holes, and no hole: no placement, known without listing them (the
        // empty list is still set, as the listing would leave it).
        let pts = &self.rules.ruleset().player_tiles;
        if pts.iter().all(|pt| pt.site == TileSite::Enclosed) && !self.any_hole() {
            self.set_placement_list(&[]);
            return false;
        }
        self.own_tile_placements(final_round);
        if self.legal.n_place == 0 {
            return false;
        }
        self.now.phase = Phase::Hand;
        true
    }

    /// Placements of the current player's own tiles into `placements` (holes, AM-1, or anywhere).
    fn own_tile_placements(&mut self, final_round: bool) {
        let rules = self.rules.clone();
        let pts = &rules.ruleset().player_tiles;
        let mut out = std::mem::take(&mut self.tmp.places);
        out.clear();
        for (i, pt) in pts.iter().enumerate() {
            if self.held(self.now.player, i) == 0 || !self.on_offer(pt, final_round) {
                continue;
            }
            match pt.site {
                TileSite::Enclosed => {
                    let rot = &rules.tiles[pt.tile as usize].rot;
                    // The holes (AM-1) in frontier order, as a scan of the frontier finds them.
                    self.any_hole();
                    let mut fronts = std::mem::take(&mut self.tmp.buf);
                    self.hole_fronts(&mut fronts);
                    for f in fronts.iter().map(|&k| &self.board.frontier[k as usize]) {
                        for (r, cells) in rot.iter().enumerate() {
                            if fits(cells[0].sig, f.req) {
                                out.push(Placement {
                                    tile: pt.tile,
                                    x: f.x,
                                    y: f.y,
                                    rotation: r as u8,
                                });
                            }
                        }
                    }
                    self.tmp.buf = fronts;
                }
                TileSite::Anywhere => {
                    self.generate_placements(pt.tile);
                    self.extend_with_placements(&mut out);
                }
            }
        }
        self.set_placement_list(&out);
        self.tmp.places = out;
    }

    /// Whether a held own tile `pt` is on offer now. In the final round only the final-round
    /// tiles are (AM-4); before it, a turn that begins with the pile empty offers none of them,
    /// so that each seat is offered that final placement once, in the final round's order.
    fn on_offer(&self, pt: &PlayerTile, final_round: bool) -> bool {
        if final_round {
            pt.final_round
        } else {
            !pt.final_round || self.deck.drawn < self.deck.pile.len()
        }
    }

    /// The player declined their own tile: draw (or, in the final round, the next seat).
    pub(super) fn decline_own_tile(&mut self) {
        if self.now.in_final {
            self.next_final_seat();
        } else {
            self.draw();
        }
    }

    /// Check a placement of one of the current player's own tiles ([`Phase::Hand`], AM-1).
    pub(super) fn check_own_tile(&self, p: Placement) -> Result<(), MoveError> {
        if self.w.must_place {
            // A taken pool tile (W-5), next to the tile placed for it in W-6.
            if !self.w.held.contains(&(self.now.player, p.tile)) {
                return Err(MoveError::TileNotHeld { tile: p.tile });
            }
            self.check_geometry(p)?;
            if self.w.w6.is_some() && !self.placements().contains(&p) {
                return Err(MoveError::NotNextToTile);
            }
            return Ok(());
        }
        let pts = &self.rules.ruleset().player_tiles;
        let Some(i) = pts.iter().position(|t| t.tile == p.tile) else {
            return Err(MoveError::TileNotHeld { tile: p.tile });
        };
        if self.held(self.now.player, i) == 0 || !self.on_offer(&pts[i], self.now.in_final) {
            return Err(MoveError::TileNotHeld { tile: p.tile });
        }
        self.check_geometry(p)?;
        if pts[i].site == TileSite::Enclosed {
            for c in &self.rules.tiles[p.tile as usize].rot[p.rotation as usize] {
                let (x, y) = (p.x + c.dx, p.y + c.dy);
                if !self.is_hole(x, y) {
                    return Err(MoveError::NotAHole { x, y });
                }
            }
        }
        Ok(())
    }

    /// Draw tiles until one can be placed (B-2), topping up a hand first (W-12); when the pile
    /// is empty, kept tiles are placed, then the final round of own tiles (AM-4) or the end.
    /// With chance steps, each draw stops at [`Phase::Draw`] and this runs again once the tile
    /// is decided (everything done before the stop is kept in the state, so it resumes).
    pub(super) fn draw(&mut self) {
        let hand = if self.rules.when.hands {
            self.hand_size(self.now.player)
        } else {
            self.rules.hand
        };
        loop {
            if self.deck.drawn >= self.deck.pile.len() {
                if !self.play_kept() {
                    self.start_final_round();
                }
                return;
            }
            let me = self.now.player;
            while hand > 1
                && self.w.kept.iter().filter(|k| k.0 == me).count() + 1 < hand as usize
                && self.deck.drawn + 1 < self.deck.pile.len()
            {
                let Some(t) = self.next_tile(Resume::Draw) else {
                    return;
                };
                self.record_draw(t);
                self.w.kept.push((me, t));
            }
            let Some(t) = self.next_tile(Resume::Draw) else {
                return;
            };
            self.record_draw(t);
            if self.rules.when.draw_acts && self.drawn_may_match(t) && self.rule_draw(t) {
                // Set aside (PD-3): the seat draws again.
                continue;
            }
            self.now.current = t;
            self.generate_hand_placements(t);
            if self.legal.n_place > 0 {
                self.now.phase = Phase::Place;
                return;
            }
            if self.log.record {
                let rules = self.rules.clone();
                self.record_discard(t, rules.unplaceable_rule(t));
            }
        }
    }

    /// Placements of the drawn tile and of the tiles the player keeps (W-12).
    #[inline(always)]
    fn generate_hand_placements(&mut self, t: u16) {
        self.generate_placements(t);
        if self.w.kept.is_empty() {
            return;
        }
        self.add_kept_placements();
    }

    #[inline(never)]
    fn add_kept_placements(&mut self) {
        let me = self.now.player;
        if !self.w.kept.iter().any(|k| k.0 == me) {
            return;
        }
        let mut all = self.placements_vec();
        let kept: Vec<u16> = self
            .w
            .kept
            .iter()
            .filter(|k| k.0 == me)
            .map(|k| k.1)
            .collect();
        for k in kept {
            self.generate_placements(k);
            self.extend_with_placements(&mut all);
        }
        self.set_placement_list(&all);
    }

    /// After the pile: the next seat (from the current one) still keeping a tile places it
    /// (W-12 reading: the game ends only after kept tiles are played), or under
    /// `readings.kept_after_pile = "next-seat"` the seat whose turn it is places that tile.
    /// Returns whether one is now to be placed.
    fn play_kept(&mut self) -> bool {
        let keeper = self.rules.ruleset().readings.kept_after_pile == KeptAfterPile::Keeper;
        while !self.w.kept.is_empty() {
            let n = self.seats.players;
            let from = self.now.player;
            let (i, &(seat, t)) = self
                .w
                .kept
                .iter()
                .enumerate()
                .min_by_key(|(_, k)| (k.0 + n - from) % n)
                .expect("not empty");
            self.w.kept.remove(i);
            if keeper {
                self.now.player = seat;
                self.now.active = seat;
            }
            self.now.current = t;
            self.w.kept_only = true;
            self.generate_placements(t);
            if self.legal.n_place > 0 {
                self.now.phase = Phase::Place;
                return true;
            }
            // A kept tile that fits nowhere leaves the game by its pile group's rule, as a
            // drawn one does (issue 35 item 8).
            if self.log.record {
                let rules = Arc::clone(&self.rules);
                self.record_discard(t, rules.unplaceable_rule(t));
            }
        }
        false
    }

    /// AM-4: players still holding final-round tiles may place them, in seat order starting
    /// after the seat that placed the last tile (the registry's reading of "left of"), or with that
    /// seat itself (`readings.final_round_first`).
    fn start_final_round(&mut self) {
        let rs = self.rules.ruleset();
        let final_tiles = rs.player_tiles.iter().any(|p| p.final_round);
        let first = match rs.readings.final_round_first {
            FinalRoundFirst::NextSeat => 1,
            FinalRoundFirst::LastPlacer => 0,
        };
        if !final_tiles || self.now.in_final {
            self.end_game();
            return;
        }
        self.now.in_final = true;
        self.now.final_seats.clear();
        // Last first, so that popping gives seat order.
        for k in (first..first + self.seats.players).rev() {
            self.now
                .final_seats
                .push((self.now.last_placer + k) % self.seats.players);
        }
        self.next_final_seat();
    }

    fn next_final_seat(&mut self) {
        while let Some(seat) = self.now.final_seats.pop() {
            self.now.player = seat;
            self.now.active = seat;
            if self.offer_own_tiles(true) {
                return;
            }
        }
        self.end_game();
    }
}
