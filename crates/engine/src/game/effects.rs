//! The one rule form's effect executor (docs/design/rule-form.md, "The form"): points and
//! seat resources to a seat selector, a token taken, counters put on a tile or taken off a
//! feature's tiles, an extra turn, a chosen figure returned. Each effect records an event citing
//! its rule's id. The dispatcher (`when.rs`) runs a rule's automatic effects; the choices run an
//! offer's effects through [`Game::run_offered`] once the choice is made.

use std::sync::Arc;

use tegula_ruleset::{Act, Expr, Seat, TileRef, CHOSEN};

use super::extra::ExtraFrom;
use super::when::{Chosen, Ctx, RuleCounts};
use super::{find, Event, FeatureId, Game};
use crate::points;

impl Game {
    /// Run the effects `acts` of rule `rule` (index into the ruleset's `when`) on `ctx`, in
    /// order.
    pub(crate) fn run_acts(&mut self, rule: u16, acts: &[Act], ctx: &Ctx) {
        for a in acts {
            self.run_act(rule, a, ctx);
        }
    }

    /// Run the offer's effects of rule `rule` on `ctx` (which names the chooser and the
    /// choice); nothing when the rule has no offer.
    // The choices (`game/choice.rs`, wt-choice) call it once a choice is made.
    #[allow(dead_code)]
    pub(crate) fn run_offered(&mut self, rule: u16, ctx: &Ctx) {
        let rules = Arc::clone(&self.rules);
        let offer = rules.ruleset().when.get(usize::from(rule));
        if let Some(o) = offer.and_then(|w| w.offer.as_ref()) {
            self.run_acts(rule, &o.then, ctx);
        }
    }

    fn run_act(&mut self, rule: u16, a: &Act, ctx: &Ctx) {
        match a {
            Act::Score { value, to } => self.act_score(rule, value, to, ctx),
            Act::Gain {
                resource,
                amount,
                to,
                spend,
            } => {
                let resource = match (*resource, ctx.chosen) {
                    (CHOSEN, Some(Chosen::Kind(k))) => k.resource,
                    (CHOSEN, _) => return,
                    (r, _) => r,
                };
                self.act_gain(rule, (resource, *spend), amount, to, ctx);
            }
            Act::Token { token, to, record } => self.act_token(rule, *token, to, record, ctx),
            Act::Counters { counter, add, on } => self.act_counters(rule, *counter, add, *on, ctx),
            Act::Take { counter, into, to } => {
                let seats = self.seat_bits(to, ctx);
                self.act_take(rule, (*counter, *into), seats, ctx);
            }
            // TB-5's limits: to the actor in its own turn, never from an extra turn, one a turn
            // (`grant_extra`), never with the pile empty (`start_extra_turn`).
            Act::ExtraTurn => {
                if ctx.actor == self.now.active && ctx.during {
                    self.grant_extra(ExtraFrom::Rule(rule));
                }
            }
            Act::ReturnChosen => self.act_return(rule, ctx),
            Act::ScoreFeature { value, each_part } => {
                self.act_score_feature(rule, value, *each_part, ctx);
            }
            Act::ScoreFigure { value } => self.act_score_figure(rule, value, ctx),
            // The draw reads it (`hand_size`, `game/tile_rules.rs`).
            Act::Hand { .. } => {}
            Act::Figures { figure, add, to } => self.act_figures(*figure, add, to, ctx),
            Act::Advance { track, by } => {
                let by = self.value_for(by, ctx, ctx.chooser.unwrap_or(ctx.actor));
                self.rf.advance(usize::from(*track), by);
            }
            Act::Place => self.act_place(ctx),
            Act::Assign { neutral } => self.act_assign(rule, *neutral, ctx),
            Act::Unassign { neutral } => self.act_unassign(*neutral),
            Act::AddPiece => self.act_add_piece(&self.rule_name(rule), ctx),
            Act::Top => self.act_top(&self.rule_name(rule), ctx),
            Act::Capture { exchange } => {
                self.act_capture(&self.rule_name(rule), exchange.as_deref(), ctx);
            }
            Act::ExchangeBack => self.act_exchange_back(&self.rule_name(rule), ctx),
            Act::Redeem { points } => self.act_redeem((rule, &self.rule_name(rule)), *points, ctx),
            Act::Offer { rule: id } => {
                let when = &self.rules.ruleset().when;
                if let Some(chained) = crate::rules::when::chained_rule(when, id) {
                    let p = super::rule_state::PendingOffer {
                        rule: chained,
                        ctx: *ctx,
                    };
                    self.rf.offers.push(p);
                }
            }
            Act::Put { .. }
            | Act::NoFigures { .. }
            | Act::Walk(_)
            | Act::ReturnOn { .. }
            | Act::SetAside
            | Act::ShuffleBack => self.run_neutral_act(rule, a, ctx),
        }
    }

    /// Figures of type `figure` into the supply of each seat of `to` (each its own number).
    fn act_figures(&mut self, figure: u8, add: &Expr, to: &Seat, ctx: &Ctx) {
        let nf = self.rules.figures.len();
        if usize::from(figure) >= nf {
            return;
        }
        for p in self.seats_of(to, ctx) {
            let n = self.value_for(add, ctx, p);
            let n = u8::try_from(n).unwrap_or(u8::MAX);
            let slot = &mut self.seats.supply[usize::from(p) * nf + usize::from(figure)];
            *slot = slot.saturating_add(n);
        }
    }

    /// The subject feature scores now for its majority (AM-7, AM-8), or, with `each_part`,
    /// each feature the placement joined into it on its own.
    fn act_score_feature(&mut self, rule: u16, value: &Expr, each_part: bool, ctx: &Ctx) {
        let Some(f) = ctx.subject_feature() else {
            return;
        };
        let root = find(&mut self.board.segs, f);
        let rule = self.rule_id(rule);
        if each_part {
            self.score_each_field_before(root, value, &rule);
        } else {
            let points = self.value_for(value, ctx, ctx.actor);
            self.score_now(root, points, &rule, ctx.during);
        }
    }

    /// The subject figure's owner scores `value` over its feature (AM-9), the line written
    /// even for 0 points.
    fn act_score_figure(&mut self, rule: u16, value: &Expr, ctx: &Ctx) {
        let (Some(fig), Some(f)) = (ctx.figure, ctx.subject_feature()) else {
            return;
        };
        let points = self.value_for(value, ctx, fig.player);
        points::credit(&mut self.seats.scores[usize::from(fig.player)], points);
        if self.log.record {
            let mut buf = std::mem::take(&mut self.tmp.buf);
            let root = find(&mut self.board.segs, f);
            let feature = self.info(root, &mut buf);
            self.tmp.buf = buf;
            self.log.events.push(Event::Score {
                turn: self.now.turn,
                rule: self.rule_id(rule),
                players: vec![fig.player],
                points,
                feature,
            });
        }
    }

    /// The id of `when` rule `rule`, read where it is: an effect passes it on without copying
    /// it (a copy was an allocation for every piece added, top and capture).
    fn rule_name(&self, rule: u16) -> RuleName {
        RuleName(Arc::clone(&self.rules), rule)
    }

    /// The rule id of rule `rule`, for an event.
    fn rule_id(&self, rule: u16) -> String {
        self.when_id(rule).to_string()
    }

    /// Whether selector `s` names `seat`. The actor, the selector of most offers, is one
    /// comparison: it is asked at every figure step.
    #[inline]
    pub(crate) fn seat_in(&self, s: &Seat, ctx: &Ctx, seat: u8) -> bool {
        match s {
            Seat::Actor => ctx.actor == seat && seat < self.seats.players,
            _ => self.seat_bits(s, ctx) >> seat & 1 != 0,
        }
    }

    /// The seats a selector names, bit per seat.
    pub(crate) fn seat_bits(&self, s: &Seat, ctx: &Ctx) -> u32 {
        let one = |p: Option<u8>| {
            p.filter(|&p| p < self.seats.players)
                .map_or(0, |p| 1u32 << p)
        };
        match s {
            Seat::Actor => one(Some(ctx.actor)),
            Seat::Placer => one(Some(self.now.last_placer)),
            Seat::Owner => one(self.rule_owner(ctx)),
            Seat::Winners => ctx.winners,
            Seat::Every => u32::MAX >> (32 - u32::from(self.seats.players)),
            Seat::Holder(t) => one(self.token_holder(usize::from(*t))),
            Seat::Chooser => one(ctx.chooser),
            Seat::ChosenOwner => one(ctx.chosen.and_then(Chosen::owner)),
            Seat::Most(r) => self.most_bits(usize::from(*r)),
            Seat::AssignedOwner(n) => one(self.assigned_to(u32::from(*n)).and_then(Chosen::owner)),
            Seat::OwnersOn(n) => self.owners_on(usize::from(*n), ctx),
            Seat::Has(f) => {
                let seats = self.has_figure(*f, ctx);
                seats.iter().fold(0, |m, &p| m | 1 << p)
            }
            Seat::Where(test) => (0..self.seats.players)
                .filter(|&p| test.holds(&mut RuleCounts::new(self, ctx, p)))
                .fold(0, |m, p| m | 1 << p),
        }
    }

    /// The seats of `to` in the order its effects reach them: turn order from the actor, or,
    /// for [`Seat::Has`], the order of the figures (a seat once per figure). Only the latter
    /// makes a list: a point a turn (PD-9) allocated one every turn.
    fn seats_of(&self, to: &Seat, ctx: &Ctx) -> impl Iterator<Item = u8> {
        let (listed, order) = match to {
            Seat::Has(f) => (self.has_figure(*f, ctx), None),
            _ => {
                let bits = self.seat_bits(to, ctx);
                (Vec::new(), Some(self.turn_order(bits, ctx.actor)))
            }
        };
        listed.into_iter().chain(order.into_iter().flatten())
    }

    /// The owners of the figures of type `ftype` on the subject feature who are among its
    /// winners, in the order the figures were placed (once per figure).
    fn has_figure(&self, ftype: u8, ctx: &Ctx) -> Vec<u8> {
        let Some(root) = ctx.subject_feature().map(|f| self.find_ro(f)) else {
            return Vec::new();
        };
        let kind = self.board.segs[root as usize].kind;
        let on = |m: &&super::Meeple| {
            m.ftype == ftype
                && ctx.winners >> m.player & 1 != 0
                && self.board.segs[m.seg as usize].kind == kind
                && self.find_ro(m.seg) == root
        };
        self.board
            .meeples
            .iter()
            .filter(on)
            .map(|m| m.player)
            .collect()
    }

    /// The seats holding the most of resource `r`, bit per seat (none while all hold 0).
    fn most_bits(&self, r: usize) -> u32 {
        let held = |p: u8| self.holding(p, r);
        let best = (0..self.seats.players).map(held).max().unwrap_or(0);
        if best == 0 {
            return 0;
        }
        let most = (0..self.seats.players).filter(|&p| held(p) == best);
        most.fold(0, |m, p| m | 1 << p)
    }

    /// The seats of `bits` in turn order from `actor` (the actor first).
    pub(crate) fn in_turn_order(&self, bits: u32, actor: u8) -> Vec<u8> {
        self.turn_order(bits, actor).collect()
    }

    /// [`Game::in_turn_order`] without making the list.
    pub(crate) fn turn_order(&self, bits: u32, actor: u8) -> impl DoubleEndedIterator<Item = u8> {
        let n = self.seats.players;
        let order = (0..n).map(move |k| (actor % n + k) % n);
        order.filter(move |&p| bits >> p & 1 != 0)
    }

    /// `value` over the subject for seat `seat`.
    fn value_for(&self, value: &Expr, ctx: &Ctx, seat: u8) -> u32 {
        value.eval(&mut RuleCounts::new(self, ctx, seat))
    }

    /// Points to each seat of `to` (each its own value: a value may read the seat's holdings).
    fn act_score(&mut self, rule: u16, value: &Expr, to: &Seat, ctx: &Ctx) {
        if let Seat::Most(r) = *to {
            return self.act_award(rule, r, value, ctx);
        }
        for p in self.seats_of(to, ctx) {
            let points = self.value_for(value, ctx, p);
            if points == 0 {
                continue;
            }
            points::credit(&mut self.seats.scores[usize::from(p)], points);
            if let Some(c) = ctx.carrier {
                self.note_carried_points(c.tile, p, points);
            }
            if !self.log.record {
                continue;
            }
            let (turn, rule, players) = (self.now.turn, self.rule_id(rule), vec![p]);
            let event = match ctx.subject_feature() {
                Some(f) => {
                    let mut buf = std::mem::take(&mut self.tmp.buf);
                    let root = find(&mut self.board.segs, f);
                    let mut feature = self.info(root, &mut buf);
                    self.tmp.buf = buf;
                    if let Some(n) = ctx.cities {
                        feature.cities = n;
                    }
                    Event::Score {
                        turn,
                        rule,
                        players,
                        points,
                        feature,
                    }
                }
                None => Event::Points {
                    turn,
                    rule,
                    players,
                    points,
                },
            };
            self.log.events.push(event);
        }
    }

    /// Points to the seats holding the most of resource `r` (TB-3): they hold the same, so the
    /// value is read once, for the first of them; one `award` line names them all, in seat
    /// order.
    fn act_award(&mut self, rule: u16, r: u16, value: &Expr, ctx: &Ctx) {
        let bits = self.most_bits(usize::from(r));
        let seats: Vec<u8> = (0..self.seats.players)
            .filter(|&p| bits >> p & 1 != 0)
            .collect();
        let Some(&first) = seats.first() else {
            return;
        };
        let points = self.value_for(value, ctx, first);
        for &p in &seats {
            points::credit(&mut self.seats.scores[usize::from(p)], points);
        }
        if self.log.record {
            let resource = &self.rules.ruleset().resources[usize::from(r)];
            self.log.events.push(Event::Award {
                turn: self.now.turn,
                rule: self.rule_id(rule),
                held: self.holding(first, usize::from(r)),
                resource: resource.id.clone(),
                players: seats,
                points,
            });
        }
    }

    /// A resource gained (or, with `spend`, given up, never below 0) by each seat of `to`.
    fn act_gain(
        &mut self,
        rule: u16,
        (resource, spend): (u16, bool),
        amount: &Expr,
        to: &Seat,
        ctx: &Ctx,
    ) {
        let nr = self.rules.ruleset().resources.len();
        let r = usize::from(resource);
        if r >= nr {
            return;
        }
        let seats = self.in_turn_order(self.seat_bits(to, ctx), ctx.actor);
        for p in seats {
            let want = amount.eval(&mut RuleCounts::new(self, ctx, p));
            let held = &mut self.seats.holdings[usize::from(p) * nr + r];
            let n = if spend { want.min(*held) } else { want };
            if n == 0 {
                continue;
            }
            if spend {
                *held -= n;
            } else {
                points::add(held, n);
            }
            if self.log.record {
                let feature = ctx.subject_feature().map(|f| FeatureId(self.find_ro(f)));
                self.log.events.push(Event::Gain {
                    turn: self.now.turn,
                    rule: self.rule_id(rule),
                    player: p,
                    resource: self.rules.ruleset().resources[r].id.clone(),
                    amount: n,
                    feature,
                    spent: spend,
                });
            }
        }
    }

    /// The first seat of `to` takes token `token`; its record becomes the larger of the old
    /// and `record` (KR-2: larger than every city completed before).
    fn act_token(&mut self, rule: u16, token: u16, to: &Seat, record: &Expr, ctx: &Ctx) {
        let Some(&seat) = self
            .in_turn_order(self.seat_bits(to, ctx), ctx.actor)
            .first()
        else {
            return;
        };
        let value = self.value_for(record, ctx, seat);
        let Some(t) = self.rf.tokens.get_mut(usize::from(token)) else {
            return;
        };
        t.holder = Some(seat);
        t.record = t.record.max(value);
        let record = t.record;
        if self.log.record {
            self.log.events.push(Event::Token {
                turn: self.now.turn,
                rule: self.rule_id(rule),
                token: self.rules.ruleset().tokens[usize::from(token)].id.clone(),
                player: seat,
                record,
            });
        }
    }

    /// Counters put on the subject tile or the chosen one.
    fn act_counters(&mut self, rule: u16, counter: u16, add: &Expr, on: TileRef, ctx: &Ctx) {
        let counter = match (counter, ctx.chosen) {
            (CHOSEN, Some(Chosen::Kind(k))) => k.counter,
            (CHOSEN, _) => return,
            (c, _) => c,
        };
        let Some(inst) = self.tile_of(on, ctx) else {
            return;
        };
        let n = self.value_for(add, ctx, ctx.actor);
        let c = usize::from(counter);
        if n == 0 || c >= self.rf.counters.len() {
            return;
        }
        let total = self.rf.counters_on(c, inst).saturating_add(n);
        self.rf.set_counters(c, inst, total);
        if self.log.record {
            let at = self.board.insts[inst as usize];
            self.log.events.push(Event::Counters {
                turn: self.now.turn,
                rule: self.rule_id(rule),
                counter: self.rules.ruleset().counters[c].id.clone(),
                x: at.x,
                y: at.y,
                added: n,
                total,
            });
        }
    }

    /// The chosen figure goes back to its owner's supply (still on the board: a figure already
    /// gone is left alone).
    fn act_return(&mut self, rule: u16, ctx: &Ctx) {
        let Some(Chosen::Figure(f)) = ctx.chosen else {
            return;
        };
        let same = |m: &super::Meeple| (m.player, m.ftype, m.seg) == (f.player, f.ftype, f.seg);
        let Some(i) = self.board.meeples.iter().position(same) else {
            return;
        };
        let cite = self.rule_id(rule);
        let (gone, root) = self.remove_figure(i, &cite);
        self.alone_leave(&cite, gone.player, root);
    }
}

/// The id of a `when` rule, borrowed from the shared rules ([`Game::rule_name`]).
struct RuleName(Arc<crate::Rules>, u16);

impl std::ops::Deref for RuleName {
    type Target = str;

    fn deref(&self) -> &str {
        crate::rules::when::rule_id(&self.0.ruleset().when, self.1)
    }
}
