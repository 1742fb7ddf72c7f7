"""OpenSpiel as the outside judge: its own consistency checks on tegula games."""

import shutil

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed")

import tegula.openspiel  # noqa: E402,F401  (registers the game)
from open_spiel.python.algorithms import ismcts, mcts, minimax  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import tegula  # noqa: E402
from conftest import ROOT  # noqa: E402


def load(variant="variants/base.toml", players=2, **params):
    params.update({"variant": str(ROOT / variant), "players": players})
    return pyspiel.load_game("tegula", params)


INFO = pyspiel.GameType.Information


def random_state(game, moves, seed):
    """The state after `moves` random steps (draws by their probabilities) from the start."""
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while state.move_number() < moves:
        if state.is_chance_node():
            tiles, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(tiles, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(
    "variant,information",
    [
        # Every seat sees everything; the draw is an explicit chance node (as backgammon's dice).
        ("variants/base.toml", INFO.PERFECT_INFORMATION),
        ("variants/abbey-mayor.toml", INFO.PERFECT_INFORMATION),
        # W-12 (Abu Simbel) lets its owner keep a tile the others do not see.
        ("variants/wonders.toml", INFO.IMPERFECT_INFORMATION),
        # A hand of 3 tiles.
        ("variants/house/hand-3.toml", INFO.IMPERFECT_INFORMATION),
    ],
)
def test_game_type(variant, information):
    gt = load(variant).get_type()
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.information == information
    assert gt.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (gt.min_num_players, gt.max_num_players) == tegula.Variant(str(ROOT / variant)).player_range


TINY = """id = "tiny"
name = "Two tiles after the start"
players = { min = 2, max = 2 }
sets = [{ path = "base.toml", only = ["D", "E", "V"] }]
followers = [{ id = "meeple", name = "Meeple", count = 7, strength = 1 }]

[tile_count]
D = 0
E = 1
V = 1
"""


def tiny(tmp_path):
    """A two-seat game of two draws (the start tile D, then E and V in either order)."""
    shutil.copy(ROOT / "tiles/base.toml", tmp_path / "base.toml")
    (tmp_path / "tiny.toml").write_text(TINY)
    params = {"variant": str(tmp_path / "tiny.toml"), "players": 2, "radius": 3}
    return pyspiel.load_game("tegula", params)


def best(state, player):
    """The expectiminimax value of `player`'s return (the other seat minimising it), by brute
    force."""
    if state.is_terminal():
        return state.returns()[player]
    if state.is_chance_node():
        return sum(p * best(state.child(a), player) for a, p in state.chance_outcomes())
    values = [best(state.child(a), player) for a in state.legal_actions()]
    return max(values) if state.current_player() == player else min(values)


def test_expectiminimax_solves_a_short_game(tmp_path):
    """A perfect-information algorithm on a whole (tiny) game: OpenSpiel's expectiminimax,
    searched to the end (the depth is never the limit); it agrees with a brute force over the
    same tree."""
    game = tiny(tmp_path)
    assert game.get_type().information == INFO.PERFECT_INFORMATION
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])

    def cut(s):
        raise AssertionError("the search should reach the end before its depth limit")

    value, action = minimax.expectiminimax(state, 10, cut, 0)
    assert action in state.legal_actions()
    assert value == pytest.approx(best(state, 0))
    assert value == pytest.approx(best(state.child(action), 0))


@pytest.mark.parametrize(
    "variant,players",
    [
        ("variants/base.toml", 2),
        ("variants/abbey-mayor.toml", 3),
        ("variants/wonders.toml", 2),
        ("variants/house/hand-3.toml", 2),
        ("variants/tower.toml", 2),
        ("variants/tower.toml", 3),
        # Neutral figures: the dragon's walk asks every seat in turn (PD-5), a drawn tile may be
        # set aside and shuffled back into the counts (PD-3).
        ("variants/princess-dragon.toml", 3),
        # Scores below 0 (TO-7's other reading): the returns stay within `min_utility`.
        ("variants/house/to7-ransom-below-zero.toml", 3),
        # The action combination (issue 31 item 7): every box at once, the Tower's TO-6 choice
        # among them.
        ("variants/action-all.toml", 2),
    ],
)
def test_random_sim_test(variant, players):
    """OpenSpiel's random simulation test: legal actions, chance outcomes, clones, returns,
    observations and serialisation (deserialise, compare) at every state of random games."""
    pyspiel.random_sim_test(load(variant, players), num_sims=2, serialize=True, verbose=False)


def test_serialize_round_trip():
    game = load()
    state = random_state(game, 40, 3)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    assert state2.legal_actions() == state.legal_actions()


def test_observation_tensor_and_strings():
    game = load()
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    obs = make_observation(game)
    obs.set_from(state, 0)
    assert np.array_equal(np.asarray(state.observation_tensor(0)), obs.tensor.ravel())
    assert state.information_state_string(0).startswith("seat 0:")
    # The default observation is 3-D (issue 33, item 2): the planes, then the features laid
    # row-major over one more plane.
    g = state.tgame
    c = len(g.plane_channels())
    assert game.observation_tensor_shape() == [c + 1, 25, 25]
    assert np.array_equal(obs.planes_part, g.observation_planes(0))
    assert np.array_equal(obs.features_part, g.observation_features(0))
    assert np.array_equal(obs.dict["observation"], obs.tensor)
    assert not obs.tensor[c].ravel()[g.observation_features().size :].any()
    flat = load(observation="flat")
    assert flat.observation_tensor_shape() == [g.observation_tensor().size]
    fobs = make_observation(flat)
    fstate = flat.new_initial_state()
    fstate.apply_action(state.history()[0])
    fobs.set_from(fstate, 0)
    assert np.array_equal(fobs.tensor, g.observation_tensor())
    assert fobs.dict["board"].shape[1:] == (25, 25)
    with pytest.raises(ValueError, match="observation 'pixels'"):
        load(observation="pixels")


def test_mcts_bot_plays_a_full_game():
    """OpenSpiel's MCTS bot (random rollouts) against a random bot, to the end."""
    game = load()
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            tiles, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(tiles, p=probs)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    returns = state.returns()
    assert len(returns) == 2 and all(r >= 0 for r in returns)
    assert returns == [float(s) for s in state.tgame.scores()]


def hand3_state(moves, seed=2):
    """A 2-seat hand-3 game after at least `moves` random steps, at a placement."""
    game = load("variants/house/hand-3.toml")
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while moves > 0 or state.tgame.phase != "place":
        moves -= 1
        if state.is_chance_node():
            tiles, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(tiles, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return game, state


def test_information_state_hides_other_hands():
    """Seat 0's information state names its own draws and hides seat 1's; seat 1's the
    reverse; the observations differ only in what each holds."""
    _, state = hand3_state(12)
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    assert "d?" in mine and "d?" in theirs and mine != theirs
    seat = state.current_player()
    other = 1 - seat
    assert " tile " in state.observation_string(seat)
    assert " tile " not in state.observation_string(other)


def test_resample_keeps_the_information_state():
    """Resampled states look the same to the seat (its information state and legal actions)
    and differ in the other seat's hand across samples."""
    _, state = hand3_state(20)
    seat = state.current_player()
    key = state.information_state_string(seat)
    hands = set()
    for i in range(8):
        sampler = iter(np.random.RandomState(i).rand(1)).__next__
        world = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == key
        assert world.legal_actions() == state.legal_actions()
        assert world.observation_string(seat) == state.observation_string(seat)
        hands.add(world.observation_string(1 - seat))
    assert len(hands) > 1


def test_ismcts_bot_plays_hand3_to_the_end():
    """OpenSpiel's ISMCTSBot (imperfect information, resampling every simulation) plays a
    whole hand-3 game against a random seat."""
    game = load("variants/house/hand-3.toml")
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=3,
        random_state=rng,
        allow_inconsistent_action_sets=True,
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            tiles, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(tiles, p=probs)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.returns() == [float(s) for s in state.tgame.scores()]


@pytest.mark.parametrize("players", [2, 3])
def test_rank_returns_are_zero_sum_within_bounds(players):
    """`returns="rank"`: exact utility bounds [-1, 1], zero-sum, ordered as the scores; OpenSpiel's
    random simulation test checks the returns against the declared bounds and sum."""
    params = {"variant": str(ROOT / "variants/base.toml"), "players": players, "returns": "rank"}
    game = pyspiel.load_game("tegula", params)
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    state = game.new_initial_state()
    rng = np.random.RandomState(players)
    while not state.is_terminal():
        if state.is_chance_node():
            tiles, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(tiles, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    returns, scores = state.returns(), state.tgame.scores()
    assert sum(returns) == pytest.approx(0.0) and all(-1 <= r <= 1 for r in returns)
    for i in range(players):
        for j in range(players):
            assert (returns[i] > returns[j]) == (scores[i] > scores[j])
    with pytest.raises(ValueError):
        pyspiel.load_game("tegula", {"returns": "money"})


def test_the_acting_seat_sees_its_own_hand_in_the_tensor():
    """In hand-3 the features end with the viewer's kept tiles by type before the window centre
    (before: a seat's observation tensor did not show the tiles it keeps); the other seat sees
    none of them, and the full view counts every seat's."""
    _, state = hand3_state(20)
    g = state.tgame
    seat = g.current_player()
    t = len(tegula.Variant(str(ROOT / "variants/house/hand-3.toml")).tile_ids)

    def kept(player):
        return g.observation(player=player)["features"][-2 - t : -2]

    mine, theirs = kept(seat), kept(1 - seat)
    # Placing: the drawn tile is the tile to place, the other two are kept.
    assert mine.sum() == 2 and theirs.sum() == 2
    full = g.observation()["features"][-2 - t : -2]
    assert np.array_equal(full, mine + theirs)
    assert g.observation(player=seat)["features"].shape == g.observation()["features"].shape


@pytest.mark.parametrize(
    "variant,provided",
    [("variants/base.toml", False), ("variants/abbey-mayor.toml", False),
     ("variants/wonders.toml", True), ("variants/house/hand-3.toml", True)],
)
def test_information_state_tensor_only_where_the_type_provides_it(variant, provided):
    """Served exactly where the game type says it is provided (before: the observation was
    served as the information-state tensor while the type said none is)."""
    game = load(variant)
    assert game.get_type().provides_information_state_tensor == provided
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    for _ in range(12):  # past the Wonders' pool picks and a few draws
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    if provided:
        info.set_from(state, 0)
        assert np.array_equal(info.tensor, state.tgame.information_state_tensor(0))
        assert np.array_equal(np.asarray(state.information_state_tensor(0)), info.tensor)
    else:
        assert info.tensor.size == 0
        with pytest.raises(ValueError, match="perfect information"):
            state.tgame.information_state_tensor(0)


def test_information_state_tensor_is_the_seats_knowledge():
    """Worlds the seat cannot tell apart (resampled) give its tensor exactly; the other seat's
    tensor differs; the last entries count the tiles each seat holds unseen by the viewer."""
    _, state = hand3_state(20)
    g = state.tgame
    seat = g.current_player()
    mine = g.information_state_tensor(seat)
    n = g.observation_tensor(player=seat).size
    assert mine.size == n + 2
    assert np.array_equal(mine[:n], g.observation_tensor(player=seat))
    assert mine[n + seat] == 0 and mine[n + 1 - seat] > 0
    assert not np.array_equal(mine, g.information_state_tensor(1 - seat))
    for i in range(6):
        world = g.resample_from_infostate(seat, i)
        assert np.array_equal(world.information_state_tensor(seat), mine)
    with pytest.raises(ValueError, match="seat 2"):
        g.information_state_tensor(2)


def test_max_utility_is_the_variants_score_bound():
    """`max_utility` is `Variant.max_score` (before: the loose 10 · pieces², 50,410 on base);
    no game of any shipped variant, random or greedy, scores more (random_sim_test checks the
    returns against it too)."""
    for name in tegula.variants.names():
        v = tegula.Variant(name)
        lo, hi = v.player_range
        for players in (lo, hi):
            bound = v.max_score(players)
            assert 0 < bound < 10 * v.pieces(players) ** 2, (name, players)
        best = 0
        for agents in (["random"], ["greedy"]):
            b = tegula.Batch(v, 40, players=lo, seed=11, agents=agents)
            best = max(best, int(b.play_agents().max()))
        assert best <= v.max_score(lo), (name, best)
    game = load("variants/wonders.toml", 3)
    assert game.max_utility() == tegula.Variant(str(ROOT / "variants/wonders.toml")).max_score(3)
    with pytest.raises(ValueError, match="allows"):
        tegula.Variant(str(ROOT / "variants/base.toml")).max_score(9)


def test_min_utility_is_the_variants_lowest_score():
    """`min_utility` is `Variant.min_score`: 0 unless a buy-back may cost more points than the
    payer has (TO-7's other reading); random games of that house variant go below 0, never
    below the bound."""
    for name in tegula.variants.names():
        if name != "house/to7-ransom-below-zero":
            assert tegula.Variant(name).min_score(2) == 0, name
    path = "variants/house/to7-ransom-below-zero.toml"
    v = tegula.Variant(str(ROOT / path))
    low = v.min_score(3)
    assert -3 * (v.pieces(3) + 1) <= low < 0  # 3 points a piece, the start tile counted
    assert load(path, 3).min_utility() == float(low)
    scores = tegula.Batch(v, 40, players=3, seed=1, agents=["random"]).play_agents()
    assert low <= int(scores.min()) < 0


# The highest seat score seen in 100,000 random and 1,000 greedy two-seat games of each variant
# (`examples/bounds_check.py --random 100000 --greedy 1000`, docs/AI.md "Utility bounds"), for
# the variants whose proven bound is within 5× of it.
SEEN = {
    "abbot": 136, "goldmines": 135, "house/king-robber-10": 137,
    "house/king-robber-during-game": 129, "house/little-buildings-3-2-1": 186,
    "house/little-buildings-by-kind": 133, "king-robber-baron": 139, "little-buildings": 138,
    "base": 110, "base-legacy": 115, "cathars": 136, "house/builder-not-on-completed": 162,
    "house/cloister-12": 113, "house/extra-turn-not-when-completing": 177, "house/farms-4": 117,
    "house/first-edition-farms": 109, "house/first-edition-farms-pig": 184, "house/guilds": 133,
    "house/hand-3": 109, "house/large-meeple": 114, "house/more-cloisters": 124,
    "house/no-incomplete": 101, "house/river-no-repeated-turn": 136, "house/siege-any-tile": 136,
    "house/small-city-2": 101, "house/unfinished-cloister-nothing": 110, "inns-cathedrals": 184,
    "river": 112, "siege": 136, "traders-builders": 177,
}


def test_score_bounds_stay_within_5x_of_the_scores_seen():
    """Issue 33, item 5: these variants' proven bounds are within 5× of the best scores seen
    (a looser bound fails here); the others are looser for the reasons docs/AI.md gives."""
    for name, seen in SEEN.items():
        assert tegula.Variant(name).max_score(2) <= 5 * seen, name
    # Traders & Builders' pig: before, every payment of every feature counted it (21,017).
    assert tegula.Variant("traders-builders").max_score(2) < 1000


def test_states_serialise_by_reference_to_their_variant():
    """A state's serialisation names its variant instead of carrying the compiled rules
    (issue 33, item 6): at most 4 KB for a mid-game base state (131 KB before), and it
    round-trips to an equal state, through pickle too."""
    import pickle

    game = load()
    state = random_state(game, 108, 5)  # half of a base game's 216 steps
    text = pyspiel.serialize_game_and_state(game, state)
    assert len(text) <= 4096, len(text)
    assert len(state.serialize()) <= 4096
    _, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.tgame == state.tgame and state2.history() == state.history()
    data = pickle.dumps(state)
    assert len(data) <= 4096
    assert pickle.loads(data).tgame == state.tgame
    clone = state.clone()
    assert clone.tgame == state.tgame and clone.tgame is not state.tgame
    clone.apply_action(clone.legal_actions()[0])
    assert clone.tgame != state.tgame
