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
come at the end: each seat's final score. `variant` is a variant file or a shipped variant's
name (`tegula.variants.path`).
"""

import gymnasium
import numpy as np
from pettingzoo import AECEnv

import tegula
from tegula import variants

_LOADED = {}


def _variant(name):
    """Each variant compiled once per process."""
    path = variants.path(name)
    if path not in _LOADED:
        _LOADED[path] = tegula.Variant(path)
    return _LOADED[path]


def env(variant="base", players=2, radius=12, render_mode=None):
    """A tegula game as a PettingZoo AEC environment."""
    return TegulaEnv(variant, players, radius, render_mode)


class TegulaEnv(AECEnv):
    """One game of a variant for `players` seats (PettingZoo's AEC API)."""

    metadata = {"name": "tegula_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, variant="base", players=2, radius=12, render_mode=None):
        super().__init__()
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
            scores = self.game.returns()
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(scores[i])
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
        return self.game.observation_string() if self.game is not None else ""

    def close(self):
        """Nothing to release."""
