"""Sharded simulation (tegula.distributed, docs/AI.md "Running on a cluster"): shards merged,
locally or on a local Ray instance, give the figures of one `tegula simulate` run."""

import json

import pytest

import tegula
import tegula.distributed as dist
from conftest import cli, variant

RUN = dict(games=12, agents=["random", "greedy"], seed=5, players=3)


def cli_json(args):
    """`tegula ARGS` and its JSON report."""
    return json.loads(cli(args).stdout)


def whole_run_report(path):
    """`tegula simulate` of RUN, its figures without the timing."""
    return cli_json(
        ["simulate", "--variant", path, "--games", str(RUN["games"]),
         "--players", str(RUN["players"]), "--agents", ",".join(RUN["agents"]),
         "--seed", str(RUN["seed"]), "--no-timing", "--format", "json",
         "--progress-every", "0"]
    )


def local_shards(v, count):
    return [
        dist.play_shard(v, RUN["games"], i, count, RUN["agents"], RUN["seed"], RUN["players"])
        for i in range(count)
    ]


def test_local_shards_merge_to_the_cli_run():
    path = "variants/wonders.toml"
    v = variant(path)
    merged = dist.merge(reversed(local_shards(v, 5)))
    whole = whole_run_report(path)
    assert merged == {k: whole[k] for k in merged}
    assert merged["games"] == RUN["games"] and merged["pool_tiles"]
    assert dist.merge(local_shards(v, 1)) == merged


def test_shards_that_do_not_make_up_a_run_are_refused():
    v = variant("variants/base.toml")
    shards = local_shards(v, 3)
    with pytest.raises(ValueError, match="shard 1/3 missing"):
        dist.merge([shards[0], shards[2]])
    with pytest.raises(ValueError, match="shard 2/3 again"):
        dist.merge(shards + [shards[2]])
    other = dist.play_shard(v, RUN["games"], 1, 3, RUN["agents"], 6, RUN["players"])
    with pytest.raises(ValueError, match="seed 6"):
        dist.merge([shards[0], other, shards[2]])
    with pytest.raises(ValueError, match="not the header of a shard"):
        dist.merge(['{"game": 0}'])
    for index, count in [(0, 0), (3, 2)]:
        with pytest.raises(ValueError, match="shard"):
            dist.play_shard(v, 10, index, count)
    with pytest.raises(ValueError, match="unknown agent"):
        dist.play_shard(v, 10, 0, 1, agents=["nobody"])


@pytest.fixture(scope="module")
def ray_local():
    """A local Ray instance with 2 CPUs, or the test skipped saying why."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install ray)")
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 ignore_reinit_error=True)
    except Exception as e:  # noqa: BLE001 - any failure to start means no Ray here
        pytest.skip(f"a local Ray instance could not start here: {e}")
    yield ray
    ray.shutdown()


def test_ray_shards_merge_to_the_cli_run(ray_local):
    path = "variants/wonders.toml"
    result = dist.simulate(path, shards=4, **RUN)
    whole = whole_run_report(path)
    assert result == {k: whole[k] for k in result}
    # A Variant object travels by value to the workers.
    assert dist.simulate(variant(path), shards=3, **RUN) == result


def test_ray_bad_options_fail_before_any_task(ray_local):
    with pytest.raises(ValueError, match="shards"):
        dist.simulate("base", games=10, shards=0)
    with pytest.raises(ValueError, match="unknown agent"):
        dist.simulate("base", games=10, shards=2, agents=["nobody"])
