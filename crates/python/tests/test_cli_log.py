"""A game driven entirely from Python gives the same log as `tegula play` with the same seed."""

import pathlib

import pytest

import tegula
from conftest import cli, variant


def play_from_python(path, seed, kind, players=2):
    g = variant(path).new_game(players, seed)
    _, agent_seeds = tegula.play_seeds(seed, players)
    agents = [tegula.Agent(kind, s) for s in agent_seeds]
    while not g.is_terminal():
        if g.is_chance_node():
            g.apply_default_draw()
        else:
            g.apply(agents[g.current_player()].action(g))
    return g


@pytest.mark.parametrize(
    "path,seed,kind",
    [
        ("variants/base.toml", 1, "random"),
        ("variants/base.toml", 7, "greedy"),
        ("variants/abbey-mayor.toml", 3, "random"),
        ("variants/wonders.toml", 4, "random"),
    ],
)
def test_python_game_matches_cli_log(tmp_path: pathlib.Path, path, seed, kind):
    log = tmp_path / "game.jsonl"
    cli(["play", "--variant", path, "--seed", str(seed), "--agents", kind, "--log", str(log)])
    g = play_from_python(path, seed, kind)
    expected = log.read_text()
    assert g.log_jsonl().splitlines() == expected.splitlines()
    end = [line for line in expected.splitlines() if '"type":"end"' in line]
    assert end and str(g.scores()).replace(" ", "") in end[0].replace(" ", "")
