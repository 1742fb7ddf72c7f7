"""A small policy trained by self-play through tegula.Batch, then measured against the built-in
random and greedy agents with 95 % intervals (docs/AI.md, "A training example").

    python3 crates/python/examples/train_policy.py                 # a few minutes on one core
    python3 crates/python/examples/train_policy.py --iterations 2 --batch 8 --eval 20   # smoke

The policy is deliberately tiny, so that it trains in minutes with NumPy alone: a softmax over
the legal action ids with one learned preference per id (`num_distinct_actions` numbers). An id
names a move relative to the observation window (docs/AI.md, "Action ids"), so a preference can
learn, for instance, on which feature of a tile to put a follower or when to pass, but nothing
about the position: expect it to beat random play, not the one-ply greedy agent. It is trained
with REINFORCE: both seats play the current policy in a batch of games, each decision's
log-probability gradient is weighted by that seat's result (+1 win, -1 loss, 0 tie).

The evaluation plays the policy (sampling, as trained) against an agent for `--eval` games, half
of them in each seat, the untrained (uniform) policy too as a control; a tie counts as half a win
and the interval is the normal approximation.
"""

import argparse
import math
import time

import numpy as np

import tegula


def masked_softmax(prefs, mask):
    """Row-wise softmax of `prefs` over the True entries of `mask` (rows with none: zeros)."""
    logits = np.where(mask, prefs[None, :], -np.inf)
    top = logits.max(axis=1, keepdims=True)
    top[~np.isfinite(top)] = 0.0
    e = np.exp(logits - top)
    total = e.sum(axis=1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def sample(probs, rng):
    """One index per row drawn from `probs` (rows summing to 1; others give -1)."""
    u = rng.random((probs.shape[0], 1))
    picks = (probs.cumsum(axis=1) < u).sum(axis=1)
    return np.where(probs.sum(axis=1) > 0, np.minimum(picks, probs.shape[1] - 1), -1)


def outcome(scores):
    """+1 / -1 / 0 per seat of a two-seat game from its final scores."""
    return np.sign(scores[:, 0] - scores[:, 1])[:, None] * np.array([1.0, -1.0])


def self_play(v, prefs, games, seed, rng):
    """One batch of self-play games: the REINFORCE gradient of the preferences."""
    b = tegula.Batch(v, games, seed=seed)
    grads = np.zeros((games, 2, prefs.size))
    finals = np.zeros((games, 2))
    _, mask, _, done = b.observe()
    while not done.all():
        seats = b.current_players()
        probs = masked_softmax(prefs, mask)
        actions = sample(probs, rng)
        for i in np.flatnonzero(~done):
            # d log softmax / d prefs = onehot(action) - probs.
            grads[i, seats[i]] -= probs[i]
            grads[i, seats[i], actions[i]] += 1.0
        _, mask, rewards, done = b.step(actions, observe=False)
        finals += rewards
    return (grads * outcome(finals)[:, :, None]).sum(axis=(0, 1)) / games


def evaluate(v, prefs, opponent, games, seed, rng):
    """Win rate (ties half) of the policy against `opponent`, half the games in each seat,
    with its 95 % interval."""
    wins = 0.0
    for seat in (0, 1):
        n = games // 2
        agents = ["random", opponent] if seat == 0 else [opponent, "random"]
        b = tegula.Batch(v, n, seed=seed + seat, agents=agents)
        _, mask, _, done = b.observe()
        finals = np.zeros((n, 2))
        while not done.all():
            ours = b.current_players() == seat
            actions = np.where(ours, sample(masked_softmax(prefs, mask), rng), tegula.Batch.AGENT)
            _, mask, rewards, done = b.step(actions, observe=False)
            finals += rewards
        result = outcome(finals)[:, seat]
        wins += float((result > 0).sum() + 0.5 * (result == 0).sum())
    total = 2 * (games // 2)
    p = wins / total
    half = 1.96 * math.sqrt(p * (1 - p) / total)
    return p, max(0.0, p - half), min(1.0, p + half)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="base")
    ap.add_argument("--iterations", type=int, default=40)
    ap.add_argument("--batch", type=int, default=64, help="self-play games per iteration")
    ap.add_argument("--lr", type=float, default=0.5)
    ap.add_argument("--eval", type=int, default=400, help="games per evaluation")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    v = tegula.Variant(args.variant)
    rng = np.random.default_rng(args.seed)
    prefs = np.zeros(v.num_distinct_actions())
    start = time.perf_counter()
    for it in range(args.iterations):
        prefs += args.lr * self_play(v, prefs, args.batch, args.seed * 1_000_003 + it, rng)
    trained = time.perf_counter() - start
    print(
        f"trained on {args.iterations * args.batch} self-play games of {v.id} "
        f"in {trained:.1f} s"
    )
    # Evaluation games are seeded apart from the training games.
    for name, p in (("untrained (uniform)", np.zeros_like(prefs)), ("trained", prefs)):
        for opponent in ("random", "greedy"):
            rate, lo, hi = evaluate(v, p, opponent, args.eval, 10**9 + args.seed, rng)
            print(
                f"{name} policy vs {opponent}: won {100 * rate:.1f} % of {args.eval} games "
                f"(95 % interval {100 * lo:.1f} % to {100 * hi:.1f} %)"
            )


if __name__ == "__main__":
    main()
