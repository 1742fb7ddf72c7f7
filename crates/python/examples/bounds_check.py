"""The proven score bound of every shipped variant (`tegula.Variant.max_score`) against the
highest seat score seen in seeded two-seat games (docs/AI.md, "Utility bounds"): random and
greedy games played by `tegula.Batch`, the ratio bound / highest seen, and whether it is within
5×. Exits 1 if any game scores more than its variant's bound (the bound would be wrong).

    python3 crates/python/examples/bounds_check.py --random 100000 --greedy 1000

(docs/AI.md's table: 101,000 games per variant, about 8 minutes of one core with the release
wheel; the defaults, 2,000 and 400, take a few seconds a variant.) Prints a Markdown table, then
the games and CPU seconds in all.
"""

import argparse
import sys
import time

import tegula

CHUNK = 4096  # games per batch (a batch holds at most 8,192)


def highest(variant, games, agent):
    """The highest seat score over `games` two-seat games of `agent` (game i of a batch
    seeded with its chunk's index, as `tegula simulate --seed`)."""
    best = 0
    for k, start in enumerate(range(0, games, CHUNK)):
        n = min(CHUNK, games - start)
        batch = tegula.Batch(variant, n, players=2, seed=1 + k, agents=[agent])
        best = max(best, int(batch.play_agents().max()))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--random", type=int, default=2_000, help="random games per variant")
    ap.add_argument("--greedy", type=int, default=400, help="greedy games per variant")
    ap.add_argument("--variants", nargs="*", help="these shipped variants only (default: all)")
    a = ap.parse_args()
    t0 = time.process_time()
    print(f"| variant | `max_score(2)` | highest of {a.random:,} random | highest of {a.greedy:,} "
          "greedy | bound / highest | within 5× |")
    print("|---|---|---|---|---|---|")
    broken = []
    played = 0
    for name in a.variants or tegula.variants.names():
        v = tegula.Variant(tegula.variants.path(name))
        lo, hi = v.player_range
        if not lo <= 2 <= hi:
            continue
        bound = v.max_score(2)
        r = highest(v, a.random, "random")
        g = highest(v, a.greedy, "greedy")
        played += a.random + a.greedy
        top = max(r, g, 1)
        if top > bound:
            broken.append(f"{name}: a game scored {top}, above the bound {bound}")
        ratio = bound / top
        print(f"| {name} | {bound:,} | {r} | {g} | {ratio:.1f} | {'yes' if ratio <= 5 else 'no'} |",
              flush=True)
    print(f"\n{played:,} games, {time.process_time() - t0:.0f} s of CPU")
    for line in broken:
        print(line, file=sys.stderr)
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
