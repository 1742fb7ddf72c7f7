//! One game played in the page: the engine's [`Game`], who sits at each seat (a person or a
//! built-in agent), the agents, and what undo needs. Seeds follow `tegula play`
//! ([`sim::game_seeds`] of the seed, game 0), so a game whose seats are all agents is, byte for
//! byte, the game `tegula play --seed S --agents …` plays.

use std::sync::Arc;

use tegula_engine::log::{self, Replayer};
use tegula_engine::{sim, Action, Agent, AgentKind, Event, Game, Phase, PileOrder};

use crate::catalog::Loaded;

/// Most playouts an `mcts:N` seat may ask for per decision (a decision stays within seconds).
pub const MAX_MCTS: u32 = 20_000;

/// Who decides for a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person, by clicks in the page.
    Human,
    /// A built-in agent.
    Agent(AgentKind),
}

impl Seat {
    /// Parse `human`, `random`, `greedy` or `mcts:N` (N at most [`MAX_MCTS`]).
    pub fn parse(name: &str) -> Result<Seat, String> {
        if name.trim() == "human" {
            return Ok(Seat::Human);
        }
        match AgentKind::parse(name) {
            Some(AgentKind::Mcts(n)) if n > MAX_MCTS => Err(format!(
                "`{name}`: at most mcts:{MAX_MCTS} playouts per decision"
            )),
            Some(k) => Ok(Seat::Agent(k)),
            None => Err(format!(
                "unknown seat `{name}` (known: human, random, greedy, mcts:N with 1 ≤ N ≤ {MAX_MCTS})"
            )),
        }
    }

    /// The name [`Seat::parse`] reads.
    pub fn name(self) -> String {
        match self {
            Seat::Human => "human".to_string(),
            Seat::Agent(k) => k.name(),
        }
    }
}

/// A game in progress.
pub struct Session {
    /// The catalog key of its variant.
    pub key: String,
    /// Its variant, loaded.
    pub loaded: Arc<Loaded>,
    /// The game (events recorded: its log is the game's log).
    pub game: Game,
    /// Who sits at each seat.
    pub seats: Vec<Seat>,
    /// The seed agents are built from.
    seed: u64,
    /// One agent per seat (a human seat's is never asked).
    agents: Vec<Box<dyn Agent + Send>>,
    /// How many events the game had before each decision of a human seat (what undo returns
    /// to), oldest first.
    marks: Vec<usize>,
}

/// The agents of `seats`, seeded as `tegula play` seeds them.
fn build_agents(seats: &[Seat], seed: u64) -> Vec<Box<dyn Agent + Send>> {
    let players = u8::try_from(seats.len()).unwrap_or(u8::MAX);
    let (_, seeds) = sim::game_seeds(seed, 0, players);
    let kinds: Vec<AgentKind> = seats
        .iter()
        .map(|s| match s {
            Seat::Agent(k) => *k,
            Seat::Human => AgentKind::Random,
        })
        .collect();
    sim::build_agents(&kinds, &seeds)
}

impl Session {
    /// A new game of `loaded` with `seats`, its pile shuffled by `seed` as `tegula play --seed`.
    pub fn new(
        key: &str,
        loaded: Arc<Loaded>,
        seats: Vec<Seat>,
        seed: u64,
    ) -> Result<Self, String> {
        let players = u8::try_from(seats.len()).map_err(|_| "too many seats".to_string())?;
        let (pile_seed, _) = sim::game_seeds(seed, 0, players);
        let game = Game::new(
            loaded.rules.clone(),
            players,
            PileOrder::Shuffled(pile_seed),
            true,
        )
        .map_err(|e| e.to_string())?;
        Ok(Session::seated(key, loaded, game, seats, seed))
    }

    /// `game` of `loaded` with `seats`, the agents seeded from `seed`.
    fn seated(key: &str, loaded: Arc<Loaded>, game: Game, seats: Vec<Seat>, seed: u64) -> Self {
        Session {
            key: key.to_string(),
            agents: build_agents(&seats, seed),
            loaded,
            game,
            seats,
            seed,
            marks: Vec::new(),
        }
    }

    /// A game read from a log, at the start of turn `turn` (after `turn` tiles were placed;
    /// `None`: where the log ends), continued with `seats` (one per player of the log).
    pub fn from_log(
        key: &str,
        loaded: Arc<Loaded>,
        text: &str,
        turn: Option<u32>,
        seats: Vec<Seat>,
    ) -> Result<Self, String> {
        let game = replay_until(&loaded, text, |g, line| {
            turn.is_some_and(|t| next_turn_begins(g, line, t))
        })?;
        if let Some(t) = turn {
            if game.turn() < t {
                return Err(format!(
                    "turn {t} is past the log's end: it places {} tiles",
                    game.turn()
                ));
            }
        }
        if seats.len() != usize::from(game.players()) {
            return Err(format!(
                "the log is a {}-player game; {} seats given",
                game.players(),
                seats.len()
            ));
        }
        let seed = game.seed().unwrap_or(0);
        Ok(Session::seated(key, loaded, game, seats, seed))
    }

    /// The seat whose decision it is, if the game is not over.
    pub fn to_act(&self) -> Option<Seat> {
        if self.game.phase() == Phase::Over {
            return None;
        }
        self.seats
            .get(usize::from(self.game.current_player()))
            .copied()
    }

    /// Whether an agent decides next.
    pub fn agent_to_act(&self) -> bool {
        matches!(self.to_act(), Some(Seat::Agent(_)))
    }

    /// Let the agent of the seat to act decide once. False when it is no agent's decision.
    pub fn step(&mut self) -> bool {
        if !self.agent_to_act() {
            return false;
        }
        sim::play_one(&mut self.game, &mut self.agents)
    }

    /// A person's decision, checked by the engine.
    pub fn act(&mut self, action: Action) -> Result<(), String> {
        match self.to_act() {
            None => return Err("the game is over".into()),
            Some(Seat::Agent(k)) => {
                return Err(format!("it is the {} agent's decision", k.name()));
            }
            Some(Seat::Human) => {}
        }
        let before = self.game.events().len();
        self.game.apply(action).map_err(|e| {
            let rule = self.game.rule_of(&e);
            format!("{e} [{rule}]")
        })?;
        self.marks.push(before);
        Ok(())
    }

    /// Whether a human decision can be taken back.
    pub fn can_undo(&self) -> bool {
        !self.marks.is_empty()
    }

    /// Take back the last human decision and every agent decision after it: the game is
    /// replayed from its log up to that decision. The agents are built anew from the seed, so
    /// they may decide differently from then on.
    pub fn undo(&mut self) -> Result<(), String> {
        let Some(mark) = self.marks.pop() else {
            return Err("no decision of a person to take back".into());
        };
        let mut text = log::setup_line(&self.game);
        text.push('\n');
        for e in &self.game.events()[..mark] {
            text.push_str(&log::event_line(e));
            text.push('\n');
        }
        self.game = replay_until(&self.loaded, &text, |_, _| false)?;
        self.agents = build_agents(&self.seats, self.seed);
        Ok(())
    }

    /// The game's log so far (JSON Lines, as `tegula play --log` writes it).
    pub fn log(&self) -> String {
        log::log_text(&self.game)
    }
}

/// Replay the log `text` against `loaded`'s rules, stopping before the first line for which
/// `stop` holds (or at its end, without the end-of-game checks).
fn replay_until(
    loaded: &Loaded,
    text: &str,
    stop: impl Fn(&Game, &str) -> bool,
) -> Result<Game, String> {
    let mut replayer = Replayer::new(loaded.rules.clone());
    for (i, line) in text.lines().enumerate() {
        if replayer.game().is_some_and(|g| stop(g, line)) {
            break;
        }
        replayer.line(i + 1, line).map_err(|e| e.to_string())?;
    }
    replayer
        .into_game()
        .ok_or_else(|| "the log is empty".to_string())
}

/// Whether `line` is the first decision of the turn after the `turns`-th: a placement, or
/// declining an own tile, with `turns` tiles placed (the reading of a scenario's `[setup] board`).
fn next_turn_begins(game: &Game, line: &str, turns: u32) -> bool {
    if game.turn() < turns || !matches!(game.phase(), Phase::Place | Phase::Hand) {
        return false;
    }
    matches!(
        serde_json::from_str::<Event>(line).ok(),
        Some(Event::Place { .. } | Event::Pass { .. })
    )
}
