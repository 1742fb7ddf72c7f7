"""Train the learned agent of `tegula.value_agent` by self-play and measure it against the
built-in greedy agent (docs/AI.md, "A learned agent").

    python3 crates/python/examples/train_value.py --iterations 4 --games 100 --eval 400 --out value-base.json

Each iteration plays `--games` two-seat games of the current agent against itself (a share
`--explore` of its turns chosen at random, for variety), records `φ` of every position where a
seat decides together with that seat's final margin (its score minus the other's), and fits
the weights by ridge regression on everything recorded so far. The first iteration starts from
the greedy agent's weights (the margin alone). Then `--eval` games against `greedy`, the seats
alternating, give the win rate with its 95 % (Wilson) interval. NumPy only; no GPU.
"""

import argparse
import time

import numpy as np

import tegula
from tegula.evaluate import margin_against, wilson
from tegula.value_agent import ValueAgent, feature_names


def self_play(variant, agent, seed):
    """One game of `agent` against itself: rows of φ and the deciding seat, final scores."""
    g = variant.new_game(2, seed)
    rows = []
    while not g.is_terminal():
        if g.is_chance_node():
            g.apply_default_draw()
            continue
        me = g.current_player()
        rows.append((agent.phi(g, me), me))
        agent.play(g)
    return rows, g.scores()


def fit(xs, ys, ridge=1.0):
    """Ridge regression (the bias unpenalised)."""
    x, y = np.asarray(xs), np.asarray(ys)
    penalty = ridge * np.eye(x.shape[1])
    penalty[-1, -1] = 0.0
    return np.linalg.solve(x.T @ x + penalty, x.T @ y)


def evaluate(variant, agent, games, opponent="greedy", first_seed=1_000_000):
    """Games of `agent` against a built-in agent, seats alternating: (wins, draws)."""
    margins = [margin_against(variant, agent, i, first_seed, opponent) for i in range(games)]
    return sum(m > 0 for m in margins), sum(m == 0 for m in margins)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="base")
    ap.add_argument("--iterations", type=int, default=4)
    ap.add_argument("--games", type=int, default=100, help="self-play games per iteration")
    ap.add_argument("--explore", type=float, default=0.1)
    ap.add_argument("--eval", type=int, default=400, help="games against greedy at the end")
    ap.add_argument("--out", default="value-base.json")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--weights", help="skip training: evaluate these weights (a file --out wrote)")
    ap.add_argument("--eval-seed", type=int, default=1_000_000,
                    help="seed of the first evaluation game (game i: eval-seed + i)")
    a = ap.parse_args()
    v = tegula.Variant(a.variant)
    if a.weights:
        report(v, ValueAgent.load(a.weights), a.eval, a.eval_seed, time.perf_counter())
        return
    agent = ValueAgent.greedy_like(explore=a.explore, seed=a.seed)
    xs, ys = [], []
    t0 = time.perf_counter()
    for it in range(a.iterations):
        for k in range(a.games):
            rows, scores = self_play(v, agent, a.seed * 1_000_003 + it * a.games + k)
            for phi, me in rows:
                xs.append(phi)
                ys.append(scores[me] - scores[1 - me])
        agent = ValueAgent(fit(xs, ys), explore=a.explore, seed=a.seed + it + 1)
        print(f"iteration {it + 1}: {len(xs)} positions, {time.perf_counter() - t0:.0f} s",
              flush=True)
    final = ValueAgent(agent.w)
    games = a.iterations * a.games
    final.save(a.out, variant=a.variant, self_play_games=games, positions=len(xs))
    print(f"trained on {games} self-play games of {a.variant}; weights in {a.out}")
    for name, w in zip(feature_names(), final.w):
        print(f"  {name:>22} {w:+.3f}")
    report(v, final, a.eval, a.eval_seed, t0)


def report(variant, agent, games, first_seed, t0):
    """Evaluate against greedy and print the win rate with its interval."""
    wins, draws = evaluate(variant, agent, games, first_seed=first_seed)
    lo, hi = wilson(wins, games)
    print(
        f"learned agent vs greedy: won {100 * wins / games:.1f} % of {games} games "
        f"({draws} drawn; 95 % interval {100 * lo:.1f} % to {100 * hi:.1f} %), "
        f"{time.perf_counter() - t0:.0f} s in all"
    )


if __name__ == "__main__":
    main()
