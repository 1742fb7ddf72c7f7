//! Stacks and held figures (issue 31; docs/design/actions.md, sections 9 and 10): a site on
//! every placed tile carrying a stack type's tag, built of the seats' pieces (a resource), closed
//! by a figure on top; reach by height in the four straight directions; a figure in reach taken
//! off the board (the taker's own goes home, another seat's is held by the taker); the automatic
//! one-for-one exchange; a held figure bought back for points. The options are listed here for
//! `game/choice.rs`, the effects run from `game/effects.rs`.

use tegula_ruleset::{FigureSet, Options, StackType};

use super::assigned::Host;
use super::choice::Listed;
use super::when::{Chosen, Ctx, FigureRef};
use super::{find, part, ChoiceOption, Event, Game, FRONT};
use crate::points;

/// One stack with a piece or a figure on it (a site of height 0 with nothing on it is not
/// listed: every placed tile carrying the type's tag has one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Stack {
    /// The tile instance it stands on.
    pub inst: u32,
    /// Stack type index.
    pub kind: u16,
    /// Pieces in it.
    pub height: u8,
    /// The figure on top: owner and figure type.
    pub top: Option<(u8, u8)>,
    /// Closed for good (a top figure left a stack that does not reopen).
    pub closed: bool,
}

/// A figure held by a seat other than its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Held {
    /// The seat holding it.
    pub holder: u8,
    /// Its owner.
    pub owner: u8,
    /// Figure type.
    pub ftype: u8,
}

/// A stack as [`Game::stacks`] shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackView {
    /// Stack type index ([`tegula_ruleset::Ruleset::stacks`]).
    pub kind: u16,
    /// Anchor x of its tile.
    pub x: i32,
    /// Anchor y of its tile.
    pub y: i32,
    /// Pieces in it.
    pub height: u8,
    /// The figure on top: owner seat and figure type.
    pub top: Option<(u8, u8)>,
    /// Closed for good: its top figure left and its type does not reopen.
    pub closed: bool,
}

part! {
    /// Stacks and held figures: part of the game's equality, hash, clone and snapshot.
    ///
    /// Invariants: `stacks` in tile placement order, one per tile instance at most, each on a
    /// placed tile, of a declared stack type, with a height or a top figure; a top figure only
    /// on a stack at least its type's `top_min` high; `sites` exactly the placed tiles carrying
    /// a site tag, in placement order; `held` in the order taken, never a seat's own figure,
    /// every seat below the seat count. Checked by [`Game::check_parts`].
    #[derive(Default)]
    pub(crate) struct StackState {
        /// Stacks with a piece or a figure, in tile placement order.
        pub(crate) stacks: Vec<Stack>,
        /// The placed tiles carrying a stack type's site tag, in placement order: the board's
        /// sites, noted as tiles are placed.
        pub(crate) sites: Vec<u32>,
        /// Held figures, in the order taken.
        pub(crate) held: Vec<Held>,
        /// Offers taken "once a turn" this turn: (rule index, turn number of the turn's first
        /// part).
        pub(crate) taken: Vec<(u16, u32)>,
    }
}

impl Game {
    fn stack_type(&self, kind: u16) -> Option<&StackType> {
        self.rules.ruleset().stacks.get(usize::from(kind))
    }

    /// Height and top figure of the stack of the tile instance `inst` (any type).
    fn stack_on(&self, inst: u32) -> Option<&Stack> {
        self.st.stacks.iter().find(|s| s.inst == inst)
    }

    /// Whether a placed tile of type `tile` is a stack's site (carries a site tag). Variants
    /// without stacks stop at the first test: a placement reads no tile tags for this.
    #[inline]
    pub(super) fn is_stack_site(&self, tile: u16) -> bool {
        let sites = self.rules.stack_site_tags;
        sites != 0 && self.rules.tiles[usize::from(tile)].any_tags & sites != 0
    }

    fn holds(&self, seat: u8, resource: u16) -> u32 {
        self.holding(seat, usize::from(resource))
    }

    /// Options of [`Options::StackSite`], [`Options::StackTop`], [`Options::InReach`] and
    /// [`Options::OwnCaptive`] for `seat` about `ctx` (`rule`: the offer's rule index).
    pub(super) fn stack_options(
        &self,
        options: &Options,
        seat: u8,
        rule: u16,
        ctx: &Ctx,
        out: &mut Listed,
    ) {
        match options {
            Options::StackSite { stack } => self.site_options(*stack, seat, out),
            Options::StackTop { stack } => self.top_options(*stack, seat, out),
            Options::InReach { figures, tops } => {
                if let Some(Chosen::Tile(inst)) = ctx.chosen {
                    self.reach_options(inst, figures, *tops, out);
                }
            }
            Options::ExchangeBack => {
                if let (Some(taker), Some(holder)) =
                    (ctx.chooser, ctx.chosen.and_then(Chosen::owner))
                {
                    self.exchange_options(taker, holder, out);
                }
            }
            Options::OwnCaptive {
                min_score,
                once_per_turn,
            } => {
                // A `min_score` of 0 is no minimum: a seat below 0 may pay too.
                let score = self.seats.scores[usize::from(seat)];
                let poor = *min_score > 0 && score < points::Score::from(*min_score);
                let taken = *once_per_turn && self.taken_this_turn(rule);
                if !poor && !taken {
                    self.captive_options(seat, out);
                }
            }
            _ => {}
        }
    }

    fn site_options(&self, kind: u16, seat: u8, out: &mut Listed) {
        let Some(t) = self.stack_type(kind) else {
            return;
        };
        if self.holds(seat, t.piece) == 0 {
            return;
        }
        // Sites and stacks are both in tile placement order, one stack per tile at most: one
        // pass over the two finds each site's stack.
        let mut stacks = self.st.stacks.iter().peekable();
        for &i in &self.st.sites {
            while stacks.next_if(|s| s.inst < i).is_some() {}
            let stack = stacks.peek().filter(|s| s.inst == i && s.kind == kind);
            let open = stack.is_none_or(|s| s.top.is_none() && !s.closed);
            if open && self.tile_has_tag(i, t.site_tag) {
                let at = self.board.insts[i as usize];
                out.push((ChoiceOption::Tile { x: at.x, y: at.y }, Chosen::Tile(i)));
            }
        }
    }

    /// The option naming `player`'s figure of type `ftype` on top of the stack on `inst`.
    fn top_option(&self, inst: u32, player: u8, ftype: u8) -> (ChoiceOption, Chosen) {
        let at = self.board.insts[inst as usize];
        let option = ChoiceOption::Top {
            x: at.x,
            y: at.y,
            follower: ftype,
            player,
        };
        (
            option,
            Chosen::Top {
                inst,
                player,
                ftype,
            },
        )
    }

    fn top_options(&self, kind: u16, seat: u8, out: &mut Listed) {
        let Some(t) = self.stack_type(kind) else {
            return;
        };
        let nf = self.rules.figures.len();
        let in_supply = |f: u8| self.seats.supply[usize::from(seat) * nf + usize::from(f)] > 0;
        // The types that may top it and that the seat has in supply, bit per type (in type
        // order, each once).
        let bit = |f: u8| 1u32.checked_shl(u32::from(f)).unwrap_or(0);
        let tops = (t.top.iter().filter(|&&f| in_supply(f))).fold(0, |m, &f| m | bit(f));
        for s in self.st.stacks.iter().filter(|s| s.kind == kind) {
            if s.top.is_some() || s.closed || s.height < t.top_min.max(1) {
                continue;
            }
            for ftype in super::anywhere::bits(tops) {
                out.push(self.top_option(s.inst, seat, ftype));
            }
        }
    }

    /// `seat`'s figures on top of stacks (of type `figure` only, if given) that `host` admits,
    /// in the order of their stacks' tiles (placement order), as options (an `own-figure`
    /// offer's `tops`).
    pub(super) fn own_tops(&self, seat: u8, figure: Option<u8>, host: Host, out: &mut Listed) {
        for s in &self.st.stacks {
            let Some((player, ftype)) = s.top else {
                continue;
            };
            if player != seat || figure.is_some_and(|f| f != ftype) {
                continue;
            }
            let option = self.top_option(s.inst, player, ftype);
            if host.admits(option.1) {
                out.push(option);
            }
        }
    }

    /// The tile instances within the reach of the stack on `inst`: its own tile, then the
    /// tiles 1..=height cells away, N, E, S, W at each distance, passing over empty cells;
    /// each once.
    fn reach(&self, inst: u32) -> Vec<u32> {
        let h = self.stack_on(inst).map_or(0, |s| i32::from(s.height));
        let at = self.board.insts[inst as usize];
        let mut out = Vec::with_capacity(1 + 4 * h.max(0) as usize);
        out.push(inst);
        for k in 1..=h {
            for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
                let Some(p) = self.pos(at.x + dx * k, at.y + dy * k) else {
                    continue;
                };
                let v = self.board.cells[p];
                if v < FRONT && !out.contains(&(v >> 4)) {
                    out.push(v >> 4);
                }
            }
        }
        out
    }

    fn reach_options(&self, inst: u32, figures: &[u8], tops: bool, out: &mut Listed) {
        let reach = self.reach(inst);
        let place = |i: u32| reach.iter().position(|&r| r == i);
        // One pass over the board's figures and one over the stacks: the figures of `figures`
        // on a tile in reach and the tops of stacks in reach, listed by the tile's place in the
        // reach, then tile-local feature (a top after the tile's features), seat and type.
        for m in (self.board.meeples.iter()).filter(|m| figures.contains(&m.ftype)) {
            let s = self.board.segs[m.seg as usize];
            if place(s.inst).is_some() {
                let f = FigureRef {
                    player: m.player,
                    ftype: m.ftype,
                    seg: m.seg,
                };
                out.push(self.figure_option(f));
            }
        }
        if tops {
            for s in &self.st.stacks {
                let top = s.top.filter(|t| figures.contains(&t.1));
                if let Some((player, ftype)) = top.filter(|_| place(s.inst).is_some()) {
                    out.push(self.top_option(s.inst, player, ftype));
                }
            }
        }
        // Few options (the figures near one stack): the key is worked out as they compare.
        let key = |c: &(ChoiceOption, Chosen)| match c.1 {
            Chosen::Figure(f) => {
                let s = self.board.segs[f.seg as usize];
                (place(s.inst), u16::from(s.local), f.player, f.ftype)
            }
            Chosen::Top {
                inst,
                player,
                ftype,
            } => (place(inst), 256, player, ftype),
            _ => (None, 0, 0, 0),
        };
        if !out.is_sorted_by_key(key) {
            out.sort_unstable_by_key(key);
        }
        out.dedup();
    }

    /// The figure types of `taker`'s that `holder` holds, each once, in figure type order.
    fn held_types(&self, taker: u8, holder: u8) -> Vec<u8> {
        let mut types: Vec<u8> = (self.st.held.iter())
            .filter(|h| h.holder == holder && h.owner == taker)
            .map(|h| h.ftype)
            .collect();
        types.sort_unstable();
        types.dedup();
        types
    }

    /// [`Options::ExchangeBack`]: `taker`'s figures held by `holder`, one option per type, while
    /// `taker` holds one of `holder`'s (the exchange is due).
    fn exchange_options(&self, taker: u8, holder: u8, out: &mut Listed) {
        let theirs = |h: &Held| h.holder == taker && h.owner == holder;
        if !self.st.held.iter().any(theirs) {
            return;
        }
        let each = self.held_types(taker, holder).into_iter().map(|ftype| {
            let option = ChoiceOption::Captive {
                holder,
                follower: ftype,
            };
            (option, Chosen::Captive { holder, ftype })
        });
        out.extend(each);
    }

    /// `seat`'s figures held by other seats: one option per holder (turn order from `seat`)
    /// and figure type.
    fn captive_options(&self, seat: u8, out: &mut Listed) {
        // Most turns nobody holds a figure: the offer is asked at every figure step.
        if !self.st.held.iter().any(|h| h.owner == seat) {
            return;
        }
        let n = self.seats.players;
        for k in 1..n {
            let holder = (seat + k) % n;
            for ftype in self.held_types(seat, holder) {
                let option = ChoiceOption::Captive {
                    holder,
                    follower: ftype,
                };
                out.push((option, Chosen::Captive { holder, ftype }));
            }
        }
    }

    /// Whether the offer of rule `rule` was taken in this turn (an extra turn is part
    /// of the turn that earned it).
    fn taken_this_turn(&self, rule: u16) -> bool {
        let first = self.now.turn - u32::from(self.now.in_extra);
        self.st.taken.iter().any(|&(r, t)| r == rule && t == first)
    }

    /// Note that the offer of rule `rule` was taken (for `once_per_turn`; the list is emptied
    /// when a turn that is not an extra one begins).
    pub(super) fn note_taken(&mut self, rule: u16) {
        let first = self.now.turn - u32::from(self.now.in_extra);
        self.st.taken.push((rule, first));
    }

    // --- Effects --------------------------------------------------------------------------

    /// [`tegula_ruleset::Act::AddPiece`]: a piece on the chosen stack (the rule spends it from
    /// the chooser's resource with its own effect: `{ spend = PIECE, … }`).
    pub(super) fn act_add_piece(&mut self, rule: &str, ctx: &Ctx) {
        let (Some(Chosen::Tile(inst)), Some(seat)) = (ctx.chosen, ctx.chooser) else {
            return;
        };
        let rs = self.rules.clone();
        let stacks = &rs.ruleset().stacks;
        let site = |t: &StackType| self.tile_has_tag(inst, t.site_tag);
        let Some(kind) = stacks.iter().position(site) else {
            return;
        };
        let t = &stacks[kind];
        let kind = kind as u16;
        let height = match self.st.stacks.iter_mut().find(|s| s.inst == inst) {
            Some(s) => {
                s.height = s.height.saturating_add(1);
                s.height
            }
            None => {
                let at = self.st.stacks.partition_point(|s| s.inst < inst);
                let s = Stack {
                    inst,
                    kind,
                    height: 1,
                    top: None,
                    closed: false,
                };
                self.st.stacks.insert(at, s);
                1
            }
        };
        if self.log.record {
            let at = self.board.insts[inst as usize];
            self.log.events.push(Event::Stack {
                turn: self.now.turn,
                player: seat,
                rule: rule.to_string(),
                stack: t.id.clone(),
                x: at.x,
                y: at.y,
                height,
            });
        }
    }

    /// [`tegula_ruleset::Act::Top`]: the chosen figure type from the chooser's supply onto the
    /// chosen stack.
    pub(super) fn act_top(&mut self, rule: &str, ctx: &Ctx) {
        let Some(Chosen::Top {
            inst,
            player,
            ftype,
        }) = ctx.chosen
        else {
            return;
        };
        let nf = self.rules.figures.len();
        let slot = usize::from(player) * nf + usize::from(ftype);
        let Some(s) = self.st.stacks.iter_mut().find(|s| s.inst == inst) else {
            return;
        };
        if s.top.is_some() || self.seats.supply[slot] == 0 {
            return;
        }
        s.top = Some((player, ftype));
        self.seats.supply[slot] -= 1;
        if self.log.record {
            let at = self.board.insts[inst as usize];
            self.log.events.push(Event::Top {
                turn: self.now.turn,
                player,
                rule: rule.to_string(),
                follower: self.rules.follower_id(ftype).to_string(),
                x: at.x,
                y: at.y,
            });
        }
    }

    /// [`tegula_ruleset::Act::Capture`]: the chosen figure leaves the board; the chooser's own
    /// goes home, another seat's is held; then the exchange, if any.
    pub(super) fn act_capture(&mut self, rule: &str, exchange: Option<&str>, ctx: &Ctx) {
        let Some(seat) = ctx.chooser else {
            return;
        };
        let (owner, ftype, inst) = match ctx.chosen {
            Some(Chosen::Figure(f)) => {
                if !self.lift_figure(f) {
                    return;
                }
                (f.player, f.ftype, self.board.segs[f.seg as usize].inst)
            }
            Some(Chosen::Top {
                inst,
                player,
                ftype,
            }) => {
                if !self.lift_top(inst) {
                    return;
                }
                (player, ftype, inst)
            }
            _ => return,
        };
        let held = owner != seat;
        if held {
            self.st.held.push(Held {
                holder: seat,
                owner,
                ftype,
            });
        } else {
            self.send_home(owner, ftype);
        }
        if self.log.record {
            let at = self.board.insts[inst as usize];
            self.log.events.push(Event::Capture {
                turn: self.now.turn,
                player: seat,
                rule: rule.to_string(),
                owner,
                follower: self.rules.follower_id(ftype).to_string(),
                x: at.x,
                y: at.y,
                held,
            });
        }
        // The capture's line first, then what leaves with the figure (PD-6's second Reading).
        if let Some(Chosen::Figure(f)) = ctx.chosen {
            let root = find(&mut self.board.segs, f.seg);
            self.alone_leave(rule, f.player, root);
        }
        if let Some(r) = exchange.filter(|_| held) {
            if !self.offer_exchange(r, seat, owner, ctx) {
                self.exchange(r, seat, owner);
            }
        }
    }

    /// When a `chained` rule of id `rule` offers [`Options::ExchangeBack`] and `owner` holds
    /// `captor`'s figures of two types or more, that offer is left pending (made once this
    /// choice's effects have run) instead of the automatic exchange. True when it is.
    fn offer_exchange(&mut self, rule: &str, captor: u8, owner: u8, ctx: &Ctx) -> bool {
        let when = &self.rules.ruleset().when;
        let Some(chained) = crate::rules::when::chained_rule(when, rule) else {
            return false;
        };
        let offer = when[usize::from(chained)].offer.as_ref();
        if offer.is_none_or(|o| o.options != Options::ExchangeBack)
            || self.held_types(captor, owner).len() < 2
        {
            return false;
        }
        let p = super::rule_state::PendingOffer {
            rule: chained,
            ctx: *ctx,
        };
        self.rf.offers.push(p);
        true
    }

    /// [`tegula_ruleset::Act::ExchangeBack`]: the chosen figure of the taker's comes home from
    /// its holder, and the holder's figure the taker took last comes home from the taker (one
    /// `exchange` line); then the automatic exchange while it is still due.
    pub(super) fn act_exchange_back(&mut self, rule: &str, ctx: &Ctx) {
        let Some(Chosen::Captive { holder, ftype }) = ctx.chosen else {
            return;
        };
        // The taker: the seat whose figure of that type `holder` holds while it holds one of
        // `holder`'s (one such seat: every other pair was exchanged when it arose).
        let pair = |t: u8| {
            let theirs = |h: &Held| h.holder == t && h.owner == holder;
            let mine = |h: &Held| (h.holder, h.owner, h.ftype) == (holder, t, ftype);
            self.st.held.iter().any(theirs) && self.st.held.iter().any(mine)
        };
        let Some(taker) = (0..self.seats.players).find(|&t| t != holder && pair(t)) else {
            return;
        };
        let theirs = |h: &Held| h.holder == taker && h.owner == holder;
        let mine = |h: &Held| (h.holder, h.owner, h.ftype) == (holder, taker, ftype);
        if let (Some(a), Some(b)) = (
            self.st.held.iter().rposition(theirs),
            self.st.held.iter().position(mine),
        ) {
            self.swap_held(rule, (a, b), [taker, holder]);
        }
        self.exchange(rule, taker, holder);
    }

    /// [`tegula_ruleset::Act::ReturnOn`] with `tops`: a figure of `set` on top of the stack on
    /// `inst` goes home, scoring nothing (the stack reopens or stays closed as its type says);
    /// one `top_return` line citing `cite`.
    pub(super) fn return_top(&mut self, cite: &str, inst: u32, set: FigureSet) {
        let top = self.stack_on(inst).and_then(|s| s.top);
        let Some((owner, ftype)) = top.filter(|t| set.has(t.1)) else {
            return;
        };
        if !self.lift_top(inst) {
            return;
        }
        self.send_home(owner, ftype);
        if self.log.record {
            let at = self.board.insts[inst as usize];
            self.log.events.push(Event::TopReturn {
                turn: self.now.turn,
                player: owner,
                rule: cite.to_string(),
                follower: self.rules.follower_id(ftype).to_string(),
                x: at.x,
                y: at.y,
            });
        }
    }

    fn send_home(&mut self, seat: u8, ftype: u8) {
        let nf = self.rules.figures.len();
        let slot = &mut self.seats.supply[usize::from(seat) * nf + usize::from(ftype)];
        *slot = slot.saturating_add(1);
    }

    /// Take figure `f` off its feature (not to supply); false when it is not on the board.
    fn lift_figure(&mut self, f: FigureRef) -> bool {
        let same = |m: &super::Meeple| (m.player, m.ftype, m.seg) == (f.player, f.ftype, f.seg);
        let Some(i) = self.board.meeples.iter().position(same) else {
            return false;
        };
        self.take_off(i);
        true
    }

    /// Take the top figure off the stack on `inst`; the stack reopens or stays closed as its
    /// type says. False when there is none.
    fn lift_top(&mut self, inst: u32) -> bool {
        let rs = self.rules.clone();
        let Some(s) = self.st.stacks.iter_mut().find(|s| s.inst == inst) else {
            return false;
        };
        let Some(top) = s.top.take() else {
            return false;
        };
        let reopen = rs
            .ruleset()
            .stacks
            .get(usize::from(s.kind))
            .is_some_and(|t| t.reopen);
        s.closed = !reopen;
        self.top_left(inst, top);
        true
    }

    /// After `captor` took a figure of `owner`: while each holds a figure of the other, the
    /// one just taken goes home and `captor` gets back its own held by `owner` (the first of
    /// the type taken earliest), one `exchange` line each.
    fn exchange(&mut self, rule: &str, captor: u8, owner: u8) {
        loop {
            let mine = |h: &Held| h.holder == owner && h.owner == captor;
            let theirs = |h: &Held| h.holder == captor && h.owner == owner;
            let (Some(a), Some(b)) = (
                self.st.held.iter().rposition(theirs),
                self.st.held.iter().position(mine),
            ) else {
                return;
            };
            self.swap_held(rule, (a, b), [captor, owner]);
        }
    }

    /// Held figures `a` (of `players[1]`'s, held by `players[0]`) and `b` (of `players[0]`'s,
    /// held by `players[1]`) both go home: one `exchange` line.
    fn swap_held(&mut self, rule: &str, (a, b): (usize, usize), players: [u8; 2]) {
        let given = self.st.held[a];
        let back = self.st.held[b];
        let (hi, lo) = if a > b { (a, b) } else { (b, a) };
        self.st.held.remove(hi);
        self.st.held.remove(lo);
        self.send_home(given.owner, given.ftype);
        self.send_home(back.owner, back.ftype);
        if self.log.record {
            self.log.events.push(Event::Exchange {
                turn: self.now.turn,
                rule: rule.to_string(),
                players,
                followers: [
                    self.rules.follower_id(back.ftype).to_string(),
                    self.rules.follower_id(given.ftype).to_string(),
                ],
            });
        }
    }

    /// [`tegula_ruleset::Act::Redeem`]: the chosen held figure goes home; the chooser pays
    /// `points` to its holder, even below 0 (the offer's `min_score` decides who may pay).
    pub(super) fn act_redeem(&mut self, rule: (u16, &str), paid: u32, ctx: &Ctx) {
        let (Some(Chosen::Captive { holder, ftype }), Some(seat)) = (ctx.chosen, ctx.chooser)
        else {
            return;
        };
        let one = |h: &Held| (h.holder, h.owner, h.ftype) == (holder, seat, ftype);
        let Some(i) = self.st.held.iter().position(one) else {
            return;
        };
        points::debit(&mut self.seats.scores[usize::from(seat)], paid);
        points::credit(&mut self.seats.scores[usize::from(holder)], paid);
        self.st.held.remove(i);
        self.send_home(seat, ftype);
        self.note_taken(rule.0);
        if self.log.record {
            self.log.events.push(Event::Redeem {
                turn: self.now.turn,
                player: seat,
                rule: rule.1.to_string(),
                holder,
                follower: self.rules.follower_id(ftype).to_string(),
                points: paid,
            });
        }
    }

    // --- Reading ----------------------------------------------------------------------------

    /// Every stack with a piece or a figure, in tile placement order.
    pub fn stacks(&self) -> Vec<StackView> {
        let each = self.st.stacks.iter().map(|s| {
            let at = self.board.insts[s.inst as usize];
            StackView {
                kind: s.kind,
                x: at.x,
                y: at.y,
                height: s.height,
                top: s.top,
                closed: s.closed,
            }
        });
        each.collect()
    }

    /// Every figure held by a seat other than its owner: (holder, owner, figure type), in the
    /// order taken.
    pub fn held_figures(&self) -> Vec<(u8, u8, u8)> {
        let each = self.st.held.iter().map(|h| (h.holder, h.owner, h.ftype));
        each.collect()
    }

    /// The stacks' invariants (see [`StackState`]).
    pub(super) fn check_stacks(&self) -> Result<(), String> {
        let rs = self.rules.ruleset();
        let n = self.board.insts.len() as u32;
        for (i, s) in self.st.stacks.iter().enumerate() {
            let ordered = i == 0 || self.st.stacks[i - 1].inst < s.inst;
            let Some(t) = rs.stacks.get(usize::from(s.kind)) else {
                return Err(format!("stacks: type {} undeclared", s.kind));
            };
            if !ordered || s.inst >= n || (s.height == 0 && s.top.is_none()) {
                return Err(format!(
                    "stacks: stack {i} out of order, off the board or empty"
                ));
            }
            if s.top.is_some() && s.height < t.top_min {
                return Err(format!(
                    "stacks: a top figure on stack {i} below its least height"
                ));
            }
        }
        let sites = (0..n).filter(|&i| self.is_stack_site(self.board.insts[i as usize].tile));
        if !sites.eq(self.st.sites.iter().copied()) {
            return Err("stacks: the sites are not the placed tiles with a site tag".into());
        }
        let players = self.seats.players;
        let bad = |h: &&Held| h.holder == h.owner || h.holder >= players || h.owner >= players;
        if let Some(h) = self.st.held.iter().find(bad) {
            return Err(format!("stacks: a held figure {h:?}"));
        }
        Ok(())
    }

    /// A few words for the state hash (nothing when no stack is built and no figure held, so
    /// the hash of every other variant stays what it was).
    pub(super) fn stacks_hash(&self, mut key: impl FnMut(u64, u64, u64)) {
        for s in &self.st.stacks {
            let top = s
                .top
                .map_or(0, |(p, f)| 1 << 16 | u64::from(p) << 8 | u64::from(f));
            let v = u64::from(s.height) << 32 | u64::from(s.closed) << 24 | top;
            key(50, u64::from(s.kind) << 48 ^ self.inst_key(s.inst), v);
        }
        for (i, h) in self.st.held.iter().enumerate() {
            let v = u64::from(h.holder) << 16 | u64::from(h.owner) << 8 | u64::from(h.ftype);
            key(51, i as u64, v);
        }
        for &(r, t) in &self.st.taken {
            key(52, u64::from(r), u64::from(t));
        }
    }
}
