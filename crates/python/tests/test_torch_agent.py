"""The PyTorch agent (issue 33, item 7): its inputs, the untrained network playing as greedy, a
few seconds of training, saving and loading, play through `Game` and `Batch`, and the training
example's smoke run. Skipped, saying so, where PyTorch is not installed (.ci/run installs it
when it can)."""

import re
import subprocess
import sys

import numpy as np
import pytest

import tegula
from conftest import ROOT

torch = pytest.importorskip(
    "torch", reason="PyTorch is not installed: the torch agent's tests are skipped"
)
from tegula.evaluate import margin_against  # noqa: E402
from tegula.torch_agent import CROP, Encoder, TorchAgent, new_net, turn_ends  # noqa: E402

EXAMPLE = ROOT / "crates/python/examples/train_torch.py"
WEIGHTS = ROOT / "crates/python/examples/torch-base.pt"


@pytest.fixture(autouse=True)
def _one_thread():
    torch.set_num_threads(1)


def midgame(seed=3, turns=20):
    g = tegula.Game.from_variant("base", 2, seed)
    greedy = tegula.Agent("greedy", seed)
    while g.turn < turns or g.is_chance_node():
        if g.is_chance_node():
            g.apply_default_draw()
        else:
            greedy.play(g)
    return g


def test_inputs_turn_the_figures_to_the_viewer():
    g = midgame()
    enc = Encoder(g)
    names = g.plane_channels()
    mine, theirs = names.index("figure:0:meeple"), names.index("figure:1:meeple")
    planes = g.observation_planes()
    seen0, seen1 = enc.planes(g, 0), enc.planes(g, 1)
    first = len(names) - 2  # the viewer's figure channel comes first among the figures
    assert np.array_equal(seen0[first], planes[mine]) and np.array_equal(seen1[first], planes[theirs])
    assert np.array_equal(seen0[first + 1], seen1[first])
    assert enc.planes(g, 0, CROP).shape == (len(names), CROP, CROP)
    s = g.scores()
    assert enc.globals(g, 0)[2] == pytest.approx((s[0] - s[1]) / 20)
    assert enc.globals(g, 0)[2] == pytest.approx(-enc.globals(g, 1)[2])


def test_the_global_vector_holds_the_linear_agents_features():
    """Each side's figures on each feature kind, and those times the share of tiles left, read
    from the planes as the linear agent reads them (so the value head can be that agent)."""
    from tegula.value_agent import Features

    g = midgame(turns=30)
    enc = Encoder(g)
    gl0, gl1 = enc.globals(g, 0), enc.globals(g, 1)
    assert len(gl0) == enc.globals_size == 6 + 4 * 4
    left = gl0[5]
    assert 0 < left < 1
    on0, on1 = gl0[6:10], gl0[10:14]
    assert np.allclose(gl0[14:18], on0 * left) and np.allclose(gl0[18:22], on1 * left)
    assert np.allclose(gl1[6:10], on1) and np.allclose(gl1[10:14], on0)
    phi = Features(g)(g, 0)  # margin, supply, 4 × on, 4 × on × left, bias: mine minus theirs
    assert np.allclose(7 * (on0 - on1), phi[2:6])
    assert on0.sum() + on1.sum() > 0  # figures stand on the board after 30 turns


def test_an_untrained_network_values_the_margin_alone():
    """Its value head starts at zero, so the search picks a turn of the best margin, as
    `greedy` does, and values a finished game by its final margin."""
    g = midgame()
    agent = TorchAgent(new_net(g))
    me = g.current_player()
    ends = turn_ends(g)
    values = agent.values([e for _, _, e in ends], me)
    margins = [e.scores()[me] - e.scores()[1 - me] for _, _, e in ends]
    assert np.allclose(values, margins)
    a = agent.action(g)
    assert a in g.legal_actions()
    assert max(v for (first, _, _), v in zip(ends, values) if first == a) == max(margins)
    # top_k: only the first actions the policy ranks highest are searched
    prior = agent.logits(g)
    top = sorted({first for first, _, _ in ends}, key=lambda f: -prior[f])[:2]
    assert TorchAgent(agent.net, top_k=2).action(g) in top


def test_the_linear_part_is_fitted_in_closed_form():
    """`fit_linear` sets the value head's linear part to the least-squares fit of the targets
    on the global vector; gradient descent (`network_parameters`) leaves it alone."""
    g = midgame()
    net = new_net(g, width=4, depth=1)
    rng = np.random.default_rng(1)
    n, k = 500, net.config["globals_size"]
    gl = rng.normal(size=(n, k)).astype(np.float32)
    w = rng.normal(size=k)
    y = gl @ w + 0.25
    net.fit_linear(gl, y, ridge=1e-9)
    assert np.allclose(net.linear.weight.detach().numpy()[0], w, atol=1e-4)
    assert float(net.linear.bias.detach()) == pytest.approx(0.25, abs=1e-4)
    x = torch.zeros((n, net.config["channels"], CROP, CROP))
    with torch.no_grad():  # the network part starts at zero: the head is the linear part
        assert np.allclose(net.forward_value(x, torch.from_numpy(gl)).numpy(), y, atol=1e-3)
    ids = {id(p) for p in net.network_parameters()}
    assert id(net.linear.weight) not in ids and id(net.value[2].weight) in ids
    assert len(ids) == len(list(net.parameters())) - 2


def test_training_saving_loading_and_play(tmp_path):
    """A tiny network trained for a few steps on one self-play game, saved, loaded (the same
    decisions), then a whole game against greedy, by policy alone, and through a Batch."""
    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        import train_torch as tt
    finally:
        sys.path.remove(str(EXAMPLE.parent))
    v = tegula.Variant("base")
    net = new_net(v.new_game(2, 0), width=4, depth=1)
    agent = TorchAgent(net, explore=0.2, seed=1)
    values, policies = tt.self_play(v, agent, 5)
    assert values and policies and agent.record is None
    assert all(x.dtype == np.uint8 and x.shape[1:] == (CROP, CROP) for x, _, _ in values)
    assert all(abs(p.sum() - 1) < 1e-5 for _, _, _, p in policies)
    vb, pb = tt.Buffer(1000), tt.Buffer(1000)
    vb.add(values)
    pb.add(policies)
    fresh = tt.held_out(net, values)
    assert fresh == pytest.approx((fresh[0], fresh[0], 1.0))  # untrained: both parts zero
    tt.fit_linear(net, vb, 1.0)
    assert float(net.linear.weight.abs().sum()) > 0
    assert tt.held_out(net, values)[0] < fresh[0]  # the fit lowers the loss on its own rows
    opt = torch.optim.Adam(net.network_parameters(), lr=1e-2)
    linear = net.linear.weight.detach().clone()
    lv, lp = tt.train_steps(net, opt, vb, pb, np.random.default_rng(0), 3, 32)
    assert np.isfinite(lv) and np.isfinite(lp)
    assert torch.equal(net.linear.weight, linear)
    lin_loss, head_loss, gate = tt.held_out(net, values)
    assert 0 <= gate <= 1 and np.isfinite(head_loss)
    net.gate.fill_(0.0)  # gate 0: the head is the linear part alone
    assert tt.held_out(net, values)[1] == pytest.approx(lin_loss)
    net.gate.fill_(gate)
    path = tmp_path / "tiny.pt"
    TorchAgent(net).save(path, note="test")
    loaded = TorchAgent.load(path)
    g = midgame(seed=8)
    assert loaded.action(g.clone()) == TorchAgent(net).action(g.clone())
    assert margin_against(v, loaded, 0, 77) == margin_against(v, TorchAgent.load(path), 0, 77)
    policy = TorchAgent.load(path, mode="policy")
    assert policy.action(g) in g.legal_actions()
    batch = tegula.Batch(v, 3, seed=4, agents=["greedy"])
    while not batch.observe(observe=False, masks=False)[3].all():
        ids = loaded.batch_actions(batch, seats=[0])
        assert all(i == batch.AGENT for i, p in zip(ids, batch.current_players()) if p != 0)
        batch.step(ids, observe=False, masks=False)
    assert batch.scores().shape == (3, 2)


def test_files_that_are_no_agent_are_refused(tmp_path):
    bad = tmp_path / "bad.pt"
    torch.save({"weights": [1, 2]}, bad)
    with pytest.raises(ValueError, match="not a tegula torch agent"):
        TorchAgent.load(bad)
    old = tmp_path / "old.pt"
    torch.save({"format": "tegula-torch-agent-1", "config": {}, "state": {}}, old)
    with pytest.raises(ValueError, match="another version .*train it again"):
        TorchAgent.load(old)
    with pytest.raises(ValueError, match="mode"):
        TorchAgent(new_net(midgame()), mode="fast")
    wonders = tegula.Game.from_variant("wonders", 2, 1)
    while wonders.is_chance_node():
        wonders.apply_default_draw()
    with pytest.raises(ValueError, match="planes"):
        TorchAgent(new_net(midgame())).action(wonders)


@pytest.mark.skipif(not WEIGHTS.exists(), reason="no trained weights shipped")
def test_the_shipped_weights_play_a_game():
    agent = TorchAgent.load(WEIGHTS)
    assert agent.net.config["channels"] == len(midgame().plane_channels())
    assert isinstance(margin_against(tegula.Variant("base"), agent, 1, 1_000_000), int)


def test_training_example_smoke_run(tmp_path):
    """The example end to end, for seconds: 1 iteration of 2 games, 2 evaluation games."""
    out = tmp_path / "w.pt"
    cmd = [sys.executable, str(EXAMPLE), "--iterations", "1", "--games", "2", "--steps", "2",
           "--eval", "2", "--jobs", "1", "--width", "4", "--depth", "1", "--out", str(out)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert re.search(r"iteration 1: 2 games, \d+ value rows, value loss on the new games "
                     r"\d+\.\d+ \(linear part\) \d+\.\d+ \(whole head\)", run.stdout)
    assert re.search(r"won \d+\.\d % of 2 games \(\d drawn; 95 % interval", run.stdout)
    assert TorchAgent.load(out).net.config["width"] == 4
