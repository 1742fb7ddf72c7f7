"""The installed package: type stubs that cover the native module, the `py.typed` marker."""

import ast
import pathlib

import tegula
import tegula._tegula as native

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
    for cls in ("Variant", "Game", "Agent"):
        own = {n for n in vars(getattr(native, cls)) if not n.startswith("__")}
        assert own <= members[cls], (cls, own - members[cls])
