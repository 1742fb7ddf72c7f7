"""The shipped variants by name.

    import tegula
    g = tegula.Game.from_variant(tegula.variants.path("base"), players=2)

`path(name)` gives the file of a shipped variant (`base`, `abbey-mayor`, `wonders`,
`house/hand-3`, …), or returns `name` itself when it already is a file path (it ends in
`.toml`). The variants are looked up in `variants/` of the directory `TEGULA_HOME` names, or
else of the working directory or the nearest parent that has one (a checkout of the
repository): the wheel does not carry them yet.
"""

import os
import pathlib


def _variants_dir():
    """The `variants/` directory of TEGULA_HOME, the working directory or a parent."""
    home = os.environ.get("TEGULA_HOME")
    starts = [pathlib.Path(home)] if home else []
    cwd = pathlib.Path.cwd().resolve()
    starts += [cwd, *cwd.parents]
    for d in starts:
        if (d / "variants").is_dir():
            return d / "variants"
    return None


def names():
    """The shipped variants' names, sorted (a house rule as `house/NAME`); empty when no
    `variants/` directory is found."""
    root = _variants_dir()
    if root is None:
        return []
    files = root.rglob("*.toml")
    return sorted(p.relative_to(root).with_suffix("").as_posix() for p in files)


def path(name):
    """The file of the shipped variant `name`; `name` itself if it ends in `.toml` (a path).
    An unknown name raises `FileNotFoundError` listing the shipped ones."""
    name = str(name)
    if name.endswith(".toml"):
        return name
    root = _variants_dir()
    p = root / f"{name}.toml" if root else None
    if p is None or not p.is_file():
        raise FileNotFoundError(
            f"no shipped variant `{name}` (shipped: {', '.join(names())})"
        )
    return str(p)
