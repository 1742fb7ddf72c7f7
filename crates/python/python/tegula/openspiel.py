"""tegula games as OpenSpiel games (`pyspiel.register_game`).

    import pyspiel, tegula.openspiel
    game = pyspiel.load_game("tegula", {"variant": "variants/base.toml", "players": 2})

Game type: sequential, explicit stochastic chance (each draw is a chance node whose outcomes
are the remaining tile types weighted by their counts), general-sum, terminal rewards (the final
scores). The information type is the variant's (`tegula.Variant.perfect_information`): perfect
when no seat holds a tile the others cannot see (the base game, Abbey & Mayor; the draw is a
chance node, as backgammon's dice), imperfect with a hand of tiles or kept tiles (W-12). Actions
are the ids of `tegula.Game`, laid out on the observation's board window (docs/AI.md, "Python
package"); chance outcomes are tile indices.

Parameters: `variant` (path of a variant file or a shipped variant's name), `players`,
`observation` (`"planes"`, the default: a 3-D tensor `(C, 2r+1, 2r+1)`, the observation planes
of `tegula.Game.observation_planes` then the global features laid row-major over the last
planes; `"flat"`: the flat vector of `tegula.Game.observation_tensor`), `returns` (`"score"` or
`"rank"`), `seed` (the seed of the hidden pile
order behind `tegula.Game.apply_default_draw`; OpenSpiel's own chance sampling does not read
it), `radius` (half-width of the observation's board window, at most the variant's board reach
`tegula.Game.max_radius`: a larger one raises `ValueError` when the observer is made).
"""

import zlib

import numpy as np
import pyspiel

import tegula

SHORT_NAME = "tegula"

_DEFAULT_PARAMS = {
    "variant": "base",
    "players": 2,
    "seed": 0,
    "radius": 12,
    "returns": "score",
    "observation": "planes",
}

# `observation`: "planes" (a C x S x S tensor: the observation planes, then the global features
# laid row-major over as many more planes as they need; `observation_tensor_shape()` is 3-D, for
# convolutional models) or "flat" (the flat vector of `tegula.Game.observation_tensor`).
_OBSERVATIONS = ("planes", "flat")

# `returns`: "score" (each seat's final score) or "rank" (each seat's wins minus losses against
# the other seats, over players - 1: in [-1, 1], zero-sum; +1/0/-1 for two seats).
_RETURNS = ("score", "rank")


def _game_type(perfect=True, players=(2, 6), zero_sum=False):
    """The GameType of a variant: its information type and player range; zero-sum with rank
    returns."""
    info = pyspiel.GameType.Information
    utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="tegula (Carcassonne rules as data)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.PERFECT_INFORMATION if perfect else info.IMPERFECT_INFORMATION,
        utility=utility.ZERO_SUM if zero_sum else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        # Only where hidden tiles make it differ from the observation (docs/AI.md).
        provides_information_state_tensor=not perfect,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULT_PARAMS,
    )


# The registered type (that of the default variant); each game reports its own variant's.
_GAME_TYPE = _game_type()

_VARIANTS = {}


def _variant(name):
    """Load each variant file once per process (a path, or a shipped variant's name)."""
    path = tegula.variants.path(name)
    if path not in _VARIANTS:
        _VARIANTS[path] = tegula.Variant(path)
    return _VARIANTS[path]


class TegulaGame(pyspiel.Game):
    """A tegula variant as an OpenSpiel game."""

    def __init__(self, params=None):
        p = dict(_DEFAULT_PARAMS)
        p.update(params or {})
        self.variant = _variant(p["variant"])
        self.players = int(p["players"])
        self.seed = int(p["seed"])
        self.radius = int(p["radius"])
        self.rank = p["returns"] == "rank"
        if p["returns"] not in _RETURNS:
            raise ValueError(f"returns {p['returns']!r}: one of {', '.join(_RETURNS)}")
        if p["observation"] not in _OBSERVATIONS:
            raise ValueError(
                f"observation {p['observation']!r}: one of {', '.join(_OBSERVATIONS)}"
            )
        self.planes = p["observation"] == "planes"
        lo, hi = self.variant.player_range
        if not lo <= self.players <= hi:
            raise ValueError(f"{self.players} players; the variant allows {lo} to {hi}")
        info = pyspiel.GameInfo(
            num_distinct_actions=self.variant.num_distinct_actions(self.radius),
            max_chance_outcomes=len(self.variant.tile_ids),
            num_players=self.players,
            # Scores: proven bounds from the variant's rules (`tegula.Variant.min_score`, 0
            # unless a buy-back may take a seat below 0, and `tegula.Variant.max_score`,
            # docs/AI.md "Utility bounds"); `returns="rank"` has exact bounds.
            min_utility=-1.0 if self.rank else float(self.variant.min_score(self.players)),
            max_utility=1.0 if self.rank else float(self.variant.max_score(self.players)),
            utility_sum=0.0 if self.rank else None,
            max_game_length=self.variant.max_game_length(self.players),
        )
        perfect, seats = self.variant.perfect_information, self.variant.player_range
        kind = _game_type(perfect, seats, zero_sum=self.rank)
        super().__init__(kind, info, p)
        self.params = p

    def new_initial_state(self):
        """The start: the start tile placed, the first draw to come (a chance node)."""
        return TegulaState(self, self.variant.new_game(self.players, self.seed, self.radius))

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Observation (tensor and string) or, with perfect recall, the information state."""
        return TegulaObserver(self, iig_obs_type, params)


class _GameRef:
    """The `tegula.Game` behind a state, pickled by reference to its variant: the OpenSpiel
    game's parameters (the variant's name or path) and the engine's snapshot, compressed. A
    `tegula.Game` pickles with its whole compiled variant (about 97 KB, so that it unpickles
    anywhere); a state's serialisation (`pyspiel.serialize_game_and_state`, `state.serialize()`,
    pickle) carries the game's parameters anyway, so it keeps only the reference: about 2 KB
    for a mid-game base state. Unpickling loads the variant by that name or path (once per
    process), so a relative path must resolve where it is unpickled."""

    __slots__ = ("game", "params")

    def __init__(self, game, params):
        self.game = game
        self.params = params

    def __reduce__(self):
        snapshot = zlib.compress(self.game.to_json().encode(), 9)
        return (_restore_ref, (self.params, snapshot))

    def __copy__(self):
        return _GameRef(self.game.clone(), self.params)

    def __deepcopy__(self, memo):
        return _GameRef(self.game.clone(), self.params)


def _restore_ref(params, snapshot):
    """Unpickling a `_GameRef`: the variant by its name or path, the game from its snapshot."""
    variant = _variant(params["variant"])
    text = zlib.decompress(snapshot).decode()
    return _GameRef(tegula.Game.from_json(text, variant, int(params["radius"])), params)


class TegulaState(pyspiel.State):
    """One game state, backed by a `tegula.Game` (`tgame`)."""

    def __init__(self, game, tgame):
        super().__init__(game)
        self._ref = _GameRef(tgame, dict(game.params))

    @property
    def tgame(self):
        """The `tegula.Game` of this state."""
        return self._ref.game

    def current_player(self):
        """Seat to act, `PlayerId.CHANCE` (-1) or `PlayerId.TERMINAL` (-4)."""
        return self.tgame.current_player()

    def _legal_actions(self, player):
        """Legal action ids, ascending."""
        return self.tgame.legal_actions()

    def legal_actions_mask(self, player=None):
        """The legal actions as a NumPy bool array (`num_distinct_actions` long; at a chance
        node, one entry per tile type)."""
        return self.tgame.legal_actions_mask()

    def chance_outcomes(self):
        """(tile index, probability) of the draw."""
        return self.tgame.chance_outcomes()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one: the tiles hidden from it (other seats'
        hands) drawn again from those it has not seen (`tegula.Game.resample_from_infostate`,
        seeded from `probability_sampler`). In a variant of perfect information, a copy."""
        seed = int(probability_sampler() * 2**53)
        resampled = self.tgame.resample_from_infostate(int(player_id), seed)
        return TegulaState(self.get_game(), resampled)

    def _apply_action(self, action):
        self.tgame.apply(int(action))

    def _action_to_string(self, player, action):
        return self.tgame.action_to_string(int(action), int(player))

    def is_terminal(self):
        return self.tgame.is_terminal()

    def returns(self):
        """Final scores at the end (with `returns="rank"`, wins minus losses against the other
        seats over players - 1), zeros before."""
        scores = self.tgame.returns()
        if not self.get_game().rank:
            return scores
        n = len(scores)
        beats = [sum((s > t) - (s < t) for t in scores) for s in scores]
        return [b / (n - 1) for b in beats]

    def __str__(self):
        return str(self.tgame)


class TegulaObserver:
    """OpenSpiel's PyObserver. In a variant of perfect information every seat sees the same
    board, scores, supplies and undrawn tiles; in one with hidden tiles a seat does not see
    another's tile to place or kept tiles (`tegula.Game.observation_tensor(player=…)`). With
    perfect recall the string is the information state: every decision and the draws the seat
    sees (`tegula.Game.information_state_string`); the tensor is the information-state tensor
    in a variant with hidden tiles (`tegula.Game.information_state_tensor`) and empty in one
    of perfect information, whose game type provides none."""

    def __init__(self, game, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.radius = game.radius
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.info_state = self.perfect_recall and not game.variant.perfect_information
        probe = game.variant.new_game(game.players, 0, self.radius)
        (c, h, w), n = probe.observation_shape(self.radius)
        if self.perfect_recall and not self.info_state:
            self.tensor = np.zeros(0, np.float32)
            self.dict = {}
            return
        self.planes = game.planes and not self.info_state
        if self.planes:
            self._planes_shape(game, probe, n)
            return
        held = game.players if self.info_state else 0
        self.tensor = np.zeros(c * h * w + n + held, np.float32)
        self.dict = {
            "board": self.tensor[: c * h * w].reshape(c, h, w),
            "features": self.tensor[c * h * w : c * h * w + n],
        }
        if held:
            self.dict["hidden_held"] = self.tensor[c * h * w + n :]

    def _planes_shape(self, game, probe, n):
        """The 3-D tensor: the planes, then the features row-major over whole planes."""
        c, h, w = probe.observation_planes().shape
        extra = -(-n // (h * w))
        self.tensor = np.zeros((c + extra, h, w), np.float32)
        # OpenSpiel writes a state's tensor from `dict`'s entries in order: one entry, the
        # whole 3-D tensor; the two parts are views of it.
        self.dict = {"observation": self.tensor}
        self.planes_part = self.tensor[:c]
        self.features_part = self.tensor[c:].reshape(-1)[:n]

    def set_from(self, state, player):
        """Fill `tensor` (and so `dict`) from `state` as seat `player` sees it: its observation,
        or with perfect recall its information state (nothing in a variant of perfect
        information)."""
        if self.planes:
            g = state.tgame
            g.observation_planes(int(player), out=self.planes_part)
            self.features_part[:] = g.observation_features(int(player))
        elif self.info_state:
            self.tensor[:] = state.tgame.information_state_tensor(int(player), self.radius)
        elif not self.perfect_recall:
            self.tensor[:] = state.tgame.observation_tensor(self.radius, int(player))

    def string_from(self, state, player):
        """The state as compact text (board, figures, scores, supplies, phase, tiles left) as
        `player` sees it; with perfect recall, its information state."""
        if self.perfect_recall:
            return state.tgame.information_state_string(int(player))
        return state.tgame.observation_string(int(player))


pyspiel.register_game(_GAME_TYPE, TegulaGame)
