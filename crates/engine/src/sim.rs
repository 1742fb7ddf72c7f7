//! Driving games with agents: one game ([`play_out`]) and many ([`simulate`]).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::agent::{Agent, AgentKind, SearchStats};
use crate::game::{Game, PileOrder, SetupError};
use crate::rng::derive_seed;
use crate::rules::Rules;

/// Play `game` to the end with one agent per seat. Returns the number of decisions made
/// (placements plus follower decisions, including forced passes).
pub fn play_out(game: &mut Game, agents: &mut [Box<dyn Agent + Send>]) -> u64 {
    let mut decisions = 0;
    while play_one(game, agents) {
        decisions += 1;
    }
    decisions
}

/// [`play_out`], giving up once `stop` is set (Ctrl-C): the agents are told to cut their
/// searches short ([`Agent::stop_when`]) and no decision is made after the flag is seen. The
/// number of decisions when the game was played to the end, `None` when it was given up.
pub fn play_out_until(
    game: &mut Game,
    agents: &mut [Box<dyn Agent + Send>],
    stop: &Arc<AtomicBool>,
) -> Option<u64> {
    for a in agents.iter_mut() {
        a.stop_when(stop);
    }
    let mut decisions = 0;
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if !play_one(game, agents) {
            return Some(decisions);
        }
        decisions += 1;
    }
}

/// Make the current decision with the agent of the seat to act. Returns false when the game is
/// over (nothing to decide).
#[inline]
pub fn play_one(game: &mut Game, agents: &mut [Box<dyn Agent + Send>]) -> bool {
    let seat = game.current_player() as usize;
    // Agents are cycled over the seats; usually there is one per seat (no division then).
    let n = agents.len();
    let agent = &mut agents[if seat < n { seat } else { seat % n }];
    // The two phases of every turn first, as plain branches (a jump table over all phases
    // mispredicts on their alternation).
    let phase = game.phase();
    if phase == crate::Phase::Place {
        let i = agent.choose_placement_of(game, game.placement_count());
        if !game.play_placement(i) {
            game.play_placement(0);
        }
        return true;
    }
    if phase == crate::Phase::Follower {
        if game.choice_count() > 0 {
            play_step(game, agent.as_mut());
            return true;
        }
        let choice = if game.follower_options().is_empty() {
            None
        } else {
            agent.choose_follower(game, game.follower_options())
        };
        if !game.play_follower(choice) {
            game.play_follower(None);
        }
        return true;
    }
    play_other(game, agent.as_mut())
}

/// The figure step when rules offer choices there too: a follower, a choice or neither.
#[inline(never)]
fn play_step(game: &mut Game, agent: &mut (dyn Agent + Send)) {
    let n = game.follower_options().len();
    let played = match agent.choose_step(game, game.follower_options(), game.choice_count()) {
        Some(i) if i >= n => game.play_choose(i - n),
        choice => game.play_follower(choice),
    };
    if !played {
        game.play_follower(None);
    }
}

/// The phases added by expansions (own tiles, moves, the pool).
#[inline(never)]
fn play_other(game: &mut Game, agent: &mut (dyn Agent + Send)) -> bool {
    match game.phase() {
        crate::Phase::Hand if game.must_place() => {
            let i = agent.choose_placement_of(game, game.placement_count());
            if !game.play_placement(i) {
                game.play_placement(0);
            }
        }
        crate::Phase::Hand => match agent.choose_own_tile(game, game.placements()) {
            Some(i) if game.play_placement(i) => {}
            _ => game.play_pass(),
        },
        crate::Phase::Move => {
            let targets = game.move_targets();
            let choice = agent.choose_move(game, &targets);
            if !game.play_move(choice) {
                game.play_move(None);
            }
        }
        crate::Phase::Choice => {
            let (n, decline) = (game.choice_count(), game.offer_may_decline());
            let played = match agent.choose_offer(game, n, decline) {
                Some(i) => game.play_choose(i),
                None if decline => {
                    game.play_pass();
                    true
                }
                None => false,
            };
            if !played {
                game.play_choose(0);
            }
        }
        // A chance step (chance steps on): the seeded order decides.
        crate::Phase::Draw => {
            game.draw_default();
        }
        crate::Phase::Pick | crate::Phase::Order => {
            let (tiles, seats) = game.pool_choices();
            let n = tiles.len().max(seats.len());
            let i = agent.choose_pool(game, n);
            if !game.play_choice(i) {
                game.play_choice(0);
            }
        }
        _ => return false,
    }
    true
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
    /// Sum over games of the total score of all players (a score may be below 0).
    pub total_score: i64,
    /// Per seat: sum over games of the seat's share of the win (1/k when k seats tie).
    pub wins: Vec<f64>,
    /// Per seat: sum of the seat's scores.
    pub seat_scores: Vec<i64>,
    /// Per seat and seat resource (`seat * resources + resource`, as
    /// [`Game::holdings`]): sum of the seat's final holdings; empty without resources.
    pub seat_holdings: Vec<u64>,
    /// Per pool tile (by tile index) that was placed in some game: its owners' results.
    pub pool: BTreeMap<u16, PoolTileStats>,
    /// What the tree-search agents of all games did (zero without `mcts:N` agents).
    pub search: SearchStats,
}

/// How the owners of one pool tile fared (W-10..W-17 balance).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PoolTileStats {
    /// Games in which the tile was placed.
    pub games: u64,
    /// Sum of its owners' win shares (1/k when k seats tie).
    pub wins: f64,
    /// Sum of the points its ability scored.
    pub ability_points: u64,
    /// Sum of its owners' final scores.
    pub owner_scores: i64,
}

impl PoolTileStats {
    /// Share of the games in which its owner won (ties shared).
    pub fn win_rate(&self) -> f64 {
        self.wins / self.games.max(1) as f64
    }

    /// Mean points its ability scored per game it was placed.
    pub fn mean_ability_points(&self) -> f64 {
        self.ability_points as f64 / self.games.max(1) as f64
    }
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

/// Per-thread sums; integers only, so merging in any order gives the same result.
#[derive(Clone, Default)]
struct Sums {
    games: u64,
    decisions: u64,
    total: i64,
    seat_scores: Vec<i64>,
    /// Final seat resources, summed as [`SimStats::seat_holdings`].
    holdings: Vec<u64>,
    /// Win shares in units of 1/lcm(1..=players).
    wins: Vec<u128>,
    /// Per pool tile: games placed, owner win shares (units as `wins`), ability points, owner
    /// scores.
    pool: BTreeMap<u16, (u64, u128, u64, i64)>,
    /// The tree searches of the games.
    search: SearchStats,
}

impl Sums {
    /// Add one finished game: its winners' shares, scores, resources and pool tiles.
    fn add_game(&mut self, game: &Game, unit: u128) {
        self.games += 1;
        let winners = game.winners();
        for &w in &winners {
            self.wins[w as usize] += unit / winners.len() as u128;
        }
        for (p, &s) in game.scores().iter().enumerate() {
            self.total += s;
            self.seat_scores[p] += s;
        }
        for (h, &n) in self.holdings.iter_mut().zip(game.holdings()) {
            *h += u64::from(n);
        }
        self.add_pool(game, unit);
    }

    /// The statistics these sums make (win shares back in games).
    fn stats(self, unit: u128) -> SimStats {
        SimStats {
            games: self.games,
            decisions: self.decisions,
            total_score: self.total,
            wins: self
                .wins
                .iter()
                .map(|&w| (w as f64) / unit as f64)
                .collect(),
            seat_scores: self.seat_scores,
            seat_holdings: self.holdings,
            pool: self
                .pool
                .iter()
                .map(|(&t, v)| {
                    let s = PoolTileStats {
                        games: v.0,
                        wins: v.1 as f64 / unit as f64,
                        ability_points: v.2,
                        owner_scores: v.3,
                    };
                    (t, s)
                })
                .collect(),
            search: self.search,
        }
    }

    /// Add one finished game's pool-tile results.
    fn add_pool(&mut self, game: &Game, unit: u128) {
        let winners = game.winners();
        for (owner, tile, _) in game.pool_owned() {
            let e = self.pool.entry(tile).or_default();
            e.0 += 1;
            if winners.contains(&owner) {
                e.1 += unit / winners.len() as u128;
            }
            e.2 += game
                .ability_points()
                .iter()
                .filter(|a| (a.0, a.1) == (tile, owner))
                .map(|a| u64::from(a.2))
                .sum::<u64>();
            e.3 += game.scores()[owner as usize];
        }
    }

    fn merge(&mut self, other: &Sums) {
        self.games += other.games;
        self.decisions += other.decisions;
        self.search.add(other.search);
        self.total += other.total;
        for p in 0..self.wins.len() {
            self.wins[p] += other.wins[p];
            self.seat_scores[p] += other.seat_scores[p];
        }
        for (a, b) in self.holdings.iter_mut().zip(&other.holdings) {
            *a += b;
        }
        for (&t, v) in &other.pool {
            let e = self.pool.entry(t).or_default();
            e.0 += v.0;
            e.1 += v.1;
            e.2 += v.2;
            e.3 += v.3;
        }
    }
}

fn lcm_upto(n: u8) -> u128 {
    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    (1..=n.max(1) as u128).fold(1, |l, k| l / gcd(l, k) * k)
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
    let never = Arc::new(AtomicBool::new(false));
    simulate_until(rules, players, games, seed, jobs, agents, progress, &never)
}

/// [`simulate`], stopping early once `stop` is set (Ctrl-C): every thread gives up the game it
/// is playing ([`play_out_until`]: a tree search stops within one playout) and starts no other;
/// the statistics cover exactly the games finished.
#[allow(clippy::too_many_arguments)] // `simulate`'s arguments and the flag
pub fn simulate_until(
    rules: &Arc<Rules>,
    players: u8,
    games: u64,
    seed: u64,
    jobs: usize,
    agents: &[AgentKind],
    progress: &(dyn Fn(u64) + Sync),
    stop: &Arc<AtomicBool>,
) -> Result<SimStats, SetupError> {
    // Fails early on a bad player count.
    let proto = Game::new(Arc::clone(rules), players, PileOrder::Shuffled(seed), false)?;
    let kinds: Vec<AgentKind> = if agents.is_empty() {
        vec![AgentKind::Random]
    } else {
        agents.to_vec()
    };
    let unit = lcm_upto(players);
    let zero = Sums {
        seat_scores: vec![0; players as usize],
        holdings: vec![0; proto.holdings().len()],
        wins: vec![0; players as usize],
        ..Sums::default()
    };
    let all = Mutex::new(zero.clone());
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let jobs = jobs.max(1);
    const CHUNK: u64 = 64;
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let mut game = proto.clone();
            let kinds = &kinds;
            let all = &all;
            let next = &next;
            let done = &done;
            let mut sums = zero.clone();
            scope.spawn(move || {
                loop {
                    let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if start >= games || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let mut end = (start + CHUNK).min(games);
                    for i in start..end {
                        if stop.load(Ordering::Relaxed) {
                            end = i;
                            break;
                        }
                        let (g, aseeds) = game_seeds(seed, i, players);
                        if game.restart(PileOrder::Shuffled(g)).is_err() {
                            continue;
                        }
                        let mut ags = build_agents(kinds, &aseeds);
                        let Some(decisions) = play_out_until(&mut game, &mut ags, stop) else {
                            end = i;
                            break;
                        };
                        sums.decisions += decisions;
                        for a in &ags {
                            sums.search.add(a.search_stats());
                        }
                        sums.add_game(&game, unit);
                    }
                    let d = done.fetch_add(end - start, Ordering::Relaxed) + (end - start);
                    progress(d);
                }
                if let Ok(mut a) = all.lock() {
                    a.merge(&sums);
                }
            });
        }
    });
    let all = all.into_inner().unwrap_or(zero);
    Ok(all.stats(unit))
}
