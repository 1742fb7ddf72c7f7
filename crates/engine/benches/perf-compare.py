#!/usr/bin/env python3
"""Side-by-side speed of two tegula builds on one core (docs/BENCHMARKS.md).

    python3 crates/engine/benches/perf-compare.py --old ../old --new . [--rounds 3] [--games 20000]
        [--variants base,abbey-mayor,wonders] [--mcts 1000 --mcts-games 4] [--instructions]

OLD and NEW are checkouts (built here with the `perf` profile unless --no-build; each binary
then plays its own checkout's variants/) or tegula binaries (playing the variants/ of
--old-cwd / --new-cwd, default the current directory). Runs are interleaved, old and new alternating which goes first, each
pinned to one core with taskset when it is available; the table gives the median of the rounds
and every run, and the ratio new/old. Wall-clock figures move with the machine's load: compare
only runs made together, and prefer --instructions (valgrind, deterministic) on a busy machine.
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys


def binary(path, build, cwd):
    """The tegula binary of a checkout (built with the perf profile) and that checkout, or the
    path itself and `cwd`."""
    if os.path.isdir(path):
        if build:
            print(f"building {path} (perf profile)...", file=sys.stderr)
            subprocess.run(
                ["cargo", "build", "--locked", "--profile", "perf", "--bin", "tegula"],
                cwd=path,
                check=True,
            )
        return os.path.abspath(os.path.join(path, "target", "perf", "tegula")), path
    return os.path.abspath(path), cwd or os.getcwd()


def cpu_seconds():
    """User and system CPU time of the finished child processes so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def simulate(exe, cwd, variant, games, agents, core):
    """One `simulate` run's JSON report, with the run's CPU seconds added as `cpu_seconds`."""
    cmd = [exe, "simulate", "--variant", f"variants/{variant}.toml", "--players", "2"]
    cmd += ["--games", str(games), "--seed", "1", "--jobs", "1", "--format", "json"]
    cmd += ["--agents", agents]
    if core is not None and shutil.which("taskset"):
        cmd = ["taskset", "-c", str(core)] + cmd
    before = cpu_seconds()
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=True)
    report = json.loads(out.stdout)
    report["cpu_seconds"] = max(cpu_seconds() - before, 1e-9)
    return report


def instructions(exe, cwd, variant, games):
    """Instructions per random game: cachegrind on 2N and N games, the difference over N (the
    setup cancels out)."""

    def refs(n):
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no"]
        cmd += ["--cachegrind-out-file=/dev/null", exe, "simulate"]
        cmd += ["--variant", f"variants/{variant}.toml", "--players", "2", "--games", str(n)]
        cmd += ["--seed", "1", "--jobs", "1", "--format", "json"]
        err = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=True).stderr
        line = next(x for x in err.splitlines() if "I" in x and "refs" in x)
        return int(line.split()[-1].replace(",", ""))

    return (refs(2 * games) - refs(games)) // games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--variants", default="base,abbey-mayor,wonders")
    ap.add_argument("--mcts", type=int, default=1000, help="N of mcts:N (0: none)")
    ap.add_argument("--mcts-games", type=int, default=4)
    ap.add_argument("--core", type=int, default=1, help="core to pin to (-1: none)")
    ap.add_argument("--instructions", action="store_true", help="also count instructions")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--old-cwd", help="where a binary OLD plays (its variants/)")
    ap.add_argument("--new-cwd", help="where a binary NEW plays (its variants/)")
    a = ap.parse_args()
    core = None if a.core < 0 else a.core
    bins = {
        "old": binary(a.old, not a.no_build, a.old_cwd),
        "new": binary(a.new, not a.no_build, a.new_cwd),
    }
    cases = [(v, "random", a.games, "games_per_second") for v in a.variants.split(",")]
    if a.mcts > 0:
        # Every seat searches, so decisions/s is the searches' rate in both builds (an old
        # build reports no `search` figures).
        cases.append(("base", f"mcts:{a.mcts}", a.mcts_games, "decisions_per_second"))
    runs = {}
    for r in range(a.rounds):
        order = ["old", "new"] if r % 2 == 0 else ["new", "old"]
        for variant, agents, games, key in cases:
            for side in order:
                exe, cwd = bins[side]
                rep = simulate(exe, cwd, variant, games, agents, core)
                # Per CPU second too: time the process waited for the core does not count.
                count = rep["games"] if key == "games_per_second" else rep["decisions"]
                cpu = count / rep["cpu_seconds"]
                runs.setdefault((variant, agents, key), {}).setdefault(side, []).append(
                    (rep[key], cpu)
                )
        print(f"round {r + 1} of {a.rounds} done", file=sys.stderr)
    print("| case | old | new | new/old | per CPU s: old | new | new/old | runs old | runs new |")
    print("|---|---|---|---|---|---|---|---|---|")
    medians = {}
    show = lambda xs: " ".join(f"{x[0]:.0f}" for x in xs)
    for (variant, agents, key), sides in runs.items():
        o, n = (statistics.median(x[0] for x in sides[s]) for s in ("old", "new"))
        oc, nc = (statistics.median(x[1] for x in sides[s]) for s in ("old", "new"))
        medians[(variant, agents)] = (o, n)
        print(
            f"| {variant} {agents} {key} | {o:.0f} | {n:.0f} | {n / o:.3f} | {oc:.0f} | "
            f"{nc:.0f} | {nc / oc:.3f} | {show(sides['old'])} | {show(sides['new'])} |"
        )
    base = medians.get(("base", "random"))
    if base and len([k for k in medians if k[1] == "random"]) > 1:
        print("\nEach variant's games/s as a share of base's, same binary (old, new):")
        for (variant, agents), (o, n) in medians.items():
            if agents == "random" and variant != "base":
                print(f"  {variant}: {o / base[0]:.2f}  {n / base[1]:.2f}")
    if a.instructions:
        print("\n| variant | instructions/game old | new | new/old |\n|---|---|---|---|")
        for v in a.variants.split(","):
            o, n = (instructions(*bins[s], v, 1000) for s in ("old", "new"))
            print(f"| {v} | {o:,} | {n:,} | {n / o:.3f} |")


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as e:
        sys.exit(f"error: {' '.join(e.cmd)} exited with {e.returncode}\n{e.stderr or ''}")
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"error: {e}")
