"""Shared fixtures of the Python package's tests: the repository root, the shipped variants."""

import os
import pathlib
import subprocess

import pytest

tegula = pytest.importorskip("tegula", reason="the tegula package is not installed (README)")

ROOT = pathlib.Path(__file__).resolve().parents[3]
VARIANTS = sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "variants").rglob("*.toml")
)


@pytest.fixture(autouse=True)
def _in_root(monkeypatch):
    """Paths in tests are relative to the repository root, as in the README."""
    monkeypatch.chdir(ROOT)


_LOADED = {}


def variant(path):
    """Each variant compiled once per test run."""
    if path not in _LOADED:
        _LOADED[path] = tegula.Variant(str(ROOT / path))
    return _LOADED[path]


def cli(args):
    """Run the tegula CLI from the repository root: $TEGULA_BIN, else a built binary, else
    `cargo run`; the finished process (output captured, a failure raises)."""
    exe = os.environ.get("TEGULA_BIN")
    if not exe:
        for profile in ("debug", "release"):
            p = ROOT / "target" / profile / "tegula"
            if p.is_file():
                exe = str(p)
                break
    cmd = [exe] if exe else ["cargo", "run", "--quiet", "--"]
    return subprocess.run(cmd + args, cwd=ROOT, check=True, capture_output=True)
