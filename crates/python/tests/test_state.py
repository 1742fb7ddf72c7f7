"""Clones, snapshots, observations, the action encoding, agents and errors."""

import random

import numpy as np
import pytest

import tegula
from conftest import variant

BASE = "variants/base.toml"


def advance(g, steps, rng):
    for _ in range(steps):
        if g.is_terminal():
            break
        if g.is_chance_node():
            g.apply_default_draw()
        else:
            g.apply(rng.choice(g.legal_actions()))
    return g


def test_clone_is_independent():
    g = advance(variant(BASE).new_game(2, 5), 30, random.Random(1))
    c = g.clone()
    before = (g.to_json(), g.history(), g.scores())
    advance(c, 40, random.Random(2))
    assert c.history() != g.history()
    assert (g.to_json(), g.history(), g.scores()) == before
    import copy

    d = copy.deepcopy(g)
    assert d.to_json() == g.to_json() and d is not g


def test_json_round_trip_mid_game():
    v = variant(BASE)
    for steps in (0, 1, 17, 60, 400):
        g = advance(v.new_game(2, 11), steps, random.Random(steps))
        r = tegula.Game.from_json(g.to_json(), v)
        assert r.to_json() == g.to_json()
        assert r.history() == g.history() and r.legal_actions() == g.legal_actions()
        assert r.state_hash() == g.state_hash()
        # Both go on identically.
        advance(g, 50, random.Random(99))
        advance(r, 50, random.Random(99))
        assert r.to_json() == g.to_json()
    # A path works as the variant too.
    assert tegula.Game.from_json(g.to_json(), BASE).scores() == g.scores()


def test_bad_snapshots_raise():
    v = variant(BASE)
    with pytest.raises(tegula.SnapshotError):
        tegula.Game.from_json("{not json", v)
    g = advance(v.new_game(2, 3), 10, random.Random(0))
    text = g.to_json().replace('"players":2', '"players":9')
    with pytest.raises(tegula.SnapshotError):
        tegula.Game.from_json(text, v)
    with pytest.raises(tegula.SnapshotError):
        tegula.Game.from_json(g.to_json(), variant("variants/wonders.toml"))


def test_observation_layout():
    v = variant(BASE)
    g = advance(v.new_game(2, 4), 25, random.Random(4))
    while g.is_chance_node():
        g.apply_default_draw()
    obs = g.observation(radius=30)
    board, feats = obs["board"], obs["features"]
    (c, h, w), n = g.observation_shape(30)
    assert board.shape == (c, h, w) == (27 + 2, 61, 61) and feats.shape == (n,)
    assert board.dtype == np.float32 and feats.dtype == np.float32
    assert board[0].sum() == len(g.tiles())  # window wide enough for every tile
    assert board[1:17].sum() == 4 * len(g.tiles())  # one kind per side
    assert board[22:24].sum() == len(g.followers())
    place = board[24:28].sum()
    placing = g.phase == "place"
    assert (place > 0) == placing
    if placing:
        assert place == len(g.legal_actions())
    tiles = len(v.tile_ids)
    seat = list(feats[:2])
    assert seat == [1.0 * (p == g.current_player()) for p in range(2)]
    assert list(feats[2 : 2 + 8]).count(1.0) == 1
    assert list(feats[10:12]) == [float(s) for s in g.scores()]
    followers = len(v.follower_ids)
    left = 12 + 2 * followers + tiles
    assert list(feats[left : left + tiles]) == [float(c) for c in g.remaining_counts()]
    flat = g.observation_tensor(30)
    assert np.array_equal(flat, np.concatenate([board.ravel(), feats]))


def test_action_encoding_round_trips():
    v = variant("variants/abbey-mayor.toml")
    g = v.new_game(3, 2)
    rng = random.Random(3)
    seen = set()
    while not g.is_terminal():
        if g.is_chance_node():
            g.apply_default_draw()
            continue
        for a in g.legal_actions():
            d = g.decode_action(a)
            seen.add(d["kind"])
            assert g.encode_action(d) == a
            text = g.action_to_string(a)
            assert text.split()[0] == d["kind"]
        g.apply(rng.choice(g.legal_actions()))
    assert {"place", "follower", "pass"} <= seen


@pytest.mark.parametrize("kind", ["random", "greedy", "mcts:8"])
def test_agents_pick_legal_actions(kind):
    g = variant(BASE).new_game(2, 6)
    try:
        agent = tegula.Agent(kind, 1)
    except ValueError:
        pytest.skip(f"this engine has no agent {kind}")
    for _ in range(12):
        if g.is_chance_node():
            g.apply_default_draw()
            continue
        a = agent.action(g)
        assert g.is_legal(a)
        assert tegula.agent_action(g, kind, 3) in g.legal_actions()
        g.apply(a)


def test_errors_are_exceptions(tmp_path):
    with pytest.raises(FileNotFoundError):
        tegula.Game.from_variant("variants/no-such-variant.toml")
    with pytest.raises(tegula.VariantError):
        tegula.Game.from_variant("tiles/base.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text('schema = "tegula/variant/1"\nid = "x"\nname = [\n')
    with pytest.raises(tegula.VariantError):
        tegula.Variant(str(bad))
    v = variant(BASE)
    with pytest.raises(tegula.SetupError):
        v.new_game(players=9)
    g = v.new_game(2, 1)
    with pytest.raises(tegula.IllegalActionError) as e:
        g.apply(10_000)  # a draw of a tile that does not exist
    assert e.value.kind == "not-in-pile"
    g.apply_default_draw()
    for bad_id in (-1, v.num_distinct_actions(), 2**62):
        with pytest.raises(tegula.IllegalActionError) as e:
            g.apply(bad_id)
        assert e.value.kind == "unknown-action"
        assert not g.is_legal(bad_id)
    with pytest.raises(tegula.IllegalActionError) as e:
        g.apply(0)  # pass while a tile must be placed
    assert e.value.kind == "wrong-phase"
    with pytest.raises(tegula.IllegalActionError, match="beyond int64") as e:
        g.apply(2**70)  # an id, located, rather than an OverflowError (issue 33)
    assert e.value.kind == "unknown-action" and e.value.action == 2**70
    with pytest.raises(TypeError):
        g.apply("place")
    with pytest.raises(ValueError):
        tegula.Agent("clever")
    assert issubclass(tegula.IllegalActionError, tegula.TegulaError)


def test_sizes_a_caller_passes_are_bounded():
    """Issue #20, defect 9: a player count outside the variant's range is a ValueError for
    every size computed from it, and an observation window past the board's reach is refused
    before anything is allocated (radius 2000 used to allocate some 1.9 GB)."""
    v = variant(BASE)
    lo, hi = v.player_range
    for players in (0, lo - 1, hi + 1, 255):
        for size in (v.max_game_length, v.pieces):
            with pytest.raises(ValueError, match="players"):
                size(players)
    assert v.max_game_length(lo) > v.pieces(lo) > 0
    g = advance(v.new_game(2, 3), 10, random.Random(3))
    top = g.max_radius
    assert top >= 12
    assert g.observation(radius=top)["board"].shape[1] == 2 * top + 1
    for call in (g.observation, g.observation_tensor, g.observation_shape):
        with pytest.raises(ValueError, match="radius"):
            call(top + 1)
        with pytest.raises(ValueError, match="radius"):
            call(2000)
        with pytest.raises(OverflowError):
            call(-1)


def test_observation_string_identifies_the_state():
    """Equal observation strings mean equal positions (the engine's state hash; from the second
    tile on, as the hash of the first draw's state depends on the seed) over random games of
    base, Abbey & Mayor and Wonders."""
    for path, players in [(BASE, 2), ("variants/abbey-mayor.toml", 3), ("variants/wonders.toml", 2)]:
        seen = {}
        for seed in range(4):
            g = variant(path).new_game(players, seed)
            rng = random.Random(seed)
            while not g.is_terminal():
                if g.turn >= 2:
                    s = g.observation_string()
                    assert seen.setdefault(s, g.state_hash()) == g.state_hash(), s
                if g.is_chance_node():
                    g.apply_default_draw()
                else:
                    g.apply(rng.choice(g.legal_actions()))


def test_observation_string_names_the_pool():
    """Wonders' setup picks into the open pool: two different picks give two strings (before:
    the pool was not in the string, so both read alike)."""
    g = variant("variants/wonders.toml").new_game(2, 1)
    while g.phase != "pick":
        g.apply_default_draw() if g.is_chance_node() else g.apply(g.legal_actions()[0])
    a, b = g.clone(), g.clone()
    first, second = g.legal_actions()[:2]
    a.apply(first)
    b.apply(second)
    assert a.observation_string() != b.observation_string()
    assert " pool " in a.observation_string()


def test_seat_resources_in_the_observation():
    # Traders & Builders' goods are seat resources: the observation's features hold them (seat
    # × resource, right after the own tiles held) and `resources()` reports them by id.
    tb, base = variant("variants/traders-builders.toml"), variant(BASE)
    g = tb.new_game(2, 7)
    n_tb = g.observation_shape(12)[1]
    # Per seat: 3 resources, 24 more tile types held, and the figure types beyond the meeple
    # (the builder and the pig) in supply.
    more_figures = len(tb.follower_ids) - len(base.follower_ids)
    n_base = base.new_game(2, 7).observation_shape(12)[1]
    assert n_tb == n_base + 2 * 3 + 2 * 24 + 2 * more_figures
    assert base.new_game(2, 7).resources() == {}
    rng = random.Random(7)
    for seed in range(40):
        g = advance(tb.new_game(2, seed), 10_000, rng)
        held = g.resources()
        if any(sum(v) for v in held.values()):
            break
    assert g.is_terminal() and any(sum(v) for v in held.values())
    feats = g.observation()["features"]
    ids = ["wine", "grain", "cloth"]  # the variant's order
    by_seat = [held[r][p] for p in range(2) for r in ids]
    # The tail: resources, then the window centre (2).
    assert list(feats[-2 - 6 : -2]) == by_seat


def test_equality_and_hash_follow_the_state():
    """`Game.__eq__`/`__hash__` (issue 33, item 6): a clone, a pickle and a snapshot of a game
    equal it and hash alike; a move, another pile, radius or variant makes games unequal."""
    import pickle

    g = advance(variant(BASE).new_game(2, 5), 40, random.Random(1))
    c = g.clone()
    assert g == c and hash(g) == hash(c) and not (g != c)
    assert g == pickle.loads(pickle.dumps(g))
    assert g == tegula.Game.from_json(g.to_json(), variant(BASE))
    assert g == tegula.Game.from_json(g.to_json(), tegula.Variant(BASE))  # another load
    assert len({g, c, g.clone()}) == 1
    advance(c, 1, random.Random(2))
    assert g != c
    assert variant(BASE).new_game(2, 5) != variant(BASE).new_game(2, 6)  # the pile differs
    assert variant(BASE).new_game(2, 5) == variant(BASE).new_game(2, 5)
    assert variant(BASE).new_game(2, 5, 12) != variant(BASE).new_game(2, 5, 10)
    assert variant(BASE).new_game(2, 5) != variant("variants/abbey-mayor.toml").new_game(2, 5)
    assert g != "a game" and g != None  # noqa: E711


def test_str_shows_the_board_scores_and_phase():
    g = advance(variant(BASE).new_game(2, 5), 31, random.Random(4))
    text = str(g)
    first = text.splitlines()[0]
    assert first.startswith(f"phase {g.phase}")
    if g.phase == "place":
        assert "placing" in first
    assert f"scores {g.scores()}" in text
    assert f"base — turn {g.turn}" in text
    # Each of the placed tiles is a 9×5 block: at least one border row per tile row.
    rows = [line for line in text.splitlines() if "+-" in line or "@-" in line]
    ys = {y for (_, _, y, _) in g.tiles()}
    assert len(rows) >= 2 * len(ys)
    assert "figures: A = seat 0, B = seat 1" in text
    for p, s in enumerate(g.scores()):
        assert f"seat {p}" in text and str(s) in text
    while not g.is_terminal():
        advance(g, 50, random.Random(5))
    assert "over: seat" in str(g).splitlines()[0]
