"""The compact action encoding: ids laid out on the observation window (docs/AI.md)."""

import random

import numpy as np
import pytest

from conftest import variant

import tegula

# The target of issue 17: a policy head of at most a few thousand outputs.
TARGET = 5_000

SHIPPED = ["variants/base.toml", "variants/abbey-mayor.toml", "variants/wonders.toml"]


def test_sizes_follow_the_window():
    """Ids grow with the window, not with the board's reach or the number of tile types."""
    base = variant("variants/base.toml")
    assert base.num_distinct_actions() <= TARGET
    w12, w6 = base.num_distinct_actions(12), base.num_distinct_actions(6)
    # Placements are window cell × rotation: the difference is 4 ids per extra cell.
    assert w12 - w6 == 4 * (25 * 25 - 13 * 13)


@pytest.mark.parametrize("path", SHIPPED)
def test_sizes_of_shipped_variants(path):
    """Measured per shipped variant (docs/AI.md lists them); never the millions of absolute
    coordinates the old layout needed."""
    v = variant(path)
    n = v.num_distinct_actions()
    g = v.new_game(2, 0)
    assert g.num_distinct_actions == n
    assert n < 10_000


def walk(path, players, seed, check):
    """A random game of `path`, calling `check(game)` at every decision."""
    g = variant(path).new_game(players, seed)
    rng = random.Random(seed)
    while not g.is_terminal():
        if g.is_chance_node():
            g.apply_default_draw()
            continue
        check(g)
        g.apply(rng.choice(g.legal_actions()))
    return g


def round_trip(g):
    """Every legal id decodes to a legal move whose id is the same; the mask is the list."""
    legal = g.legal_actions()
    assert legal
    for a in legal:
        assert g.encode_action(g.decode_action(a)) == a
        assert g.is_legal(a)
    mask = g.legal_actions_mask()
    assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_
    assert mask.shape == (g.num_distinct_actions,)
    assert np.flatnonzero(mask).tolist() == legal


@pytest.mark.parametrize(
    "path,players",
    [
        ("variants/base.toml", 2),
        ("variants/abbey-mayor.toml", 3),
        ("variants/wonders.toml", 2),
        ("variants/house/hand-3.toml", 2),
    ],
)
def test_every_legal_id_round_trips(path, players):
    walk(path, players, 5, round_trip)


def test_placement_ids_are_window_cells():
    """A placement's id names the window cell of its anchor: the same move on the board after
    the window moves is another id, the same window cell and rotation the same id."""
    g = variant("variants/base.toml").new_game(2, 3)
    g.apply_default_draw()
    for a in g.legal_actions():
        d = g.decode_action(a)
        assert d["kind"] == "place" and d["tile"] == g.current_tile
        # The start tile is the only tile: the window is centred on 0,0.
        assert abs(d["x"]) <= 1 and abs(d["y"]) <= 1


def test_hand_placements_name_a_tile_slot():
    """With a hand of tiles a placement names the slot of its tile among those the player may
    place (slot 0 the drawn tile), so one window cell and rotation has an id per slot."""
    seen = set()

    def check(g):
        if g.phase == "place":
            seen.update(g.decode_action(a)["tile"] for a in g.legal_actions())

    walk("variants/house/hand-3.toml", 2, 9, check)
    assert len(seen) > 1


def test_history_survives_snapshot_and_pickle():
    import pickle

    g = variant("variants/abbey-mayor.toml").new_game(2, 4)
    rng = random.Random(4)
    for _ in range(60):
        if g.is_chance_node():
            g.apply_default_draw()
        else:
            g.apply(rng.choice(g.legal_actions()))
    back = tegula.Game.from_json(g.to_json(), variant("variants/abbey-mayor.toml"))
    assert back.history() == g.history()
    assert -1 not in g.history()
    assert pickle.loads(pickle.dumps(g)).history() == g.history()
    assert back.legal_actions() == g.legal_actions()


def test_a_window_too_small_for_every_move_is_an_error():
    """Radius 0: the window is the start tile's cell, where nothing can be placed. The engine
    has legal placements but none has an id: a RuntimeError naming the radius, not an empty
    list at a decision node (before: [] silently)."""
    g = variant("variants/base.toml").new_game(2, 1, 0)
    g.apply_default_draw()
    with pytest.raises(RuntimeError, match="radius 0"):
        g.legal_actions()
    with pytest.raises(RuntimeError, match="radius 0"):
        g.legal_actions_mask()
    # Radius 1 (the start tile's neighbours) reaches the first placements.
    g = variant("variants/base.toml").new_game(2, 1, 1)
    g.apply_default_draw()
    assert g.legal_actions()
