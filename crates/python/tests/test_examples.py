"""The examples run (a few seconds each): the training example trains, evaluates and reports
its win rates with intervals; the batched-play timing prints its two figures."""

import re
import subprocess
import sys

from conftest import ROOT

EXAMPLES = ROOT / "crates" / "python" / "examples"


def run(script, *args):
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=300,
    )
    return out.stdout


def test_training_example_smoke():
    out = run("train_policy.py", "--iterations", "2", "--batch", "8", "--eval", "20")
    assert "trained on 16 self-play games of base" in out
    rows = re.findall(
        r"(untrained \(uniform\)|trained) policy vs (random|greedy): won ([\d.]+) % of 20 games "
        r"\(95 % interval ([\d.]+) % to ([\d.]+) %\)",
        out,
    )
    assert len(rows) == 4, out
    for _, _, rate, lo, hi in rows:
        assert 0 <= float(lo) <= float(rate) <= float(hi) <= 100


def test_batched_play_example_smoke():
    out = run("batch_play.py", "base", "40")
    assert re.search(r"built-in random agents: \d+ games/s", out), out
    assert re.search(r"NumPy policy over masks: \d+ games/s", out), out
    assert re.search(r"NumPy policy, observations too: \d+ games/s", out), out


def test_speed_example_smoke():
    """The side-by-side timing runs every way and prints its table (a few games, any build)."""
    import pytest

    exe = next((p for p in (ROOT / "target" / d / "tegula" for d in ("debug", "release"))
                if p.is_file()), None)
    if exe is None:
        pytest.skip("no built tegula CLI (cargo build)")
    out = run("speed.py", "--games", "20", "--cli", str(exe))
    rows = re.findall(r"^\| (.+?) \| (\d+) \| ([\d.]+) \| ([\d,]+) \| ([\d.]+)× \|$", out, re.M)
    assert len(rows) == 11, out
    assert rows[0][0] == "`tegula simulate`" and rows[0][4] == "1.00"
    assert re.search(r"Game.observation_planes\(out=buf\): [\d.]+ µs", out), out


def test_bounds_check_example_smoke():
    """The bound-against-games table: a row per variant, the bound above every score seen, and
    the games counted."""
    out = run("bounds_check.py", "--random", "20", "--greedy", "2", "--variants", "base", "wonders")
    rows = re.findall(r"^\| ([\w/-]+) \| ([\d,]+) \| (\d+) \| (\d+) \| ([\d.]+) \| (yes|no) \|$",
                      out, re.M)
    assert [r[0] for r in rows] == ["base", "wonders"], out
    for _, bound, r, g, _, _ in rows:
        assert int(bound.replace(",", "")) >= max(int(r), int(g)) > 0
    assert re.search(r"^44 games, \d+ s of CPU$", out, re.M), out
