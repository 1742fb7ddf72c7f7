"""Corner figures on named corners (AM-6): `corner_points` and `apply(action, corner=...)`.
The compact ids are unchanged: an id alone puts a barn on its field's first corner."""

import json
import random

import pytest

import tegula
from conftest import variant


def barn_with_corners(seed):
    """An Abbey & Mayor game of random moves, stopped where a legal follower action has two
    corners or more; the game and that action, or None."""
    g = variant("variants/abbey-mayor.toml").new_game(2, seed)
    rng = random.Random(seed)
    while not g.is_terminal():
        if g.is_chance_node():
            g.apply_default_draw()
            continue
        legal = g.legal_actions()
        for a in legal:
            if len(g.corner_points(a)) > 1:
                return g, a
        g.apply(rng.choice(legal))
    return None


def found():
    for seed in range(60):
        hit = barn_with_corners(seed)
        if hit:
            return hit
    pytest.fail("no barn with two corners in 60 games")


def barn_line(g, point):
    lines = [json.loads(l) for l in g.log_jsonl().splitlines()]
    return [l for l in lines if l.get("type") == "follower" and l.get("corner") == list(point)]


def test_an_id_takes_the_first_corner_and_a_named_corner_another():
    g, action = found()
    points = g.corner_points(action)
    assert all(isinstance(p, tuple) and len(p) == 2 for p in points)
    plain, named = g.clone(), g.clone()
    plain.apply(action)
    assert barn_line(plain, points[0])
    steps = len(named.history())
    named.apply(action, corner=points[-1])
    assert barn_line(named, points[-1]) and not barn_line(named, points[0])
    # No id names a corner but the first: the step is -1 in the history.
    assert named.history()[steps] == -1
    # A snapshot keeps the corner.
    again = tegula.Game.from_json(named.to_json(), variant("variants/abbey-mayor.toml"))
    assert barn_line(again, points[-1])
    # Naming the first corner is the id itself.
    first = g.clone()
    first.apply(action, corner=points[0])
    assert first.history() == plain.history()


def test_bad_corners_are_refused_and_change_nothing():
    g, action = found()
    before = g.to_json()
    with pytest.raises(tegula.IllegalActionError) as e:
        g.apply(action, corner=(999, 999))
    assert e.value.kind == "not-a-corner" and e.value.rule == "AM-6"
    assert "not a corner" in str(e.value)
    other = next(a for a in g.legal_actions() if not g.corner_points(a))
    with pytest.raises(tegula.IllegalActionError) as e:
        g.apply(other, corner=g.corner_points(action)[0])
    assert e.value.kind in ("not-a-follower-action", "not-a-corner-figure")
    with pytest.raises(ValueError):
        g.corner_points(-5)
    assert g.to_json() == before
