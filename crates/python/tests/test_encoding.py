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
        ("variants/tower.toml", 3),
    ],
)
def test_every_legal_id_round_trips(path, players):
    walk(path, players, 5, round_trip)


def test_tower_choices_have_ids_of_their_own():
    """The Tower's offers (docs/AI.md): a stack site is a window cell, a stack top a cell ×
    figure type, a figure in reach a cell × (feature + 1), a held figure holder × figure type;
    every legal id round-trips in random games, which build towers."""
    import json

    for seed in range(3):
        g = walk("variants/tower.toml", 2, seed, round_trip)
        kinds = {json.loads(line)["type"] for line in g.log_jsonl().splitlines()}
        assert "stack" in kinds, kinds
