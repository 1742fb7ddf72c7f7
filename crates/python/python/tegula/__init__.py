"""tegula: Carcassonne tiles and rules as data, played by a generic engine (Rust), from Python.

    import tegula
    g = tegula.Game.from_variant("variants/base.toml", players=2, seed=1)
    while not g.is_terminal():
        if g.is_chance_node():
            g.apply_default_draw()          # or sample g.chance_outcomes()
        else:
            g.apply(tegula.agent_action(g, "greedy", seed=g.turn))
    print(g.returns())

Actions are ints (layout in docs/AI.md, "Action ids"); `Game.action_to_string` names them.
`tegula.openspiel` registers the variants as OpenSpiel games, `tegula.pettingzoo.env` makes
PettingZoo environments, `tegula.variants.path("base")` finds a shipped variant by name,
`tegula.gymnasium` registers every shipped variant as a Gymnasium environment
(`gymnasium.make("tegula/base-v0", opponent="greedy")`, `gymnasium.make_vec(…, num_envs=N)`),
`tegula.value_agent` is a learned agent (examples/train_value.py trains it),
`tegula.Batch` steps many games at once (NumPy arrays, the GIL released) and
`tegula.distributed.simulate` runs a seeded simulation as shards on Ray.
"""

from ._tegula import (  # noqa: F401
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Agent,
    Batch,
    Game,
    IllegalActionError,
    SetupError,
    SnapshotError,
    TegulaError,
    Variant,
    VariantError,
    agent_action,
    play_seeds,
)
from . import distributed, variants  # noqa: F401

# The Gymnasium ids (`tegula/base-v0`, …) are registered on import where Gymnasium is installed.
if __import__("importlib.util").util.find_spec("gymnasium") is not None:
    from . import gymnasium  # noqa: F401

__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "Agent",
    "Batch",
    "Game",
    "IllegalActionError",
    "SetupError",
    "SnapshotError",
    "TegulaError",
    "Variant",
    "VariantError",
    "agent_action",
    "distributed",
    "play_seeds",
    "variants",
]
