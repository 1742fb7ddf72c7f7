//! Choices as data (issue 30, item 2; docs/FORMAT.md "Offers"): a rule's `offer` gives a seat a
//! choice among options listed in a fixed order — a figure of theirs on the board (board order:
//! tile placement order, then feature), a placed tile around the subject tile (row, then
//! column), a kind of piece they hold (the listed order).
//!
//! Where offers are made:
//! - **figure step** ([`RuleEvent::FigureStep`]): listed in [`Phase::Follower`] after the
//!   follower options ([`Action::Choose`] numbers them one after the other, in rule order), so
//!   that the action ids of variants without offers do not move; one that uses the figure step
//!   ends it (no follower), one that does not leaves the follower phase open without it;
//! - **tile placed** ([`RuleEvent::TilePlaced`]): right after the placement, before the figure
//!   step, each in [`Phase::Choice`];
//! - **turn end** ([`RuleEvent::TurnEnd`]): after the turn's scoring and the freed figures'
//!   moves, before the pool's takes and the next turn, each in [`Phase::Choice`].
//!
//! An offer with no option is not made. One with exactly one option that may not be declined is
//! still made (a decision like any other: the log and the agents see it). An offer to
//! `"every"` seat is made to each seat in turn order from the actor.

use tegula_ruleset::{Options, Ruleset, Seat, When};

use super::score::FeatureCounts;
use super::{find, Action, ChoiceOption, Event, Game, MoveError, Phase, FRONT};
use crate::event::ChoiceWord;

/// The rules with an offer, by the event that makes it (indices into `Ruleset::when`, in file
/// order). Built once with the rules.
#[derive(Clone, Debug, Default)]
pub(crate) struct OfferIndex {
    /// Offers made right after a placement (with the tag the tile must carry, if any).
    pub(crate) tile_placed: Vec<(u16, Option<u32>)>,
    /// Offers listed beside the follower options.
    pub(crate) figure_step: Vec<u16>,
    /// Offers made at the end of the turn.
    pub(crate) turn_end: Vec<u16>,
}

impl OfferIndex {
    /// The index of `ruleset`'s offers.
    pub(crate) fn new(ruleset: &Ruleset) -> OfferIndex {
        let mut ix = OfferIndex::default();
        for (i, w) in ruleset.when.iter().enumerate() {
            let Ok(i) = u16::try_from(i) else { break };
            if w.offer.is_none() {
                continue;
            }
            match w.event {
                tegula_ruleset::RuleEvent::TilePlaced { tag } => ix.tile_placed.push((i, tag)),
                tegula_ruleset::RuleEvent::FigureStep => ix.figure_step.push(i),
                tegula_ruleset::RuleEvent::TurnEnd => ix.turn_end.push(i),
                _ => {}
            }
        }
        ix
    }

    /// Whether any offer is made at turn end (then turns are not "plain").
    pub(crate) fn any_turn_end(&self) -> bool {
        !self.turn_end.is_empty()
    }
}

/// An offer made to a seat, with its options in their fixed order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Open {
    /// Index into `Ruleset::when`.
    pub(crate) rule: u16,
    /// The seat choosing.
    pub(crate) seat: u8,
    /// The options.
    pub(crate) options: Vec<ChoiceOption>,
}

/// Where the game goes on once the offers of a stage are answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum Stage {
    /// No offers under way.
    #[default]
    None,
    /// The tile-placed offers: then the figure step.
    TilePlaced,
    /// The turn-end offers: then the pool's takes and the next turn.
    TurnEnd,
}

/// The choices of the state: part of the game's equality, hash, clone and snapshot (a snapshot
/// replays the decisions, so it rebuilds them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct ChoiceState {
    /// The figure-step offers of this [`Phase::Follower`], in rule order.
    pub(crate) step: Vec<Open>,
    /// Figure-step offers already used this turn (rules whose choice left the step open).
    pub(crate) used: Vec<u16>,
    /// The offer waiting in [`Phase::Choice`].
    pub(crate) open: Option<Open>,
    /// Offers of the stage still to make, `(rule, seat)`, last first.
    pub(crate) queue: Vec<(u16, u8)>,
    /// The stage under way.
    pub(crate) stage: Stage,
}

impl ChoiceState {
    /// Forget every offer (a new game).
    pub(crate) fn clear(&mut self) {
        self.step.clear();
        self.used.clear();
        self.open = None;
        self.queue.clear();
        self.stage = Stage::None;
    }
}

/// A figure option's identity: the figure's segment and type.
type FigureAt = (u32, u8);

impl Game {
    /// The offer waiting for an answer in [`Phase::Choice`]: its rule's index into
    /// `Ruleset::when`, the seat choosing, and its options in order.
    pub fn open_offer(&self) -> Option<(u16, u8, &[ChoiceOption])> {
        let o = self
            .choice
            .open
            .as_ref()
            .filter(|_| self.phase == Phase::Choice)?;
        Some((o.rule, o.seat, &o.options))
    }

    /// The options [`Action::Choose`] numbers now, each with its rule's index into
    /// `Ruleset::when`: the open offer's in [`Phase::Choice`], the figure-step offers' in
    /// [`Phase::Follower`] (one after the other, in rule order), else none.
    pub fn choice_options(&self) -> Vec<(u16, ChoiceOption)> {
        let offers: &[Open] = match self.phase {
            Phase::Choice => self.choice.open.as_slice(),
            Phase::Follower => &self.choice.step,
            _ => &[],
        };
        let each = offers
            .iter()
            .flat_map(|o| o.options.iter().map(|&c| (o.rule, c)));
        each.collect()
    }

    /// How many options [`Action::Choose`] numbers now (the length of
    /// [`Game::choice_options`], without making the list).
    pub fn choice_count(&self) -> usize {
        match self.phase {
            Phase::Choice => self.choice.open.as_ref().map_or(0, |o| o.options.len()),
            Phase::Follower => self.choice.step.iter().map(|o| o.options.len()).sum(),
            _ => 0,
        }
    }

    /// Whether the open offer of [`Phase::Choice`] may be declined ([`Action::Pass`]).
    pub fn offer_may_decline(&self) -> bool {
        self.phase == Phase::Choice && self.check_decline().is_ok()
    }

    /// Take option `index` of [`Game::choice_options`] (the fast path of [`Action::Choose`]).
    /// Returns false if the index or the phase is wrong.
    pub fn play_choose(&mut self, index: usize) -> bool {
        let Ok(n) = u16::try_from(index) else {
            return false;
        };
        if !matches!(self.phase, Phase::Choice | Phase::Follower) || index >= self.choice_count() {
            return false;
        }
        self.history.push(Action::Choose(n));
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
        self.rules.ruleset().when[usize::from(rule)].rule.as_str()
    }

    /// Check [`Action::Choose`]`(n)`.
    pub(super) fn check_choose(&self, n: u16) -> Result<(), MoveError> {
        let count = self.choice_count();
        if usize::from(n) < count {
            return Ok(());
        }
        let rule = match (self.phase, &self.choice.open, self.choice.step.first()) {
            (Phase::Choice, Some(o), _) | (Phase::Follower, _, Some(o)) => self.when_id(o.rule),
            _ => return Err(MoveError::WrongPhase { phase: self.phase }),
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
            return Err(MoveError::WrongPhase { phase: self.phase });
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
        if self.phase == Phase::Choice {
            let Some(o) = self.choice.open.take() else {
                return;
            };
            self.record_choice(o.rule, o.seat, o.options[n]);
            self.run_offer(o.rule, o.seat, o.options[n]);
            self.after_offer();
            return;
        }
        let Some((k, i)) = self.offer_at(n) else {
            return;
        };
        let o = self.choice.step.remove(k);
        self.record_choice(o.rule, o.seat, o.options[i]);
        self.run_offer(o.rule, o.seat, o.options[i]);
        let ends_step = self.offer_of(o.rule).is_some_and(|f| f.uses_figure_step);
        if ends_step {
            self.choice.step.clear();
            self.end_turn();
        } else {
            // The follower step stays open; the offer is used for this turn.
            self.choice.used.push(o.rule);
            self.compute_options();
        }
    }

    /// Play a checked [`Action::Pass`] in [`Phase::Choice`]: the offer is declined.
    pub(super) fn decline(&mut self) {
        let Some(o) = self.choice.open.take() else {
            return;
        };
        if self.record {
            let rule = Some(self.when_id(o.rule).to_string());
            self.events.push(Event::Pass {
                turn: self.turn,
                player: o.seat,
                rule,
            });
        }
        self.after_offer();
    }

    fn record_choice(&mut self, rule: u16, seat: u8, option: ChoiceOption) {
        if !self.record {
            return;
        }
        let option = self.choice_word(option);
        self.events.push(Event::Choice {
            turn: self.turn,
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

    /// Right after a placement: make the tile-placed offers; true when one waits.
    pub(super) fn offer_tile_placed(&mut self) -> bool {
        self.choice.used.clear();
        let rules = self.rules.clone();
        let inst = self.insts.len() - 1;
        let tile = self.insts[inst].tile as usize;
        let tags = rules.tiles[tile].feats.iter().fold(0u32, |m, f| m | f.tags);
        let due = rules
            .offers
            .tile_placed
            .iter()
            .filter(|(_, tag)| tag.is_none_or(|t| t < 32 && tags & (1 << t) != 0));
        let rules_due: Vec<u16> = due.map(|&(r, _)| r).collect();
        self.queue_offers(&rules_due, super::choice::Stage::TilePlaced)
    }

    /// At the end of a turn: make the turn-end offers; true when one waits.
    pub(super) fn offer_turn_end(&mut self) -> bool {
        let rules = self.rules.clone();
        self.queue_offers(&rules.offers.turn_end, Stage::TurnEnd)
    }

    /// Queue the offers of `due` (each to its seats) and make the first that has options.
    fn queue_offers(&mut self, due: &[u16], stage: Stage) -> bool {
        self.choice.queue.clear();
        for &rule in due.iter().rev() {
            let seats = self.offer_seats(rule);
            for &seat in seats.iter().rev() {
                self.choice.queue.push((rule, seat));
            }
        }
        self.choice.stage = stage;
        self.next_offer()
    }

    /// The seats an offer of `rule` goes to (in turn order from the actor).
    fn offer_seats(&self, rule: u16) -> Vec<u8> {
        let Some(offer) = self.offer_of(rule) else {
            return Vec::new();
        };
        let (n, a) = (self.players, self.active);
        match offer.to {
            Seat::Actor | Seat::Chooser => vec![a],
            Seat::Placer | Seat::Owner => vec![self.last_placer],
            Seat::Every => (0..n).map(|k| (a + k) % n).collect(),
            // No feature, or no token, at these events: nobody.
            Seat::Winners | Seat::Holder(_) => Vec::new(),
        }
    }

    /// Open the next queued offer that has options ([`Phase::Choice`]); false when the stage
    /// has none left.
    fn next_offer(&mut self) -> bool {
        while let Some((rule, seat)) = self.choice.queue.pop() {
            let options = self.offer_options(rule, seat);
            if options.is_empty() {
                continue;
            }
            self.choice.open = Some(Open {
                rule,
                seat,
                options,
            });
            self.player = seat;
            self.phase = Phase::Choice;
            return true;
        }
        false
    }

    /// After an offer of a stage is answered: the next one, else the game goes on.
    fn after_offer(&mut self) {
        if self.next_offer() {
            return;
        }
        self.player = self.active;
        match std::mem::take(&mut self.choice.stage) {
            Stage::TilePlaced => {
                self.compute_options();
                self.phase = Phase::Follower;
            }
            Stage::TurnEnd => self.after_turn_end(),
            Stage::None => {}
        }
    }

    /// The figure-step offers of the actor, beside the follower options just computed.
    pub(super) fn offer_figure_step(&mut self) {
        self.choice.step.clear();
        let rules = self.rules.clone();
        for &rule in &rules.offers.figure_step {
            if self.choice.used.contains(&rule) || !self.offer_seats(rule).contains(&self.player) {
                continue;
            }
            let options = self.offer_options(rule, self.player);
            if !options.is_empty() {
                let seat = self.player;
                self.choice.step.push(Open {
                    rule,
                    seat,
                    options,
                });
            }
        }
    }

    /// The options of `rule`'s offer to `seat`, in their fixed order.
    fn offer_options(&mut self, rule: u16, seat: u8) -> Vec<ChoiceOption> {
        let rules = self.rules.clone();
        let Some(offer) = rules.ruleset().when[usize::from(rule)].offer.as_ref() else {
            return Vec::new();
        };
        match &offer.options {
            Options::OwnFigure { figure, on, test } => {
                let figs = self.own_figures(seat, *figure, on, test.as_ref());
                figs.into_iter().map(|f| self.figure_option(f)).collect()
            }
            Options::NeighbourTile { diagonals } => self.neighbour_tiles(*diagonals),
            Options::Kind { of } => {
                let nr = rules.ruleset().resources.len();
                let held = |r: u16| {
                    let i = usize::from(seat) * nr + usize::from(r);
                    usize::from(r) < nr && self.holdings.get(i).is_some_and(|&h| h > 0)
                };
                let kinds = of.iter().enumerate().filter(|(_, k)| held(k.resource));
                let each = kinds.map(|(i, k)| ChoiceOption::Kind {
                    index: i as u8,
                    resource: k.resource,
                });
                each.collect()
            }
        }
    }

    /// `seat`'s figures on features (not corner figures) of type `figure` (any: `None`), on a
    /// feature of one of the kinds `on` (empty: any) passing `test`, in board order.
    fn own_figures(
        &mut self,
        seat: u8,
        figure: Option<u8>,
        on: &[tegula_ruleset::FeatureKind],
        test: Option<&tegula_ruleset::Test>,
    ) -> Vec<FigureAt> {
        let mut out: Vec<FigureAt> = Vec::new();
        for i in 0..self.meeples.len() {
            let m = self.meeples[i];
            let root = find(&mut self.segs, m.seg);
            let kind = self.segs[root as usize].kind;
            let ok = m.player == seat
                && figure.is_none_or(|f| f == m.ftype)
                && (on.is_empty() || on.contains(&kind));
            if ok && test.is_none_or(|t| self.feature_passes(root, t)) {
                out.push((m.seg, m.ftype));
            }
        }
        let segs = &self.segs;
        out.sort_by_key(|&(seg, ftype)| {
            let s = segs[seg as usize];
            (s.inst, s.local, ftype)
        });
        out.dedup();
        out
    }

    /// Whether the feature rooted at `root` passes `test` (over its counts).
    fn feature_passes(&mut self, root: u32, test: &tegula_ruleset::Test) -> bool {
        let mut buf = std::mem::take(&mut self.tmp.buf);
        let holds = test.holds(&mut FeatureCounts::new(self, root, &mut buf, None));
        self.tmp.buf = buf;
        holds
    }

    fn figure_option(&self, (seg, ftype): FigureAt) -> ChoiceOption {
        let s = self.segs[seg as usize];
        let inst = self.insts[s.inst as usize];
        ChoiceOption::Figure {
            x: inst.x,
            y: inst.y,
            feature: s.local,
            follower: ftype,
        }
    }

    /// The placed tiles around the tile just placed (its 8 or 4 neighbour cells of each of its
    /// cells, its own cells left out), each once at its first cell in row-major order.
    fn neighbour_tiles(&self, diagonals: bool) -> Vec<ChoiceOption> {
        let Some(last) = self.insts.len().checked_sub(1) else {
            return Vec::new();
        };
        let inst = self.insts[last];
        let cells = &self.rules.tiles[inst.tile as usize].rot[inst.rot as usize];
        let mut found: Vec<(i32, i32, u32)> = Vec::new();
        for c in cells {
            for dy in -1..=1i32 {
                for dx in -1..=1i32 {
                    if (dx, dy) == (0, 0) || (!diagonals && dx != 0 && dy != 0) {
                        continue;
                    }
                    let (x, y) = (inst.x + c.dx + dx, inst.y + c.dy + dy);
                    let Some(v) = self.pos(x, y).map(|p| self.cells[p]).filter(|&v| v < FRONT)
                    else {
                        continue;
                    };
                    let other = v >> 4;
                    if other as usize != last {
                        found.push((y, x, other));
                    }
                }
            }
        }
        found.sort_unstable();
        let mut seen: Vec<u32> = Vec::new();
        let mut out = Vec::new();
        for (y, x, other) in found {
            if !seen.contains(&other) {
                seen.push(other);
                out.push(ChoiceOption::Tile { x, y });
            }
        }
        out
    }

    /// End the game with an offer open (by [`Game::finish`]): the offer lapses; the turn's
    /// scoring runs when the offer came before the figure step.
    pub(super) fn drop_offers(&mut self) -> bool {
        let before_scoring = self.choice.stage == Stage::TilePlaced;
        self.choice.clear();
        before_scoring
    }
}
