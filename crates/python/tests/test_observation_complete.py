"""Issue 17 item 3: observations are complete. Two decision points whose positions differ in
any part that decides moves — the board, the figures and their owners, the scores, the supplies,
the seat resources, the remaining tiles, the phase, the seat to act, the tile in hand, the pool
and the marker pairs, a freed figure — never share an observation. `Game.state_hash` is the
engine's hash of exactly those parts (the history and the hidden pile order take no part), so
the test maps every observation seen to the position hash it came from and requires one hash
per observation, over random games of every shipped variant of perfect information.
Variants with hidden tiles (a W-12 hand) observe per seat, so two positions that differ only in
another seat's hidden tiles rightly share an observation; for the Wonders' pool, owners and
marker pairs the test plays the Wonders variants with the hand ability taken out of their
compiled rules, which makes them of perfect information and leaves every other part in play.
(Information states are tested in test_openspiel.py.)"""

import hashlib
import json
import random
from pathlib import Path

import pytest

import tegula
from conftest import variant

ROOT = Path(__file__).resolve().parents[3]
VARIANTS = sorted(
    p.relative_to(ROOT).as_posix() for p in (ROOT / "variants").glob("*.toml")
)
# Wide enough that no random 2-seat game of a shipped variant leaves the window.
RADIUS = 40


def play_and_check(g, rng, seen):
    """Play `g` at random; at each decision, check its observation against `seen`."""
    decisions = 0
    while not g.is_terminal():
        legal = g.legal_actions()
        if not g.is_chance_node():
            radius = min(RADIUS, g.max_radius)
            obs = g.observation_tensor(radius=radius)
            key = hashlib.sha256(obs.tobytes()).digest()
            h = g.state_hash()
            first = seen.setdefault(key, (h, g.observation_string()))
            assert first[0] == h, (
                "two different positions share an observation:\n"
                f"{first[1]}\n---\n{g.observation_string()}"
            )
            decisions += 1
        g.apply(rng.choice(legal))
    return decisions


def without_hidden_hands(v):
    """`v` with every hand ability (W-12) removed from its compiled rules: nothing hidden."""
    _, (text, path) = v.__reduce__()
    rules = json.loads(text)
    for tile in rules["tiles"]:
        kept = [a for a in tile.get("abilities", []) if "hand" not in a["effect"]]
        tile["abilities"] = kept
    return tegula.Variant._from_artefact(json.dumps(rules), path)


@pytest.mark.parametrize("path", VARIANTS)
def test_distinct_positions_have_distinct_observations(path):
    v = variant(path)
    if not v.perfect_information:
        v = without_hidden_hands(v)
    if not v.perfect_information:
        pytest.skip("hidden tiles beyond a hand ability: see test_openspiel.py")
    rng = random.Random(path)
    seen = {}
    decisions = sum(play_and_check(v.new_game(2, seed), rng, seen) for seed in range(4))
    # Not vacuous: many decision points, and most positions distinct.
    assert decisions > 300
    assert len(seen) > decisions // 2


def test_the_check_sees_a_collision():
    """The check can fail: two different positions given one observation are reported."""
    v = variant("variants/base.toml")
    g = v.new_game(2, 1)
    seen = {}
    rng = random.Random(1)
    while g.is_chance_node():
        g.apply(rng.choice(g.legal_actions()))
    obs = g.observation_tensor(radius=min(RADIUS, g.max_radius))
    key = hashlib.sha256(obs.tobytes()).digest()
    seen[key] = (g.state_hash() ^ 1, "another position")
    with pytest.raises(AssertionError, match="share an observation"):
        play_and_check(g, rng, seen)
