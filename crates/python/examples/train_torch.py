"""Train the PyTorch agent of `tegula.torch_agent` by self-play and measure it against the
built-in greedy agent (docs/AI.md, "A learned agent in PyTorch").

    python3 crates/python/examples/train_torch.py --iterations 14 --games 24 --eval 600 \
        --out torch-base.pt

The scheme is value-guided one-turn search with a policy prior, not full AlphaZero MCTS: in base
a turn's outcome is decided by one placement and one follower choice, so looking at every way to
finish the turn (a few dozen ends, valued in one batch by the network) is cheap and exact about
the turn's own scoring, where a tree search of Python `Game` clones would play some 100 times
fewer self-play games in the same half hour on a laptop's CPU. Each iteration plays `--games`
games of the current agent against itself (a share `--explore` of its decisions at random),
recording at each decision the inputs with the search's choice (a softmax over the first
actions' values, the policy target) and at each turn end chosen the inputs with what the margin
gained from there to the end of the game (the value target). Then the value head's linear part
(on the global vector, which holds the linear agent's features) is refitted by ridge regression
(`--ridge`) to every value row kept, and `--steps` steps of Adam on minibatches of the most
recent positions (up to `--buffer`) train the rest: the policy, and the value network on what
the linear part misses. Each iteration prints the value loss on its new games before training
on them, the linear part's alone and the whole head's, and sets the head's `gate` to the share
of the network part that fits those new games best (0 to 1: a network part that does not
generalise is not used). The network starts with its value head zero, i.e. as `greedy`.
Training stops after `--minutes` (or `--iterations`); then `--eval` games against `greedy`, the
seats alternating, give the win rate with its 95 % (Wilson) interval. CPU only; `--threads`
(default 1) is torch's thread count.
"""

import argparse
import multiprocessing
import time

import numpy as np
import torch

import tegula
from tegula.evaluate import margin_against, wilson
from tegula.torch_agent import SCALE, Net, TorchAgent, new_net


class Buffer:
    """The most recent training rows (planes stored as uint8: they are 0/1)."""

    def __init__(self, size):
        self.size = size
        self.rows = []

    def add(self, rows):
        self.rows.extend(rows)
        del self.rows[: max(0, len(self.rows) - self.size)]

    def sample(self, rng, n):
        idx = rng.integers(len(self.rows), size=min(n, len(self.rows)))
        return [self.rows[i] for i in idx]


def self_play(variant, agent, seed):
    """One game of `agent` against itself: (value rows, policy rows)."""
    g = variant.new_game(2, seed)
    agent.record = record = []
    while not g.is_terminal():
        if g.is_chance_node():
            g.apply_default_draw()
        else:
            agent.play(g)
    agent.record = None
    s = g.scores()
    values, policies = [], []
    for row in record:
        if row[0] == "value":
            _, me, x, gl, now = row
            final = s[me] - max(s[q] for q in range(len(s)) if q != me)
            values.append((x.astype(np.uint8), gl, (final - now) / SCALE))
        else:
            _, x, gl, ids, p = row
            policies.append((x.astype(np.uint8), gl, ids, p))
    return values, policies


@torch.inference_mode()
def held_out(net, rows, chunk=1024):
    """On `rows` the network has not trained on (the newest games): the value loss of the
    linear part alone and of the whole head, and the gate that would have fitted them best
    (the least-squares share of the network part, between 0 and 1)."""
    if not rows:
        return float("nan"), float("nan"), float(net.gate)
    y = torch.tensor([r[2] for r in rows], dtype=torch.float32)
    gl = torch.from_numpy(np.stack([r[1] for r in rows]))
    linear = net.linear(gl).squeeze(1)
    rest = torch.cat([
        net.forward_value(torch.from_numpy(np.stack([r[0] for r in rows[k:k + chunk]])
                                           .astype(np.float32)), gl[k:k + chunk], gated=False)
        for k in range(0, len(rows), chunk)
    ]) - linear
    mse = torch.nn.functional.mse_loss
    square = float((rest * rest).sum())
    gate = min(1.0, max(0.0, float((rest * (y - linear)).sum()) / square)) if square else 1.0
    return float(mse(linear, y)), float(mse(linear + net.gate * rest, y)), gate


def fit_linear(net, values, ridge):
    """The value head's linear part refitted, in closed form, to every value row kept."""
    if values.rows:
        net.fit_linear(np.stack([r[1] for r in values.rows]), [r[2] for r in values.rows], ridge)


def train_steps(net, opt, values, policies, rng, steps, batch):
    """`steps` Adam steps on minibatches of both heads' rows; the mean losses."""
    net.train()
    total_v = total_p = 0.0
    for _ in range(steps):
        vb = values.sample(rng, batch)
        x = torch.from_numpy(np.stack([r[0] for r in vb]).astype(np.float32))
        gl = torch.from_numpy(np.stack([r[1] for r in vb]))
        y = torch.tensor([r[2] for r in vb], dtype=torch.float32)
        loss_v = torch.nn.functional.mse_loss(net.forward_value(x, gl, gated=False), y)
        pb = policies.sample(rng, batch // 2)
        x = torch.from_numpy(np.stack([r[0] for r in pb]).astype(np.float32))
        gl = torch.from_numpy(np.stack([r[1] for r in pb]))
        logits = net.forward_policy(x, gl)
        # cross-entropy against the search's distribution over the legal first actions
        target = torch.zeros_like(logits)
        legal = torch.zeros(logits.shape, dtype=torch.bool)
        for k, (_, _, ids, p) in enumerate(pb):
            target[k, ids] = torch.from_numpy(p)
            legal[k, ids] = True
        logp = torch.log_softmax(logits.masked_fill(~legal, -1e9), dim=1)
        loss_p = -(target * logp).sum(dim=1).mean()
        opt.zero_grad()
        (loss_v + 0.1 * loss_p).backward()
        opt.step()
        total_v += float(loss_v.detach())
        total_p += float(loss_p.detach())
    net.eval()
    return total_v / max(1, steps), total_p / max(1, steps)


# Worker processes (`--jobs`): each loads the variant once, then plays the games it is sent
# with the weights it is sent.
_WORKER = {}


def _init_worker(variant, threads):
    torch.set_num_threads(threads)
    _WORKER["variant"] = tegula.Variant(variant)


def _agent(config, state, **kw):
    net = Net(**config)
    net.load_state_dict(state)
    return TorchAgent(net, **kw)


def _self_play_job(job):
    config, state, explore, seed, seeds = job
    agent = _agent(config, state, explore=explore, seed=seed)
    return [self_play(_WORKER["variant"], agent, s) for s in seeds]


def _eval_job(job):
    config, state, mode, first_seed, games = job
    agent = _agent(config, state, mode=mode)
    return [margin_against(_WORKER["variant"], agent, i, first_seed) for i in games]


def report(pool, agent, a, t0, label="learned agent"):
    """Evaluate against greedy and print the win rate with its interval."""
    config, state = agent.net.config, agent.net.state_dict()
    jobs = [(config, state, agent.mode, a.eval_seed, list(range(j, a.eval, a.jobs)))
            for j in range(a.jobs)]
    margins = [m for part in pool.map(_eval_job, jobs) for m in part]
    wins = sum(m > 0 for m in margins)
    draws = sum(m == 0 for m in margins)
    lo, hi = wilson(wins, a.eval)
    print(
        f"{label} vs greedy: won {100 * wins / max(1, a.eval):.1f} % of {a.eval} games "
        f"({draws} drawn; 95 % interval {100 * lo:.1f} % to {100 * hi:.1f} %; mean margin "
        f"{np.mean(margins) if margins else 0:+.1f}), {time.perf_counter() - t0:.0f} s in all",
        flush=True,
    )


def train(pool, variant, a, t0):
    """The self-play loop; the trained agent and the number of games."""
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    net = new_net(variant.new_game(2, 0), width=a.width, depth=a.depth)
    opt = torch.optim.Adam(net.network_parameters(), lr=a.lr, weight_decay=1e-5)
    values, policies = Buffer(a.buffer), Buffer(a.buffer // 4)
    games = it = 0
    while it < a.iterations and time.perf_counter() - t0 < 60 * a.minutes:
        seeds = [a.seed * 1_000_003 + games + k for k in range(a.games)]
        state = net.state_dict()
        jobs = [(net.config, state, a.explore, a.seed * 7919 + it * a.jobs + j, seeds[j::a.jobs])
                for j in range(a.jobs)]
        new = [game for part in pool.map(_self_play_job, jobs) for game in part]
        fresh_linear, fresh_full, gate = held_out(net, [r for v, _ in new for r in v])
        net.gate.fill_(gate)
        for v, p in new:
            values.add(v)
            policies.add(p)
        games += a.games
        fit_linear(net, values, a.ridge)
        lv, lp = train_steps(net, opt, values, policies, rng, a.steps, a.batch)
        it += 1
        print(f"iteration {it}: {games} games, {len(values.rows)} value rows, value loss on "
              f"the new games {fresh_linear:.3f} (linear part) {fresh_full:.3f} (whole head), "
              f"gate {gate:.2f}, network part's training loss {lv:.3f}, policy loss {lp:.3f}, "
              f"{time.perf_counter() - t0:.0f} s, "
              f"{time.process_time():.0f} s of this process's CPU", flush=True)
    return TorchAgent(net), games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="base")
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--games", type=int, default=24, help="self-play games per iteration")
    ap.add_argument("--minutes", type=float, default=30.0,
                    help="stop training after the iteration that passes this (wall clock)")
    ap.add_argument("--steps", type=int, default=40, help="training steps per iteration")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--buffer", type=int, default=60_000, help="value rows kept")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--ridge", type=float, default=1.0,
                    help="the penalty of the value head's linear part (least squares)")
    ap.add_argument("--explore", type=float, default=0.1)
    ap.add_argument("--width", type=int, default=16)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--threads", type=int, default=1, help="torch threads per process")
    ap.add_argument("--jobs", type=int, default=2,
                    help="processes playing the self-play and evaluation games")
    ap.add_argument("--eval", type=int, default=400, help="games against greedy at the end")
    ap.add_argument("--eval-seed", type=int, default=1_000_000,
                    help="seed of the first evaluation game (game i: eval-seed + i)")
    ap.add_argument("--mode", choices=("search", "policy"), default="search",
                    help="how the evaluated agent decides")
    ap.add_argument("--out", default="torch-base.pt")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--weights", help="skip training: evaluate these weights (a file --out wrote)")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    v = tegula.Variant(a.variant)
    t0 = time.perf_counter()
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(a.jobs, _init_worker, (a.variant, a.threads)) as pool:
        if a.weights:
            report(pool, TorchAgent.load(a.weights, mode=a.mode), a, t0, f"agent ({a.mode})")
            return
        agent, games = train(pool, v, a, t0)
        minutes = (time.perf_counter() - t0) / 60
        agent.save(a.out, variant=a.variant, self_play_games=games, minutes=round(minutes, 1))
        print(f"trained on {games} self-play games of {a.variant} in {minutes:.1f} min; "
              f"weights in {a.out}", flush=True)
        agent.mode = a.mode
        report(pool, agent, a, t0, f"learned agent ({a.mode})")


if __name__ == "__main__":
    main()
