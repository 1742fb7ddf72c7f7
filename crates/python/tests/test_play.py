"""The Python API on every shipped variant: random play, legality, chance, returns."""

import random

import pytest

import tegula
from conftest import VARIANTS, variant


def draw(g, rng):
    """Sample a chance outcome by its probability."""
    outcomes = g.chance_outcomes()
    tiles = [t for t, _ in outcomes]
    return rng.choices(tiles, [p for _, p in outcomes])[0]


def check_chance_node(g, grouped):
    outcomes = g.chance_outcomes()
    assert g.current_player() == tegula.CHANCE_PLAYER
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    counts = g.remaining_counts()
    # A draw comes from the pile group being drawn (R-2's kind: the river before the land), so
    # the outcomes are the remaining tiles of one group, each by its count within that group.
    drawn = [t for t, _ in outcomes]
    total = sum(counts[t] for t in drawn)
    for t, p in outcomes:
        assert counts[t] > 0
        assert abs(p - counts[t] / total) < 1e-12
    if not grouped:
        assert sorted(drawn) == [t for t, c in enumerate(counts) if c > 0]
    assert g.legal_actions() == drawn


def check_decision(g, rng):
    legal = g.legal_actions()
    assert legal, "a decision node without legal actions"
    assert legal == sorted(set(legal))
    assert 0 <= g.current_player() < g.players
    assert all(g.is_legal(a) for a in legal)
    assert all(0 <= a < g.num_distinct_actions for a in legal)
    # Ids that are not listed are refused, and refusing changes nothing.
    legal_set = set(legal)
    before = g.to_json()
    for a in (rng.randrange(g.num_distinct_actions) for _ in range(5)):
        if a in legal_set:
            continue
        assert not g.is_legal(a)
        with pytest.raises(tegula.IllegalActionError) as e:
            g.apply(a)
        assert isinstance(e.value.kind, str) and e.value.action == a
    assert g.to_json() == before
    return legal


def play_random(g, rng, limit, grouped=False):
    steps = 0
    while not g.is_terminal():
        assert steps <= limit, "game longer than max_game_length"
        assert g.returns() == [0.0] * g.players
        if g.is_chance_node():
            check_chance_node(g, grouped)
            g.apply(draw(g, rng))
        else:
            g.apply(rng.choice(check_decision(g, rng)))
        steps += 1
    return steps


@pytest.mark.parametrize("path", VARIANTS)
def test_random_play_every_variant(path):
    v = variant(path)
    lo, hi = v.player_range
    rng = random.Random(path)
    for players, seed in [(lo, 1), (hi, 2)]:
        g = v.new_game(players, seed)
        play_random(g, rng, v.max_game_length(players), bool(v.pile_groups))
        assert g.current_player() == tegula.TERMINAL_PLAYER
        assert g.legal_actions() == []
        assert g.returns() == [float(s) for s in g.scores()]
        best = max(g.scores())
        assert g.winners() == [p for p, s in enumerate(g.scores()) if s == best]
        assert sum(g.remaining_counts()) == 0


def test_seeded_draws_follow_the_pile():
    """apply_default_draw draws the seeded order; the same seed gives the same game."""
    v = variant("variants/base.toml")
    a, b = v.new_game(2, 9), v.new_game(2, 9)
    for g in (a, b):
        while not g.is_terminal():
            if g.is_chance_node():
                t = g.apply_default_draw()
                assert 0 <= t < len(v.tile_ids)
            else:
                g.apply(g.legal_actions()[0])
    assert a.history() == b.history() and a.scores() == b.scores()
    assert v.new_game(2, 10).to_json() != v.new_game(2, 9).to_json()
