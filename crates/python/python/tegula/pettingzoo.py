"""tegula games as PettingZoo AEC environments.

    from tegula.pettingzoo import env
    e = env(variant="variants/base.toml", players=2)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are `player_0`, `player_1`, …; each observation is a dict: `observation` (float32, the
flattened board window and feature vector of `tegula.Game.observation_tensor`) and
`action_mask` (int8, one entry per action id of `tegula.Game`, 1 where legal). The draws are
chance steps the environment decides itself, with the generator `reset(seed=…)` seeds. Rewards
come at the end: each seat's final score, or with `returns="rank"` its wins minus losses against
the other seats over `players - 1` (in [-1, 1], zero-sum). `variant` is a variant file or a
shipped variant's name (`tegula.variants.path`).

`parallel_env(…)` is the same game under PettingZoo's parallel API: every live agent is asked for
an action each step, and only the seat to act's counts (its mask is the only non-zero one; the
others' actions are ignored, None among them).
"""

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv

import tegula
from tegula import variants

_LOADED = {}


def _variant(name):
    """Each variant compiled once per process."""
    path = variants.path(name)
    if path not in _LOADED:
        _LOADED[path] = tegula.Variant(path)
    return _LOADED[path]


_RETURNS = ("score", "rank")


def env(variant="base", players=2, radius=12, render_mode=None, returns="score"):
    """A tegula game as a PettingZoo AEC environment."""
    return TegulaEnv(variant, players, radius, render_mode, returns)


def parallel_env(variant="base", players=2, radius=12, render_mode=None, returns="score"):
    """A tegula game as a PettingZoo parallel environment (`TegulaParallelEnv`)."""
    return TegulaParallelEnv(variant, players, radius, render_mode, returns)


def _returns(scores, returns):
    """Final scores, or each seat's wins minus losses against the others over their number."""
    if returns == "score":
        return [float(s) for s in scores]
    n = max(len(scores) - 1, 1)
    return [sum((s > t) - (s < t) for t in scores) / n for s in scores]


class TegulaEnv(AECEnv):
    """One game of a variant for `players` seats (PettingZoo's AEC API)."""

    metadata = {"name": "tegula_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, variant="base", players=2, radius=12, render_mode=None, returns="score"):
        super().__init__()
        if returns not in _RETURNS:
            raise ValueError(f"returns={returns!r}: one of {', '.join(_RETURNS)}")
        self.returns = returns
        self.variant = _variant(variant)
        self.players = int(players)
        self.radius = int(radius)
        self.render_mode = render_mode
        probe = self.variant.new_game(self.players, 0, self.radius)
        (c, h, w), n = probe.observation_shape()
        actions = probe.num_distinct_actions
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        box = gymnasium.spaces.Box(-np.inf, np.inf, (c * h * w + n,), np.float32)
        mask = gymnasium.spaces.Box(0, 1, (actions,), np.int8)
        self._obs_space = gymnasium.spaces.Dict({"observation": box, "action_mask": mask})
        self._act_space = gymnasium.spaces.Discrete(actions)
        self.game = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent):
        """The same Dict space for every agent."""
        return self._obs_space

    def action_space(self, agent):
        """Action ids of `tegula.Game` (layout in docs/AI.md)."""
        return self._act_space

    def reset(self, seed=None, options=None):
        """A new game; `seed` seeds the draws (None: fresh entropy)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = self.variant.new_game(self.players, 0, self.radius)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._advance()

    def _draw(self):
        """Decide the chance nodes until a seat acts or the game ends."""
        while self.game.is_chance_node():
            tiles, probs = zip(*self.game.chance_outcomes())
            p = np.asarray(probs) / np.sum(probs)
            self.game.apply(int(self._rng.choice(tiles, p=p)))

    def _advance(self):
        """After a move: draw, then select the seat to act or end the game."""
        self._draw()
        if self.game.is_terminal():
            scores = _returns(self.game.scores(), self.returns)
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = scores[i]
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self.game.current_player()]

    def observe(self, agent):
        """The board window and features as the agent's seat sees them (in a variant with
        hidden tiles, not another seat's), and its legal actions as a mask (all zeros when
        another seat acts)."""
        obs = self.game.observation_tensor(None, self.possible_agents.index(agent))
        mask = np.zeros(self._act_space.n, np.int8)
        if not self.game.is_terminal() and agent == self.agent_selection:
            mask[self.game.legal_actions_mask()] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        """Apply the selected agent's action id (None once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.game.apply(int(action))
        self._advance()
        self._accumulate_rewards()

    def render(self):
        """The state as text (`ansi`)."""
        return str(self.game) if self.game is not None else ""

    def close(self):
        """Nothing to release."""


class TegulaParallelEnv(ParallelEnv):
    """One game of a variant for `players` seats (PettingZoo's parallel API): each step takes
    a dict of actions, of which the seat to act's is applied (module docs)."""

    metadata = {"name": "tegula_parallel_v0", "render_modes": ["ansi"]}

    def __init__(self, variant="base", players=2, radius=12, render_mode=None, returns="score"):
        self.aec = TegulaEnv(variant, players, radius, render_mode, returns)
        self.possible_agents = list(self.aec.possible_agents)
        self.render_mode = render_mode
        self.agents = []

    def observation_space(self, agent):
        """The same Dict space for every agent (`observation`, `action_mask`)."""
        return self.aec.observation_space(agent)

    def action_space(self, agent):
        """Action ids of `tegula.Game` (layout in docs/AI.md)."""
        return self.aec.action_space(agent)

    def _all(self):
        return {a: self.aec.observe(a) for a in self.agents}

    def reset(self, seed=None, options=None):
        """A new game; `seed` seeds the draws. Observations and infos of every agent."""
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return self._all(), {a: {} for a in self.agents}

    def step(self, actions):
        """Apply the action of the seat to act (the others' are ignored); every agent's
        observation, reward, termination, truncation and info."""
        mover = self.aec.agent_selection
        if mover not in actions or actions[mover] is None:
            raise ValueError(f"step: no action for {mover}, the agent to act")
        self.aec.step(actions[mover])
        obs = self._all()
        rewards = {a: float(self.aec.rewards[a]) for a in self.agents}
        terms = {a: bool(self.aec.terminations[a]) for a in self.agents}
        truncs = {a: bool(self.aec.truncations[a]) for a in self.agents}
        infos = {a: {} for a in self.agents}
        if all(terms.values()):
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self):
        """The state as text (`ansi`)."""
        return self.aec.render()

    def close(self):
        """Nothing to release."""

    def state(self):
        """The whole state as text (`tegula.Game.observation_string`)."""
        return self.aec.game.observation_string() if self.aec.game is not None else ""
