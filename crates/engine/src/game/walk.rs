//! Walks of neutral figures ([`Act::Walk`]; docs/design/actions.md, 2): `steps` steps, each a
//! choice in [`Phase::Choice`] among the four neighbouring cells (N, E, S, W, in that order)
//! the walk may enter, by a seat the walk's chooser names (rotating: the actor first, then in
//! turn order). No passing. Each step moves the figure, counts the cell as visited and runs
//! the walk's `on_enter` effects on the tile entered; with no step left, or no cell to enter (a
//! dead end), the walk ends and the turn goes on where it stopped: the turn's scoring (a walk of
//! `before-scoring`), or the end of the turn's offers (a walk of `turn-end`).

use std::sync::Arc;

use tegula_ruleset::{Act, Avoid, Revisit, Ruleset, Walk, WalkChooser, WalkTiming};

use super::choice::{Listed, Open};
use super::when::{Chosen, Ctx, RuleCounts};
use super::{ChoiceOption, Event, Game, Phase};

/// A board cell `(x, y)`.
pub type Cell = (i32, i32);

/// The four steps, in their fixed order: north, east, south, west.
const STEPS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// The most steps a walk's visited list makes room for at its start.
const WALK_ROOM: u32 = 32;

/// Where the turn goes on once a walk ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum WalkResume {
    /// The turn's scoring (a walk started before it).
    #[default]
    Scoring,
    /// The end of the turn's offers (a walk started after the scoring).
    TurnEnd,
}

/// A walk under way.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct WalkState {
    /// Index of the rule whose effect started it (into `Ruleset::when`).
    pub rule: u16,
    /// Steps still to make.
    pub left: u32,
    /// Steps made.
    pub made: u32,
    /// The cells visited.
    pub visited: Vec<(i32, i32)>,
    /// The context of the event that started it.
    pub ctx: Ctx,
    /// Where the turn goes on after it.
    pub resume: WalkResume,
}

/// The walk of rule `rule` of `rs` (the first [`Act::Walk`] of its effects or its offer's).
fn walk_in(rs: &Ruleset, rule: u16) -> Option<&Walk> {
    let w = rs.when.get(usize::from(rule))?;
    let offered = w.offer.iter().flat_map(|o| &o.then);
    w.then.iter().chain(offered).find_map(|a| match a {
        Act::Walk(w) => Some(w),
        _ => None,
    })
}

impl Game {
    /// The walk of rule `rule`.
    fn walk_of(&self, rule: u16) -> Option<&Walk> {
        walk_in(self.rules.ruleset(), rule)
    }

    /// An [`Act::Walk`] runs: the walk is set up (its figure on the board, at least one step);
    /// its steps are asked once the event's rules have run ([`Game::walk_next`]).
    pub(super) fn start_walk(&mut self, rule: u16, w: &Walk, ctx: &Ctx) {
        let Some(start) = self.neutral_at(usize::from(w.neutral)) else {
            return;
        };
        let steps = w.steps.eval(&mut RuleCounts::new(self, ctx, ctx.actor));
        if steps == 0 || self.nf.walk.is_some() {
            return;
        }
        // Room for the start and every step (a long walk's list still grows as it needs):
        // a list grown step by step reallocated twice a walk.
        let mut visited = Vec::with_capacity(steps.min(WALK_ROOM) as usize + 1);
        if w.revisit == Revisit::NeverStartIncluded {
            visited.push(start);
        }
        self.nf.walk = Some(WalkState {
            rule,
            left: steps,
            made: 0,
            visited,
            ctx: *ctx,
            resume: WalkResume::Scoring,
        });
    }

    /// Whether a walk set up by a `before-scoring` rule waits for the turn's scoring
    /// (`readings.walk_timing = "after-scoring"`).
    pub(super) fn walk_after_scoring(&self) -> bool {
        self.rules.ruleset().readings.walk_timing == WalkTiming::AfterScoring
    }

    /// Ask the walk's next step (true: [`Phase::Choice`] waits for it), or end it (false: the
    /// caller goes on with the turn); `resume` says where the turn goes on after a step.
    pub(super) fn walk_next(&mut self, resume: WalkResume) -> bool {
        let Some(walk) = self.nf.walk.as_mut() else {
            return false;
        };
        walk.resume = resume;
        let (rule, left, made, ctx) = (walk.rule, walk.left, walk.made, walk.ctx);
        let mut options = self.spare_list();
        if left > 0 {
            self.step_options(rule, &mut options);
        }
        if options.is_empty() {
            self.keep_list(options);
            self.end_walk(rule, left, made);
            return false;
        }
        let chooser = self.walk_of(rule).map_or(WalkChooser::Actor, |w| w.chooser);
        let seat = match chooser {
            WalkChooser::Rotating => (u32::from(ctx.actor) + made) % u32::from(self.seats.players),
            WalkChooser::Actor => u32::from(ctx.actor),
        } as u8;
        self.choice.open = Some(Open {
            rule,
            seat,
            ctx,
            options,
        });
        self.now.player = seat;
        self.now.phase = Phase::Choice;
        true
    }

    /// The walk ends: a `walk_end` line when it ended before its last step (a dead end).
    fn end_walk(&mut self, rule: u16, left: u32, made: u32) {
        self.nf.walk = None;
        if left == 0 || !self.log.record {
            return;
        }
        let neutral = self.walk_of(rule).map_or(0, |w| w.neutral);
        self.log.events.push(Event::WalkEnd {
            turn: self.now.turn,
            rule: self.when_id(rule).to_string(),
            neutral: self.neutral_id(neutral).to_string(),
            steps: made,
        });
    }

    /// The cells the walk of rule `rule` may enter now, N, E, S, W, each with its tile.
    fn step_options(&self, rule: u16, out: &mut Listed) {
        let (Some(w), Some(walk)) = (self.walk_of(rule), self.nf.walk.as_ref()) else {
            return;
        };
        let Some((x, y)) = self.neutral_at(usize::from(w.neutral)) else {
            return;
        };
        for (dx, dy) in STEPS {
            let (cx, cy) = (x + dx, y + dy);
            let Some(inst) = self.inst_at(cx, cy) else {
                continue;
            };
            let blocked = w.avoid.iter().any(|a| match a {
                // A cell with no tile is never entered: there is nothing to stand on.
                Avoid::Empty => false,
                Avoid::Visited => walk.visited.contains(&(cx, cy)),
                Avoid::Neutral(n) => self.neutral_at(usize::from(*n)) == Some((cx, cy)),
                Avoid::Tag(t) => self.tile_has_tag(inst, *t),
            });
            if !blocked {
                out.push((ChoiceOption::Tile { x: cx, y: cy }, Chosen::Tile(inst)));
            }
        }
    }

    /// The cell of the figure whose walk waits for a step now ([`Phase::Choice`]), if one does.
    pub fn walking_from(&self) -> Option<(i32, i32)> {
        if !self.walking() {
            return None;
        }
        let rule = self.nf.walk.as_ref()?.rule;
        self.neutral_at(usize::from(self.walk_of(rule)?.neutral))
    }

    /// The walk under way, if one waits for a step: steps still to make, steps made, and the
    /// cells it visited (in order; its start first when the start counts as visited).
    pub fn walk_state(&self) -> Option<(u32, u32, &[Cell])> {
        let w = self.nf.walk.as_ref().filter(|_| self.walking())?;
        Some((w.left, w.made, &w.visited))
    }

    /// Whether the choice open now is a walk's step.
    pub(super) fn walking(&self) -> bool {
        self.nf.walk.is_some() && self.now.phase == Phase::Choice
    }

    /// Play step `i` of the open walk step: the figure moves, the cell is visited, the walk's
    /// `on_enter` effects run on the tile entered; then the next step, or the turn goes on.
    pub(super) fn walk_step(&mut self, i: usize) {
        let Some(o) = self.choice.open.take() else {
            return;
        };
        let Some(&(ChoiceOption::Tile { x, y }, chosen)) = o.options.get(i) else {
            return;
        };
        let rules = Arc::clone(&self.rules);
        let Some(w) = walk_in(rules.ruleset(), o.rule) else {
            return;
        };
        if let Some(slot) = self.nf.at.get_mut(usize::from(w.neutral)) {
            *slot = Some((x, y));
        }
        let resume = self
            .nf
            .walk
            .as_ref()
            .map_or(WalkResume::Scoring, |walk| walk.resume);
        if let Some(walk) = self.nf.walk.as_mut() {
            walk.visited.push((x, y));
            walk.left -= 1;
            walk.made += 1;
        }
        if self.log.record {
            self.log.events.push(Event::Step {
                turn: self.now.turn,
                player: o.seat,
                rule: self.when_id(o.rule).to_string(),
                neutral: self.neutral_id(w.neutral).to_string(),
                x,
                y,
            });
        }
        let ctx = Ctx {
            chooser: Some(o.seat),
            chosen: Some(chosen),
            ..o.ctx
        };
        self.run_acts(o.rule, &w.on_enter, &ctx);
        self.recycle(o);
        if self.walk_next(resume) {
            return;
        }
        self.now.player = self.now.active;
        self.walk_resume(resume);
    }

    /// The walk is over: the turn goes on where it stopped.
    fn walk_resume(&mut self, resume: WalkResume) {
        match resume {
            WalkResume::Scoring => self.end_turn_scoring(),
            WalkResume::TurnEnd => self.end_turn_offers(),
        }
    }
}
