"""Action ids of any integer type (issue 33, item 1): `Batch.step` takes every NumPy integer
dtype and lists, `Game.apply` and the other action-taking calls any integer scalar; wrong types,
shapes and out-of-range or illegal ids are refused with the position they stand at, and a
refused step changes no game."""

import numpy as np
import pytest

import tegula
from conftest import variant

def first_legal(mask):
    """The lowest legal id of each game (-1, its agent, where none is)."""
    return [int(np.flatnonzero(m)[0]) if m.any() else -1 for m in mask]


def play_with(dtype, convert=np.array, steps=6):
    """Scores and histories of 4 base games stepped `steps` times with the lowest legal id (-1,
    the agent, where `dtype` cannot hold it), the ids passed as `convert(ids, dtype)`."""
    b = tegula.Batch(variant("variants/base.toml"), 4, seed=3)
    _, mask, _, _ = b.observe()
    top = np.iinfo(dtype).max
    for _ in range(steps):
        ids = [i if i <= top else -1 for i in first_legal(mask)]
        _, mask, _, _ = b.step(convert(ids, dtype))
    return b.scores().tolist(), [b.game(i).history() for i in range(4)]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32])
def test_every_signed_dtype_and_a_list_play_as_int64(dtype):
    want = play_with(dtype, lambda ids, _: np.array(ids, dtype=np.int64))
    assert play_with(dtype) == want
    assert play_with(dtype, lambda ids, _: list(ids)) == want
    assert play_with(dtype, lambda ids, d: [d(i) for i in ids]) == want
    assert play_with(dtype, lambda ids, _: tuple(ids)) == want


def test_unsigned_dtypes_step_too():
    b = tegula.Batch(variant("variants/base.toml"), 2, seed=5)
    _, mask, _, _ = b.observe()
    ids = [int(np.flatnonzero(m)[0]) for m in mask]
    want = tegula.Batch(variant("variants/base.toml"), 2, seed=5)
    want.step(np.array(ids, dtype=np.int64))
    for dtype in (np.uint16, np.uint32, np.uint64):
        b = tegula.Batch(variant("variants/base.toml"), 2, seed=5)
        b.step(np.array(ids, dtype=dtype))
        assert b.scores().tolist() == want.scores().tolist()
        assert [b.game(i).history() for i in range(2)] == [want.game(i).history() for i in range(2)]


def test_non_integer_actions_are_refused_with_their_place():
    b = tegula.Batch(variant("variants/base.toml"), 3, seed=1)
    with pytest.raises(TypeError, match="float64 is not an integer dtype"):
        b.step(np.zeros(3))
    with pytest.raises(TypeError, match="bool is not an integer dtype"):
        b.step(np.zeros(3, dtype=bool))
    with pytest.raises(TypeError, match=r"actions\[1\]: `str` is not an integer"):
        b.step([0, "x", 1])
    with pytest.raises(TypeError, match=r"actions\[2\]: `NoneType`"):
        b.step([0, 1, None])
    with pytest.raises(ValueError, match=r"a 1-D array of integers, got shape \[3, 1\]"):
        b.step(np.zeros((3, 1), dtype=np.int32))
    with pytest.raises(ValueError, match="2 actions for 3 games"):
        b.step(np.zeros(2, dtype=np.int32))
    with pytest.raises(tegula.IllegalActionError, match=r"actions\[1\]: 18446744073709551615"):
        b.step(np.array([0, 2**64 - 1, 0], dtype=np.uint64))
    with pytest.raises(tegula.IllegalActionError, match="beyond int64") as e:
        b.step([0, 0, 2**70])
    assert e.value.action == 2**70 and e.value.kind == "unknown-action"


def test_out_of_range_and_illegal_ids_name_the_game_and_change_none():
    b = tegula.Batch(variant("variants/base.toml"), 3, seed=1)
    _, mask, _, _ = b.observe()
    before = [b.game(i).to_json() for i in range(3)]
    good = first_legal(mask)
    big = b.num_distinct_actions + 5
    with pytest.raises(tegula.IllegalActionError, match=rf"actions\[2\] = {big}: not an action") as e:
        b.step(np.array(good[:2] + [big], dtype=np.int32))
    assert e.value.action == big and e.value.kind == "unknown-action"
    illegal = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(tegula.IllegalActionError, match=rf"actions\[1\] = {illegal}"):
        b.step([good[0], illegal, good[2]])
    assert [b.game(i).to_json() for i in range(3)] == before


def test_game_calls_take_any_integer_scalar():
    g = variant("variants/base.toml").new_game(2, 1)
    g.apply_default_draw()
    a = g.legal_actions()[0]
    for scalar in (np.int32(a), np.uint16(a), np.int64(a), np.array(a, dtype=np.int8 if a < 128 else np.int32)):
        assert g.is_legal(scalar)
        assert g.action_to_string(scalar) == g.action_to_string(a)
        assert g.decode_action(scalar) == g.decode_action(a)
    assert not g.is_legal(2**70)
    with pytest.raises(TypeError, match="not an integer action id"):
        g.apply(1.0)
    with pytest.raises(TypeError, match="is a bool"):
        g.apply(True)
    with pytest.raises(tegula.IllegalActionError, match="beyond int64"):
        g.apply(-(2**80))
    h = g.clone()
    g.apply(np.int32(a))
    h.apply(a)
    assert g.history() == h.history()
