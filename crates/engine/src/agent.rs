//! Agents: who decides. [`Agent`] is the trait for external agents; [`RandomAgent`],
//! [`GreedyAgent`] and the tree search [`MctsAgent`] are built in.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::game::{FollowerOption, Game, MoveTarget, Placement};
pub use crate::mcts::{MctsAgent, SearchStats};
use crate::rng::Rng;

/// Something that makes a player's decisions. Each method receives the game and the legal
/// options (never empty for `choose_placement`) and returns an index into them. Phases added by
/// expansions come with default implementations, so existing agents keep compiling.
pub trait Agent {
    /// Pick a placement of the drawn tile.
    fn choose_placement(&mut self, game: &Game, options: &[Placement]) -> usize;
    /// Pick a placement knowing only how many there are (`count`, the length of
    /// [`Game::placements`], at least 1): an index into [`Game::placements`]. The game loop asks
    /// this; the default builds the list and asks [`Agent::choose_placement`]. An agent that needs
    /// no more than the count (the random agent) answers here, so the list is never built.
    fn choose_placement_of(&mut self, game: &Game, count: usize) -> usize {
        let _ = count;
        self.choose_placement(game, game.placements())
    }
    /// Pick a follower option, or `None` to place no follower.
    fn choose_follower(&mut self, game: &Game, options: &[FollowerOption]) -> Option<usize>;
    /// Pick a placement of one of the player's own tiles, or `None` to draw instead (in the
    /// final round: not to place it), AM-1, AM-4. Default: draw.
    fn choose_own_tile(&mut self, game: &Game, options: &[Placement]) -> Option<usize> {
        let _ = (game, options);
        None
    }
    /// Pick where the freed figure moves, or `None` to take it back (AM-11). Default: back.
    fn choose_move(&mut self, game: &Game, options: &[MoveTarget]) -> Option<usize> {
        let _ = (game, options);
        None
    }
    /// Pick in the figure step when rules offer choices there too: an index into the
    /// `options` followed by `choices` options of [`Game::choice_options`] (index
    /// `options.len() + k` is choice `k`), or `None` for neither. Asked only when `choices > 0`.
    /// Default: [`Agent::choose_follower`] (never a choice).
    fn choose_step(
        &mut self,
        game: &Game,
        options: &[FollowerOption],
        choices: usize,
    ) -> Option<usize> {
        let _ = choices;
        self.choose_follower(game, options)
    }
    /// Answer an offered choice ([`crate::Phase::Choice`]): an index into the `n` options of
    /// [`Game::choice_options`] (at least 1), or `None` to decline where `may_decline`.
    /// Default: the first option.
    fn choose_offer(&mut self, game: &Game, n: usize, may_decline: bool) -> Option<usize> {
        let _ = (game, n, may_decline);
        Some(0)
    }
    /// Pick a tile (into the pool at setup, or from it, W-1, W-2) or, as the active player, the
    /// seat that takes next (W-3): an index into `n` choices ([`Game::pool_choices`]). Default:
    /// the first.
    fn choose_pool(&mut self, game: &Game, n: usize) -> usize {
        let _ = (game, n);
        0
    }
    /// Cut long work short once `stop` is set (Ctrl-C): a search then decides with what it found
    /// so far. While `stop` stays unset nothing changes, so the games stay the same. Default:
    /// ignored (an agent that decides at once has nothing to cut).
    fn stop_when(&mut self, stop: &Arc<AtomicBool>) {
        let _ = stop;
    }
    /// What the agent's tree searches did so far (playouts, searched decisions), for throughput
    /// reports. Default: nothing (an agent that does not search).
    fn search_stats(&self) -> SearchStats {
        SearchStats::default()
    }
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

    /// The same draw as [`RandomAgent::choose_placement`] (the same index of the same list),
    /// from the count alone.
    fn choose_placement_of(&mut self, _game: &Game, count: usize) -> usize {
        self.rng.below(count as u32) as usize
    }

    fn choose_follower(&mut self, _game: &Game, options: &[FollowerOption]) -> Option<usize> {
        self.option_or_none(options.len())
    }

    fn choose_own_tile(&mut self, _game: &Game, options: &[Placement]) -> Option<usize> {
        self.option_or_none(options.len())
    }

    fn choose_move(&mut self, _game: &Game, options: &[MoveTarget]) -> Option<usize> {
        self.option_or_none(options.len())
    }

    fn choose_pool(&mut self, _game: &Game, n: usize) -> usize {
        self.rng.below(n.max(1) as u32) as usize
    }

    /// Uniform over the follower options, the choices and "none".
    fn choose_step(
        &mut self,
        _game: &Game,
        options: &[FollowerOption],
        choices: usize,
    ) -> Option<usize> {
        self.option_or_none(options.len() + choices)
    }

    /// Uniform over the options, plus "decline" where allowed.
    fn choose_offer(&mut self, _game: &Game, n: usize, may_decline: bool) -> Option<usize> {
        if may_decline {
            self.option_or_none(n)
        } else {
            Some(self.rng.below(n.max(1) as u32) as usize)
        }
    }
}

impl RandomAgent {
    /// Uniform over `n` options plus "none".
    fn option_or_none(&mut self, n: usize) -> Option<usize> {
        let i = self.rng.below(n as u32 + 1) as usize;
        (i < n).then_some(i)
    }
}

/// One-ply greedy: maximises (own score − best opponent score) right after the turn's scoring;
/// ties broken by its generator. Search copies reuse their buffers (`clone_from`).
#[derive(Clone, Debug)]
pub struct GreedyAgent {
    rng: Rng,
    ties: Vec<usize>,
    which: Vec<Option<usize>>,
    base: Option<Game>,
    after_place: Option<Game>,
    after_turn: Option<Game>,
}

/// Copy `src` into `slot`, reusing its buffers.
fn copy_into<'a>(slot: &'a mut Option<Game>, src: &Game) -> &'a mut Game {
    match slot {
        Some(g) => {
            g.clone_from(src);
            g
        }
        None => slot.insert(src.clone()),
    }
}

impl GreedyAgent {
    /// A greedy agent with its own seeded generator (for ties).
    pub fn new(seed: u64) -> GreedyAgent {
        GreedyAgent {
            rng: Rng::new(seed),
            ties: Vec::new(),
            which: Vec::new(),
            base: None,
            after_place: None,
            after_turn: None,
        }
    }

    fn margin(game: &Game, me: u8) -> i64 {
        let s = game.scores();
        let mine = s[me as usize];
        let best_other = s
            .iter()
            .enumerate()
            .filter(|&(p, _)| p != me as usize)
            .map(|(_, &v)| v)
            .max()
            .unwrap_or(0);
        mine - best_other
    }

    /// Best margin over the follower choices of `game` (in the follower phase; index `n + k`
    /// is the figure step's offered choice `k` after the `n` follower options), or over the
    /// options of an offered choice ([`Self::best_offer`]); the best choices are left in
    /// `which`.
    fn best_follower(
        game: &Game,
        me: u8,
        scratch: &mut Option<Game>,
        which: &mut Vec<Option<usize>>,
    ) -> i64 {
        if game.phase() == crate::Phase::Choice {
            return Self::best_offer(game, me, scratch, which);
        }
        let n = game.follower_options().len();
        let all = n + game.choice_count();
        let answers = std::iter::once(None).chain((0..all).map(Some));
        Self::best_of(game, me, (scratch, which), answers, |g, choice| {
            match choice {
                Some(i) if i >= n => g.play_choose(i - n),
                _ => g.play_follower(choice),
            };
        })
    }

    /// Best margin over `answers`, each played by `play` on a copy of `game`; the best
    /// answers are left in `which` (in the order tried).
    fn best_of(
        game: &Game,
        me: u8,
        (scratch, which): (&mut Option<Game>, &mut Vec<Option<usize>>),
        answers: impl Iterator<Item = Option<usize>>,
        play: impl Fn(&mut Game, Option<usize>),
    ) -> i64 {
        let mut best = i64::MIN;
        which.clear();
        for choice in answers {
            let g = copy_into(scratch, game);
            play(g, choice);
            let m = Self::margin(g, me);
            if m > best {
                best = m;
                which.clear();
            }
            if m == best {
                which.push(choice);
            }
        }
        best
    }

    /// Best margin over the answers to an offered choice: each option (and declining, where
    /// allowed), scored by the margin right after it; the best answers are left in `which`. A
    /// walk's step is scored by the figures it returns instead ([`Self::best_step`]).
    fn best_offer(
        game: &Game,
        me: u8,
        scratch: &mut Option<Game>,
        which: &mut Vec<Option<usize>>,
    ) -> i64 {
        if game.walking_from().is_some() {
            return Self::best_step(game, me, scratch, which);
        }
        let decline = game.offer_may_decline().then_some(None);
        let answers = decline
            .into_iter()
            .chain((0..game.choice_count()).map(Some));
        Self::best_of(
            game,
            me,
            (scratch, which),
            answers,
            |g, choice| match choice {
                Some(i) => {
                    g.play_choose(i);
                }
                None => g.play_pass(),
            },
        )
    }

    /// Best step of a walk: the margin right after it (a walk's last step lets the turn score),
    /// then the figures it returns to supply, the other seats' minus `me`'s; the best steps are
    /// left in `which`, the margin returned.
    fn best_step(
        game: &Game,
        me: u8,
        scratch: &mut Option<Game>,
        which: &mut Vec<Option<usize>>,
    ) -> i64 {
        let in_supply = |g: &Game, seat: u8| -> i64 {
            let types = g.rules().ruleset().followers.len() as u8;
            (0..types).map(|f| i64::from(g.supply(seat, f))).sum()
        };
        let players = game.players();
        let eaten = |g: &Game| -> i64 {
            (0..players)
                .map(|p| {
                    let back = in_supply(g, p) - in_supply(game, p);
                    if p == me {
                        -back
                    } else {
                        back
                    }
                })
                .sum()
        };
        let mut best = (i64::MIN, i64::MIN);
        which.clear();
        for i in 0..game.choice_count() {
            let g = copy_into(scratch, game);
            g.play_choose(i);
            // Points first, then the figures eaten.
            let m = (Self::margin(g, me), eaten(g));
            if m > best {
                best = m;
                which.clear();
            }
            if m == best {
                which.push(Some(i));
            }
        }
        best.0
    }

    /// One of the best answers `best_follower` left in `which`, at random.
    fn pick_best(&mut self) -> Option<usize> {
        if self.which.is_empty() {
            return None;
        }
        let i = self.rng.below(self.which.len() as u32) as usize;
        self.which[i]
    }

    fn prepare(&mut self, game: &Game) {
        let base = copy_into(&mut self.base, game);
        base.set_recording(false);
        base.clear_events();
    }
}

impl Agent for GreedyAgent {
    fn choose_placement(&mut self, game: &Game, options: &[Placement]) -> usize {
        let me = game.current_player();
        self.prepare(game);
        let Some(base) = self.base.as_ref() else {
            return 0;
        };
        let mut best = i64::MIN;
        self.ties.clear();
        for i in 0..options.len() {
            let g = copy_into(&mut self.after_place, base);
            if !g.play_placement(i) {
                continue;
            }
            let m = Self::best_follower(g, me, &mut self.after_turn, &mut self.which);
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
        let i = self.rng.below(self.ties.len() as u32) as usize;
        self.ties[i]
    }

    fn choose_follower(&mut self, game: &Game, options: &[FollowerOption]) -> Option<usize> {
        let me = game.current_player();
        self.prepare(game);
        let base = self.base.as_ref()?;
        Self::best_follower(base, me, &mut self.after_turn, &mut self.which);
        // An offered choice (if it was best) is not a follower option: none then.
        self.pick_best().filter(|&i| i < options.len())
    }

    /// The follower option or offered choice with the best margin after the turn.
    fn choose_step(
        &mut self,
        game: &Game,
        _options: &[FollowerOption],
        _choices: usize,
    ) -> Option<usize> {
        let me = game.current_player();
        self.prepare(game);
        let base = self.base.as_ref()?;
        Self::best_follower(base, me, &mut self.after_turn, &mut self.which);
        self.pick_best()
    }

    /// The answer with the best margin right after it.
    fn choose_offer(&mut self, game: &Game, _n: usize, _may_decline: bool) -> Option<usize> {
        let me = game.current_player();
        self.prepare(game);
        let base = self.base.as_ref()?;
        Self::best_offer(base, me, &mut self.after_turn, &mut self.which);
        self.pick_best()
    }

    /// Place an own tile where that (with the best follower) gains most, if it gains anything
    /// now; otherwise draw. In the final round a placement that loses nothing is taken.
    fn choose_own_tile(&mut self, game: &Game, options: &[Placement]) -> Option<usize> {
        let me = game.current_player();
        let now = Self::margin(game, me);
        let last_chance = game.remaining() == 0;
        let i = self.choose_placement(game, options);
        let base = self.base.as_ref()?;
        let g = copy_into(&mut self.after_place, base);
        if !g.play_placement(i) {
            return None;
        }
        let m = Self::best_follower(g, me, &mut self.after_turn, &mut self.which);
        (m > now || (last_chance && m >= now)).then_some(i)
    }

    /// A freed figure goes back into play rather than to supply: a target at random.
    fn choose_move(&mut self, _game: &Game, options: &[MoveTarget]) -> Option<usize> {
        (!options.is_empty()).then(|| self.rng.below(options.len() as u32) as usize)
    }

    /// Pool choices: at random (the greedy look-ahead ends at the turn).
    fn choose_pool(&mut self, _game: &Game, n: usize) -> usize {
        self.rng.below(n.max(1) as u32) as usize
    }
}

/// Built-in agent kinds by name (`random`, `greedy`, `mcts:N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AgentKind {
    /// [`RandomAgent`].
    Random,
    /// [`GreedyAgent`].
    Greedy,
    /// [`MctsAgent`] with this many iterations (playouts) per decision.
    Mcts(u32),
}

impl AgentKind {
    /// Parse a name: `random`, `greedy`, or `mcts:N` with N ≥ 1 iterations per decision.
    pub fn parse(name: &str) -> Option<AgentKind> {
        match name.trim() {
            "random" => Some(AgentKind::Random),
            "greedy" => Some(AgentKind::Greedy),
            other => {
                let n: u32 = other.strip_prefix("mcts:")?.parse().ok()?;
                (n > 0).then_some(AgentKind::Mcts(n))
            }
        }
    }

    /// Name, as [`AgentKind::parse`] reads it.
    pub fn name(self) -> String {
        match self {
            AgentKind::Random => "random".to_string(),
            AgentKind::Greedy => "greedy".to_string(),
            AgentKind::Mcts(n) => format!("mcts:{n}"),
        }
    }

    /// A boxed agent of this kind.
    pub fn build(self, seed: u64) -> Box<dyn Agent + Send> {
        match self {
            AgentKind::Random => Box::new(RandomAgent::new(seed)),
            AgentKind::Greedy => Box::new(GreedyAgent::new(seed)),
            AgentKind::Mcts(n) => Box::new(MctsAgent::new(n, seed)),
        }
    }
}
