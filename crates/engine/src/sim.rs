//! Driving games with agents: one game ([`play_out`]) and many ([`simulate`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::agent::{Agent, AgentKind};
use crate::game::{Game, PileOrder, SetupError};
use crate::rng::derive_seed;
use crate::rules::Rules;

/// Play `game` to the end with one agent per seat. Returns the number of decisions made
/// (placements plus follower decisions, including forced passes).
pub fn play_out(game: &mut Game, agents: &mut [Box<dyn Agent + Send>]) -> u64 {
    let mut decisions = 0;
    loop {
        match game.phase() {
            crate::Phase::Place => {
                let seat = game.current_player() as usize;
                let i = agents[seat % agents.len()].choose_placement(game, game.placements());
                if !game.play_placement(i) {
                    game.play_placement(0);
                }
            }
            crate::Phase::Follower => {
                let seat = game.current_player() as usize;
                let choice = if game.follower_options().is_empty() {
                    None
                } else {
                    agents[seat % agents.len()].choose_follower(game, game.follower_options())
                };
                if !game.play_follower(choice) {
                    game.play_follower(None);
                }
            }
            _ => return decisions,
        }
        decisions += 1;
    }
}

/// Seeds of one game in a run: the pile seed and one agent seed per seat.
pub fn game_seeds(seed: u64, index: u64, players: u8) -> (u64, Vec<u64>) {
    let g = derive_seed(seed, index);
    let agents = (0..players as u64).map(|p| derive_seed(g, 1 + p)).collect();
    (g, agents)
}

/// Build the agents of one game.
pub fn build_agents(kinds: &[AgentKind], seeds: &[u64]) -> Vec<Box<dyn Agent + Send>> {
    seeds
        .iter()
        .enumerate()
        .map(|(p, &s)| kinds[p % kinds.len()].build(s))
        .collect()
}

/// Aggregate results of [`simulate`].
#[derive(Clone, Debug, PartialEq)]
pub struct SimStats {
    /// Games played.
    pub games: u64,
    /// Decisions made in all games.
    pub decisions: u64,
    /// Sum over games of the total score of all players.
    pub total_score: u64,
    /// Per seat: sum over games of the seat's share of the win (1/k when k seats tie).
    pub wins: Vec<f64>,
    /// Per seat: sum of the seat's scores.
    pub seat_scores: Vec<u64>,
}

impl SimStats {
    /// Mean total score (all players summed) per game.
    pub fn mean_total_score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.total_score as f64 / self.games as f64
        }
    }

    /// Win rate per seat (ties shared).
    pub fn win_rates(&self) -> Vec<f64> {
        self.wins
            .iter()
            .map(|&w| {
                if self.games == 0 {
                    0.0
                } else {
                    w / self.games as f64
                }
            })
            .collect()
    }
}

#[derive(Clone, Copy, Default)]
struct One {
    total: u64,
    winners: u32,
    decisions: u64,
}

/// Play `games` games of `players` seats with `agents` (cycled over seats) on `jobs` threads.
/// Game `i` uses the seeds [`game_seeds`]`(seed, i)`, so results do not depend on `jobs`.
/// `progress` is called with the number of games finished so far (from any thread).
pub fn simulate(
    rules: &Arc<Rules>,
    players: u8,
    games: u64,
    seed: u64,
    jobs: usize,
    agents: &[AgentKind],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimStats, SetupError> {
    // Fails early on a bad player count.
    let proto = Game::new(Arc::clone(rules), players, PileOrder::Shuffled(seed), false)?;
    let kinds: Vec<AgentKind> = if agents.is_empty() {
        vec![AgentKind::Random]
    } else {
        agents.to_vec()
    };
    let results = Mutex::new(vec![One::default(); games as usize]);
    let per_seat = Mutex::new(vec![0u64; players as usize]);
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let jobs = jobs.max(1);
    const CHUNK: u64 = 64;
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let mut game = proto.clone();
            let kinds = &kinds;
            let results = &results;
            let per_seat = &per_seat;
            let next = &next;
            let done = &done;
            scope.spawn(move || {
                let mut local: Vec<(u64, One)> = Vec::with_capacity(CHUNK as usize);
                let mut seat_sum = vec![0u64; players as usize];
                loop {
                    let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if start >= games {
                        break;
                    }
                    let end = (start + CHUNK).min(games);
                    local.clear();
                    for i in start..end {
                        let (g, aseeds) = game_seeds(seed, i, players);
                        if game.restart(PileOrder::Shuffled(g)).is_err() {
                            continue;
                        }
                        let mut ags = build_agents(kinds, &aseeds);
                        let decisions = play_out(&mut game, &mut ags);
                        let mut winners = 0u32;
                        for w in game.winners() {
                            winners |= 1 << w;
                        }
                        let total = game.scores().iter().map(|&s| s as u64).sum();
                        for (p, &s) in game.scores().iter().enumerate() {
                            seat_sum[p] += s as u64;
                        }
                        local.push((
                            i,
                            One {
                                total,
                                winners,
                                decisions,
                            },
                        ));
                    }
                    if let Ok(mut r) = results.lock() {
                        for &(i, one) in &local {
                            r[i as usize] = one;
                        }
                    }
                    let d = done.fetch_add(end - start, Ordering::Relaxed) + (end - start);
                    progress(d);
                }
                if let Ok(mut s) = per_seat.lock() {
                    for (a, b) in s.iter_mut().zip(&seat_sum) {
                        *a += b;
                    }
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_default();
    let mut stats = SimStats {
        games,
        decisions: 0,
        total_score: 0,
        wins: vec![0.0; players as usize],
        seat_scores: per_seat.into_inner().unwrap_or_default(),
    };
    for one in &results {
        stats.decisions += one.decisions;
        stats.total_score += one.total;
        let k = one.winners.count_ones();
        if k > 0 {
            for p in 0..players as usize {
                if one.winners & (1 << p) != 0 {
                    stats.wins[p] += 1.0 / k as f64;
                }
            }
        }
    }
    Ok(stats)
}
