"""Random two-player games of a variant played every way the package offers, side by side, in
CPU seconds (user + system of this process, or of the CLI's process): docs/AI.md, "Speed, side
by side". Build the wheel and the CLI in release mode first (the figures of debug builds say
little).

    python3 crates/python/examples/speed.py [--variant base] [--games 2000] [--cli target/release/tegula]

Prints a Markdown table (games per CPU second and the ratio to `tegula simulate`) and the cost
of one observation call each way (microseconds, mid-game base state).
"""

import argparse
import os
import resource
import subprocess
import time

import numpy as np

import tegula


def cpu():
    """CPU seconds of this process so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed(f, *args):
    t = cpu()
    f(*args)
    return cpu() - t


def cli(exe, variant, games):
    """`tegula simulate`'s CPU seconds for `games` random games (its own process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    path = tegula.variants.path(variant)
    cmd = [exe, "simulate", "--variant", path, "--games", str(games), "--seed", "1",
           "--format", "json"]
    subprocess.run(cmd, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def batch_agents(v, games):
    tegula.Batch(v, games, seed=1).play_agents()


def batch_policy(v, games, observe, width=256):
    """A uniform policy in NumPy over the masks; `observe`: None, "flat" or "planes"."""
    rng = np.random.default_rng(1)
    for start in range(0, games, width):
        b = tegula.Batch(v, min(width, games - start), seed=1 + start)
        _, mask, _, done = b.reset(observe=False)
        while not done.all():
            r = rng.random(mask.shape) * mask
            actions = np.where(done, -1, r.argmax(axis=1))
            _, mask, _, done = b.step(actions, observe=observe == "flat")
            if observe == "planes":
                b.planes()


def python_loop(v, games, observe):
    """`tegula.Game` driven from Python: seeded draws, uniform legal actions."""
    rng = np.random.default_rng(1)
    buf = None
    for i in range(games):
        g = v.new_game(2, i)
        while not g.is_terminal():
            if g.is_chance_node():
                g.apply_default_draw()
                continue
            if observe == "flat":
                g.observation_tensor()
            elif observe == "planes":
                buf = g.observation_planes(out=buf)
            legal = g.legal_actions()
            g.apply(legal[int(rng.integers(len(legal)))])


def pyspiel_loop(variant, games, observe):
    """The OpenSpiel game (`import tegula.openspiel`) driven through pyspiel."""
    import pyspiel

    import tegula.openspiel  # noqa: F401

    obs = "flat" if observe == "flat" else "planes"
    game = pyspiel.load_game("tegula", {"variant": variant, "observation": obs})
    rng = np.random.default_rng(1)
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                tiles, probs = zip(*s.chance_outcomes())
                s.apply_action(int(rng.choice(tiles, p=probs)))
                continue
            if observe:
                s.observation_tensor()
            legal = s.legal_actions()
            s.apply_action(legal[int(rng.integers(len(legal)))])


def per_call(v, variant):
    """Microseconds per observation call at turn 36 of a base game."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    import tegula.openspiel  # noqa: F401

    g = v.new_game(2, 1)
    while g.turn < 36:
        if g.is_chance_node():
            g.apply_default_draw()
        else:
            g.apply(tegula.agent_action(g, "greedy", 1))
    buf = g.observation_planes()
    out = {}
    for name, f in [
        ("Game.observation_tensor()", lambda: g.observation_tensor()),
        ("Game.observation_planes(out=buf)", lambda: g.observation_planes(out=buf)),
        ("Game.observation_planes(dtype='uint8')", lambda: g.observation_planes(dtype="uint8")),
    ]:
        out[name] = bench(f)
    for obs in ("flat", "planes"):
        game = pyspiel.load_game("tegula", {"variant": variant, "observation": obs})
        s = game.new_initial_state()
        for a in g.history():
            s.apply_action(a)
        out[f"pyspiel state.observation_tensor() ({obs})"] = bench(lambda: s.observation_tensor())
        observer = make_observation(game)
        out[f"OpenSpiel observer.set_from(state, 0) ({obs}; NumPy, no list)"] = bench(
            lambda: observer.set_from(s, 0)
        )
    return out


def bench(f, n=2000):
    f()
    t = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t) / n * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="base")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--cli", default=os.path.join("target", "release", "tegula"))
    a = ap.parse_args()
    v = tegula.Variant(a.variant)
    n, few = a.games, max(1, a.games // 10)
    rows = [("`tegula simulate`", n, cli(a.cli, a.variant, n))]
    rows.append(("`Batch.play_agents()`", n, timed(batch_agents, v, n)))
    for obs in (None, "flat", "planes"):
        k = n if obs is None else few
        rows.append((f"`Batch.step`, NumPy policy, observations: {obs}", k,
                     timed(batch_policy, v, k, obs)))
    for obs in (None, "flat", "planes"):
        rows.append((f"Python `Game` loop, observations: {obs}", few,
                     timed(python_loop, v, few, obs)))
    for obs in (None, "flat", "planes"):
        rows.append((f"pyspiel loop, observations: {obs}", few,
                     timed(pyspiel_loop, a.variant, few, obs)))
    base = rows[0][1] / rows[0][2]
    print("| way | games | CPU s | games/CPU s | CPU time per game vs `tegula simulate` |")
    print("|---|---|---|---|---|")
    for name, games, secs in rows:
        rate = games / secs
        print(f"| {name} | {games} | {secs:.2f} | {rate:,.0f} | {base / rate:.2f}× |")
    print()
    for name, us in per_call(v, a.variant).items():
        print(f"- {name}: {us:.1f} µs")


if __name__ == "__main__":
    main()
