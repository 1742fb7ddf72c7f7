"""The installed package: type stubs that cover the native module, the `py.typed` marker."""

import ast
import os
import pathlib
import subprocess
import sys

import pytest

import tegula
import tegula._tegula as native
from conftest import ROOT

PACKAGE = pathlib.Path(tegula.__file__).parent


def stub_names():
    """Names the stub defines: module level, and per class."""
    tree = ast.parse((PACKAGE / "_tegula.pyi").read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            top.add(node.name)
            members[node.name] = {
                n.name for n in node.body if isinstance(n, ast.FunctionDef)
            } | {n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
    return top, members


def test_the_package_is_typed():
    assert (PACKAGE / "py.typed").is_file()
    assert (PACKAGE / "_tegula.pyi").is_file()


def test_the_stub_covers_the_native_module():
    """Every public name of the native module and every method of its classes is in the stub
    (a method added to the Rust side without a stub fails here)."""
    top, members = stub_names()
    public = {n for n in dir(native) if not n.startswith("__")}
    assert public <= top, public - top
    for cls in ("Variant", "Game", "Agent", "Batch"):
        own = {n for n in vars(getattr(native, cls)) if not n.startswith("__")}
        assert own <= members[cls], (cls, own - members[cls])


def test_the_package_carries_the_shipped_data():
    """The embedded files are the repository's tiles/, variants/ and variant schema, byte for
    byte (the wheel built from this tree)."""
    files = dict(native.shipped_files())
    on_disk = [p for d in ("tiles", "variants") for p in (ROOT / d).rglob("*.toml")]
    on_disk.append(ROOT / "schema/variant.schema.json")
    assert sorted(files) == sorted(p.relative_to(ROOT).as_posix() for p in on_disk)
    for p in on_disk:
        assert files[p.relative_to(ROOT).as_posix()] == p.read_bytes()


SHIPPED = """
import tegula
g = tegula.Game.from_variant("base", players=2, seed=1)
v = tegula.Variant("house/hand-3")
print(g.num_distinct_actions, v.id, sorted({n for n in tegula.variants.names()} &
      {"base", "abbey-mayor", "wonders", "house/hand-3"}))
try:
    tegula.Variant("no-such-variant")
except FileNotFoundError as e:
    print("unknown:", "no shipped variant" in str(e))
"""


def test_shipped_variants_load_by_name_anywhere(tmp_path):
    """By name, from a working directory with no data and TEGULA_HOME unset (before: names
    were not understood)."""
    env = {k: v for k, v in os.environ.items() if k != "TEGULA_HOME"}
    out = subprocess.run(
        [sys.executable, "-c", SHIPPED], cwd=tmp_path, env=env, capture_output=True, check=True
    ).stdout.decode().splitlines()
    base = tegula.Variant(str(ROOT / "variants/base.toml")).num_distinct_actions()
    assert out == [
        f"{base} hand-3 ['abbey-mayor', 'base', 'house/hand-3', 'wonders']",
        "unknown: True",
    ]


def test_tegula_home_overrides_the_shipped_data(tmp_path, monkeypatch):
    monkeypatch.setenv("TEGULA_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError):
        tegula.variants.path("base")
    monkeypatch.setenv("TEGULA_HOME", str(ROOT))
    assert tegula.variants.path("base") == str(ROOT / "variants/base.toml")


@pytest.mark.parametrize("name", ["../variants/base", "/etc/passwd", "no-such-variant"])
def test_names_stay_inside_the_shipped_variants(name):
    with pytest.raises(FileNotFoundError, match="no shipped variant"):
        tegula.variants.path(name)
