"""Offered choices (a rule's `offer`) in the action encoding: a block of ids after the
placements, one part per rule with an offer (docs/AI.md), window-aligned for board options.
The rules are added to the base game's compiled artefact, so the test needs no variant file
with `[[when]]` rules."""

import json
import random

from conftest import variant

import tegula


def with_rules(*rules):
    """The base game with `rules` (the contract's JSON of `When`) added."""
    base = variant("variants/base.toml")
    _, (text, path) = base.__reduce__()
    artefact = json.loads(text)
    artefact["when"] = list(rules)
    return tegula.Variant._from_artefact(json.dumps(artefact), path)


# Instead of a follower: take one of one's figures off a cloister (no points).
WITHDRAW = {
    "rule": "B-4",
    "event": "figure-step",
    "offer": {
        "to": "actor",
        "options": {"own-figure": {"on": ["cloister"]}},
        "may_decline": True,
        "uses_figure_step": True,
        "then": ["return-chosen"],
    },
}

# After each placement: pick a neighbouring tile (nothing happens to it).
NEIGHBOUR = {
    "rule": "B-2",
    "event": {"tile-placed": {}},
    "offer": {
        "to": "actor",
        "options": {"neighbour-tile": {"diagonals": True}},
        "may_decline": False,
        "then": [],
    },
}


def test_only_variants_with_offers_grow():
    base = variant("variants/base.toml")
    n, w = base.num_distinct_actions(), 2 * 12 + 1
    assert with_rules().num_distinct_actions() == n
    # A figure option is window cell x feature of its tile.
    figure = with_rules(WITHDRAW).num_distinct_actions()
    assert figure > n and (figure - n) % (w * w) == 0
    assert with_rules(NEIGHBOUR).num_distinct_actions() == n + w * w
    both = with_rules(WITHDRAW, NEIGHBOUR).num_distinct_actions()
    assert both == figure + w * w


def play(v, seed, check):
    """A random game of `v`, calling `check(game)` at every decision; the choice ids seen."""
    g = v.new_game(2, seed)
    rng = random.Random(seed)
    base = variant("variants/base.toml").num_distinct_actions()
    seen = []
    while not g.is_terminal():
        if g.is_chance_node():
            g.apply_default_draw()
            continue
        check(g)
        legal = g.legal_actions()
        seen.extend(a for a in legal if a >= base)
        g.apply(rng.choice(legal))
    return seen


def round_trip(g):
    """Every legal id decodes to a legal move whose id is the same; the mask is the list."""
    legal = g.legal_actions()
    assert legal
    for a in legal:
        d = g.decode_action(a)
        assert g.encode_action(d) == a
        assert g.is_legal(a)
    mask = g.legal_actions_mask()
    assert mask.nonzero()[0].tolist() == legal


def test_choice_ids_round_trip_and_are_played():
    for rules in [(WITHDRAW,), (NEIGHBOUR,), (WITHDRAW, NEIGHBOUR)]:
        v = with_rules(*rules)
        seen = []
        for seed in range(3):
            seen += play(v, seed, round_trip)
        assert seen, f"no choice offered in 3 games of {[r['event'] for r in rules]}"


def test_a_neighbour_choice_names_the_window_cell_of_the_tile():
    v = with_rules(NEIGHBOUR)
    g = v.new_game(2, 7)
    g.apply_default_draw()
    g.apply(g.legal_actions()[0])
    assert g.phase == "choice"
    w, r = 25, 12
    base = variant("variants/base.toml").num_distinct_actions()
    ids = g.legal_actions()
    # The only tile around the first placement is the start tile at (0, 0): the window is
    # centred on the two tiles' box, so its cell is the centre or next to it.
    assert len(ids) == 1 and g.decode_action(ids[0]) == {"kind": "choose", "option": 0}
    cell = ids[0] - base
    assert abs(cell // w - r) <= 1 and abs(cell % w - r) <= 1


def test_agents_answer_choices():
    v = with_rules(WITHDRAW, NEIGHBOUR)
    for kind in ["random", "greedy"]:
        g = v.new_game(2, 3)
        agents = [tegula.Agent(kind, s) for s in (1, 2)]
        while not g.is_terminal():
            if g.is_chance_node():
                g.apply_default_draw()
                continue
            g.apply(agents[g.current_player()].action(g))
        assert g.is_terminal()
