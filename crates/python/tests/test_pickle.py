"""Pickling by value: a game or variant travels with its compiled rules, so another process
unpickles it without the TOML files and from any working directory."""

import inspect
import pickle
import random
import subprocess
import sys

import tegula

CHECK = """
import pickle, sys
game, variant = pickle.load(sys.stdin.buffer)
print(game.to_json() == {snapshot!r}, game.legal_actions(), game.history()[-3:], game.seed,
      variant.id, variant.num_distinct_actions(), game.log_jsonl() == {log!r})
"""


def played(path, seed, steps):
    """A game of `path` (relative to the repository root) after `steps` random steps."""
    g = tegula.Variant(path).new_game(2, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_chance_node():
            g.apply_default_draw()
        else:
            g.apply(rng.choice(g.legal_actions()))
    return g


def test_unpickling_needs_no_file(tmp_path):
    """A game and a variant loaded by relative paths unpickle in a process whose working
    directory holds no variant (before: the pickle named the relative path and failed)."""
    g = played("variants/abbey-mayor.toml", 3, 80)
    v = tegula.Variant("variants/abbey-mayor.toml")
    script = CHECK.format(snapshot=g.to_json(), log=g.log_jsonl())
    out = subprocess.run(
        [sys.executable, "-c", script],
        input=pickle.dumps((g, v)),
        capture_output=True,
        cwd=tmp_path,
        check=True,
    ).stdout.decode()
    expected = (
        f"True {g.legal_actions()} {g.history()[-3:]} {g.seed} {v.id} "
        f"{v.num_distinct_actions()} True"
    )
    assert out.strip() == expected


def test_pickled_game_plays_on_alike():
    """The unpickled game is the same game: the same moves give the same states."""
    g = played("variants/wonders.toml", 5, 50)
    h = pickle.loads(pickle.dumps(g))
    rng = random.Random(9)
    while not g.is_terminal():
        assert h.legal_actions() == g.legal_actions()
        if g.is_chance_node():
            t = g.apply_default_draw()
            h.apply(t)
        else:
            a = rng.choice(g.legal_actions())
            g.apply(a)
            h.apply(a)
    assert h.to_json() == g.to_json() and h.returns() == g.returns()


def test_bad_artefact_is_an_error():
    import pytest

    with pytest.raises(tegula.VariantError):
        tegula.Variant._from_artefact('{"format_version": 1}', "x.toml")


def play_on(game, agents):
    """Play `game` to the end with `agents` by seat: the agents' moves and the final scores."""
    moves = []
    while not game.is_terminal():
        if game.is_chance_node():
            game.apply_default_draw()
        else:
            a = agents[game.current_player()].action(game)
            moves.append(a)
            game.apply(a)
    return moves, game.scores()


# The same play in another interpreter, from a pickle on standard input.
AGENT_CHECK = "\n".join([
    "import pickle, sys",
    inspect.getsource(play_on),
    "game, agents = pickle.load(sys.stdin.buffer)",
    "print(*play_on(game, agents))",
])


def test_agents_pickle_mid_game_and_play_on_identically(tmp_path):
    """Agents pickled by value in the middle of a game (after deciding in another game too)
    decide exactly as the originals from there, in another process and working directory
    (before: `tegula.Agent` could not be pickled)."""
    v = tegula.Variant("variants/wonders.toml")
    agents = [tegula.Agent("greedy", 3), tegula.Agent("random", 4), tegula.Agent("mcts:6", 5)]
    # Each agent decides in a first game, then in the middle of a second one.
    first = v.new_game(3, 1)
    for _ in range(30):
        if first.is_chance_node():
            first.apply_default_draw()
        else:
            first.apply(agents[first.current_player()].action(first))
    game = v.new_game(3, 2)
    for _ in range(40):
        if game.is_chance_node():
            game.apply_default_draw()
        else:
            game.apply(agents[game.current_player()].action(game))
    data = pickle.dumps((game, agents))
    copy_game, copy_agents = pickle.loads(data)
    assert repr(copy_agents[2]) == 'tegula.Agent("mcts:6", seed=5)'
    out = subprocess.run(
        [sys.executable, "-c", AGENT_CHECK], input=data, capture_output=True, cwd=tmp_path,
        check=True,
    ).stdout.decode()
    want = play_on(game, agents)
    assert play_on(copy_game, copy_agents) == want
    assert out.strip() == f"{want[0]} {want[1]}"


def test_a_fresh_agent_pickles_too():
    a = pickle.loads(pickle.dumps(tegula.Agent("random", 9)))
    g = tegula.Variant("variants/base.toml").new_game(2, 1)
    g.apply_default_draw()
    assert a.action(g) == tegula.Agent("random", 9).action(g)
