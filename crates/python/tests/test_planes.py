"""Observation planes for networks (issue 33, item 2): a channel layout generated from the
variant, planes that agree with the game's own lists (tiles, sides, figures, placements), uint8
and float32 alike, filled into a given array, the viewer's hidden tile respected, and
`Batch.planes` equal to the games' own."""

import random

import numpy as np
import pytest

import tegula
from conftest import variant
from test_state import advance as walk


def advance(g, steps, seed):
    """`steps` random steps (test_state's walk), seeded."""
    return walk(g, steps, random.Random(seed))


def channels(g):
    return {n: i for i, n in enumerate(g.plane_channels())}


def test_the_layout_comes_from_the_variant():
    base = channels(variant("variants/base.toml").new_game(2, 0))
    assert list(base)[:2] == ["tile", "edge:N:city"] and list(base)[-1] == "last"
    assert "feature:cloister" in base and "feature:wonder" not in base
    assert {"figure:0:meeple", "figure:1:meeple", "tag:religious", "pennants"} <= set(base)
    assert [n for n in base if n.startswith("fits:")] == ["fits:0", "fits:1", "fits:2", "fits:3"]
    am = channels(variant("variants/abbey-mayor.toml").new_game(3, 0))
    assert {f"figure:{p}:{t}" for p in range(3) for t in ("meeple", "mayor", "barn", "wagon")} <= set(am)
    wonders = channels(variant("variants/wonders.toml").new_game(2, 0))
    assert {"feature:wonder", "tag:wonder"} <= set(wonders)
    river = channels(variant("variants/river.toml").new_game(2, 0))
    assert {f"edge:{s}:water" for s in "NESW"} <= set(river)
    assert len(river) == len(base) + 4  # one declared edge kind: a channel per side


@pytest.mark.parametrize("path", ["variants/base.toml", "variants/abbey-mayor.toml", "variants/river.toml"])
def test_planes_agree_with_the_game(path):
    g = advance(variant(path).new_game(2, 3), 70, 1)
    p = g.observation_planes()
    ch = channels(g)
    r = g.radius
    cells = {(x, y) for (_, x, y, _) in g.tiles()}  # these variants' tiles are one cell each
    ys, xs = np.nonzero(p[ch["tile"]])
    cx, cy = _centre(g)
    seen = {(cx - r + j, cy - r + i) for i, j in zip(ys, xs)}
    assert seen == {c for c in cells if abs(c[0] - cx) <= r and abs(c[1] - cy) <= r}
    for side in "NESW":
        per_cell = sum(p[i] for n, i in ch.items() if n.startswith(f"edge:{side}:"))
        assert (per_cell == p[ch["tile"]]).all()  # exactly one kind per side of a tile cell
    figs = {}
    for seat, f, *_ in g.followers():
        figs[(seat, f)] = figs.get((seat, f), 0) + 1
    ids = variant(path).follower_ids
    for (seat, f), count in figs.items():
        assert p[ch[f"figure:{seat}:{ids[f]}"]].sum() == count
    u8 = g.observation_planes(dtype="uint8")
    assert u8.dtype == np.uint8 and np.array_equal(u8, p.astype(np.uint8))


def _centre(g):
    xs = [t[1] for t in g.tiles()]
    ys = [t[2] for t in g.tiles()]
    return (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2


def test_fits_are_the_placements_and_hidden_from_others():
    g = variant("variants/base.toml").new_game(2, 4)
    g.apply_default_draw()
    p = g.observation_planes()
    ch = channels(g)
    fits = sum(p[ch[f"fits:{r}"]] for r in range(4))
    assert fits.any() and not (fits * p[ch["tile"]]).any()  # free cells only
    place = {g.decode_action(a)["rotation"] for a in g.legal_actions()}
    assert {r for r in range(4) if p[ch[f"fits:{r}"]].any()} == place
    hand = variant("variants/house/hand-3.toml").new_game(2, 4)
    advance(hand, 4, 2)
    while hand.phase != "place":
        advance(hand, 1, 3)
    seat = hand.current_player()
    hc = channels(hand)
    mine = hand.observation_planes(player=seat)
    theirs = hand.observation_planes(player=1 - seat)
    assert mine[hc["fits:0"] : hc["fits:3"] + 1].any()
    assert not theirs[hc["fits:0"] : hc["fits:3"] + 1].any()


def test_out_fills_in_place_and_bad_arguments_are_refused():
    g = advance(variant("variants/base.toml").new_game(2, 5), 20, 2)
    want = g.observation_planes()
    out = np.full(want.shape, 7, np.float32)
    assert g.observation_planes(out=out) is out and np.array_equal(out, want)
    out8 = np.full(want.shape, 7, np.uint8)
    g.observation_planes(out=out8)
    assert np.array_equal(out8, want)
    with pytest.raises(ValueError, match="shape"):
        g.observation_planes(out=np.zeros((1, 25, 25), np.float32))
    with pytest.raises(TypeError, match="float32 or uint8"):
        g.observation_planes(out=np.zeros(want.shape, np.float64))
    with pytest.raises(ValueError, match="contiguous"):
        g.observation_planes(out=np.zeros(want.shape[::-1], np.float32).T)
    with pytest.raises(ValueError, match="dtype"):
        g.observation_planes(dtype="int64")
    with pytest.raises(ValueError, match="seat 5"):
        g.observation_planes(player=5)
    assert np.array_equal(g.observation_features(), g.observation()["features"])


def test_batch_planes_are_the_games_planes():
    v = variant("variants/house/hand-3.toml")
    b = tegula.Batch(v, 4, seed=2, agents=["greedy"])
    for _ in range(30):
        b.step_agents(observe=False, masks=False)
    planes, feats = b.planes()
    assert planes.shape == (4, len(b.game(0).plane_channels()), 25, 25)
    for i in range(4):
        g = b.game(i)
        seat = g.current_player()
        np.testing.assert_array_equal(planes[i], g.observation_planes(player=seat))
        np.testing.assert_array_equal(feats[i], g.observation_features(player=seat))
    p8, f8 = b.planes(dtype="uint8", games=[3, 1])
    np.testing.assert_array_equal(p8, planes[[3, 1]].astype(np.uint8))
    np.testing.assert_array_equal(f8, feats[[3, 1]])
    b.play_agents()
    done, feats_done = b.planes(games=[0])
    assert not done.any() and not feats_done.any()
