"""tegula games as Gymnasium environments: one seat learns, built-in agents play the others.

    import gymnasium, tegula                      # importing tegula registers the ids
    env = gymnasium.make("tegula/base-v0", opponent="greedy")
    obs, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(mask=obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    envs = gymnasium.make_vec("tegula/base-v0", num_envs=256)   # backed by tegula.Batch

Every shipped variant is registered as `tegula/NAME-v0` (`tegula/abbey-mayor-v0`, a house rule
as `tegula/house-hand-3-v0`). Options (keyword arguments of `make`/`make_vec`): `players`
(default 2), `seat` (the learner's seat, default 0), `opponent` (an agent spec — `random`,
`greedy`, `mcts:N` — for every other seat, or a list with one per other seat), `radius` (the
board window), `returns` (`"score"`: the learner's final score; `"rank"`: its wins minus losses
against the other seats over `players - 1`, in [-1, 1]), `illegal` (`"end"`, the default: an
illegal action ends the episode as a loss — reward 0 with score returns, -1 with rank returns —
and `info["illegal"]` says why; `"raise"`: `tegula.IllegalActionError`) and `observation`.

Observations are dicts: `observation` (float32, `tegula.Game.observation_tensor` as the learner
sees it; with `observation="planes"` instead `planes`, `tegula.Game.observation_planes`, and
`features`, `tegula.Game.observation_features`) and `action_mask` (int8, 1 where an action id
is legal); the mask is in `info` too.
The reward comes at the end. The draws follow the game's seeded pile, so `reset(seed=…)` fixes
the whole episode given the learner's actions (the opponents are seeded from it as well).
"""

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import tegula
from tegula import _tegula, variants

_LOADED = {}
_ILLEGAL = ("end", "raise")
_OBSERVATIONS = ("flat", "planes")
_RETURNS = ("score", "rank")


def _variant(name):
    """Each variant compiled once per process."""
    path = variants.path(name)
    if path not in _LOADED:
        _LOADED[path] = tegula.Variant(path)
    return _LOADED[path]


def _opponents(opponent, players, seat):
    """The agent spec of each seat (the learner's is never asked)."""
    if isinstance(opponent, str):
        specs = [opponent] * (players - 1)
    else:
        specs = list(opponent)
        if len(specs) != players - 1:
            raise ValueError(f"opponent: {len(specs)} specs for {players - 1} other seats")
    for s in specs:
        tegula.Agent(s, 0)  # a ValueError names an unknown spec
    return specs[:seat] + ["random"] + specs[seat:]


def _check(players, seat, returns, illegal, variant, observation="flat"):
    lo, hi = variant.player_range
    if not lo <= players <= hi:
        raise ValueError(f"players={players}: the variant allows {lo} to {hi}")
    if not 0 <= seat < players:
        raise ValueError(f"seat={seat}: seats are 0..{players - 1}")
    if returns not in _RETURNS:
        raise ValueError(f"returns={returns!r}: one of {', '.join(_RETURNS)}")
    if illegal not in _ILLEGAL:
        raise ValueError(f"illegal={illegal!r}: one of {', '.join(_ILLEGAL)}")
    if observation not in _OBSERVATIONS:
        raise ValueError(f"observation={observation!r}: one of {', '.join(_OBSERVATIONS)}")


def _spaces(variant, players, radius, observation):
    """The observation and action spaces of one game."""
    probe = variant.new_game(players, 0, radius)
    (c, h, w), n = probe.observation_shape()
    actions = probe.num_distinct_actions
    # Finite bounds: an entry is a flag, a count of pieces, a score (within the variant's
    # proven bounds, below 0 only under a buy-back dearer than the points) or the window centre
    # (at most as far out as the tiles reach).
    tiles = sum(probe.remaining_counts()) + probe.turn
    top = float(max(variant.max_score(players), -variant.min_score(players), tiles, 1000))
    mask = gymnasium.spaces.Box(0, 1, (actions,), np.int8)
    if observation == "planes":
        shape = probe.observation_planes().shape
        parts = {
            "planes": gymnasium.spaces.Box(0, 255, shape, np.float32),
            "features": gymnasium.spaces.Box(-top, top, (n,), np.float32),
        }
    else:
        parts = {"observation": gymnasium.spaces.Box(-top, top, (c * h * w + n,), np.float32)}
    obs = gymnasium.spaces.Dict({**parts, "action_mask": mask})
    return obs, gymnasium.spaces.Discrete(actions)


def _rank(scores, seat):
    """Wins minus losses of `seat` against the other seats, over their number."""
    s = scores[seat]
    beats = sum((s > t) - (s < t) for t in scores)
    return beats / max(len(scores) - 1, 1)


class TegulaEnv(gymnasium.Env):
    """One game: the learner plays `seat`, built-in agents the other seats (module docs)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        variant="base",
        players=2,
        opponent="greedy",
        seat=0,
        radius=12,
        returns="score",
        illegal="end",
        observation="flat",
        render_mode=None,
    ):
        self.variant = _variant(variant)
        self.players, self.seat, self.radius = int(players), int(seat), int(radius)
        _check(self.players, self.seat, returns, illegal, self.variant, observation)
        self.observation = observation
        self.specs = _opponents(opponent, self.players, self.seat)
        self.returns, self.illegal = returns, illegal
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r}: None or 'ansi'")
        self.render_mode = render_mode
        self.observation_space, self.action_space = _spaces(
            self.variant, self.players, self.radius, observation
        )
        self.game = None
        self._agents = []
        self._over = True

    def _obs(self):
        g = self.game
        mask = np.zeros(self.action_space.n, np.int8)
        if not self._over and g.current_player() == self.seat:
            mask[g.legal_actions_mask()] = 1
        if self.observation == "planes":
            return {
                "planes": g.observation_planes(player=self.seat),
                "features": g.observation_features(player=self.seat),
                "action_mask": mask,
            }
        return {"observation": g.observation_tensor(player=self.seat), "action_mask": mask}

    def _advance(self):
        """Draw and let the other seats play until the learner acts or the game ends."""
        g = self.game
        while not g.is_terminal():
            if g.is_chance_node():
                g.apply_default_draw()
            elif g.current_player() == self.seat:
                return
            else:
                self._agents[g.current_player()].play(g)
        self._over = True

    def _reward(self):
        if not self.game.is_terminal():
            return 0.0
        scores = self.game.scores()
        return float(_rank(scores, self.seat) if self.returns == "rank" else scores[self.seat])

    def reset(self, seed=None, options=None):
        """A new game, its pile and the opponents seeded from `seed` (the env's generator)."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63))
        self.game = self.variant.new_game(self.players, game_seed, self.radius)
        self._agents = [tegula.Agent(s, game_seed + i) for i, s in enumerate(self.specs)]
        self._over = False
        self._advance()
        obs = self._obs()
        return obs, {"action_mask": obs["action_mask"]}

    def step(self, action):
        """The learner's action id, then the draws and the other seats' moves."""
        if self.game is None or self._over:
            raise RuntimeError("the episode is over: call reset()")
        info = {}
        if self.illegal == "end" and not self.game.is_legal(action):
            self._over = True
            info["illegal"] = f"action {action} is not legal here ({self.game.phase})"
            obs = self._obs()
            info["action_mask"] = obs["action_mask"]
            return obs, -1.0 if self.returns == "rank" else 0.0, True, False, info
        self.game.apply(action)
        self._advance()
        obs = self._obs()
        info["action_mask"] = obs["action_mask"]
        return obs, self._reward(), self._over, False, info

    def render(self):
        """The state as text: phase, scores and the ASCII board (`str(tegula.Game)`)."""
        return str(self.game) if self.game is not None else ""


class TegulaVectorEnv(VectorEnv):
    """`num_envs` games stepped together in a `tegula.Batch` (the GIL released, `threads`
    threads), the learner at `seat` of each, built-in agents at the others. Finished games
    start again on the next step (Gymnasium's next-step autoreset): the actions given for them
    then are ignored, and each starts the next game of the batch's seeded run
    (`tegula.Batch.reset(games=…)`), so a seed fixes every episode."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs=1,
        variant="base",
        players=2,
        opponent="greedy",
        seat=0,
        radius=12,
        returns="score",
        illegal="end",
        observation="flat",
        threads=1,
        render_mode=None,
    ):
        self.variant = _variant(variant)
        self.num_envs = int(num_envs)
        self.players, self.seat, self.radius = int(players), int(seat), int(radius)
        _check(self.players, self.seat, returns, illegal, self.variant, observation)
        self.observation = observation
        self.specs = _opponents(opponent, self.players, self.seat)
        self.returns, self.illegal, self.threads = returns, illegal, int(threads)
        self.render_mode = render_mode
        self.single_observation_space, self.single_action_space = _spaces(
            self.variant, self.players, self.radius, observation
        )
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.batch = None
        self._mask = None
        self._autoreset = np.zeros(self.num_envs, bool)

    def _opponents_move(self):
        """Let the built-in agents move (and draw) until every game waits for the learner or
        is over; the learner's rewards of the games that ended meanwhile."""
        rewards = np.zeros(self.num_envs, np.float32)
        while True:
            cur = self.batch.current_players()
            pending = (cur >= 0) & (cur != self.seat)
            if not pending.any():
                return rewards
            acts = np.where(pending, tegula.Batch.AGENT, tegula.Batch.WAIT)
            _, _, r, _ = self.batch.step(acts, observe=False, masks=False)
            rewards += r[:, self.seat]

    def _observe(self):
        planes = self.observation == "planes"
        obs, mask, _, done = self.batch.observe(observe=not planes)
        self._mask = mask
        m = mask.astype(np.int8)
        if planes:
            p, f = self.batch.planes()
            return {"planes": p, "features": f, "action_mask": m}, done
        return {"observation": obs, "action_mask": m}, done

    def reset(self, seed=None, options=None):
        """Every game afresh: the batch seeded with `seed` (fresh entropy when None)."""
        super().reset(seed=seed)
        batch_seed = int(self.np_random.integers(2**63))
        self.batch = tegula.Batch(
            self.variant,
            self.num_envs,
            players=self.players,
            seed=batch_seed,
            agents=self.specs,
            radius=self.radius,
            threads=self.threads,
            returns=self.returns,
        )
        self._autoreset[:] = False
        self._opponents_move()
        obs, _ = self._observe()
        return obs, {"action_mask": obs["action_mask"]}

    def step(self, actions):
        """One learner action per game (ignored for a game being reset), then the draws and
        the other seats' moves until each game waits for the learner again or ends."""
        if self.batch is None:
            raise RuntimeError("call reset() first")
        acts = np.array(actions, dtype=np.int64).reshape(self.num_envs)
        width = self._mask.shape[1]
        in_range = (acts >= 0) & (acts < width)
        legal = in_range & self._mask[np.arange(self.num_envs), np.where(in_range, acts, 0)]
        bad = ~self._autoreset & ~legal
        if bad.any() and self.illegal == "raise":
            i = int(np.flatnonzero(bad)[0])
            err = tegula.IllegalActionError(f"actions[{i}] = {acts[i]}: not legal in game {i}")
            err.kind, err.rule, err.action = "illegal-action", None, int(acts[i])
            raise err
        restart = np.flatnonzero(self._autoreset)
        if restart.size:
            self.batch.reset(observe=False, masks=False, games=restart)
        acts[self._autoreset | bad] = tegula.Batch.WAIT
        _, _, r, _ = self.batch.step(acts, observe=False, masks=False)
        rewards = r[:, self.seat] + self._opponents_move()
        obs, done = self._observe()
        terminated = done.copy()
        info = {"action_mask": obs["action_mask"]}
        if bad.any():
            terminated |= bad
            rewards[bad] = -1.0 if self.returns == "rank" else 0.0
            info["illegal"] = bad
        terminated[self._autoreset] = False
        rewards[self._autoreset] = 0.0
        self._autoreset = terminated.copy()
        return obs, rewards, terminated, np.zeros(self.num_envs, bool), info


def _shipped_names():
    """The shipped variants' names from the data the extension carries (no file written)."""
    names = []
    for rel, _ in _tegula.shipped_files():
        if rel.startswith("variants/") and rel.endswith(".toml"):
            names.append(rel[len("variants/") : -len(".toml")])
    return sorted(names)


def env_id(name):
    """The Gymnasium id of the shipped variant `name`: `tegula/NAME-v0` (`/` in a house
    rule's name becomes `-`)."""
    return f"tegula/{name.replace('/', '-')}-v0"


def register_all():
    """Register every shipped variant (idempotent)."""
    for name in _shipped_names():
        eid = env_id(name)
        if eid not in gymnasium.registry:
            gymnasium.register(
                id=eid,
                entry_point="tegula.gymnasium:TegulaEnv",
                vector_entry_point="tegula.gymnasium:TegulaVectorEnv",
                kwargs={"variant": name},
            )


register_all()
