//! Sharded simulation (docs/AI.md, "Running on a cluster"): shard I of N of a run plays the
//! games whose index is I modulo N — with exactly the seeds the whole run gives them
//! (`tegula_engine::sim::game_seeds`) — and keeps their statistics as integer sums
//! ([`ShardSums`]), which add up, in any order, to the figures of the whole run, byte for byte.
//! `tegula simulate --shard I/N` heads its `--out` file with a [`ShardHeader`] for
//! `tegula simulate-merge`; the Python package's `tegula.distributed` runs [`play_shard`] on Ray.
//! One crate for both, so that the CLI and Python sum and merge alike.

use std::collections::BTreeMap;
use std::fmt;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tegula_engine::sim::{self, PoolTileStats, SimStats};
use tegula_engine::{AgentKind, Game, PileOrder, Rules, SetupError};

mod check;
pub use check::{variant_problem, LineSums};

/// Which games a shard plays: those whose index is `index` modulo `count` (striding keeps the
/// shards' work alike however long the games grow along the run).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// From 0.
    pub index: u64,
    /// Shards of the run.
    pub count: u64,
}

/// Most shards of a run (the merge holds one header per shard).
pub const MAX_SHARDS: u64 = 1_000_000;

impl Shard {
    /// Parse `I/N` (`0 ≤ I < N ≤` [`MAX_SHARDS`]); the error says what is wrong with it (clap
    /// prints it after the flag and the value).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let Some((i, n)) = text.split_once('/') else {
            return Err(
                "expected I/N: the shard's index from 0, a slash, the shards' count \
                        (e.g. 0/4)"
                    .into(),
            );
        };
        let number = |s: &str, what: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| format!("the {what} `{s}` is not a whole number ≥ 0"))
        };
        let (index, count) = (number(i, "index")?, number(n, "count")?);
        if count == 0 || count > MAX_SHARDS {
            return Err(format!(
                "the count must be between 1 and {MAX_SHARDS}, not {count}"
            ));
        }
        if index >= count {
            return Err(format!(
                "the index counts from 0: with {count} shards it is 0 to {}, not {index}",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }

    /// The indices of this shard's games in a run of `games` games, ascending.
    pub fn indices(self, games: u64) -> impl Iterator<Item = u64> {
        (self.index..games).step_by(usize::try_from(self.count).unwrap_or(usize::MAX))
    }

    /// How many of a run's `games` games are this shard's.
    pub fn games_of(self, games: u64) -> u64 {
        games.saturating_sub(self.index).div_ceil(self.count)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// How one pool tile's owners fared, as integer sums (see [`PoolTileStats`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolSums {
    /// The tile's id (checked equal across shards).
    pub id: String,
    /// Games in which it was placed.
    pub games: u64,
    /// Its owners' win shares, in units of 1/[`win_unit`].
    pub wins: u64,
    /// Points its ability scored.
    pub ability_points: u64,
    /// Its owners' final scores (a score may be below 0).
    pub owner_scores: i64,
}

/// The statistics of some games of a run as integer sums, so that adding shards in any order
/// gives the same figures; [`ShardSums::stats`] turns them into what `simulate` prints.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSums {
    /// Games played.
    pub games: u64,
    /// Decisions made.
    pub decisions: u64,
    /// All seats' final scores, summed (a score may be below 0).
    pub total_score: i64,
    /// Per seat: final scores summed.
    pub seat_scores: Vec<i64>,
    /// Per seat: win shares in units of 1/[`win_unit`] (a tie of k seats gives each 1/k).
    pub wins: Vec<u64>,
    /// Per pool tile placed in some game, by tile index.
    pub pool: BTreeMap<u16, PoolSums>,
    /// Final seat resources summed, `seat * resources + resource` (`Game::holdings`); empty
    /// without resources (and then left out of the header, so other runs' headers do not change).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holdings: Vec<u64>,
    /// The variant's seat resources by id, the order of `holdings` (empty without resources).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_ids: Vec<String>,
}

/// `*a += b`, false (and `a` unchanged) if that overflows.
fn add(a: &mut u64, b: u64) -> bool {
    match a.checked_add(b) {
        Some(s) => {
            *a = s;
            true
        }
        None => false,
    }
}

/// `*a += b` for sums of scores (which may be below 0), false (and `a` unchanged) if that
/// overflows.
fn add_signed(a: &mut i64, b: i64) -> bool {
    match a.checked_add(b) {
        Some(s) => {
            *a = s;
            true
        }
        None => false,
    }
}

/// The unit of win shares with `players` seats: lcm(1..=players), so every 1/k share of a tie
/// is whole; `None` past 2^64 (from 47 seats on; games seat at most
/// [`tegula_engine::MAX_PLAYERS`], whose unit fits).
pub fn win_unit(players: u8) -> Option<u64> {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    (1..=u64::from(players.max(1))).try_fold(1u64, |l, k| (l / gcd(l, k)).checked_mul(k))
}

impl ShardSums {
    /// No games yet, `players` seats.
    pub fn new(players: u8) -> ShardSums {
        ShardSums {
            seat_scores: vec![0; usize::from(players)],
            wins: vec![0; usize::from(players)],
            ..ShardSums::default()
        }
    }

    /// Add one finished game that took `decisions` decisions.
    pub fn add_game(&mut self, game: &Game, decisions: u64, rules: &Rules) {
        // A game seats at most `MAX_PLAYERS`, whose unit fits.
        let unit = win_unit(game.players()).unwrap_or(1);
        let winners = game.winners();
        let share = unit / winners.len().max(1) as u64;
        self.games += 1;
        self.decisions += decisions;
        for &w in &winners {
            self.wins[usize::from(w)] += share;
        }
        for (p, &s) in game.scores().iter().enumerate() {
            self.total_score += s;
            self.seat_scores[p] += s;
        }
        if self.holdings.len() < game.holdings().len() {
            self.holdings.resize(game.holdings().len(), 0);
            self.resource_ids = resource_ids(rules);
        }
        for (h, &n) in self.holdings.iter_mut().zip(game.holdings()) {
            *h += u64::from(n);
        }
        for (owner, tile, _) in game.pool_owned() {
            let e = self.pool.entry(tile).or_insert_with(|| PoolSums {
                id: rules.tile_id(tile).to_string(),
                ..PoolSums::default()
            });
            e.games += 1;
            if winners.contains(&owner) {
                e.wins += share;
            }
            e.ability_points += game
                .ability_points()
                .iter()
                .filter(|a| (a.0, a.1) == (tile, owner))
                .map(|a| u64::from(a.2))
                .sum::<u64>();
            e.owner_scores += game.scores()[usize::from(owner)];
        }
    }

    /// Add another part's sums (same seats); false, with `self` partly added, when a sum
    /// would pass 2^64 (only hostile shard headers get there). A pool tile whose id differs is
    /// the caller's check ([`ShardSums::pool_conflict`]).
    pub fn merge(&mut self, other: &ShardSums) -> bool {
        let mut ok = add(&mut self.games, other.games)
            & add(&mut self.decisions, other.decisions)
            & add_signed(&mut self.total_score, other.total_score);
        for (a, &b) in self.seat_scores.iter_mut().zip(&other.seat_scores) {
            ok &= add_signed(a, b);
        }
        for (a, &b) in self.wins.iter_mut().zip(&other.wins) {
            ok &= add(a, b);
        }
        if self.holdings.len() < other.holdings.len() {
            self.holdings.resize(other.holdings.len(), 0);
            self.resource_ids.clone_from(&other.resource_ids);
        }
        for (a, &b) in self.holdings.iter_mut().zip(&other.holdings) {
            ok &= add(a, b);
        }
        for (&t, v) in &other.pool {
            let e = self.pool.entry(t).or_insert_with(|| PoolSums {
                id: v.id.clone(),
                ..PoolSums::default()
            });
            ok &= add(&mut e.games, v.games)
                & add(&mut e.wins, v.wins)
                & add(&mut e.ability_points, v.ability_points)
                & add_signed(&mut e.owner_scores, v.owner_scores);
        }
        ok
    }

    /// A pool tile index that `other` names differently, if any.
    pub fn pool_conflict(&self, other: &ShardSums) -> Option<(u16, String, String)> {
        other.pool.iter().find_map(|(t, v)| {
            let mine = self.pool.get(t).filter(|m| m.id != v.id)?;
            Some((*t, mine.id.clone(), v.id.clone()))
        })
    }

    /// The figures `simulate` prints, computed as the engine computes them from the same sums
    /// (`tegula_engine::sim`), so a merged run prints what the whole run prints.
    pub fn stats(&self, players: u8) -> SimStats {
        let unit = win_unit(players).map_or(1.0, |u| u as f64);
        SimStats {
            games: self.games,
            decisions: self.decisions,
            total_score: self.total_score,
            wins: self.wins.iter().map(|&w| w as f64 / unit).collect(),
            seat_scores: self.seat_scores.clone(),
            seat_holdings: self.holdings.clone(),
            pool: self
                .pool
                .iter()
                .map(|(&t, v)| {
                    let s = PoolTileStats {
                        games: v.games,
                        wins: v.wins as f64 / unit,
                        ability_points: v.ability_points,
                        owner_scores: v.owner_scores,
                    };
                    (t, s)
                })
                .collect(),
            // Shards keep no search figures: they report throughput only with a timing, which
            // a merged run has not.
            search: Default::default(),
        }
    }
}

/// The first line of a shard's `--out` file, as the object's only key
/// ([`HEADER_KEY`]): the run, the shard, its statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardHeader {
    /// Which shard.
    pub shard: Shard,
    /// The variant's id.
    pub variant: String,
    /// FNV-1a 64 of the variant's compiled artefact (`tegula compile --format json`), in hex:
    /// two files with one id but other rules differ here.
    pub variant_digest: String,
    /// Seats.
    pub players: u8,
    /// Games of the whole run.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Agents by seat.
    pub agents: Vec<String>,
    /// Seconds the shard took (playing and recording its games).
    pub seconds: f64,
    /// The shard's statistics.
    pub sums: ShardSums,
}

/// The key of the header line's object.
pub const HEADER_KEY: &str = "tegula_simulate_shard";

impl ShardHeader {
    /// The header as one line of JSON (no line ending).
    pub fn line(&self) -> String {
        let mut m = serde_json::Map::new();
        m.insert(HEADER_KEY.into(), serde_json::json!(self));
        serde_json::Value::Object(m).to_string()
    }

    /// The header of a line [`ShardHeader::line`] wrote, or why `text` is none.
    pub fn parse_line(text: &str) -> Result<ShardHeader, String> {
        let not = "not the header of a shard (`tegula simulate --shard I/N --out FILE` writes it)";
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("{not}: {e}"))?;
        let inner = value
            .get(HEADER_KEY)
            .ok_or_else(|| format!("{not}: no `{HEADER_KEY}` key"))?;
        let header: ShardHeader =
            serde_json::from_value(inner.clone()).map_err(|e| format!("{not}: {e}"))?;
        if let Some(why) = check::header_problem(&header) {
            return Err(format!("{not}: {why}"));
        }
        if header.shard.index >= header.shard.count || header.shard.count > MAX_SHARDS {
            return Err(format!("{not}: shard {} does not exist", header.shard));
        }
        Ok(header)
    }

    /// The first run option in which `other` differs from `self`, as `other` has it
    /// (`seed 2`); `None` when both are shards of one run.
    pub fn difference(&self, other: &ShardHeader) -> Option<String> {
        let (a, b) = (self, other);
        if a.variant != b.variant {
            return Some(format!("variant `{}`", b.variant));
        }
        if a.variant_digest != b.variant_digest {
            return Some(format!(
                "variant `{}` with other rules (digest {})",
                b.variant, b.variant_digest
            ));
        }
        let options = [
            ("players", u64::from(a.players), u64::from(b.players)),
            ("games", a.games, b.games),
            ("seed", a.seed, b.seed),
            ("shard count", a.shard.count, b.shard.count),
        ];
        if let Some((what, _, v)) = options.iter().find(|(_, x, y)| x != y) {
            return Some(format!("{what} {v}"));
        }
        (a.agents != b.agents).then(|| format!("agents {}", b.agents.join(",")))
    }
}

/// Why `headers` are not the shards of one run, each problem with the position of the header
/// it is about (none for a missing shard); `name(k)` names header `k` in the messages. The run
/// options first (against the first header; nothing else is checked when they differ), then
/// each shard once with as many games as it should have, then no shard missing. Empty when
/// they make up one run.
pub fn set_problems(
    headers: &[ShardHeader],
    name: &dyn Fn(usize) -> String,
) -> Vec<(Option<usize>, String)> {
    let Some(first) = headers.first() else {
        return vec![(None, "no shards given".into())];
    };
    let mut problems: Vec<(Option<usize>, String)> = (1..headers.len())
        .filter_map(|k| {
            let d = first.difference(&headers[k])?;
            let mine = headers[k].difference(first).unwrap_or_default();
            Some((
                Some(k),
                format!(
                    "{d}, but {} has {mine}: the shards are of different runs",
                    name(0)
                ),
            ))
        })
        .collect();
    if !problems.is_empty() {
        return problems;
    }
    let mut order: Vec<usize> = (0..headers.len()).collect();
    order.sort_by_key(|&k| headers[k].shard.index);
    for pair in order.windows(2) {
        let (a, b) = (&headers[pair[0]], &headers[pair[1]]);
        if a.shard == b.shard {
            problems.push((
                Some(pair[1]),
                format!("shard {} again (also {})", b.shard, name(pair[0])),
            ));
        }
    }
    for (k, h) in headers.iter().enumerate() {
        let want = h.shard.games_of(h.games);
        if h.sums.games != want {
            problems.push((
                Some(k),
                format!(
                    "shard {} of a {}-game run has {want} games, but its header counts {}",
                    h.shard, h.games, h.sums.games
                ),
            ));
        }
    }
    let count = first.shard.count;
    let mut have: Vec<u64> = headers.iter().map(|h| h.shard.index).collect();
    have.sort_unstable();
    let missing: Vec<String> = (0..count)
        .filter(|i| have.binary_search(i).is_err())
        .take(10)
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        problems.push((
            None,
            format!(
                "shard{} {} missing: {} given for {count} shards",
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", "),
                headers.len()
            ),
        ));
    }
    problems
}

/// The sums of `headers` (the shards of one run: [`set_problems`] found none) added up, or the
/// position of the header that cannot be added and why (a pool tile named two ways, a sum past
/// 2^64).
pub fn total(headers: &[ShardHeader]) -> Result<ShardSums, (usize, String)> {
    let players = headers.first().map_or(0, |h| h.players);
    let mut sums = ShardSums::new(players);
    for (k, h) in headers.iter().enumerate() {
        if let Some((t, a, b)) = sums.pool_conflict(&h.sums) {
            return Err((
                k,
                format!("pool tile {t} is `{b}` here but `{a}` in another shard"),
            ));
        }
        if !sums.merge(&h.sums) {
            return Err((
                k,
                "the sums overflow when added to the other shards'".into(),
            ));
        }
    }
    Ok(sums)
}

/// Play shard `shard` of the run (`games` games of `players` seats, `agents` cycled over the
/// seats, seeded `seed`) without recording events: its sums, `None` when `stop` was set first.
pub fn play_shard(
    rules: &Arc<Rules>,
    players: u8,
    games: u64,
    seed: u64,
    agents: &[AgentKind],
    shard: Shard,
    stop: &Arc<AtomicBool>,
) -> Result<Option<ShardSums>, SetupError> {
    let kinds = if agents.is_empty() {
        &[AgentKind::Random][..]
    } else {
        agents
    };
    let mut game = Game::new(Arc::clone(rules), players, PileOrder::Shuffled(seed), false)?;
    let mut sums = ShardSums::new(players);
    for i in shard.indices(games) {
        let (pile, seeds) = sim::game_seeds(seed, i, players);
        game.restart(PileOrder::Shuffled(pile))?;
        let mut agents = sim::build_agents(kinds, &seeds);
        let Some(decisions) = sim::play_out_until(&mut game, &mut agents, stop) else {
            return Ok(None);
        };
        sums.add_game(&game, decisions, rules);
    }
    Ok(Some(sums))
}

/// The figures of `stats` as `tegula simulate --format json` reports them: `games`,
/// `decisions`, `mean_total_score`, `mean_scores`, `win_rates` and `pool_tiles` (per pool tile
/// placed, by id: games, owner win rate, mean ability points, mean owner score).
/// The variant's seat resource ids, in the order of [`Game::holdings`] per seat.
pub fn resource_ids(rules: &Rules) -> Vec<String> {
    let list = &rules.ruleset().resources;
    list.iter().map(|r| r.id.clone()).collect()
}

/// Mean final holding of each seat resource by seat, `(id, means by seat)`; empty without
/// resources.
pub fn mean_holdings(stats: &SimStats, resources: &[String]) -> Vec<(String, Vec<f64>)> {
    let games = stats.games.max(1) as f64;
    let seats = stats.seat_scores.len();
    let held = |r: usize, p: usize| {
        let sum = stats.seat_holdings.get(p * resources.len() + r).copied();
        sum.unwrap_or(0) as f64 / games
    };
    (resources.iter().enumerate())
        .map(|(r, id)| (id.clone(), (0..seats).map(|p| held(r, p)).collect()))
        .collect()
}

/// The figures of a run as JSON keys (`games`, `mean_scores`, …, and `mean_resources` where the
/// variant has seat resources, `resources` their ids).
pub fn stats_json(
    stats: &SimStats,
    tile_id: &dyn Fn(u16) -> String,
    resources: &[String],
) -> serde_json::Map<String, serde_json::Value> {
    let games = stats.games.max(1) as f64;
    let means: Vec<f64> = stats
        .seat_scores
        .iter()
        .map(|&s| s as f64 / games)
        .collect();
    let pool: serde_json::Map<String, serde_json::Value> = stats
        .pool
        .iter()
        .map(|(&t, p)| {
            let v = serde_json::json!({
                "games": p.games,
                "owner_win_rate": p.win_rate(),
                "mean_ability_points": p.mean_ability_points(),
                "mean_owner_score": p.owner_scores as f64 / p.games.max(1) as f64,
            });
            (tile_id(t), v)
        })
        .collect();
    let v = serde_json::json!({
        "games": stats.games,
        "decisions": stats.decisions,
        "mean_total_score": stats.mean_total_score(),
        "mean_scores": means,
        "win_rates": stats.win_rates(),
        "pool_tiles": pool,
    });
    let mut m = match v {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    let held = mean_holdings(stats, resources);
    if !held.is_empty() {
        let map: serde_json::Map<String, serde_json::Value> = (held.into_iter())
            .map(|(id, means)| (id, serde_json::json!(means)))
            .collect();
        m.insert("mean_resources".into(), serde_json::Value::Object(map));
    }
    m
}

/// The digest [`ShardHeader::variant_digest`] records for `rules`.
pub fn variant_digest(rules: &Rules) -> String {
    // FNV-1a: stable across builds and platforms, unlike the standard library's hasher.
    let digest = rules
        .ruleset()
        .to_json()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    format!("{digest:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_specs_are_checked() {
        assert_eq!(Shard::parse("1/3"), Ok(Shard { index: 1, count: 3 }));
        for bad in ["0/0", "3/2", "2/2", "x/y", "1", "-1/2", "1/2/3", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn shards_partition_the_games() {
        for games in [0, 1, 7, 10] {
            let mut all: Vec<u64> = (0..3)
                .flat_map(|i| Shard { index: i, count: 3 }.indices(games))
                .collect();
            for i in 0..3 {
                let s = Shard { index: i, count: 3 };
                assert_eq!(s.indices(games).count() as u64, s.games_of(games));
                assert!(s.indices(games).all(|g| g % 3 == i));
            }
            all.sort_unstable();
            assert_eq!(all, (0..games).collect::<Vec<_>>());
        }
    }

    #[test]
    fn win_units_hold_every_tie_share() {
        assert_eq!(win_unit(1), Some(1));
        assert_eq!(win_unit(4), Some(12));
        assert_eq!(win_unit(6), Some(60));
        // lcm(1..=46) fits in 64 bits, lcm(1..=47) does not: no wrap, no panic.
        assert!(win_unit(tegula_engine::MAX_PLAYERS).is_some());
        assert_eq!(win_unit(46), Some(9_419_588_158_802_421_600));
        assert_eq!(win_unit(47), None);
        assert_eq!(win_unit(255), None);
    }
}
