//! Agents: who decides. [`Agent`] is the trait for external agents; [`RandomAgent`] and
//! [`GreedyAgent`] are built in.

use crate::game::{FollowerOption, Game, Placement};
use crate::rng::Rng;

/// Something that makes a player's decisions. Each method receives the game and the legal
/// options (never empty for `choose_placement`) and returns an index into them. Later phases
/// (abbey, wagon moves, wonder choice) will add methods with default implementations, so existing
/// agents keep compiling.
pub trait Agent {
    /// Pick a placement of the drawn tile.
    fn choose_placement(&mut self, game: &Game, options: &[Placement]) -> usize;
    /// Pick a follower option, or `None` to place no follower.
    fn choose_follower(&mut self, game: &Game, options: &[FollowerOption]) -> Option<usize>;
}

/// The comparison policy: uniform over legal placements, then uniform over follower options plus
/// "no follower".
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: Rng,
}

impl RandomAgent {
    /// A random agent with its own seeded generator.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: Rng::new(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn choose_placement(&mut self, _game: &Game, options: &[Placement]) -> usize {
        self.rng.below(options.len() as u32) as usize
    }

    fn choose_follower(&mut self, _game: &Game, options: &[FollowerOption]) -> Option<usize> {
        let i = self.rng.below(options.len() as u32 + 1) as usize;
        (i < options.len()).then_some(i)
    }
}

/// One-ply greedy: maximises (own score − best opponent score) right after the turn's scoring;
/// ties broken by its generator.
#[derive(Clone, Debug)]
pub struct GreedyAgent {
    rng: Rng,
    ties: Vec<usize>,
}

impl GreedyAgent {
    /// A greedy agent with its own seeded generator (for ties).
    pub fn new(seed: u64) -> GreedyAgent {
        GreedyAgent {
            rng: Rng::new(seed),
            ties: Vec::new(),
        }
    }

    fn margin(game: &Game, me: u8) -> i64 {
        let s = game.scores();
        let mine = s[me as usize] as i64;
        let best_other = s
            .iter()
            .enumerate()
            .filter(|&(p, _)| p != me as usize)
            .map(|(_, &v)| v as i64)
            .max()
            .unwrap_or(0);
        mine - best_other
    }

    /// Best margin over the follower choices of a game in the follower phase.
    fn best_follower(game: &Game, me: u8) -> (i64, Vec<Option<usize>>) {
        let n = game.follower_options().len();
        let mut best = i64::MIN;
        let mut which = Vec::new();
        for choice in std::iter::once(None).chain((0..n).map(Some)) {
            let mut g = game.clone();
            g.play_follower(choice);
            let m = Self::margin(&g, me);
            if m > best {
                best = m;
                which.clear();
            }
            if m == best {
                which.push(choice);
            }
        }
        (best, which)
    }

    fn pick(&mut self) -> usize {
        let i = self.rng.below(self.ties.len() as u32) as usize;
        self.ties[i]
    }
}

impl Agent for GreedyAgent {
    fn choose_placement(&mut self, game: &Game, options: &[Placement]) -> usize {
        let me = game.current_player();
        let mut base = game.clone();
        base.set_recording(false);
        let mut best = i64::MIN;
        self.ties.clear();
        for i in 0..options.len() {
            let mut g = base.clone();
            if !g.play_placement(i) {
                continue;
            }
            let (m, _) = Self::best_follower(&g, me);
            if m > best {
                best = m;
                self.ties.clear();
            }
            if m == best {
                self.ties.push(i);
            }
        }
        if self.ties.is_empty() {
            return 0;
        }
        self.pick()
    }

    fn choose_follower(&mut self, game: &Game, _options: &[FollowerOption]) -> Option<usize> {
        let me = game.current_player();
        let mut base = game.clone();
        base.set_recording(false);
        let (_, which) = Self::best_follower(&base, me);
        if which.is_empty() {
            return None;
        }
        let i = self.rng.below(which.len() as u32) as usize;
        which[i]
    }
}

/// Built-in agent kinds by name (`random`, `greedy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentKind {
    /// [`RandomAgent`].
    Random,
    /// [`GreedyAgent`].
    Greedy,
}

impl AgentKind {
    /// Parse a name.
    pub fn parse(name: &str) -> Option<AgentKind> {
        match name.trim() {
            "random" => Some(AgentKind::Random),
            "greedy" => Some(AgentKind::Greedy),
            _ => None,
        }
    }

    /// Name.
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::Greedy => "greedy",
        }
    }

    /// A boxed agent of this kind.
    pub fn build(self, seed: u64) -> Box<dyn Agent + Send> {
        match self {
            AgentKind::Random => Box::new(RandomAgent::new(seed)),
            AgentKind::Greedy => Box::new(GreedyAgent::new(seed)),
        }
    }
}
