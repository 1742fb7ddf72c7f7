//! An information-set Monte Carlo tree search agent (single-observer ISMCTS). The hidden part of
//! the state is the order of the undrawn pile; each iteration samples it afresh
//! ([`Game::determinize`]), walks one shared tree of decisions in which a child is a candidate
//! only where its action is legal in that sample (UCB1 with availability counts), adds one node,
//! plays the rest of the game at random and credits every node with the result for the seat that
//! chose it. The budget is a number of iterations per decision, so the agent is deterministic
//! given its seed, whatever the machine's speed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::agent::Agent;
use crate::game::{Action, FollowerOption, Game, MoveTarget, Phase, Placement};
use crate::rng::Rng;

/// UCB1's exploration constant for rewards in [0, 1].
const EXPLORE: f64 = 0.7;
/// Score margin that counts as a full point of reward beyond winning (see [`rewards`]).
const MARGIN_SCALE: f64 = 40.0;

/// One decision in the tree.
#[derive(Clone, Debug)]
struct Node {
    /// The action that leads here from the parent.
    action: Action,
    /// Seat that chose it.
    seat: u8,
    visits: u32,
    /// Times this node was a legal candidate in its parent's selections.
    avail: u32,
    /// Sum of the rewards of `seat` in the iterations through here.
    reward: f64,
    children: Vec<u32>,
}

/// The ISMCTS agent: `budget` iterations per decision.
#[derive(Clone, Debug)]
pub struct MctsAgent {
    budget: u32,
    rng: Rng,
    nodes: Vec<Node>,
    sample: Option<Game>,
    actions: Vec<Action>,
    path: Vec<u32>,
    /// Set by Ctrl-C ([`Agent::stop_when`]): the search ends after the iteration under way.
    stop: Option<Arc<AtomicBool>>,
}

impl MctsAgent {
    /// An agent with `budget` iterations (playouts) per decision and its own seeded generator.
    pub fn new(budget: u32, seed: u64) -> MctsAgent {
        MctsAgent {
            budget: budget.max(1),
            rng: Rng::new(seed),
            nodes: Vec::new(),
            sample: None,
            actions: Vec::new(),
            path: Vec::new(),
            stop: None,
        }
    }

    /// The iterations per decision.
    pub fn budget(&self) -> u32 {
        self.budget
    }

    /// Search from `game` and return the action to take (most visited at the root), or `None`
    /// when the game has no decision to make.
    pub fn search(&mut self, game: &Game) -> Option<Action> {
        let mut root_actions = Vec::new();
        decisions(game, &mut root_actions);
        match root_actions.len() {
            0 => return None,
            1 => return root_actions.first().copied(),
            _ => {}
        }
        self.nodes.clear();
        self.nodes.push(Node {
            action: Action::Pass,
            seat: game.current_player(),
            visits: 0,
            avail: 0,
            reward: 0.0,
            children: Vec::new(),
        });
        for _ in 0..self.budget {
            // One relaxed load per playout (a whole game played out): no measurable cost, and
            // unless the flag is set the number of iterations, hence the game, is unchanged.
            if self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                break;
            }
            self.iterate(game);
        }
        let root = &self.nodes[0];
        let best = root
            .children
            .iter()
            .map(|&c| &self.nodes[c as usize])
            .max_by(|a, b| {
                (a.visits, a.reward)
                    .partial_cmp(&(b.visits, b.reward))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })?;
        Some(best.action)
    }

    /// One iteration: sample, select, expand, play out, back up.
    fn iterate(&mut self, game: &Game) {
        let seed = self.rng.next_u64();
        let d = match &mut self.sample {
            Some(d) => {
                d.clone_from(game);
                d
            }
            None => self.sample.insert(game.clone()),
        };
        d.set_recording(false);
        d.clear_events();
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
            match select(&mut self.nodes, node, &self.actions, &mut self.rng) {
                Step::Existing(child) => {
                    d.play_unchecked(self.nodes[child as usize].action);
                    node = child;
                    self.path.push(child);
                }
                Step::Expand(action) => {
                    let child = self.nodes.len() as u32;
                    self.nodes.push(Node {
                        action,
                        seat,
                        visits: 0,
                        avail: 1,
                        reward: 0.0,
                        children: Vec::new(),
                    });
                    self.nodes[node as usize].children.push(child);
                    d.play_unchecked(action);
                    self.path.push(child);
                    break;
                }
            }
        }
        playout(d, &mut self.rng, &mut self.actions);
        let r = rewards(d);
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.reward += r.get(node.seat as usize).copied().unwrap_or(0.0);
        }
    }
}

/// What selection does at a node.
enum Step {
    /// Follow this child.
    Existing(u32),
    /// Add a child for this untried action.
    Expand(Action),
}

/// UCB1 over the children legal in this sample (counting their availability), or an untried
/// legal action chosen at random.
fn select(nodes: &mut [Node], node: u32, legal: &[Action], rng: &mut Rng) -> Step {
    let children = std::mem::take(&mut nodes[node as usize].children);
    let mut untried = 0u32;
    let mut pick = None;
    for &a in legal {
        if !children.iter().any(|&c| nodes[c as usize].action == a) {
            untried += 1;
            // Reservoir sampling: each untried action equally likely.
            if rng.below(untried) == 0 {
                pick = Some(a);
            }
        }
    }
    let step = if let Some(a) = pick {
        Step::Expand(a)
    } else {
        let mut best = (f64::NEG_INFINITY, children[0]);
        for &c in &children {
            let n = &mut nodes[c as usize];
            if !legal.contains(&n.action) {
                continue;
            }
            n.avail += 1;
            let v = f64::from(n.visits.max(1));
            let ucb = n.reward / v + EXPLORE * (f64::from(n.avail).ln() / v).sqrt();
            if ucb > best.0 {
                best = (ucb, c);
            }
        }
        Step::Existing(best.1)
    };
    nodes[node as usize].children = children;
    step
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
                let n = g.follower_options().len() as u32;
                let i = rng.below(n + 1) as usize;
                g.play_follower((i < n as usize).then_some(i));
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

/// Each seat's reward in [0, 1]: half for the result (1 for a win, 1/k for a k-way tie), half
/// for the margin over the best other seat, scaled by [`MARGIN_SCALE`] and clipped.
fn rewards(g: &Game) -> Vec<f64> {
    let s = g.scores();
    let best = s.iter().copied().max().unwrap_or(0);
    let ties = s.iter().filter(|&&v| v == best).count().max(1) as f64;
    (0..s.len())
        .map(|p| {
            let other = (0..s.len())
                .filter(|&q| q != p)
                .map(|q| s[q])
                .max()
                .unwrap_or(0);
            let win = if s[p] == best { 1.0 / ties } else { 0.0 };
            let margin = (f64::from(s[p]) - f64::from(other)) / MARGIN_SCALE;
            0.5 * win + 0.5 * (0.5 + margin.clamp(-0.5, 0.5))
        })
        .collect()
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
