"""A game driven entirely from Python gives the same log as `tegula play` with the same seed."""

import os
import pathlib
import subprocess

import pytest

import tegula
from conftest import ROOT, variant


def cli(args):
    """Run the tegula CLI: $TEGULA_BIN, else a built binary, else `cargo run`."""
    exe = os.environ.get("TEGULA_BIN")
    if not exe:
        for profile in ("debug", "release"):
            p = ROOT / "target" / profile / "tegula"
            if p.is_file():
                exe = str(p)
                break
    cmd = [exe] if exe else ["cargo", "run", "--quiet", "--"]
    subprocess.run(cmd + args, cwd=ROOT, check=True, capture_output=True)


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
