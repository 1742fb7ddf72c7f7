"""Shared fixtures of the Python package's tests: the repository root, the shipped variants."""

import pathlib

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
