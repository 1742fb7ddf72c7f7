"""A learned agent in PyTorch (CPU): a small convolutional network on the observation planes with
a policy head and a value head, guiding a one-turn search (examples/train_torch.py trains it;
docs/AI.md "A learned agent in PyTorch").

    import tegula
    from tegula.torch_agent import TorchAgent
    agent = TorchAgent.load("torch-base.pt")         # weights written by train_torch.py
    g = tegula.Game.from_variant("base", players=2, seed=1)
    ...
    g.apply(agent.action(g))                          # or agent.play(g); agent.batch_actions(batch)

The search: at each decision the agent looks at every way to finish its turn (each placement
with each follower choice, the turn's scoring included, as `greedy` does) and picks the end whose
value is highest. The value of an end for the seat that moved is its score margin now (its score
minus the best other seat's) plus what the network expects that margin to gain or lose by the
end of the game, so an untrained network (its last layer zero) plays as `greedy`. A finished
game's end is valued by its final margin alone. The policy head gives a prior over the action
ids, trained to imitate the search's choices: it breaks ties between equally valued ends, can
prune the search to the `top_k` most likely first actions, and is an agent on its own
(`mode="policy"`: the most likely legal id, no search).

Requires PyTorch (`pip install torch`); importing this module without it raises ImportError.
"""

import numpy as np
import torch
from torch import nn


#: How a margin in points maps to the network's output (its value head predicts gain / SCALE).
SCALE = 20.0
#: The side of the square cut from the observation window's centre for the value head.
CROP = 17
FORMAT = "tegula-torch-agent-2"


class Encoder:
    """The network's inputs for one variant and seat count, as seen from one seat: the planes
    with the figure channels turned so that the viewer's come first, and a global vector: the
    viewer's score, its best rival's and the margin, figures in supply, the share of tiles left,
    each side's figures on tiles with each feature kind (the planes' products, summed), and
    those times the share of tiles left (what a figure standing on a feature will still earn
    changes as the pile runs out: the linear agent's features, `tegula.value_agent`)."""

    KINDS = ("city", "road", "field", "cloister")

    def __init__(self, game):
        names = game.plane_channels()
        self.players = game.players
        self.channels = len(names)
        fig = [[i for i, n in enumerate(names) if n.startswith(f"figure:{p}:")]
               for p in range(self.players)]
        rest = [i for i, n in enumerate(names) if not n.startswith("figure:")]
        self.perm = []
        for me in range(self.players):
            order = [fig[(me + k) % self.players] for k in range(self.players)]
            self.perm.append(np.asarray(rest + [i for f in order for i in f]))
        self.fig = fig
        self.kinds = [names.index(f"feature:{k}") for k in self.KINDS if f"feature:{k}" in names]
        self.types = len(fig[0])
        self.globals_size = 6 + 4 * len(self.kinds)
        self.buf = None

    def globals(self, game, me, planes=None):
        """The global vector of `game` for seat `me` (`planes`: its planes, if just read)."""
        p = self.players
        f = game.observation_features()
        scores = f[p + 8 : 2 * p + 8]
        supply = f[2 * p + 8 : 2 * p + 8 + p * self.types].reshape(p, self.types).sum(axis=1)
        rival = max((q for q in range(p) if q != me), key=lambda q: scores[q])
        remaining = sum(game.remaining_counts())
        left = remaining / max(1, remaining + game.turn)
        x = game.observation_planes(out=self.buf) if planes is None else planes
        kinds = x[self.kinds]
        on = [(kinds * x[self.fig[s]].sum(axis=0)).sum(axis=(1, 2)) / 7 for s in (me, rival)]
        head = [scores[me] / 50, scores[rival] / 50, (scores[me] - scores[rival]) / SCALE,
                supply[me] / 7, supply[rival] / 7, left]
        parts = [np.asarray(head, np.float32), on[0], on[1], on[0] * left, on[1] * left]
        return np.concatenate(parts).astype(np.float32)

    def planes(self, game, me, crop=None, out=None):
        """The planes of `game` for seat `me` (cut to `crop` × `crop` around the centre); the
        whole window stays in `self.buf` until the next call."""
        self.buf = game.observation_planes(out=self.buf)
        x = self.buf
        if crop is not None:
            lo = (x.shape[1] - crop) // 2
            x = x[:, lo:lo + crop, lo:lo + crop]
        if out is None:
            return np.take(x, self.perm[me], axis=0)
        out[...] = np.take(x, self.perm[me], axis=0)
        return out


def turn_ends(game):
    """Every way the seat to act can finish its turn: (first id, second id or None, the game
    after), the second being the follower (or move) decision that follows a placement."""
    out = []
    me = game.current_player()
    for a in game.legal_actions():
        g = game.clone()
        g.apply(a)
        if g.is_terminal() or g.is_chance_node() or g.current_player() != me \
                or g.phase not in ("follower", "move"):
            out.append((a, None, g))
            continue
        for b in g.legal_actions():
            h = g.clone()
            h.apply(b)
            out.append((a, b, h))
    return out


def margin(game, me):
    """The score of seat `me` minus the best other seat's."""
    s = game.scores()
    return s[me] - max(s[q] for q in range(len(s)) if q != me)


class Net(nn.Module):
    """A fully convolutional trunk; the value head is a linear function of the global vector
    (`linear`, fitted by least squares: `fit_linear`) plus a small network of the pooled trunk
    (mean and max) and the global vector, which learns what the linear part misses, times
    `gate` (the share of it that helps on games it was not trained on); the policy
    head scores every placement id by cell and rotation (one 1×1 convolution to `4 × slots`
    channels, laid out as the ids are) and the other ids from the pooled trunk."""

    def __init__(self, channels, globals_size, actions, side, slots=1, width=16, depth=3):
        super().__init__()
        self.config = dict(channels=channels, globals_size=globals_size, actions=actions,
                           side=side, slots=slots, width=width, depth=depth)
        layers, c = [], channels
        for _ in range(depth):
            layers += [nn.Conv2d(c, width, 3, padding=1), nn.ReLU()]
            c = width
        self.trunk = nn.Sequential(*layers)
        self.place_base = actions - 4 * slots * side * side
        if self.place_base < 0:
            raise ValueError(f"{actions} action ids cannot hold {slots} slots of {side}² cells")
        self.value = nn.Sequential(nn.Linear(2 * width + globals_size, 64), nn.ReLU(),
                                   nn.Linear(64, 1))
        self.linear = nn.Linear(globals_size, 1).requires_grad_(False)  # fit_linear sets it
        # how much of the network part the head adds (0–1), fitted on games not trained on
        self.register_buffer("gate", torch.ones(()))
        for layer in (self.value[2], self.linear):
            nn.init.zeros_(layer.weight)
            nn.init.zeros_(layer.bias)
        self.place = nn.Conv2d(width, 4 * slots, 1)
        self.other = nn.Linear(2 * width + globals_size, max(1, self.place_base))

    def _pooled(self, h, g):
        return torch.cat([h.mean(dim=(2, 3)), h.amax(dim=(2, 3)), g], dim=1)

    def forward_value(self, x, g, gated=True):
        """Expected margin gain / SCALE of each position (`x`: N × C × S × S, any S): the
        linear part plus the network part times `gate` (`gated=False`: the whole network part,
        as training fits it)."""
        rest = self.value(self._pooled(self.trunk(x), g))
        return (self.linear(g) + (self.gate * rest if gated else rest)).squeeze(1)

    def network_parameters(self):
        """The parameters trained by gradient descent: all but the linear part's."""
        return [p for n, p in self.named_parameters() if not n.startswith("linear.")]

    @torch.no_grad()
    def fit_linear(self, g, y, ridge=1.0):
        """Set the linear part to the ridge regression of the targets `y` (N) on the global
        vectors `g` (N × globals_size; NumPy), the bias not penalised: closed form, so it
        needs no learning rate and holds at once what the features say."""
        a = np.hstack([np.asarray(g, np.float64), np.ones((len(g), 1))])
        penalty = np.full(a.shape[1], float(ridge))
        penalty[-1] = 0.0
        w = np.linalg.solve(a.T @ a + np.diag(penalty), a.T @ np.asarray(y, np.float64))
        self.linear.weight.copy_(torch.from_numpy(w[None, :-1]))
        self.linear.bias.fill_(float(w[-1]))

    def forward_policy(self, x, g):
        """Logits over every action id (`x`: N × C × side × side, the whole window)."""
        h = self.trunk(x)
        n, side = x.shape[0], self.config["side"]
        slots = self.config["slots"]
        # ids: place_base + (slot * side² + cell) * 4 + rotation
        place = self.place(h).view(n, slots, 4, side * side).permute(0, 1, 3, 2).reshape(n, -1)
        other = self.other(self._pooled(h, g))[:, : self.place_base]
        return torch.cat([other, place], dim=1)


def new_net(game, **kw):
    """A network shaped for `game`'s variant and seat count (its value head zero: greedy)."""
    enc = Encoder(game)
    side = game.observation_planes().shape[1]
    return Net(enc.channels, enc.globals_size, game.num_distinct_actions, side, **kw)


class TorchAgent:
    """The network's agent. `mode="search"` (default): the one-turn search above; `top_k`
    limits it to the first actions the policy ranks highest. `mode="policy"`: the policy alone.
    `explore`: the share of decisions taken at random (self-play)."""

    def __init__(self, net, mode="search", top_k=None, explore=0.0, seed=0):
        if mode not in ("search", "policy"):
            raise ValueError(f"mode {mode!r}: expected 'search' or 'policy'")
        self.net = net.eval()
        self.mode, self.top_k, self.explore = mode, top_k, float(explore)
        self.rng = np.random.default_rng(seed)
        self.enc = None
        self.record = None  # a list to append (kind, data) training rows to, in self-play
        self.plan = None  # (the game after a turn's first id, its chosen second id)

    @classmethod
    def load(cls, path, **kw):
        """The agent of a file written by `save` (ValueError if it is not one)."""
        data = torch.load(path, map_location="cpu", weights_only=True)
        found = data.get("format") if isinstance(data, dict) else None
        if isinstance(found, str) and found.startswith("tegula-torch-agent-") and found != FORMAT:
            raise ValueError(f"{path}: a tegula torch agent file of another version ({found}; "
                             f"this one reads {FORMAT}): train it again")
        if found != FORMAT:
            raise ValueError(f"{path}: not a tegula torch agent file ({FORMAT})")
        net = Net(**data["config"])
        net.load_state_dict(data["state"])
        return cls(net, **kw)

    def save(self, path, **extra):
        """Write the network (its shape and weights) and `extra` facts to `path`."""
        torch.save({"format": FORMAT, "config": self.net.config,
                    "state": self.net.state_dict(), "extra": extra}, path)

    def _encoder(self, game):
        if self.enc is None or self.enc.players != game.players:
            self.enc = Encoder(game)
            if self.enc.channels != self.net.config["channels"]:
                raise ValueError(f"the network reads {self.net.config['channels']} planes, "
                                 f"this variant has {self.enc.channels}")
        return self.enc

    @torch.inference_mode()
    def logits(self, game):
        """The policy's logits over every id, illegal ids at -inf (NumPy)."""
        enc, me = self._encoder(game), game.current_player()
        x = torch.from_numpy(enc.planes(game, me))[None]
        g = torch.from_numpy(enc.globals(game, me))[None]
        out = self.net.forward_policy(x, g)[0].numpy().astype(np.float64)
        out[~game.legal_actions_mask()] = -np.inf
        return out

    @torch.inference_mode()
    def values(self, games, me):
        """The value (expected final margin) of each game for seat `me`."""
        enc = self._encoder(games[0])
        out = np.empty(len(games))
        live = [i for i, g in enumerate(games) if not g.is_terminal()]
        for i, g in enumerate(games):
            if g.is_terminal():
                out[i] = margin(g, me)
        if live:
            x = np.empty((len(live), enc.channels, CROP, CROP), np.float32)
            gl = np.empty((len(live), enc.globals_size), np.float32)
            for k, i in enumerate(live):
                enc.planes(games[i], me, CROP, out=x[k])
                gl[k] = enc.globals(games[i], me, enc.buf)
            gain = self.net.forward_value(torch.from_numpy(x), torch.from_numpy(gl)).numpy()
            for k, i in enumerate(live):
                out[i] = margin(games[i], me) + SCALE * float(gain[k])
        return out

    def action(self, game):
        """The id the agent chooses for the seat to act."""
        if self.mode == "policy":
            return int(np.argmax(self.logits(game)))
        planned, self.plan = self.plan, None
        if planned is not None and planned[0] == game and game.is_legal(planned[1]):
            return planned[1]  # the second half of the turn chosen at its first decision
        me = game.current_player()
        prior = self.logits(game)
        ends = turn_ends(game)
        if self.top_k:
            keep = set(sorted({a for a, _, _ in ends}, key=lambda a: -prior[a])[: self.top_k])
            ends = [e for e in ends if e[0] in keep]
        if self.explore and self.rng.random() < self.explore:
            pick = int(self.rng.integers(len(ends)))
            values = None
        else:
            values = self.values([g for _, _, g in ends], me)
            # ties (common: most ends score nothing yet) go to the policy's favourite
            pick = int(np.argmax(values + 1e-6 * np.tanh(prior[[a for a, _, _ in ends]] / 10)))
        if self.record is not None:
            self._remember(game, me, ends, values, pick)
        a, b, _ = ends[pick]
        if b is not None:
            after = game.clone()
            after.apply(a)
            self.plan = (after, b)
        return a

    def _remember(self, game, me, ends, values, pick):
        """Training rows: the decision's inputs with the search's choice as the policy target;
        the chosen end's inputs for the value target (filled in when the game ends)."""
        enc = self._encoder(game)
        if values is not None:
            best = {}
            for (a, _, _), v in zip(ends, values):
                best[a] = max(best.get(a, -np.inf), v)
            ids = np.fromiter(best, np.int64)
            q = np.fromiter(best.values(), np.float64)
            p = np.exp((q - q.max()) / 2.0)  # a softmax over the first actions, 2 points wide
            self.record.append(("policy", enc.planes(game, me), enc.globals(game, me),
                                ids, (p / p.sum()).astype(np.float32)))
        end = ends[pick][2]
        if not end.is_terminal():
            self.record.append(("value", me, enc.planes(end, me, CROP), enc.globals(end, me),
                                margin(end, me)))

    def play(self, game):
        """Decide and apply; the id applied."""
        a = self.action(game)
        game.apply(a)
        return a

    def batch_actions(self, batch, seats=None):
        """One id per game of a `tegula.Batch`: this agent's choice where the seat to act is in
        `seats` (every seat by default), `Batch.AGENT` (the game's built-in agent) elsewhere and
        in finished games; pass the result to `batch.step`."""
        players = batch.current_players()
        out = np.full(len(players), batch.AGENT, np.int64)
        for i, p in enumerate(players):
            if p >= 0 and (seats is None or p in seats):
                out[i] = self.action(batch.game(i))
        return out
