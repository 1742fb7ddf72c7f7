//! Choices as data (issue 30, item 2; docs/FORMAT.md "Offers"): a rule's `offer` gives a seat a
//! choice among options listed in a fixed order — a figure of theirs on the board (board order:
//! tile placement order, then feature), a placed tile around the subject tile (row, then
//! column), a kind of piece they hold (the listed order).
//!
//! The dispatcher (`game/when.rs`) runs a rule's automatic effects and leaves its offer pending
//! (`rf.offers`, with the event's context); the offers are made here, at three points:
//! - **after a placement** (`tile-placed`, GM-2; and features a placement scores at once):
//!   each in [`Phase::Choice`], before the figure step;
//! - **the figure step** (`figure-step`, AB-4, LB-2): listed in [`Phase::Follower`] after the
//!   follower options ([`Action::Choose`] numbers them one after the other, in rule order), so
//!   that the action ids of variants without offers do not move; one that uses the figure step
//!   ends it (no follower), one that does not leaves the follower phase open without it;
//! - **the end of the turn** (`figure-placed`, `feature-completed`, `feature-scored` during the
//!   turn's scoring, `turn-end`, CA-3): each in [`Phase::Choice`], after the turn's scoring and
//!   before freed figures move (AM-11), the pool's takes and the next turn;
//! - **the start of a turn** (`turn-start`): each in [`Phase::Choice`] before the draw.
//!
//! Offers at `game-end` and in final scoring are not made (the game is over).
//! The options are listed when the offer is made; the chosen figure's feature is the subject
//! feature of the offer's effects (AB-4's `1 + neighbours` reads the chosen figure's cloister).
//!
//! An offer with no option is not made. One with exactly one option that may not be declined is
//! still made (a decision like any other: the log and the agents see it). An offer to
//! `"every"` seat is made to each seat in turn order from the actor.

use tegula_ruleset::{FeatureKind, Options, PieceKind, Test, When};

use super::assigned::Host;
use super::corners::NEIGHBOURS;
use super::when::{Chosen, Ctx, FigureRef, RuleCounts};
use super::{Action, ChoiceOption, Event, Game, MoveError, Phase, FRONT};
use crate::event::ChoiceWord;
use crate::rules::when::Kind;

/// An offer's options: as the player sees them, and as the effects read them.
pub(crate) type Listed = Vec<(ChoiceOption, Chosen)>;

/// At most this many emptied option lists are kept for the next offers (a turn makes a few).
const SPARE_LISTS: usize = 8;

/// An offer made to a seat, with its options in their fixed order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Open {
    /// Index into `Ruleset::when`.
    pub(crate) rule: u16,
    /// The seat choosing.
    pub(crate) seat: u8,
    /// The event's subject, actor and winners, which the offer's effects act on.
    pub(crate) ctx: Ctx,
    /// The options: as the player sees them, and as the effects read them.
    pub(crate) options: Listed,
}

/// An offer still to make to a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Queued {
    /// Index into `Ruleset::when`.
    pub(crate) rule: u16,
    /// The seat it goes to.
    pub(crate) seat: u8,
    /// The event's context.
    pub(crate) ctx: Ctx,
}

/// Where the game goes on once the offers of a stage are answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum Stage {
    /// No offers under way.
    #[default]
    None,
    /// The offers of a placement (tile placed, and features scored by it): then the figure
    /// step.
    Placed,
    /// The offers of the end of a turn (figure placed, features completed and scored, turn
    /// end): then the freed figures' moves, the pool's takes and the next turn.
    TurnEnd,
    /// The offers of a turn's start: then the turn's own tiles or draw.
    TurnStart,
    /// A figure-step offer that may not be declined, made alone (PD-12's "must"): then the
    /// turn's end, its figure step used.
    Step,
    /// Offers another figure-step choice chained ([`tegula_ruleset::Act::Offer`]): then the
    /// turn's scoring when that choice used the figure step (`true`), else the figure step
    /// again.
    FigureStep(bool),
}

super::part! {
    /// The choices of the state: part of the game's equality, hash, clone and snapshot (a snapshot
    /// replays the decisions, so it rebuilds them).
    #[derive(Default)]
    pub(crate) struct ChoiceState {
        /// The figure-step offers of this [`Phase::Follower`], in rule order.
        pub(crate) step: Vec<Open>,
        /// The offer waiting in [`Phase::Choice`].
        pub(crate) open: Option<Open>,
        /// Offers of the stage still to make, last first.
        pub(crate) queue: Vec<Queued>,
        /// The stage under way.
        pub(crate) stage: Stage,
    }
}

impl ChoiceState {
    /// Forget every offer (a new game).
    pub(crate) fn clear(&mut self) {
        self.step.clear();
        self.open = None;
        self.queue.clear();
        self.stage = Stage::None;
    }
}

impl Game {
    /// The offer waiting for an answer in [`Phase::Choice`]: its rule's index into
    /// `Ruleset::when`, the seat choosing, and its options in order.
    pub fn open_offer(&self) -> Option<(u16, u8, Vec<ChoiceOption>)> {
        let o = self.choice.open.as_ref();
        let o = o.filter(|_| self.now.phase == Phase::Choice)?;
        Some((o.rule, o.seat, o.options.iter().map(|c| c.0).collect()))
    }

    /// The options [`Action::Choose`] numbers now, each with its rule's index into
    /// `Ruleset::when`: the open offer's in [`Phase::Choice`], the figure-step offers' in
    /// [`Phase::Follower`] (one after the other, in rule order), else none.
    pub fn choice_options(&self) -> Vec<(u16, ChoiceOption)> {
        let offers: &[Open] = match self.now.phase {
            Phase::Choice => self.choice.open.as_slice(),
            Phase::Follower => &self.choice.step,
            _ => &[],
        };
        let each = offers
            .iter()
            .flat_map(|o| o.options.iter().map(|c| (o.rule, c.0)));
        each.collect()
    }

    /// How many options [`Action::Choose`] numbers now (the length of
    /// [`Game::choice_options`], without making the list).
    pub fn choice_count(&self) -> usize {
        match self.now.phase {
            Phase::Choice => self.choice.open.as_ref().map_or(0, |o| o.options.len()),
            Phase::Follower => self.choice.step.iter().map(|o| o.options.len()).sum(),
            _ => 0,
        }
    }

    /// Whether the open offer of [`Phase::Choice`] may be declined ([`Action::Pass`]).
    pub fn offer_may_decline(&self) -> bool {
        // `check_decline` without making its error (a walk's step asks this at every step).
        let open = self
            .choice
            .open
            .as_ref()
            .filter(|_| self.now.phase == Phase::Choice);
        open.is_some_and(|o| self.offer_of(o.rule).is_some_and(|f| f.may_decline))
    }

    /// Take option `index` of [`Game::choice_options`] (the fast path of [`Action::Choose`]).
    /// Returns false if the index or the phase is wrong.
    pub fn play_choose(&mut self, index: usize) -> bool {
        let Ok(n) = u16::try_from(index) else {
            return false;
        };
        if !matches!(self.now.phase, Phase::Choice | Phase::Follower)
            || index >= self.choice_count()
        {
            return false;
        }
        self.log.history.push(Action::Choose(n));
        self.choose(n);
        true
    }

    /// In [`Phase::Follower`], figure-step option `n` as (offer, option) positions.
    fn offer_at(&self, n: usize) -> Option<(usize, usize)> {
        let mut n = n;
        for (k, o) in self.choice.step.iter().enumerate() {
            if n < o.options.len() {
                return Some((k, n));
            }
            n -= o.options.len();
        }
        None
    }

    /// The rule id of `when` rule `rule`.
    pub(super) fn when_id(&self, rule: u16) -> &str {
        crate::rules::when::rule_id(&self.rules.ruleset().when, rule)
    }

    /// Check [`Action::Choose`]`(n)`.
    pub(super) fn check_choose(&self, n: u16) -> Result<(), MoveError> {
        let count = self.choice_count();
        if usize::from(n) < count {
            return Ok(());
        }
        let rule = match (self.now.phase, &self.choice.open, self.choice.step.first()) {
            (Phase::Choice, Some(o), _) | (Phase::Follower, _, Some(o)) => self.when_id(o.rule),
            _ => {
                return Err(MoveError::WrongPhase {
                    phase: self.now.phase,
                })
            }
        };
        Err(MoveError::NoSuchOption {
            rule: rule.to_string(),
            option: n,
            options: count as u16,
        })
    }

    /// Check [`Action::Pass`] in [`Phase::Choice`]: only an offer that may be declined.
    pub(super) fn check_decline(&self) -> Result<(), MoveError> {
        let Some(o) = &self.choice.open else {
            return Err(MoveError::WrongPhase {
                phase: self.now.phase,
            });
        };
        if self.offer_of(o.rule).is_some_and(|f| f.may_decline) {
            return Ok(());
        }
        Err(MoveError::MustChoose {
            rule: self.when_id(o.rule).to_string(),
        })
    }

    fn offer_of(&self, rule: u16) -> Option<&tegula_ruleset::Offer> {
        let w: &When = self.rules.ruleset().when.get(usize::from(rule))?;
        w.offer.as_ref()
    }

    /// Play a checked [`Action::Choose`]`(n)`.
    pub(super) fn choose(&mut self, n: u16) {
        let n = usize::from(n);
        if self.walking() {
            self.walk_step(n);
            return;
        }
        if self.now.phase == Phase::Choice {
            let Some(o) = self.choice.open.take() else {
                return;
            };
            self.answer(&o, n);
            self.recycle(o);
            if !self.rf.offers.is_empty() {
                self.queue_chained();
            }
            self.after_offer();
            return;
        }
        let Some((k, i)) = self.offer_at(n) else {
            return;
        };
        // The offer is used: it leaves the figure step.
        let o = self.choice.step.remove(k);
        self.answer(&o, i);
        let uses = self.offer_of(o.rule).is_some_and(|f| f.uses_figure_step);
        self.recycle(o);
        if uses {
            self.recycle_step();
        }
        // Offers the choice chained (TO-4 after TO-2) come before the turn goes on.
        if !self.rf.offers.is_empty() {
            if self.make_offers(Stage::FigureStep(uses)) {
                return;
            }
            self.choice.stage = Stage::None;
        }
        self.after_figure_choice(uses);
    }

    /// After a figure-step choice and the offers it chained: the turn's scoring when it used
    /// the figure step, else the figure step again.
    fn after_figure_choice(&mut self, uses: bool) {
        self.now.player = self.now.active;
        if uses {
            self.end_turn();
        } else {
            self.now.phase = Phase::Follower;
            self.reopen_figure_step();
        }
    }

    /// Record option `i` of offer `o` and run the offer's effects on it.
    fn answer(&mut self, o: &Open, i: usize) {
        let (option, chosen) = o.options[i];
        self.record_choice(o.rule, o.seat, option);
        // A chosen figure's feature is the effects' subject (`Ctx::subject_feature`).
        let ctx = Ctx {
            chooser: Some(o.seat),
            chosen: Some(chosen),
            ..o.ctx
        };
        self.run_offered(o.rule, &ctx);
    }

    /// Play a checked [`Action::Pass`] in [`Phase::Choice`]: the offer is declined.
    pub(super) fn decline(&mut self) {
        let Some(o) = self.choice.open.take() else {
            return;
        };
        if self.log.record {
            let rule = Some(self.when_id(o.rule).to_string());
            self.log.events.push(Event::Pass {
                turn: self.now.turn,
                player: o.seat,
                rule,
            });
        }
        self.recycle(o);
        self.after_offer();
    }

    fn record_choice(&mut self, rule: u16, seat: u8, option: ChoiceOption) {
        if !self.log.record {
            return;
        }
        let option = self.choice_word(option);
        self.log.events.push(Event::Choice {
            turn: self.now.turn,
            rule: self.when_id(rule).to_string(),
            player: seat,
            option,
        });
    }

    /// How the log names `option`: a figure by its tile's anchor and feature, a tile by its
    /// cell, a kind by its resource id.
    pub fn choice_word(&self, option: ChoiceOption) -> ChoiceWord {
        match option {
            ChoiceOption::Figure {
                x,
                y,
                feature,
                follower,
            } => {
                let tile = self.tile_at(x, y).map_or(0, |t| t.0.tile);
                ChoiceWord::Figure {
                    x,
                    y,
                    feature,
                    segment: self.rules.feature_name(tile, feature).to_string(),
                    follower: self.rules.follower_id(follower).to_string(),
                }
            }
            ChoiceOption::Tile { x, y } => ChoiceWord::Tile([x, y]),
            ChoiceOption::Kind { resource, .. } => {
                let rs = self.rules.ruleset();
                let id = rs
                    .resources
                    .get(usize::from(resource))
                    .map(|r| r.id.clone());
                ChoiceWord::Kind(id.unwrap_or_default())
            }
            ChoiceOption::Top {
                x,
                y,
                follower,
                player,
            } => ChoiceWord::Top {
                x,
                y,
                follower: self.rules.follower_id(follower).to_string(),
                player,
            },
            ChoiceOption::Captive { holder, follower } => ChoiceWord::Captive {
                holder,
                follower: self.rules.follower_id(follower).to_string(),
            },
        }
    }

    /// The index [`Action::Choose`] takes for the option the log names `word` under rule id
    /// `rule`, among [`Game::choice_options`].
    pub fn choice_index(&self, rule: &str, word: &ChoiceWord) -> Option<u16> {
        let options = self.choice_options();
        let i = options
            .iter()
            .position(|&(r, o)| self.when_id(r) == rule && self.choice_word(o) == *word)?;
        u16::try_from(i).ok()
    }

    // --- Making offers -------------------------------------------------------------------

    /// Make the offers the dispatcher left pending (`rf.offers`, game/when.rs): the
    /// figure-step ones beside the follower options, the others each in [`Phase::Choice`],
    /// one after the other; `stage` says where the game goes on after them. True when one
    /// waits for an answer.
    pub(super) fn make_offers(&mut self, stage: Stage) -> bool {
        let pending = std::mem::take(&mut self.rf.offers);
        self.choice.queue.clear();
        self.queue_offers(&pending);
        self.choice.stage = stage;
        self.next_offer()
    }

    /// Queue `pending`'s offers, each to its seats in turn order from its actor; the queue
    /// is made last first, so the first offer's first seat is asked first.
    fn queue_offers(&mut self, pending: &[super::rule_state::PendingOffer]) {
        for p in pending.iter().rev() {
            let Some(offer) = self.offer_of(p.rule) else {
                continue;
            };
            let bits = self.seat_bits(&offer.to, &p.ctx);
            let seats = self.turn_order(bits, p.ctx.actor).rev();
            let each = seats.map(|seat| Queued {
                rule: p.rule,
                seat,
                ctx: p.ctx,
            });
            self.choice.queue.extend(each);
        }
    }

    /// The offers of `chained` rules an answer in [`Phase::Choice`] left pending (a capture's
    /// exchange, TO-6): queued to be made next, in the stage under way.
    fn queue_chained(&mut self) {
        let when = &self.rules.ruleset().when;
        let chained = |p: &super::rule_state::PendingOffer| {
            when.get(usize::from(p.rule))
                .is_some_and(|w| w.event == tegula_ruleset::RuleEvent::Chained)
        };
        let (now, rest): (Vec<_>, Vec<_>) = self.rf.offers.drain(..).partition(chained);
        self.rf.offers = rest;
        self.queue_offers(&now);
    }

    /// Open the next queued offer that has options ([`Phase::Choice`]); false when the stage
    /// has none left.
    fn next_offer(&mut self) -> bool {
        while let Some(q) = self.choice.queue.pop() {
            let mut options = self.spare_list();
            self.offer_options(q.rule, q.seat, &q.ctx, &mut options);
            if options.is_empty() {
                self.keep_list(options);
                continue;
            }
            self.choice.open = Some(Open {
                rule: q.rule,
                seat: q.seat,
                ctx: q.ctx,
                options,
            });
            self.now.player = q.seat;
            self.now.phase = Phase::Choice;
            return true;
        }
        false
    }

    /// After an offer of a stage is answered: the next one, else the game goes on where the
    /// stage stopped it.
    fn after_offer(&mut self) {
        if self.next_offer() {
            return;
        }
        self.now.player = self.now.active;
        match std::mem::take(&mut self.choice.stage) {
            Stage::Placed => self.begin_figure_step(),
            Stage::TurnEnd => self.after_scoring(),
            Stage::TurnStart => self.begin_turn_after_offers(),
            Stage::Step => self.end_turn(),
            Stage::FigureStep(uses) => self.after_figure_choice(uses),
            Stage::None => {}
        }
    }

    /// The figure step of the tile just placed: its follower options, `figure-step` raised, the
    /// offers it makes listed beside them.
    #[inline]
    pub(super) fn begin_figure_step(&mut self) {
        self.compute_options();
        if self.nf.no_figures.is_some() {
            self.drop_blocked_options();
        }
        self.now.phase = Phase::Follower;
        if self.waits(Kind::FigureStep) {
            if self.placed_may_match(Kind::FigureStep) {
                self.rule_figure_step();
            }
            self.list_step_offers();
        }
    }

    /// The figure-step offers the dispatcher left pending, to the actor only (the seat in
    /// the follower phase), each with its options.
    fn list_step_offers(&mut self) {
        self.recycle_step();
        let mut pending = std::mem::take(&mut self.rf.offers);
        for &p in &pending {
            let to_actor = (self.offer_of(p.rule))
                .is_some_and(|o| self.seat_in(&o.to, &p.ctx, self.now.player));
            if !to_actor {
                continue;
            }
            let seat = self.now.player;
            let mut options = self.spare_list();
            self.offer_options(p.rule, seat, &p.ctx, &mut options);
            if options.is_empty() {
                self.keep_list(options);
                continue;
            }
            let (rule, ctx) = (p.rule, p.ctx);
            self.choice.step.push(Open {
                rule,
                seat,
                ctx,
                options,
            });
        }
        // Listing options raises nothing: the buffer goes back, its capacity kept for the
        // next turn's figure step.
        pending.clear();
        if self.rf.offers.is_empty() {
            self.rf.offers = pending;
        }
        self.make_must_offer();
    }

    /// A figure-step offer that may not be declined and has options is the whole figure step
    /// (PD-12's "must"): made alone in [`Phase::Choice`], no follower and no other offer; once
    /// answered the turn ends (the model has it use the figure step).
    fn make_must_offer(&mut self) {
        let must = (self.choice.step.iter())
            .position(|o| self.offer_of(o.rule).is_some_and(|f| !f.may_decline));
        let Some(k) = must else {
            return;
        };
        let o = self.choice.step.swap_remove(k);
        self.recycle_step();
        self.choice.queue.clear();
        self.choice.stage = Stage::Step;
        self.now.player = o.seat;
        self.now.phase = Phase::Choice;
        self.choice.open = Some(o);
    }

    /// After a figure-step choice that leaves the step open: the follower options again, and
    /// the other figure-step offers with their options as they are now.
    fn reopen_figure_step(&mut self) {
        self.compute_options();
        if self.nf.no_figures.is_some() {
            self.drop_blocked_options();
        }
        let mut step = std::mem::take(&mut self.choice.step);
        for o in &mut step {
            self.offer_options(o.rule, o.seat, &o.ctx, &mut o.options);
        }
        step.retain(|o| !o.options.is_empty());
        self.choice.step = step;
    }

    /// An empty option list: one an answered offer left, else a new one.
    pub(super) fn spare_list(&mut self) -> Listed {
        self.tmp.lists.pop().unwrap_or_default()
    }

    /// Keep an option list no offer holds any more for the next offer: a game with offers made
    /// most of its allocations listing them (an own-figure offer at every figure step, a walk's
    /// steps).
    pub(super) fn keep_list(&mut self, mut list: Listed) {
        if list.capacity() > 0 && self.tmp.lists.len() < SPARE_LISTS {
            list.clear();
            self.tmp.lists.push(list);
        }
    }

    /// An offer answered, declined or lapsed: its list is kept for the next offer.
    pub(super) fn recycle(&mut self, o: Open) {
        self.keep_list(o.options);
    }

    /// The figure step's offers lapse; their lists are kept.
    fn recycle_step(&mut self) {
        let mut step = std::mem::take(&mut self.choice.step);
        for o in step.drain(..) {
            self.recycle(o);
        }
        self.choice.step = step;
    }

    /// The options of `rule`'s offer to `seat` about `ctx`, in their fixed order, in `out`
    /// (emptied first).
    fn offer_options(&self, rule: u16, seat: u8, ctx: &Ctx, out: &mut Listed) {
        out.clear();
        let when = self.rules.ruleset().when.get(usize::from(rule));
        let Some(offer) = when.and_then(|w| w.offer.as_ref()) else {
            return;
        };
        match &offer.options {
            Options::OwnFigure {
                figure,
                figures,
                not_assigned,
                on,
                test,
                tops,
            } => {
                let host = self.host(*figures, *not_assigned);
                self.own_figures(seat, (*figure, on), (test.as_ref(), host), ctx, out);
                if *tops {
                    self.own_tops(seat, *figure, host, out);
                }
            }
            Options::NeighbourTile { diagonals } => self.neighbour_tiles(ctx.tile, *diagonals, out),
            Options::Kind { of } => self.held_kinds(seat, of, out),
            // Made by the pool's takes (game/pool.rs), never here.
            Options::PoolTile => {}
            Options::AnyFeature { figures, avoid } => {
                self.sites_anywhere(seat, (*figures, avoid), ctx, out)
            }
            Options::FigureIn { figures } => {
                let tag = when.and_then(|w| crate::rules::when::event_tag(&w.event));
                self.figures_in(*figures, tag, ctx, out)
            }
            other => self.stack_options(other, seat, rule, ctx, out),
        }
    }

    /// The kinds of `of` that `seat` holds one of at least, in the listed order.
    fn held_kinds(&self, seat: u8, of: &[PieceKind], out: &mut Listed) {
        let nr = self.rules.ruleset().resources.len();
        let held = |r: u16| {
            let i = usize::from(seat) * nr + usize::from(r);
            usize::from(r) < nr && self.seats.holdings.get(i).is_some_and(|&h| h > 0)
        };
        let kinds = of.iter().enumerate().filter(|(_, k)| held(k.resource));
        let each = kinds.map(|(i, k)| {
            let option = ChoiceOption::Kind {
                index: i as u8,
                resource: k.resource,
            };
            (option, Chosen::Kind(*k))
        });
        out.extend(each);
    }

    /// `seat`'s figures on features (not corner figures) of the type `which.0` (any: `None`),
    /// on a feature of one of the kinds `which.1` (empty: any) passing `test` (over that
    /// feature, as the subject), each that `host` admits, in board order, as options in `out`.
    fn own_figures(
        &self,
        seat: u8,
        which: (Option<u8>, &[FeatureKind]),
        tests: (Option<&Test>, Host),
        ctx: &Ctx,
        out: &mut Listed,
    ) {
        let (figure, on) = which;
        let (test, host) = tests;
        let segs = &self.board.segs;
        // The cheap filters (seat, figure type) first: most figures are another seat's.
        let mine = (self.board.meeples.iter())
            .filter(|m| m.player == seat && figure.is_none_or(|f| f == m.ftype));
        // Board order: tile placement order, tile-local feature, figure type. A tile's segments
        // are numbered from its `seg_base` in tile-local order, after every earlier tile's, so
        // segment order is that order. The figures' own order (placement order) is board order
        // unless one moved or left: then sorted.
        let key = |seg: u32, ftype: u8| u64::from(seg) << 8 | u64::from(ftype);
        // Two options of one key are one figure twice (same seat, type and segment): listed
        // once. Listed in order, they can only be neighbours; sorted, `dedup` finds them.
        let (mut sorted, mut twice) = (true, false);
        let mut last = 0;
        // The host's filters, read as plain values (one comparison a figure).
        let taken = host.taken_figure();
        for m in mine {
            let f = FigureRef {
                player: m.player,
                ftype: m.ftype,
                seg: m.seg,
            };
            if !host.lists_type(m.ftype) || taken == Some(f) {
                continue;
            }
            // The feature is only looked up for a test that reads it.
            if !on.is_empty() || test.is_some() {
                let root = self.find_ro(m.seg);
                if !on.is_empty() && !on.contains(&segs[root as usize].kind) {
                    continue;
                }
                let sub = Ctx {
                    feature: Some(root),
                    ..*ctx
                };
                if !test.is_none_or(|t| t.holds(&mut RuleCounts::new(self, &sub, seat))) {
                    continue;
                }
            }
            let k = key(m.seg, m.ftype);
            if !out.is_empty() {
                sorted &= k >= last;
                twice |= k == last;
            }
            last = k;
            out.push(self.figure_option(f));
        }
        if !sorted {
            out.sort_unstable_by_key(|c| match c.1 {
                Chosen::Figure(f) => key(f.seg, f.ftype),
                _ => 0,
            });
        }
        if twice || !sorted {
            out.dedup();
        }
    }

    pub(super) fn figure_option(&self, f: FigureRef) -> (ChoiceOption, Chosen) {
        let s = self.board.segs[f.seg as usize];
        let inst = self.board.insts[s.inst as usize];
        let option = ChoiceOption::Figure {
            x: inst.x,
            y: inst.y,
            feature: s.local,
            follower: f.ftype,
        };
        (option, Chosen::Figure(f))
    }

    /// The placed tiles around tile instance `subject` (the 8, or 4, neighbour cells of each
    /// of its cells, its own cells left out), each once at its first cell in row-major order.
    fn neighbour_tiles(&self, subject: Option<u32>, diagonals: bool, out: &mut Listed) {
        let Some(inst) = subject.and_then(|i| self.board.insts.get(i as usize)) else {
            return;
        };
        let cells = &self.rules.tiles[inst.tile as usize].rot[inst.rot as usize];
        let mut found: Vec<(i32, i32, u32)> = Vec::new();
        for c in cells {
            for (dx, dy) in NEIGHBOURS {
                if !diagonals && dx != 0 && dy != 0 {
                    continue;
                }
                let (x, y) = (inst.x + c.dx + dx, inst.y + c.dy + dy);
                let placed = self
                    .pos(x, y)
                    .map(|p| self.board.cells[p])
                    .filter(|&v| v < FRONT);
                if let Some(other) = placed.map(|v| v >> 4).filter(|&o| Some(o) != subject) {
                    found.push((y, x, other));
                }
            }
        }
        found.sort_unstable();
        for (y, x, other) in found {
            if !out.iter().any(|o| o.1 == Chosen::Tile(other)) {
                out.push((ChoiceOption::Tile { x, y }, Chosen::Tile(other)));
            }
        }
    }

    /// End the game with an offer open (by [`Game::finish`]): the offers lapse; true when the
    /// turn's scoring is still to run (the offers came before the figure step).
    pub(super) fn drop_offers(&mut self) -> bool {
        let walk = self.nf.walk.take();
        let before_scoring = matches!(
            self.choice.stage,
            Stage::Placed | Stage::Step | Stage::FigureStep(_)
        ) || walk
            .is_some_and(|w| w.resume == super::walk::WalkResume::Scoring);
        self.choice.clear();
        self.rf.offers.clear();
        before_scoring
    }
}
