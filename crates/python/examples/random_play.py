"""Random play through the Python API: games per second (docs/AI.md, "Python package").

    python3 crates/python/examples/random_play.py variants/base.toml 2000

Each game: a uniform random legal action at every decision, a draw sampled by the chance
outcomes' probabilities at every chance node, events recorded (as every tegula.Game does).
"""

import random
import sys
import time

import tegula


def play(variant, seed, rng):
    g = variant.new_game(players=2, seed=seed)
    while not g.is_terminal():
        if g.is_chance_node():
            outcomes = g.chance_outcomes()
            tiles = [t for t, _ in outcomes]
            g.apply(rng.choices(tiles, [p for _, p in outcomes])[0])
        else:
            g.apply(rng.choice(g.legal_actions()))
    return g


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "variants/base.toml"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    variant = tegula.Variant(path)
    rng = random.Random(1)
    total = 0
    start = time.perf_counter()
    for seed in range(games):
        total += sum(play(variant, seed, rng).scores())
    elapsed = time.perf_counter() - start
    print(f"{games / elapsed:.0f} games/s, mean total score {total / games:.1f} ({games} games)")


if __name__ == "__main__":
    main()
