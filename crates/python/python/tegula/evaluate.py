"""Measuring an agent against a built-in one (the training examples, docs/AI.md): whole
two-seat games with the seats alternating, and the Wilson interval of a win rate.

    from tegula.evaluate import margin_against, wilson
    margins = [margin_against(variant, agent, i, 1_000_000) for i in range(400)]
    wins = sum(m > 0 for m in margins)
    lo, hi = wilson(wins, len(margins))
"""

import math

import tegula


def margin_against(variant, agent, i, first_seed, opponent="greedy"):
    """Game `i` of `agent` (anything with `play(game)`) against the built-in `opponent`: the
    game seeded `first_seed + i`, the agent in seat `i % 2`, the opponent's generator seeded
    alike. The agent's final margin (its score minus the other's)."""
    me = i % 2
    g = variant.new_game(2, first_seed + i)
    other = tegula.Agent(opponent, first_seed + i)
    while not g.is_terminal():
        if g.is_chance_node():
            g.apply_default_draw()
        elif g.current_player() == me:
            agent.play(g)
        else:
            other.play(g)
    s = g.scores()
    return s[me] - s[1 - me]


def wilson(wins, n, z=1.96):
    """The 95 % (z = 1.96) Wilson score interval of `wins` out of `n`."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)
