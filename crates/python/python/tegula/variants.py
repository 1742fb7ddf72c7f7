"""The shipped variants by name, from the data the package carries.

    import tegula
    g = tegula.Game.from_variant("base", players=2)          # a name, or a variant file's path
    p = tegula.variants.path("house/hand-3")                  # the file of a shipped variant

The extension module embeds the repository's `tiles/`, `variants/` and the schema that marks
their data root (build.rs); the first call writes them to a private temporary folder (removed at
exit) and every name resolves there. `TEGULA_HOME`, if set, names another data root to use
instead (a checkout of the repository, say). `names()` lists the shipped variants (`base`,
`abbey-mayor`, `wonders`, `house/hand-3`, …).
"""

import atexit
import os
import pathlib
import shutil
import tempfile

from . import _tegula

_DATA = []


def data_root():
    """The folder holding `tiles/`, `variants/` and `schema/`: `TEGULA_HOME`, else the
    package's embedded data written once per process to a private temporary folder."""
    home = os.environ.get("TEGULA_HOME")
    if home:
        return pathlib.Path(home)
    if not _DATA:
        root = pathlib.Path(tempfile.mkdtemp(prefix="tegula-data-"))
        atexit.register(shutil.rmtree, root, True)
        for rel, content in _tegula.shipped_files():
            p = root / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(content)
        _DATA.append(root)
    return _DATA[0]


def names():
    """The shipped variants' names, sorted (a house rule as `house/NAME`)."""
    root = data_root() / "variants"
    return sorted(p.relative_to(root).with_suffix("").as_posix() for p in root.rglob("*.toml"))


def path(name):
    """The file of the shipped variant `name`; `name` itself if it ends in `.toml` (a path).
    An unknown name raises `FileNotFoundError` listing the shipped ones."""
    name = os.fspath(name)
    if name.endswith(".toml"):
        return name
    p = data_root() / "variants" / f"{name}.toml"
    # A name stays inside variants/ (no `..`, not absolute).
    if ".." in pathlib.PurePath(name).parts or os.path.isabs(name) or not p.is_file():
        raise FileNotFoundError(f"no shipped variant `{name}` (shipped: {', '.join(names())})")
    return str(p)
