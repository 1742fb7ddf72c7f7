"""Six players (IC-6): the Inns & Cathedrals variant seats 2 to 6, and a six-player game plays to
its end with every seat observed (the observation has one set of planes per seat)."""

import random

import numpy as np

from conftest import variant

IC = "variants/inns-cathedrals.toml"


def test_a_six_player_game_plays_and_observes_every_seat():
    v = variant(IC)
    assert v.player_range == (2, 6)
    g = v.new_game(6, 3)
    rng = random.Random(6)
    shapes = set()
    while not g.is_terminal():
        if g.is_chance_node():
            g.apply_default_draw()
            continue
        seat = g.current_player()
        assert 0 <= seat < 6
        obs = np.asarray(g.observation_tensor(player=seat))
        shapes.add(obs.shape)
        g.apply(rng.choice(g.legal_actions()))
    assert len(g.scores()) == 6 and len(g.returns()) == 6
    assert len(shapes) == 1
    # One more seat than five players' observation: the seat planes grow with the players.
    five = np.asarray(v.new_game(5, 3).observation_tensor(player=0))
    assert obs.size > five.size
