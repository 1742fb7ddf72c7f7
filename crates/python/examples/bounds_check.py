"""The proven score bound of every shipped variant (`tegula.Variant.max_score`) against the
highest score seen in seeded games of the CLI (docs/AI.md, "Utility bounds"): random and greedy
two-seat games, the ratio bound / highest seen, and whether it is within 5×.

    python3 crates/python/examples/bounds_check.py --random 100000 --greedy 2000 --cli target/release/tegula

Prints a Markdown table.
"""

import argparse
import json
import os
import subprocess
import tempfile

import tegula


def highest(exe, path, games, agents):
    """The highest seat score over `games` seeded games (`tegula simulate --out`)."""
    if games == 0:
        return 0
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "games.jsonl")
        cmd = [exe, "simulate", "--variant", path, "--games", str(games), "--seed", "1",
               "--agents", agents, "--out", out, "--format", "json"]
        subprocess.run(cmd, check=True, capture_output=True)
        best = 0
        with open(out, encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                if "scores" in row:
                    best = max(best, max(row["scores"]))
        return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--random", type=int, default=100_000)
    ap.add_argument("--greedy", type=int, default=2_000)
    ap.add_argument("--cli", default=os.path.join("target", "release", "tegula"))
    ap.add_argument("--variants", nargs="*", help="these shipped variants only (default: all)")
    a = ap.parse_args()
    print(f"| variant | `max_score(2)` | highest of {a.random:,} random | highest of {a.greedy:,} "
          "greedy | bound / highest | within 5× |")
    print("|---|---|---|---|---|---|")
    for name in a.variants or tegula.variants.names():
        path = tegula.variants.path(name)
        v = tegula.Variant(path)
        lo, hi = v.player_range
        if not lo <= 2 <= hi:
            continue
        bound = v.max_score(2)
        r = highest(a.cli, path, a.random, "random")
        g = highest(a.cli, path, a.greedy, "greedy")
        top = max(r, g, 1)
        ratio = bound / top
        print(f"| {name} | {bound:,} | {r} | {g} | {ratio:.1f} | {'yes' if ratio <= 5 else 'no'} |",
              flush=True)


if __name__ == "__main__":
    main()
