"""Gymnasium environments (issue 33, item 4): every shipped variant registered on `import
tegula`, `check_env` passing, seeded episodes, masks, illegal actions, rank returns, and
`make_vec` backed by `tegula.Batch` with next-step autoreset."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not installed")

import tegula  # noqa: E402  (registers the ids)
from gymnasium.utils.env_checker import check_env  # noqa: E402


def play(env, seed, pick):
    """One episode: (actions, rewards, final info) with `pick(obs)` choosing."""
    obs, info = env.reset(seed=seed)
    np.testing.assert_array_equal(info["action_mask"], obs["action_mask"])
    actions, rewards = [], []
    while True:
        a = pick(obs)
        actions.append(a)
        obs, r, term, trunc, info = env.step(a)
        rewards.append(r)
        assert not trunc
        if term:
            return actions, rewards, info


def lowest(obs):
    return int(np.flatnonzero(obs["action_mask"])[0])


def test_every_shipped_variant_is_registered():
    from tegula.gymnasium import env_id

    for name in tegula.variants.names():
        assert env_id(name) in gymnasium.registry, name
    assert "tegula/house-hand-3-v0" in gymnasium.registry


@pytest.mark.parametrize(
    "eid,kwargs",
    [
        ("tegula/base-v0", {"opponent": "greedy"}),
        ("tegula/abbey-mayor-v0", {"players": 3, "opponent": ["random", "greedy"], "seat": 1}),
        ("tegula/wonders-v0", {"returns": "rank"}),
    ],
)
def test_check_env(eid, kwargs):
    env = gymnasium.make(eid, **kwargs)
    check_env(env.unwrapped, skip_render_check=True)
    assert "board" in env.unwrapped.render() or env.unwrapped.render()


def test_an_episode_is_the_game_against_the_opponent():
    env = gymnasium.make("tegula/base-v0", opponent="greedy").unwrapped
    actions, rewards, _ = play(env, 5, lowest)
    g = env.game
    assert g.is_terminal() and rewards[-1] == g.scores()[0] and not any(rewards[:-1])
    again, rewards2, _ = play(env, 5, lowest)
    assert again == actions and rewards2 == rewards
    # The opponents are the built-in greedy agents: replaying the game by hand agrees.
    h = env.variant.new_game(2, g.seed, 12)
    assert h.seed == g.seed
    other, mine = tegula.Agent("greedy", g.seed + 1), iter(actions)
    while not h.is_terminal():
        if h.is_chance_node():
            h.apply_default_draw()
        else:
            h.apply(next(mine)) if h.current_player() == 0 else other.play(h)
    assert h == g


def test_rank_returns_and_illegal_actions():
    env = gymnasium.make("tegula/base-v0", opponent="random", returns="rank").unwrapped
    _, rewards, _ = play(env, 2, lowest)
    s = env.game.scores()
    assert rewards[-1] == float(np.sign(s[0] - s[1]))
    obs, _ = env.reset(seed=3)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, r, term, _, info = env.step(bad)
    assert term and r == -1.0 and "not legal" in info["illegal"] and not obs["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(bad)
    strict = gymnasium.make("tegula/base-v0", illegal="raise").unwrapped
    strict.reset(seed=3)
    with pytest.raises(tegula.IllegalActionError):
        strict.step(bad)
    for bad_kwargs, msg in [
        ({"opponent": "clever"}, "clever"),
        ({"players": 9}, "players=9"),
        ({"seat": 2}, "seat=2"),
        ({"returns": "money"}, "returns"),
        ({"illegal": "ignore"}, "illegal"),
        ({"opponent": ["random", "random"]}, "2 specs for 1"),
    ]:
        with pytest.raises(ValueError, match=msg):
            gymnasium.make("tegula/base-v0", **bad_kwargs)


@pytest.mark.parametrize("seat", [0, 1])
def test_make_vec_autoresets_and_pays_the_batch_games(seat):
    envs = gymnasium.make_vec("tegula/base-v0", num_envs=3, opponent="random", seat=seat)
    inner = envs.unwrapped
    assert isinstance(inner, tegula.gymnasium.TegulaVectorEnv)
    obs, info = envs.reset(seed=11)
    assert obs["observation"].shape == (3, inner.single_observation_space["observation"].shape[0])
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any(axis=1).all()
    rng = np.random.default_rng(0)
    finished, restarted = 0, 0
    was_done = np.zeros(3, bool)
    for _ in range(400):
        acts = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
        obs, rewards, term, trunc, info = envs.step(np.array(acts, dtype=np.int32))
        assert not trunc.any()
        for i in np.flatnonzero(was_done):  # the step after the end: a fresh game
            assert not term[i] and rewards[i] == 0 and obs["action_mask"][i].any()
            restarted += 1
        scores = inner.batch.scores()
        for i in np.flatnonzero(term):
            assert rewards[i] == scores[i][seat]
            finished += 1
        assert not rewards[~term].any()
        was_done = term
    assert finished >= 6 and restarted >= 3
    assert inner.batch.game_numbers().max() >= 3  # the autoreset played later games of the run
    envs.close()


def test_make_vec_is_seeded_and_refuses_illegal_actions_per_game():
    def run(seed):
        envs = gymnasium.make_vec("tegula/base-v0", num_envs=2, opponent="greedy")
        obs, _ = envs.reset(seed=seed)
        out = []
        for _ in range(30):
            acts = [int(np.flatnonzero(m)[-1]) for m in obs["action_mask"]]
            obs, r, term, _, _ = envs.step(acts)
            out.append((acts, r.tolist(), term.tolist()))
        return out

    assert run(4) == run(4)
    envs = gymnasium.make_vec("tegula/base-v0", num_envs=2, returns="rank")
    obs, _ = envs.reset(seed=1)
    good = int(np.flatnonzero(obs["action_mask"][0])[0])
    bad = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    obs, r, term, _, info = envs.step([good, bad])
    assert term.tolist() == [False, True] and r[1] == -1.0 and info["illegal"].tolist() == [False, True]
    obs, r, term, _, _ = envs.step([good, 0])  # game 1 restarts, its action ignored
    assert not term[1] and obs["action_mask"][1].any()
    strict = gymnasium.make_vec("tegula/base-v0", num_envs=2, illegal="raise")
    obs, _ = strict.reset(seed=1)
    before = strict.unwrapped.batch.game(0).to_json()
    with pytest.raises(tegula.IllegalActionError, match=r"actions\[0\]"):
        strict.step([bad, good])
    assert strict.unwrapped.batch.game(0).to_json() == before


def test_batch_rank_returns():
    v = tegula.Variant("base")
    score = tegula.Batch(v, 6, seed=3, agents=["greedy", "random"]).play_agents()
    rank = tegula.Batch(v, 6, seed=3, agents=["greedy", "random"], returns="rank").play_agents()
    np.testing.assert_array_equal(rank[:, 0], np.sign(score[:, 0] - score[:, 1]))
    np.testing.assert_array_equal(rank.sum(axis=1), 0)
    with pytest.raises(ValueError, match="returns"):
        tegula.Batch(v, 2, returns="win")


def test_planes_observations():
    env = gymnasium.make("tegula/base-v0", observation="planes")
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=1)
    g = env.unwrapped.game
    np.testing.assert_array_equal(obs["planes"], g.observation_planes(player=0))
    np.testing.assert_array_equal(obs["features"], g.observation_features(player=0))
    envs = gymnasium.make_vec("tegula/base-v0", num_envs=2, observation="planes")
    obs, _ = envs.reset(seed=1)
    assert obs["planes"].shape == (2,) + env.observation_space["planes"].shape
    obs, *_ = envs.step([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
    for i in range(2):
        h = envs.unwrapped.batch.game(i)
        np.testing.assert_array_equal(obs["planes"][i], h.observation_planes(player=0))
    with pytest.raises(ValueError, match="observation='pixels'"):
        gymnasium.make("tegula/base-v0", observation="pixels")
