"""Figures built from generic properties (issue 21 items 3 and 4) through the Python API: after
an extra turn (TB-5) the same seat acts again, and the log says so."""

import json
import random

import tegula
from conftest import variant


def favour_builder(g, rng):
    """A legal action, the builder's placement whenever one is offered."""
    legal = g.legal_actions()
    if g.is_chance_node():
        return rng.choice(legal)
    builder = [a for a in legal if "builder" in g.action_to_string(a)]
    return rng.choice(builder or legal)


def extra_turns(g):
    return [e for e in map(json.loads, g.log_jsonl().splitlines()) if e["type"] == "extra_turn"]


def test_the_same_seat_acts_again_after_an_extra_turn():
    v = variant("variants/traders-builders.toml")
    rng = random.Random(5)
    seen = 0
    for seed in range(6):
        g = v.new_game(3, seed)
        earned = 0
        while not g.is_terminal():
            g.apply(favour_builder(g, rng))
            now = extra_turns(g)
            if len(now) > earned:
                earned = len(now)
                seen += 1
                while g.is_chance_node():
                    g.apply(favour_builder(g, rng))
                assert g.current_player() == now[-1]["player"]
                assert now[-1]["rule"] == "TB-5"
        assert g.current_player() == tegula.TERMINAL_PLAYER
    assert seen > 0, "no extra turn in 6 games"
