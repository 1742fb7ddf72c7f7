//! Seeded simulation from Python, whole or by shards (`tegula.distributed`, docs/AI.md "Running
//! on a cluster"): `play_shard` plays one shard of a `tegula simulate` run with the GIL
//! released and returns the header line `tegula simulate --shard I/N` writes; `merge_shards`
//! adds such headers up to the run's figures, as `tegula simulate-merge` does (both through
//! `tegula_shard`, so the CLI and Python agree byte for byte).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use tegula_engine::AgentKind;
use tegula_shard::{variant_digest, Shard, ShardHeader};

use crate::errors::SetupError;
use crate::variant::PyVariant;

/// The agent kinds of `names` (default: random), or a `ValueError` naming the unknown one.
pub fn agent_kinds(names: &[String]) -> PyResult<Vec<AgentKind>> {
    let kinds = names
        .iter()
        .map(|n| {
            AgentKind::parse(n).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown agent `{n}` (known: random, greedy, mcts:N with N ≥ 1)"
                ))
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(if kinds.is_empty() {
        vec![AgentKind::Random]
    } else {
        kinds
    })
}

/// Play shard `index` of `count` of the run `tegula simulate --variant V --games GAMES --players
/// PLAYERS --agents AGENTS --seed SEED` would play, releasing the GIL while the games run: the
/// shard's header line (JSON, as `tegula simulate --shard INDEX/COUNT --out` writes it first),
/// for `merge_shards`. Raises `ValueError` for a bad shard or agent, `SetupError` for a player
/// count the variant does not allow, `KeyboardInterrupt` when interrupted.
#[pyfunction]
#[pyo3(signature = (variant, games, index = 0, count = 1, players = 2, agents = None, seed = 0))]
#[allow(clippy::too_many_arguments)] // the run's options, as `tegula simulate` takes them
pub fn play_shard(
    py: Python<'_>,
    variant: &PyVariant,
    games: u64,
    index: u64,
    count: u64,
    players: u8,
    agents: Option<Vec<String>>,
    seed: u64,
) -> PyResult<String> {
    let shard = Shard::parse(&format!("{index}/{count}"))
        .map_err(|e| PyValueError::new_err(format!("shard {index}/{count}: {e}")))?;
    let kinds = agent_kinds(&agents.unwrap_or_default())?;
    let rules = Arc::clone(&variant.inner.rules);
    let never = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let played =
        py.detach(|| tegula_shard::play_shard(&rules, players, games, seed, &kinds, shard, &never));
    let sums = played
        .map_err(|e| SetupError::new_err(e.to_string()))?
        .ok_or_else(|| PyKeyboardInterrupt::new_err("the shard was interrupted"))?;
    let header = ShardHeader {
        shard,
        variant: rules.ruleset().id.clone(),
        variant_digest: variant_digest(&rules),
        players,
        games,
        seed,
        agents: (0..usize::from(players))
            .map(|p| kinds[p % kinds.len()].name())
            .collect(),
        seconds: start.elapsed().as_secs_f64(),
        sums,
    };
    Ok(header.line())
}

/// The figures of a run from its shards' header lines (`play_shard`'s results or the first
/// lines of `tegula simulate --shard` files), in any order: JSON with the keys of
/// `tegula simulate --format json --no-timing` that describe the games (variant, players,
/// games, games_requested, seed, agents, decisions, mean_total_score, mean_scores, win_rates,
/// pool_tiles). Raises `ValueError` naming the shard when they do not make up one run.
#[pyfunction]
pub fn merge_shards(headers: Vec<String>) -> PyResult<String> {
    let parsed = headers
        .iter()
        .enumerate()
        .map(|(k, h)| ShardHeader::parse_line(h).map_err(|e| format!("header {k}: {e}")))
        .collect::<Result<Vec<_>, _>>()
        .map_err(PyValueError::new_err)?;
    let name = |k: usize| format!("header {k} (shard {})", parsed[k].shard);
    let problems: Vec<String> = tegula_shard::set_problems(&parsed, &name)
        .into_iter()
        .map(|(k, p)| k.map_or(p.clone(), |k| format!("{}: {p}", name(k))))
        .collect();
    if !problems.is_empty() {
        return Err(PyValueError::new_err(problems.join("; ")));
    }
    let sums = tegula_shard::total(&parsed)
        .map_err(|(k, p)| PyValueError::new_err(format!("{}: {p}", name(k))))?;
    let first = &parsed[0];
    let stats = sums.stats(first.players);
    let tile_id = |t: u16| sums.pool.get(&t).map(|p| p.id.clone()).unwrap_or_default();
    let mut report = tegula_shard::stats_json(&stats, &tile_id, &sums.resource_ids);
    report.extend([
        ("variant".into(), first.variant.clone().into()),
        ("players".into(), first.players.into()),
        ("games_requested".into(), first.games.into()),
        ("seed".into(), first.seed.into()),
        ("agents".into(), first.agents.clone().into()),
    ]);
    Ok(serde_json::Value::Object(report).to_string())
}
