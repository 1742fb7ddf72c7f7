"""Seeded simulation split into shards, run on Ray (docs/AI.md, "Running on a cluster").

    import ray, tegula.distributed
    ray.init()                                  # or ray.init(address="auto") on a cluster
    r = tegula.distributed.simulate("base", games=100_000, shards=64,
                                    agents=["greedy", "random"], seed=1)
    print(r["win_rates"], r["mean_total_score"])

Shard ``i`` of ``n`` plays the games of the run whose index is ``i`` modulo ``n``, each with the
seeds ``tegula simulate --seed SEED`` gives it, and returns its statistics as integer sums; the
merge adds them up. So the result is, figure for figure, what one ``tegula simulate`` run with the
same variant, games, players, agents and seed reports (``--format json --no-timing``), however
many shards and machines played it. The shards' results are the header lines of ``tegula
simulate --shard I/N --out FILE``: shards played by the CLI and by Python merge together.
"""

import json

from . import _tegula
from ._tegula import Variant

__all__ = ["merge", "play_shard", "simulate"]


def _variant(variant):
    return variant if isinstance(variant, Variant) else Variant(variant)


def play_shard(variant, games, index, count, agents=("random",), seed=0, players=2):
    """Play shard ``index`` of ``count`` of the run here (the GIL released): its header line."""
    return _tegula.play_shard(
        _variant(variant), games, index, count, players, list(agents), seed
    )


def merge(headers):
    """The run's figures from its shards' header lines (any order) as a dict: variant, players,
    games, games_requested, seed, agents, decisions, mean_total_score, mean_scores, win_rates,
    pool_tiles. Raises ValueError when the shards do not make up one run (a shard missing or
    given twice, shards of different runs)."""
    return json.loads(_tegula.merge_shards(list(headers)))


def _shard_task(variant, games, index, count, agents, seed, players):
    return _tegula.play_shard(variant, games, index, count, players, agents, seed)


_REMOTE = None


def simulate(variant, games, shards, agents=("random",), seed=0, players=2):
    """Play ``games`` games of ``variant`` (a ``tegula.Variant``, a path or a shipped variant's
    name) as ``shards`` Ray tasks and merge them: the figures of ``tegula simulate --variant
    VARIANT --games GAMES --players PLAYERS --agents AGENTS --seed SEED`` (see ``merge``).

    Ray must be installed; the tasks run on the Ray instance this process is connected to
    (``ray.init(...)`` first; without it Ray starts a local one). The variant travels by value
    (its compiled rules), so the workers need the ``tegula`` package but no variant files.
    Bad options raise ValueError here, before any task is started."""
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "tegula.distributed.simulate needs Ray: pip install ray"
        ) from e
    global _REMOTE
    if not isinstance(shards, int) or shards < 1:
        raise ValueError(f"shards must be a whole number ≥ 1, not {shards!r}")
    v = _variant(variant)
    agents = list(agents)
    # No games: checks the shard count, agents and players without playing.
    _tegula.play_shard(v, 0, 0, shards, players, agents, seed)
    if _REMOTE is None:
        _REMOTE = ray.remote(_shard_task)
    refs = [
        _REMOTE.remote(v, games, i, shards, agents, seed, players)
        for i in range(shards)
    ]
    return merge(ray.get(refs))
