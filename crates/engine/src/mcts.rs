//! An information-set Monte Carlo tree search agent (single-observer ISMCTS). The hidden part of
//! the state is the order of the undrawn pile; each iteration samples it afresh
//! ([`Game::determinize`]), walks one shared tree of decisions in which a child is a candidate
//! only where its action is legal in that sample (UCB1 with availability counts), adds one node,
//! plays the rest of the game at random and credits every node with the result for the seat that
//! chose it. The budget is a number of iterations per decision, so the agent is deterministic
//! given its seed, whatever the machine's speed. The tree is kept from one decision to the next
//! where the game continues the searched state, and its playouts count towards the budget.

mod tree;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::agent::Agent;
use crate::game::{Action, FollowerOption, Game, MoveTarget, Phase, Placement};
use crate::rng::Rng;
use tree::{Step, Tree};

/// Score margin that counts as a full point of reward beyond winning (see [`rewards`]).
const MARGIN_SCALE: f64 = 40.0;

/// The ISMCTS agent: `budget` iterations per decision.
#[derive(Clone, Debug)]
pub struct MctsAgent {
    budget: u32,
    rng: Rng,
    tree: Tree,
    /// The state of the last search, as given: the next search keeps the tree's subtree for the
    /// line played since, once it has checked that this state leads to its own.
    root: Option<Game>,
    /// The state searched from, without recorded events (each iteration copies it).
    base: Option<Game>,
    /// The sampled game of the iteration under way (its buffers reused by `clone_from`).
    sample: Option<Game>,
    /// The decisions at the root of the search under way.
    root_actions: Vec<Action>,
    actions: Vec<Action>,
    path: Vec<u32>,
    /// The seats' rewards of the iteration under way.
    rewards: Vec<f64>,
    /// Set by Ctrl-C ([`Agent::stop_when`]): the search ends after the iteration under way.
    stop: Option<Arc<AtomicBool>>,
    /// What the searches so far did.
    stats: SearchStats,
}

/// What an agent's tree searches did ([`Agent::search_stats`]): counts, deterministic given the
/// seeds, so that a run can report playouts and searched decisions per second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Decisions decided by a search (not those with a single option).
    pub searches: u64,
    /// Iterations run (each one playout to the end of a sampled game).
    pub playouts: u64,
    /// Iterations kept from earlier searches: the visits, at the start of a search, of the root
    /// actions legal there ([`MctsAgent`] tops its budget up to `N`).
    pub reused: u64,
}

impl SearchStats {
    /// The sum of two agents' (or games') figures.
    pub fn add(&mut self, other: SearchStats) {
        self.searches += other.searches;
        self.playouts += other.playouts;
        self.reused += other.reused;
    }
}

impl MctsAgent {
    /// An agent with `budget` iterations (playouts) per decision and its own seeded generator.
    pub fn new(budget: u32, seed: u64) -> MctsAgent {
        MctsAgent {
            budget: budget.max(1),
            rng: Rng::new(seed),
            tree: Tree::default(),
            root: None,
            base: None,
            sample: None,
            root_actions: Vec::new(),
            actions: Vec::new(),
            path: Vec::new(),
            rewards: Vec::new(),
            stop: None,
            stats: SearchStats::default(),
        }
    }

    /// The iterations per decision.
    pub fn budget(&self) -> u32 {
        self.budget
    }

    /// What this agent's searches did so far.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Search from `game` and return the action to take (most visited at the root among the
    /// legal ones), or `None` when the game has no decision to make. The tree of the previous
    /// search is kept where `game` continues its state: the subtree under the decisions made
    /// since, whose playouts count towards the budget.
    pub fn search(&mut self, game: &Game) -> Option<Action> {
        decisions(game, &mut self.root_actions);
        match self.root_actions.len() {
            0 => return None,
            1 => return self.root_actions.first().copied(),
            _ => {}
        }
        let reused = self.reuse(game);
        let base = copy_into(&mut self.base, game);
        base.set_recording(false);
        base.clear_events();
        self.stats.searches += 1;
        self.stats.reused += u64::from(reused);
        for _ in reused..self.budget {
            // One relaxed load per playout (a whole game played out): no measurable cost, and
            // unless the flag is set the number of iterations, hence the game, is unchanged.
            if self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                break;
            }
            self.iterate();
            self.stats.playouts += 1;
        }
        // Only legal actions: a kept subtree may hold children of other samples' draws.
        let legal = |n: &&tree::Node| self.root_actions.contains(&n.action);
        let best = self.tree.children(0).filter(legal).max_by(|a, b| {
            (a.visits, a.reward)
                .partial_cmp(&(b.visits, b.reward))
                .unwrap_or(std::cmp::Ordering::Equal)
        })?;
        Some(best.action)
    }

    /// Make the tree's root `game`: the subtree of the previous search's tree for the line
    /// played since, when `game` continues that search's state (same state after replaying
    /// the decisions and draws of its history since), or a fresh root. Returns the visits
    /// already made of the root's children legal now.
    fn reuse(&mut self, game: &Game) -> u32 {
        let kept = match self.root.as_mut() {
            Some(root) if !self.tree.is_empty() => follow(&self.tree, root, game),
            _ => None,
        };
        let root = copy_into(&mut self.root, game);
        // Its replay needs no events, and the comparison ignores them.
        root.set_recording(false);
        root.clear_events();
        let Some(node) = kept else {
            self.tree.reset(game.current_player());
            return 0;
        };
        self.tree.keep(node);
        let legal = self.tree.children(0);
        let visits = legal.filter(|n| self.root_actions.contains(&n.action));
        visits.map(|n| n.visits).sum::<u32>().min(self.budget)
    }

    /// One iteration: sample, select, expand, play out, back up.
    fn iterate(&mut self) {
        let seed = self.rng.next_u64();
        let Some(base) = &self.base else { return };
        let d = copy_into(&mut self.sample, base);
        d.determinize(seed);
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        loop {
            while d.is_chance_node() {
                d.draw_default();
            }
            if d.phase() == Phase::Over {
                break;
            }
            decisions(d, &mut self.actions);
            if self.actions.is_empty() {
                break;
            }
            let seat = d.current_player();
            match self.tree.select(node, &self.actions, &mut self.rng) {
                Step::Existing(child) => {
                    d.play_unchecked(self.tree.node(child).action);
                    node = child;
                    self.path.push(child);
                }
                Step::Expand(action) => {
                    let child = self.tree.expand(node, action, seat);
                    d.play_unchecked(action);
                    self.path.push(child);
                    break;
                }
            }
        }
        playout(d, &mut self.rng, &mut self.actions);
        rewards(d, &mut self.rewards);
        for &n in &self.path {
            let seat = self.tree.node(n).seat as usize;
            let r = self.rewards.get(seat).copied().unwrap_or(0.0);
            self.tree.credit(n, r);
        }
    }
}

/// The node of `tree` for `game`, reached from its root (the state `root`) by the decisions of
/// `game`'s history since, if `game` continues `root`: replaying those steps on `root` gives
/// the same state as `game` ([`same_state`]). `root` is left changed.
fn follow(tree: &Tree, root: &mut Game, game: &Game) -> Option<u32> {
    let done = root.history().len();
    let since = game.history().get(done..)?;
    if game.history()[..done] != *root.history() {
        return None;
    }
    let mut node = 0;
    for &a in since {
        if !matches!(a, Action::Draw(_)) {
            let seat = root.current_player();
            node = tree.child(node, a).filter(|&c| tree.node(c).seat == seat)?;
        }
        root.apply(a).ok()?;
    }
    same_state(root, game).then_some(node)
}

/// Whether two games are in the same state for a search: the same position (state hash), the
/// same decisions and draws so far and the same pile. Unlike `==` this ignores the recorded
/// events and whether events are recorded, which a copy of the game (a snapshot, a replay,
/// the agent's own copy) may not share with the game it copies.
fn same_state(a: &Game, b: &Game) -> bool {
    a.players() == b.players()
        && a.state_hash() == b.state_hash()
        && a.history() == b.history()
        && a.pile() == b.pile()
}

/// `slot` made a copy of `game`, reusing the buffers of the copy it held.
fn copy_into<'a>(slot: &'a mut Option<Game>, game: &Game) -> &'a mut Game {
    match slot {
        Some(d) => {
            d.clone_from(game);
            d
        }
        None => slot.insert(game.clone()),
    }
}

/// The decisions of the current phase, each once: placements, follower options (not their
/// aliases), move targets, pool choices, and passing where allowed.
fn decisions(g: &Game, out: &mut Vec<Action>) {
    out.clear();
    match g.phase() {
        Phase::Place => out.extend(g.placements().iter().map(|&p| Action::Place(p))),
        Phase::Hand => {
            out.extend(g.placements().iter().map(|&p| Action::Place(p)));
            if !g.must_place() {
                out.push(Action::Pass);
            }
        }
        Phase::Follower => {
            out.extend(g.follower_options().iter().map(|&o| Action::Follower(o)));
            out.extend((0..g.choice_count() as u16).map(Action::Choose));
            out.push(Action::Pass);
        }
        Phase::Move => {
            out.extend(g.move_targets().into_iter().map(Action::Move));
            out.push(Action::Pass);
        }
        _ => out.extend(g.legal_actions()),
    }
}

/// Play to the end at random (the seeded order decides chance steps).
fn playout(g: &mut Game, rng: &mut Rng, buf: &mut Vec<Action>) {
    loop {
        match g.phase() {
            Phase::Over => return,
            Phase::Place => {
                let n = g.placement_count() as u32;
                g.play_placement(rng.below(n) as usize);
            }
            Phase::Follower => {
                let n = g.follower_options().len();
                let all = (n + g.choice_count()) as u32;
                let i = rng.below(all + 1) as usize;
                if i >= n && i < all as usize {
                    g.play_choose(i - n);
                } else {
                    g.play_follower((i < n).then_some(i));
                }
            }
            Phase::Draw => {
                g.draw_default();
            }
            _ => {
                decisions(g, buf);
                if buf.is_empty() {
                    g.finish();
                    return;
                }
                let a = buf[rng.below(buf.len() as u32) as usize];
                g.play_unchecked(a);
            }
        }
    }
}

/// Each seat's reward in [0, 1] into `out`: half for the result (1 for a win, 1/k for a k-way
/// tie), half for the margin over the best other seat, scaled by [`MARGIN_SCALE`] and clipped.
fn rewards(g: &Game, out: &mut Vec<f64>) {
    let s = g.scores();
    let best = s.iter().copied().max().unwrap_or(0);
    let ties = s.iter().filter(|&&v| v == best).count().max(1) as f64;
    out.clear();
    out.extend((0..s.len()).map(|p| {
        let other = (0..s.len())
            .filter(|&q| q != p)
            .map(|q| s[q])
            .max()
            .unwrap_or(0);
        let win = if s[p] == best { 1.0 / ties } else { 0.0 };
        let margin = (s[p] as f64 - other as f64) / MARGIN_SCALE;
        0.5 * win + 0.5 * (0.5 + margin.clamp(-0.5, 0.5))
    }));
}

impl MctsAgent {
    /// Search and map the chosen action to an index of `options` (`None` for passing).
    fn choose<T: PartialEq>(
        &mut self,
        game: &Game,
        options: &[T],
        of: impl Fn(Action) -> Option<T>,
    ) -> Option<usize> {
        let a = self.search(game)?;
        let t = of(a)?;
        options.iter().position(|o| *o == t)
    }
}

impl Agent for MctsAgent {
    fn stop_when(&mut self, stop: &Arc<AtomicBool>) {
        self.stop = Some(Arc::clone(stop));
    }

    fn search_stats(&self) -> SearchStats {
        self.stats
    }

    fn choose_placement(&mut self, game: &Game, options: &[Placement]) -> usize {
        let place = |a| match a {
            Action::Place(p) => Some(p),
            _ => None,
        };
        self.choose(game, options, place).unwrap_or(0)
    }

    fn choose_follower(&mut self, game: &Game, options: &[FollowerOption]) -> Option<usize> {
        let follower = |a| match a {
            Action::Follower(o) => Some(o),
            _ => None,
        };
        self.choose(game, options, follower)
    }

    fn choose_own_tile(&mut self, game: &Game, options: &[Placement]) -> Option<usize> {
        let place = |a| match a {
            Action::Place(p) => Some(p),
            _ => None,
        };
        self.choose(game, options, place)
    }

    fn choose_move(&mut self, game: &Game, options: &[MoveTarget]) -> Option<usize> {
        let target = |a| match a {
            Action::Move(t) => Some(t),
            _ => None,
        };
        self.choose(game, options, target)
    }

    fn choose_pool(&mut self, game: &Game, n: usize) -> usize {
        let (tiles, seats) = game.pool_choices();
        let i = match self.search(game) {
            Some(Action::Take(t)) => tiles.iter().position(|&x| x == t),
            Some(Action::Seat(s)) => seats.iter().position(|&x| x == s),
            _ => None,
        };
        i.filter(|&i| i < n).unwrap_or(0)
    }
}
