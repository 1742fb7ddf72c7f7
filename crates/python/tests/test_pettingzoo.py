"""PettingZoo as the outside judge: its own `api_test` on tegula environments."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed")

from pettingzoo.test import api_test  # noqa: E402

from tegula.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize(
    "variant", ["base", "abbey-mayor", "wonders", "tower", "princess-dragon", "action-all"]
)
def test_api_test(variant):
    """PettingZoo's API test: spaces, observations, masks, rewards, terminations, agent order,
    seeding; its play test plays random masked actions for up to 1,000 cycles (a whole game)."""
    api_test(env(variant=variant, players=2), num_cycles=1000)


def test_a_masked_game_ends_with_the_scores_as_rewards():
    e = env(variant="base", players=2)
    e.reset(seed=4)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        e.step(int(e.action_space(agent).sample(mask)))
        steps += 1
    assert steps > 72
    assert not e.agents
    assert [totals[a] for a in e.possible_agents] == [float(s) for s in e.game.scores()]


def test_seeded_resets_repeat_the_game():
    def play(seed):
        e = env(variant="base", players=2)
        e.reset(seed=seed)
        rng = np.random.default_rng(0)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return e.game.log_jsonl()

    assert play(11) == play(11)


def test_observations_are_per_seat_with_hidden_tiles():
    """In hand-3 the seat to act sees its tile to place; the other seat does not (before: every
    agent got the same, full observation)."""
    e = env(variant="house/hand-3", players=2)
    e.reset(seed=2)
    acting = e.agent_selection
    other = next(a for a in e.possible_agents if a != acting)
    mine, theirs = e.observe(acting)["observation"], e.observe(other)["observation"]
    assert not np.array_equal(mine, theirs)
    g = e.game
    full = g.observation_tensor()
    assert np.array_equal(mine, g.observation_tensor(None, g.current_player()))
    assert not np.array_equal(theirs, full)
    # In a variant of perfect information every seat sees the same.
    e = env(variant="base", players=2)
    e.reset(seed=2)
    a, b = e.possible_agents
    assert np.array_equal(e.observe(a)["observation"], e.observe(b)["observation"])


@pytest.mark.parametrize("variant,players", [("base", 2), ("abbey-mayor", 3)])
def test_parallel_api_test(variant, players):
    """PettingZoo's parallel API test on the parallel env (issue 33, item 4)."""
    from pettingzoo.test import parallel_api_test

    from tegula.pettingzoo import parallel_env

    parallel_api_test(parallel_env(variant=variant, players=players), num_cycles=1000)


def test_parallel_env_plays_the_aec_game_and_refuses_a_missing_move():
    from tegula.pettingzoo import parallel_env

    p = parallel_env(returns="rank")
    obs, _ = p.reset(seed=8)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(p.possible_agents, 0.0)
    while p.agents:
        acting = [a for a in p.agents if obs[a]["action_mask"].any()]
        assert len(acting) == 1
        with pytest.raises(ValueError, match=f"no action for {acting[0]}"):
            p.step({})
        actions = {a: None for a in p.agents}
        actions[acting[0]] = int(rng.choice(np.flatnonzero(obs[acting[0]]["action_mask"])))
        obs, rewards, terms, _, _ = p.step(actions)
        for a, r in rewards.items():
            totals[a] += r
    s = p.aec.game.scores()
    want = [float(np.sign(s[0] - s[1])), float(np.sign(s[1] - s[0]))]
    assert [totals[a] for a in p.possible_agents] == want


def test_rank_returns_in_the_aec_env():
    e = env(variant="base", players=3, returns="rank")
    api_test(e, num_cycles=1000)
    e.reset(seed=2)
    got = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        got[agent] += reward
        e.step(None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"]))
    s = e.game.scores()
    for i, a in enumerate(e.possible_agents):
        want = sum(np.sign(s[i] - t) for t in s) / 2
        assert got[a] == want
    assert sum(got.values()) == 0
    with pytest.raises(ValueError, match="returns='money'"):
        env(returns="money")
