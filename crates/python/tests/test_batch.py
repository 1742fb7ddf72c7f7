"""tegula.Batch: N games stepped at once agree with the same games stepped one by one, play the
games `tegula simulate` plays, refuse bad input with exceptions, and release the GIL."""

import json
import threading
import time

import numpy as np
import pytest

import tegula
from conftest import variant
from test_distributed import cli_json


def one_by_one_view(g, perfect):
    """What a batch reports for a single game: the observation of the seat to act (its own view
    in a variant with hidden tiles) and the mask; None once over."""
    if g.is_terminal():
        return None, None
    view = None if perfect else g.current_player()
    return g.observation_tensor(player=view).ravel(), g.legal_actions_mask()


@pytest.mark.parametrize(
    "path,players",
    [("variants/base.toml", 2), ("variants/wonders.toml", 3), ("variants/house/hand-3.toml", 2)],
)
def test_batch_steps_agree_with_the_games_one_by_one(path, players):
    v = variant(path)
    b = tegula.Batch(v, 3, players=players, seed=7)
    games = [b.game(i) for i in range(3)]
    rng = np.random.default_rng(1)
    obs, mask, rewards, done = b.observe()
    steps = 0
    while not done.all():
        for i, g in enumerate(games):
            o, m = one_by_one_view(g, v.perfect_information)
            assert done[i] == g.is_terminal()
            if o is not None:
                np.testing.assert_array_equal(obs[i], o)
                np.testing.assert_array_equal(mask[i], m)
            else:
                assert not obs[i].any() and not mask[i].any()
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else -1 for m in mask], dtype=np.int64
        )
        obs, mask, rewards, done = b.step(actions)
        steps += 1
        for i, g in enumerate(games):
            ended = g.is_terminal()
            if not ended:
                g.apply(int(actions[i]))
                while g.is_chance_node():
                    g.apply_default_draw()
            want = g.returns() if g.is_terminal() and not ended else [0.0] * players
            np.testing.assert_array_equal(rewards[i], np.array(want, dtype=np.float32))
    assert steps > 20
    assert b.scores().tolist() == [g.scores() for g in games]


def test_batch_agents_play_the_games_of_tegula_simulate(tmp_path):
    v = variant("variants/wonders.toml")
    out = tmp_path / "games.jsonl"
    cli_json(["simulate", "--variant", "variants/wonders.toml", "--games", "5", "--players", "3",
              "--agents", "random,greedy", "--seed", "5", "--out", str(out), "--format", "json",
              "--progress-every", "0"])
    want = [json.loads(line)["scores"] for line in out.read_text().splitlines()]
    b = tegula.Batch(v, 5, players=3, seed=5, agents=["random", "greedy"], threads=2)
    assert b.play_agents().astype(int).tolist() == want
    # Step by step, with and without observations: the same games.
    b2 = tegula.Batch(v, 5, players=3, seed=5, agents=["random", "greedy"])
    finals = np.zeros((5, 3), dtype=np.float32)
    done = np.zeros(5, dtype=bool)
    k = 0
    while not done.all():
        _, _, rewards, done = b2.step_agents(observe=k % 2 == 0)
        finals += rewards
        k += 1
    assert finals.astype(int).tolist() == want
    b2.reset()
    assert b2.play_agents().astype(int).tolist() == want
    # Batch.AGENT lets each game's agent decide within `step`.
    b2.reset()
    finals[:] = 0
    done[:] = False
    while not done.all():
        _, _, rewards, done = b2.step(np.full(5, tegula.Batch.AGENT), observe=False, masks=False)
        finals += rewards
    assert finals.astype(int).tolist() == want


def test_bad_input_raises_and_changes_nothing():
    v = variant("variants/base.toml")
    b = tegula.Batch(v, 2, seed=3)
    obs, mask, _, _ = b.observe()
    legal = [int(np.flatnonzero(m)[0]) for m in mask]
    illegal = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(tegula.IllegalActionError, match="game 1") as e:
        b.step(np.array([legal[0], illegal], dtype=np.int64))
    assert e.value.action == illegal
    with pytest.raises(tegula.IllegalActionError, match="unknown-action|not an action"):
        b.step(np.array([legal[0], 10**9], dtype=np.int64))
    obs2, mask2, _, _ = b.observe()
    np.testing.assert_array_equal(obs, obs2)
    np.testing.assert_array_equal(mask, mask2)
    with pytest.raises(ValueError, match="3 actions for 2 games"):
        b.step(np.array(legal + [0], dtype=np.int64))
    for n in (0, 8193):
        with pytest.raises(ValueError, match="1 to"):
            tegula.Batch(v, n)
    with pytest.raises(ValueError, match="threads"):
        tegula.Batch(v, 2, threads=0)
    with pytest.raises(ValueError, match="unknown agent"):
        tegula.Batch(v, 2, agents=["nobody"])
    with pytest.raises(tegula.SetupError):
        tegula.Batch(v, 2, players=9)
    with pytest.raises(ValueError, match="game 5"):
        b.game(5)


def test_the_gil_is_released_while_games_play():
    v = variant("variants/base.toml")
    b = tegula.Batch(v, 600, seed=1)
    took = []

    def play():
        t = time.perf_counter()
        b.play_agents()
        took.append(time.perf_counter() - t)

    t = threading.Thread(target=play)
    last, gap = time.perf_counter(), 0.0
    t.start()
    while t.is_alive():
        now = time.perf_counter()
        gap, last = max(gap, now - last), now
    t.join()
    # Holding the GIL would stop this loop for the whole call.
    assert gap < took[0] / 2, (gap, took[0])


def test_reset_without_observations_and_observations_on_demand():
    """`reset(observe=False)` builds no observation (issue 33, item 3); `observe` then gives
    them for every game or for the games asked for, equal to the full call's rows."""
    b = tegula.Batch(variant("variants/base.toml"), 5, seed=2)
    b.step_agents(observe=False, masks=False)
    obs, mask, rewards, done = b.reset(observe=False)
    assert obs is None and mask.shape == (5, b.num_distinct_actions)
    assert rewards.shape == (5, 2) and not done.any()
    obs, mask, _, _ = b.reset(observe=False, masks=False)
    assert obs is None and mask is None
    for _ in range(7):
        b.step_agents(observe=False, masks=False)
    full_obs, full_mask, _, full_done = b.observe()
    some_obs, some_mask, some_rewards, some_done = b.observe(games=np.array([4, 0, 4], np.int32))
    np.testing.assert_array_equal(some_obs, full_obs[[4, 0, 4]])
    np.testing.assert_array_equal(some_mask, full_mask[[4, 0, 4]])
    np.testing.assert_array_equal(some_done, full_done[[4, 0, 4]])
    assert some_rewards.shape == (3, 2)
    only_masks = b.observe(observe=False, games=[1])
    assert only_masks[0] is None
    np.testing.assert_array_equal(only_masks[1], full_mask[[1]])
    assert b.observe(games=[])[0].shape == (0, b.observation_size)
    with pytest.raises(ValueError, match=r"games\[1\] = 5: the batch has games 0..5"):
        b.observe(games=[0, 5])
    with pytest.raises(ValueError, match=r"games\[0\] = -1"):
        b.observe(games=[-1])
    with pytest.raises(TypeError, match="games: dtype float64"):
        b.observe(games=np.zeros(2))
