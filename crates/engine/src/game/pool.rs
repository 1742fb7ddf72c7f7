//! The open pool (W-1..W-7): tiles picked into it at setup, taken from it by the pool-tile
//! offers of `turn-finished` rules (W-2, W-3: when a score reaches the threshold pairs, a rule
//! of the one form lowered from the variant's `[pool]`), placed instead of drawing with a
//! claiming figure and up to two followers, and the procedure for a pool tile that fits
//! nowhere (W-6).

use std::sync::Arc;

use tegula_ruleset::{Options, PoolTileDraw, SeatOrder};

use super::rule_state::PendingOffer;
use super::when::Ctx;
use super::{part, Event, Game, MoveError, Phase, Placement, Resume};
use crate::rules::when::Kind;

/// A placed tile with an owner (a pool tile, or any tile with abilities): its owner, tile
/// instance, the turn it was placed, and whether it came from the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Owned {
    pub player: u8,
    pub inst: u32,
    pub tile: u16,
    pub turn: u32,
    pub pooled: bool,
}

/// Why a [`Phase::Pick`] is open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) enum Picking {
    /// Filling the pool at setup (W-1).
    #[default]
    Setup,
    /// Taking a tile after reaching the threshold (W-2).
    Take,
}

part! {
    /// Everything about the pool that changes during a game (small lists: cheap to clone).
    #[derive(Default)]
    pub(super) struct PoolState {
        /// Tiles in the open pool.
        pub pool: Vec<u16>,
        /// Tiles taken so far, by seat (what `taken` reads: W-4, W-30).
        pub taken: Vec<u8>,
        /// The pool-tile offer being made (W-2): its rule and the `turn-finished` context.
        pub offering: Option<PendingOffer>,
        /// The turn's other pool-tile offers still to make, last first.
        pub queue: Vec<PendingOffer>,
        /// Seats the offer being made has not served yet, bit per seat (without `repeat`).
        pub left: u32,
        /// Taken and not yet placed: `(seat, tile)` (W-5).
        pub held: Vec<(u8, u16)>,
        /// Placed tiles with an owner: pool tiles, and tiles with abilities placed from the pile or
        /// a hand.
        pub owned: Vec<Owned>,
        /// Pool tiles that fitted nowhere until the pile ran out (W-6): `(seat, tile)`.
        pub unplaceable: Vec<(u8, u16)>,
        /// Tiles kept in a hand beside the drawn one (W-12): `(seat, tile)`.
        pub kept: Vec<(u8, u16)>,
        /// The tile to place is a kept one played after the pile ran out (W-12): the seat's other
        /// kept tiles are no alternative to it, each comes in its own turn.
        pub kept_only: bool,
        /// Points scored by abilities: `(tile, owner, points)` (W-10..W-17).
        pub ability_points: Vec<(u16, u8, u32)>,
        /// Seats still to pick into the pool at setup, last first.
        pub setup_seats: Vec<u8>,
        /// The choices of the open [`Phase::Pick`] (tiles) or [`Phase::Order`] (seats).
        pub tiles: Vec<u16>,
        /// Seats that reached the threshold together (W-3).
        pub seats: Vec<u8>,
        /// Why the pick is open.
        pub picking: Picking,
        /// The current own-tile offer must be placed (a pool tile, W-5): no passing.
        pub must_place: bool,
        /// A second follower may still go on the pool tile just placed (W-7).
        pub second_follower: bool,
        /// The pool tile waiting for a drawn tile to be placed next to it (W-6).
        pub w6: Option<u16>,
        /// Figures claiming placed pool tiles, `(seat, follower type)`: on no feature, never scored
        /// (W-5).
        pub claims: Vec<(u8, u8)>,
    }
}

impl Game {
    /// Setup after the start tile: fill the pool (W-1), then the first turn.
    pub(super) fn begin_game(&mut self) {
        self.w.reset(self.seats.players);
        let Some(pool) = self.rules.ruleset().pool.clone() else {
            self.begin_turn();
            return;
        };
        if pool.pick == 0 {
            self.w.pool = pool.tiles.clone();
            self.begin_turn();
            return;
        }
        for seat in (0..self.seats.players).rev() {
            for _ in 0..pool.pick {
                self.w.setup_seats.push(seat);
            }
        }
        self.next_setup_pick();
    }

    fn next_setup_pick(&mut self) {
        let all = self.rules.ruleset().pool.as_ref().map(|p| p.tiles.clone());
        let left: Vec<u16> = all
            .unwrap_or_default()
            .into_iter()
            .filter(|t| !self.w.pool.contains(t))
            .collect();
        match self.w.setup_seats.pop() {
            Some(seat) if !left.is_empty() => {
                self.now.player = seat;
                self.w.tiles = left;
                self.w.picking = Picking::Setup;
                self.now.phase = Phase::Pick;
            }
            _ => {
                self.w.setup_seats.clear();
                self.now.player = 0;
                self.begin_turn();
            }
        }
    }

    /// The tiles to choose from in [`Phase::Pick`], the seats in [`Phase::Order`].
    pub fn pool_choices(&self) -> (&[u16], &[u8]) {
        match self.now.phase {
            Phase::Pick => (&self.w.tiles, &[]),
            Phase::Order => (&[], &self.w.seats),
            _ => (&[], &[]),
        }
    }

    /// The open pool (W-1).
    pub fn pool(&self) -> &[u16] {
        &self.w.pool
    }

    /// Pool tiles taken and not yet placed, `(seat, tile)` (W-5).
    pub fn pool_held(&self) -> &[(u8, u16)] {
        &self.w.held
    }

    /// Placed pool tiles: `(owner, tile, tile instance)`.
    pub fn pool_owned(&self) -> Vec<(u8, u16, u16)> {
        let o = self.w.owned.iter().filter(|o| o.pooled);
        o.map(|o| (o.player, o.tile, o.inst as u16)).collect()
    }

    /// Pool tiles that fitted nowhere until the pile ran out (W-6), `(seat, tile)`.
    pub fn pool_unplaceable(&self) -> &[(u8, u16)] {
        &self.w.unplaceable
    }

    /// Tiles each seat took from the pool so far.
    pub fn pool_taken(&self) -> &[u8] {
        &self.w.taken
    }

    /// Points scored by abilities so far: `(tile, owner, points)`.
    pub fn ability_points(&self) -> &[(u16, u8, u32)] {
        &self.w.ability_points
    }

    /// Tiles kept in hand beside the drawn one (W-12), `(seat, tile)`.
    pub fn kept_tiles(&self) -> &[(u8, u16)] {
        &self.w.kept
    }

    /// Whether the own tile on offer must be placed (a pool tile, W-5).
    pub fn must_place(&self) -> bool {
        self.now.phase == Phase::Hand && self.w.must_place
    }

    /// Check a [`Action::Take`](super::Action::Take).
    pub(super) fn check_take(&self, tile: u16) -> Result<(), MoveError> {
        if self.now.phase != Phase::Pick {
            return Err(MoveError::WrongPhase {
                phase: self.now.phase,
            });
        }
        if !self.w.tiles.contains(&tile) {
            return Err(MoveError::NotInPool { tile });
        }
        Ok(())
    }

    /// Check a [`Action::Seat`](super::Action::Seat).
    pub(super) fn check_seat(&self, seat: u8) -> Result<(), MoveError> {
        if self.now.phase != Phase::Order {
            return Err(MoveError::WrongPhase {
                phase: self.now.phase,
            });
        }
        if !self.w.seats.contains(&seat) {
            return Err(MoveError::NotAChoice { seat });
        }
        Ok(())
    }

    /// Take `tile` (checked): into the pool at setup, or from it (a pool-tile offer, W-2).
    pub(super) fn take(&mut self, tile: u16) {
        if self.log.record {
            self.log.events.push(Event::Take {
                turn: self.now.turn,
                player: self.now.player,
                tile: self.rules.tile_id(tile).to_string(),
            });
        }
        match self.w.picking {
            Picking::Setup => {
                self.w.pool.push(tile);
                self.next_setup_pick();
            }
            Picking::Take => {
                self.w.pool.retain(|&t| t != tile);
                self.w.held.push((self.now.player, tile));
                self.took(self.now.player);
                self.next_take();
            }
        }
    }

    /// `seat` took from the pool (a tile, or nothing from an empty pool): the offer's effects
    /// run for it as the chooser (reading its takes before this one), then the take counts.
    fn took(&mut self, seat: u8) {
        let Some(p) = self.w.offering else {
            return;
        };
        let ctx = Ctx {
            chooser: Some(seat),
            ..p.ctx
        };
        self.run_offered(p.rule, &ctx);
        if let Some(n) = self.w.taken.get_mut(usize::from(seat)) {
            *n = n.saturating_add(1);
        }
        self.w.left &= !(1 << seat);
    }

    /// A pool tile taken by hand before the game (a preset): it leaves the pool into `seat`'s
    /// hand and the first pool-tile offer's effects run for `seat`, as if it had taken it.
    pub(super) fn preset_take(&mut self, seat: u8, tile: u16) {
        self.w.pool.retain(|&t| t != tile);
        self.w.held.push((seat, tile));
        let rules = Arc::clone(&self.rules);
        let offers = rules.ruleset().when.iter().enumerate();
        let mut pool_tile = offers.filter(|(_, w)| {
            w.offer
                .as_ref()
                .is_some_and(|o| o.options == Options::PoolTile)
        });
        if let Some((rule, _)) = pool_tile.next() {
            let ctx = Ctx::of(seat);
            self.w.offering = Some(PendingOffer {
                rule: rule as u16,
                ctx,
            });
            self.took(seat);
            self.w.offering = None;
        }
    }

    /// The turn is finished: `turn-finished` is raised (the tracks' positions noted first:
    /// `track_was`), and the pool-tile offers it leaves are made one after the other (W-2).
    /// Returns whether a decision is now pending (or the turn went on already).
    pub(super) fn rule_turn_finished(&mut self) -> bool {
        self.rf.note_tracks();
        self.raise(Kind::TurnFinished, &Ctx::of(self.now.active));
        let mut pending = std::mem::take(&mut self.rf.offers);
        pending.reverse();
        self.w.queue = pending;
        self.next_pool_offer()
    }

    /// Make the next pool-tile offer of the queue that has a seat to make it to.
    fn next_pool_offer(&mut self) -> bool {
        while let Some(p) = self.w.queue.pop() {
            let rules = Arc::clone(&self.rules);
            let Some(o) = rules.ruleset().when[usize::from(p.rule)].offer.as_ref() else {
                continue;
            };
            self.w.left = self.seat_bits(&o.to, &p.ctx);
            self.w.offering = Some(p);
            if self.open_takes() {
                return true;
            }
        }
        self.w.offering = None;
        false
    }

    /// Open the current offer's next take, if a seat is left: its seats tested again
    /// (`repeat`, W-3's "anyone already at or past the moved pairs is next") or those not yet
    /// served; several: the actor chooses who goes first ([`Phase::Order`]) or turn order.
    /// Returns whether a decision is now pending (or the turn went on already).
    fn open_takes(&mut self) -> bool {
        let Some(p) = self.w.offering else {
            return false;
        };
        let rules = Arc::clone(&self.rules);
        let Some(o) = rules.ruleset().when[usize::from(p.rule)].offer.as_ref() else {
            return false;
        };
        let bits = if o.repeat {
            // A seat takes at most 255 times: a test that never stops holding still ends.
            let full = self
                .w
                .taken
                .iter()
                .enumerate()
                .filter(|(_, &n)| n == u8::MAX);
            let full = full.fold(0u32, |m, (s, _)| m | 1 << s);
            self.seat_bits(&o.to, &p.ctx) & !full
        } else {
            self.w.left
        };
        let seats: Vec<u8> = (0..self.seats.players)
            .filter(|&s| bits >> s & 1 != 0)
            .collect();
        match seats.len() {
            0 => false,
            1 => {
                self.begin_take(seats[0]);
                true
            }
            _ if o.order == SeatOrder::ActorChooses => {
                self.now.player = self.now.active;
                self.w.seats = seats;
                self.now.phase = Phase::Order;
                true
            }
            _ => {
                let first = self.in_turn_order(bits, p.ctx.actor)[0];
                self.begin_take(first);
                true
            }
        }
    }

    /// The active player chose `seat` to take next (W-3).
    pub(super) fn choose_seat(&mut self, seat: u8) {
        if self.log.record {
            self.log.events.push(Event::Seat {
                turn: self.now.turn,
                player: self.now.player,
                seat,
            });
        }
        self.w.seats.clear();
        self.begin_take(seat);
    }

    fn begin_take(&mut self, seat: u8) {
        if self.w.pool.is_empty() {
            // Nothing left to choose: the take happens all the same (W-2's pair leaves).
            self.took(seat);
            self.next_take();
            return;
        }
        self.now.player = seat;
        self.w.tiles = self.w.pool.clone();
        self.w.picking = Picking::Take;
        self.now.phase = Phase::Pick;
    }

    /// After a take: the current offer's next take, else the next offer; then the turn goes
    /// on.
    fn next_take(&mut self) {
        self.w.tiles.clear();
        if self.open_takes() || self.next_pool_offer() {
            return;
        }
        self.continue_turn();
    }

    /// Offer the current seat's taken pool tile: it must be placed instead of drawing (W-5), or,
    /// if it fits nowhere, the W-6 procedure. Returns whether the turn is now set up.
    pub(super) fn offer_pool_tile(&mut self) -> bool {
        let Some(&(_, tile)) = self.w.held.iter().find(|h| h.0 == self.now.player) else {
            return false;
        };
        self.generate_placements(tile);
        if self.legal.n_place > 0 {
            self.w.must_place = true;
            self.now.phase = Phase::Hand;
            return true;
        }
        self.w6_draw(tile);
        true
    }

    /// W-6: draw tiles until one can be placed so that the pool tile fits next to it; tiles that
    /// cannot are removed from the game (`readings.pool_tile_draw = "any-fit"`: a tile that fits
    /// anywhere is placed, and only one that fits nowhere is removed). If the pile runs out, the
    /// pool tile is unplaceable.
    pub(super) fn w6_draw(&mut self, pooled: u16) {
        let any_fit = self.rules.ruleset().readings.pool_tile_draw == PoolTileDraw::AnyFit;
        loop {
            if self.deck.drawn >= self.deck.pile.len() {
                self.w.held.retain(|&h| h != (self.now.player, pooled));
                self.w.unplaceable.push((self.now.player, pooled));
                self.record_fit_discard(pooled);
                if self.w.w6.take().is_some() {
                    // Tiles were placed this turn ("any-fit" only): score them, next seat.
                    self.end_turn();
                } else {
                    self.draw();
                }
                return;
            }
            let Some(t) = self.next_tile(Resume::W6(pooled)) else {
                return;
            };
            self.record_draw(t);
            let enabling = if any_fit {
                self.generate_placements(t);
                self.placements_vec()
            } else {
                self.enabling_placements(t, pooled)
            };
            if !enabling.is_empty() {
                self.now.current = t;
                self.set_placement_list(&enabling);
                self.w.w6 = Some(pooled);
                self.now.phase = Phase::Place;
                return;
            }
            self.record_fit_discard(t);
        }
    }

    /// Record tile `t` leaving the game by the pool's fit rule (a pool tile that could not be
    /// placed, or a tile drawn for it that cannot serve).
    pub(super) fn record_fit_discard(&mut self, t: u16) {
        if self.log.record {
            let rules = Arc::clone(&self.rules);
            self.record_discard(t, rules.pool_fit_rule());
        }
    }

    /// Placements of `t` after which `pooled` can be placed touching it (W-6 reading).
    fn enabling_placements(&self, t: u16, pooled: u16) -> Vec<Placement> {
        let mut probe = self.clone();
        probe.log.record = false;
        probe.log.events.clear();
        probe.generate_placements(t);
        let candidates = probe.placements_vec();
        let mut g = probe.clone();
        candidates
            .into_iter()
            .filter(|p| {
                g.clone_from(&probe);
                g.place_unchecked(t, p.x, p.y, p.rotation);
                let inst = g.board.insts.len() as u32 - 1;
                !g.touching_placements(pooled, inst).is_empty()
            })
            .collect()
    }

    /// Placements of `tile` with a cell orthogonally next to a cell of tile instance `inst`.
    fn touching_placements(&mut self, tile: u16, inst: u32) -> Vec<Placement> {
        self.generate_placements(tile);
        let i = self.board.insts[inst as usize];
        let theirs: Vec<(i32, i32)> = self.rules.tiles[i.tile as usize].rot[i.rot as usize]
            .iter()
            .map(|c| (i.x + c.dx, i.y + c.dy))
            .collect();
        let rot = &self.rules.tiles[tile as usize].rot;
        self.placements_vec()
            .into_iter()
            .filter(|p| {
                rot[p.rotation as usize].iter().any(|c| {
                    let (x, y) = (p.x + c.dx, p.y + c.dy);
                    theirs
                        .iter()
                        .any(|&(a, b)| (a - x).abs() + (b - y).abs() == 1)
                })
            })
            .collect()
    }

    /// W-6: the drawn tile was placed (no follower on it); now the pool tile, touching it, or
    /// under "any-fit" the next draw if it cannot touch it.
    pub(super) fn after_w6_tile(&mut self, pooled: u16) {
        self.legal.options.clear();
        let inst = self.board.insts.len() as u32 - 1;
        let places = self.touching_placements(pooled, inst);
        if places.is_empty() {
            // Only under "any-fit" (an enabling placement always leaves one): the tile stays,
            // the next is drawn.
            self.w6_draw(pooled);
            return;
        }
        self.set_placement_list(&places);
        self.w.must_place = true;
        self.now.phase = Phase::Hand;
    }

    /// A pool tile was just placed (W-5): a figure of its owner's claims it, then up to two
    /// followers on different features of it (W-7), never a corner figure.
    pub(super) fn after_pool_tile(&mut self, tile: u16) {
        self.w.held.retain(|&h| h != (self.now.player, tile));
        self.w.must_place = false;
        self.w.w6 = None;
        let inst = self.board.insts.len() as u32 - 1;
        self.w.owned.push(Owned {
            player: self.now.player,
            inst,
            tile,
            turn: self.now.turn,
            pooled: true,
        });
        self.put_claim(inst);
        self.w.second_follower = true;
        // The claim may have taken the last figure of its type: offer what is left.
        self.compute_options();
        self.drop_corner_options();
    }

    fn put_claim(&mut self, inst: u32) {
        let Some(pool) = self.rules.ruleset().pool.as_ref() else {
            return;
        };
        let nf = self.rules.figures.len();
        let k = pool.claim_figure;
        let slot = self.now.player as usize * nf + k as usize;
        if self.seats.supply[slot] == 0 {
            return;
        }
        self.seats.supply[slot] -= 1;
        self.w.claims.push((self.now.player, k));
        if self.log.record {
            let i = self.board.insts[inst as usize];
            let feature = self.rules.tiles[i.tile as usize]
                .feats
                .iter()
                .position(|f| f.kind == tegula_ruleset::FeatureKind::Unscored)
                .unwrap_or(0) as u8;
            self.log.events.push(Event::Follower {
                turn: self.now.turn,
                player: self.now.player,
                follower: self.rules.follower_id(k).to_string(),
                x: i.x,
                y: i.y,
                feature,
                segment: self.rules.feature_name(i.tile, feature).to_string(),
                corner: None,
                moved: false,
                claim: true,
                rule: None,
            });
        }
    }

    /// Whether the tile just placed came from the pool (its followers follow W-7).
    pub(super) fn pool_tile_just_placed(&self) -> bool {
        let last = self.board.insts.len().checked_sub(1);
        let owned = self.w.owned.last().filter(|o| o.pooled);
        owned.map(|o| o.inst as usize) == last && last.is_some()
    }

    /// W-7: after a pool tile, only figures that stand on features.
    pub(super) fn drop_corner_options(&mut self) {
        let figures = &self.rules.figures;
        self.legal
            .options
            .retain(|o| figures[o.follower as usize].corner.is_none());
    }

    /// After the first follower on a just-placed pool tile: whether a second one may follow
    /// (W-7); the options are recomputed (the first one's feature is occupied now).
    pub(super) fn offer_second_follower(&mut self) -> bool {
        if !std::mem::take(&mut self.w.second_follower) {
            return false;
        }
        self.compute_options();
        self.drop_corner_options();
        !self.legal.options.is_empty()
    }

    /// Figures claiming pool tiles so far, `(seat, follower type)`, for conservation checks.
    pub fn claims(&self) -> Vec<(u8, u8)> {
        self.w.claims.clone()
    }
}

impl PoolState {
    /// Back to the state before setup, keeping every buffer.
    fn reset(&mut self, players: u8) {
        self.clone_from(&PoolState::default());
        self.taken.resize(players as usize, 0);
    }
}
