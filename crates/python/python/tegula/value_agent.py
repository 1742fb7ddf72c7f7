"""A learned agent: a linear value of the position, trained by self-play, guiding a one-turn
search (examples/train_value.py trains it; docs/AI.md "A learned agent").

    import tegula
    from tegula.value_agent import ValueAgent
    agent = ValueAgent.load("value-base.json")      # weights written by train_value.py
    g = tegula.Game.from_variant("base", players=2, seed=1)
    ...
    g.apply(agent.action(g))                        # or agent.play(g)

At each decision the agent looks at every way to finish its turn (each placement with each
follower choice, the turn's scoring included) and picks the one whose position it values most,
as the built-in `greedy` agent does with the score margin alone. The value is `w · φ`, with `φ`
read from the observation planes and features, each the seat's minus its leading rival's: the
score, the figures in supply, the figures on cities, roads, fields and cloisters, and those
times the share of tiles left (a figure's worth changes as the pile runs out). The weights are fitted by least squares to the final margins of self-play games.
"""

import json

import numpy as np

KINDS = ("city", "road", "field", "cloister")


def feature_names():
    """The names of `φ`'s entries, in order: each the seat's minus the best other seat's (so a
    two-seat game's value is antisymmetric), then the bias."""
    names = ["margin", "supply"]
    names += [f"on_{k}" for k in KINDS]
    names += [f"on_{k}_x_left" for k in KINDS]
    return names + ["bias"]


class Features:
    """`φ` of positions of one variant and seat count (the channel layout read once)."""

    def __init__(self, game):
        ch = {n: i for i, n in enumerate(game.plane_channels())}
        self.players = game.players
        self.kinds = [ch.get(f"feature:{k}") for k in KINDS]
        self.figures = [
            [i for n, i in ch.items() if n.startswith(f"figure:{p}:")] for p in range(self.players)
        ]
        self.total = sum(game.remaining_counts()) + game.turn
        self.buf = None

    def __call__(self, game, me):
        """`φ` of `game` for seat `me`."""
        p = self.players
        f = game.observation_features()
        scores = f[p + 8 : 2 * p + 8]
        types = len(self.figures[0])
        supply = f[2 * p + 8 : 2 * p + 8 + p * types].reshape(p, types).sum(axis=1)
        others = [q for q in range(p) if q != me]
        rival = max(others, key=lambda q: scores[q])
        self.buf = game.observation_planes(out=self.buf)
        planes = self.buf
        mine = planes[self.figures[me]].sum(axis=0)
        theirs = planes[self.figures[rival]].sum(axis=0)
        left = sum(game.remaining_counts()) / self.total
        on = [
            0.0 if k is None else float(((mine - theirs) * planes[k]).sum()) for k in self.kinds
        ]
        v = [scores[me] - scores[rival], supply[me] - supply[rival]] + on
        v += [c * left for c in on] + [1.0]
        return np.asarray(v, np.float64)


def turn_ends(game):
    """Every way the seat to act can finish its turn: (first action id, the game after)."""
    out = []
    for a in game.legal_actions():
        g = game.clone()
        g.apply(a)
        if g.is_terminal() or g.is_chance_node() or g.current_player() != game.current_player() \
                or g.phase not in ("follower", "move"):
            out.append((a, g))
            continue
        for b in g.legal_actions():
            h = g.clone()
            h.apply(b)
            out.append((a, h))
    return out


class ValueAgent:
    """Picks the turn whose end it values most (`w · φ`); ties go to the lowest id."""

    def __init__(self, weights, explore=0.0, seed=0):
        self.w = np.asarray(weights, np.float64)
        if self.w.shape != (len(feature_names()),):
            raise ValueError(f"{self.w.size} weights for {len(feature_names())} features")
        self.explore = float(explore)
        self.rng = np.random.default_rng(seed)
        self._phi = None

    @classmethod
    def greedy_like(cls, **kw):
        """Weights that value the score margin only: the built-in greedy agent's choice."""
        w = np.zeros(len(feature_names()))
        w[0] = 1.0
        return cls(w, **kw)

    @classmethod
    def load(cls, path, **kw):
        """The agent of a weights file written by `save` (a `ValueError` for another layout)."""
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        if data.get("features") != feature_names():
            raise ValueError(f"{path}: the weights are for other features")
        return cls(data["weights"], **kw)

    def save(self, path, **extra):
        """Write the weights (and `extra` facts, such as how they were trained) as JSON."""
        data = {"features": feature_names(), "weights": self.w.tolist(), **extra}
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)

    def phi(self, game, me):
        """`φ` of `game` for seat `me`."""
        if self._phi is None or self._phi.players != game.players:
            self._phi = Features(game)
        return self._phi(game, me)

    def action(self, game):
        """The first action id of the best turn for the seat to act."""
        me = game.current_player()
        ends = turn_ends(game)
        if self.explore and self.rng.random() < self.explore:
            return ends[int(self.rng.integers(len(ends)))][0]
        values = [float(self.w @ self.phi(g, me)) for _, g in ends]
        return ends[int(np.argmax(values))][0]

    def play(self, game):
        """Decide and apply; the id applied."""
        a = self.action(game)
        game.apply(a)
        return a
