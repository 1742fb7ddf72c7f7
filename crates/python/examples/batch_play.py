"""Random play through tegula.Batch, timed: games per second of wall-clock time.

    python3 crates/python/examples/batch_play.py base 2000 [threads]

Three ways: the batch's built-in random agents (`Batch.play_agents`, all in Rust, the GIL
released); a uniform random policy in NumPy over the legal-action masks (`Batch.step`, the masks
returned as arrays at every step); the same with the observations too, as a training loop that
reads the board gets them. Compare with
`tegula simulate --variant variants/base.toml --games 2000 --seed 1 --format json`
(`games_per_second`): docs/AI.md, "Batched play".
"""

import sys
import time

import numpy as np

import tegula


def agents(v, games, threads, width=8192):
    t = time.perf_counter()
    for start in range(0, games, width):
        n = min(width, games - start)
        tegula.Batch(v, n, seed=1 + start, threads=threads).play_agents()
    return games / (time.perf_counter() - t)


def masks(v, games, threads, observe, width=256):
    rng = np.random.default_rng(1)
    t = time.perf_counter()
    for start in range(0, games, width):
        b = tegula.Batch(v, min(width, games - start), seed=1 + start, threads=threads)
        _, mask, _, done = b.observe()
        while not done.all():
            # A uniform choice among each row's legal ids (finished games: -1, ignored).
            r = rng.random(mask.shape) * mask
            actions = np.where(done, -1, r.argmax(axis=1))
            _, mask, _, done = b.step(actions, observe=observe)
    return games / (time.perf_counter() - t)


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "base"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    v = tegula.Variant(name)
    print(f"built-in random agents: {agents(v, games, threads):.0f} games/s")
    print(f"NumPy policy over masks: {masks(v, games, threads, False):.0f} games/s")
    few = max(1, games // 10)
    print(f"NumPy policy, observations too: {masks(v, few, threads, True):.0f} games/s")


if __name__ == "__main__":
    main()
