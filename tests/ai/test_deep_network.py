"""The optional second hidden layer (issue 23: "try a second hidden layer"): a deepened network plays exactly
as the one it grew from, its training step is the true gradient, and it saves, loads, averages and widens."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fevga.ai.encoding_plakoto import N_INPUTS as PLAKOTO_INPUTS
from fevga.ai.network import Network, WeightsError, deepen, default_network
from fevga.ai.parallel import average, get_weights, set_weights, widen
from fevga.ai.train import main as train_main


def small(hidden: int = 6, inputs: int = 9, units: int = 4, seed: int = 1) -> Network:
    """A tiny deep network whose second layer already matters (non-zero output weights)."""
    net = deepen(Network(hidden=hidden, seed=seed, n_inputs=inputs), units, seed)
    assert net.w4 is not None
    net.w4 += np.random.default_rng(seed).uniform(-0.5, 0.5, size=net.w4.shape)
    return net


def test_a_deepened_network_computes_exactly_what_it_grew_from() -> None:
    shipped = default_network()
    deep = deepen(shipped, 32, seed=5)
    assert (deep.hidden, deep.deep_units, shipped.deep_units) == (shipped.hidden, 32, 0)
    x = np.random.default_rng(0).uniform(0.0, 1.0, size=(50, shipped.n_inputs))
    assert np.array_equal(deep.forward(x), shipped.forward(x))
    with pytest.raises(ValueError, match="already has a second hidden layer"):
        deepen(deep, 8, seed=1)


def test_the_training_step_follows_the_gradient_of_the_squared_error() -> None:
    rng = np.random.default_rng(3)
    x, targets = rng.uniform(0, 1, size=(5, 9)), rng.uniform(0, 1, size=(5, 3))
    net = small()

    def loss(n: Network) -> float:
        h = 1 / (1 + np.exp(-(x @ n.w1.T + n.b1)))
        assert n.w3 is not None and n.b3 is not None and n.w4 is not None
        g = 1 / (1 + np.exp(-(h @ n.w3.T + n.b3)))
        y = 1 / (1 + np.exp(-(h @ n.w2.T + g @ n.w4.T + n.b2)))
        return float(0.5 * ((targets - y) ** 2).sum())

    before = [a.copy() for a in net.arrays()]
    lr = 1e-3
    stepped = small()
    stepped.train_batch(x, targets, lr)
    for index, array in enumerate(before):  # the step is -lr times the numerical gradient, array by array
        flat = array.reshape(-1)
        for k in range(0, flat.size, max(1, flat.size // 7)):
            probe = small()
            arrays = [a.copy() for a in probe.arrays()]
            eps = 1e-6
            arrays[index].reshape(-1)[k] += eps
            probe.set_arrays(arrays)
            up = loss(probe)
            arrays[index].reshape(-1)[k] -= 2 * eps
            probe.set_arrays(arrays)
            gradient = (up - loss(probe)) / (2 * eps)
            step = stepped.arrays()[index].reshape(-1)[k] - flat[k]
            assert step == pytest.approx(-lr * gradient, rel=1e-4, abs=1e-12), (index, k)


def test_training_a_deep_network_lowers_its_error_and_the_forward_pass_agrees_with_training() -> None:
    rng = np.random.default_rng(4)
    x = rng.uniform(0, 1, size=(40, 9))
    targets = small(seed=7).forward(x)  # a teacher of the same shape: the student can learn it exactly
    net = small()
    first = net.train_batch(x, targets, 0.1)
    for _ in range(500):
        last = net.train_batch(x, targets, 0.1)
    assert last < first / 4
    assert net.w3 is not None and net.b3 is not None and net.w4 is not None
    h = 1 / (1 + np.exp(-(x @ net.w1.T + net.b1)))
    g = 1 / (1 + np.exp(-(h @ net.w3.T + net.b3)))
    exact = 1 / (1 + np.exp(-(h @ net.w2.T + g @ net.w4.T + net.b2)))
    assert np.abs(net.forward(x) - exact).max() < 1e-5  # float32 forward, float64 training


def test_a_deep_network_saves_loads_averages_and_widens(tmp_path: Path) -> None:
    net = small()
    net.meta = {"games": 7}
    path = tmp_path / "deep.npz"
    net.save(path)
    loaded = Network.load(path, 9)
    assert len(loaded.arrays()) == 7 and loaded.meta == {"games": 7}
    assert all(np.array_equal(a, b) for a, b in zip(loaded.arrays(), net.arrays(), strict=True))
    x = np.random.default_rng(5).uniform(0, 1, size=(10, 9))
    assert np.array_equal(loaded.forward(x), net.forward(x))

    other = small(seed=2)
    mean = Network.__new__(Network)
    set_weights(mean, average([get_weights(net), get_weights(other)]))
    assert mean.w4 is not None and other.w4 is not None and net.w4 is not None
    assert np.allclose(mean.w4, (net.w4 + other.w4) / 2)

    wide = widen(net, 10, seed=3)
    assert (wide.hidden, wide.deep_units) == (10, 4)
    assert np.allclose(wide.forward(x), net.forward(x), atol=1e-6)


def test_a_file_with_half_a_second_layer_is_refused_by_name(tmp_path: Path) -> None:
    net = small()
    path = tmp_path / "half.npz"
    np.savez_compressed(path, w1=net.w1, b1=net.b1, w2=net.w2, b2=net.b2, w3=net.w3)
    with pytest.raises(WeightsError, match=r"^\S*half\.npz: a second hidden layer needs w3, b3 and w4 \(has w3\)$"):
        Network.load(path, 9)
    wrong = tmp_path / "wrong.npz"
    assert net.w3 is not None
    np.savez_compressed(wrong, w1=net.w1, b1=net.b1, w2=net.w2, b2=net.b2, w3=net.w3, b3=net.b3,
                        w4=np.zeros((3, 5)))
    with pytest.raises(WeightsError, match=r"wrong\.npz: inconsistent array shapes for the second hidden layer"):
        Network.load(wrong, 9)


def test_the_trainer_grows_a_second_layer_and_resumes_it(tmp_path: Path) -> None:
    out = tmp_path / "run" / "checkpoint.npz"
    args = ["--game", "plakoto", "--games", "4", "--every", "2", "--eval-games", "0", "--hidden", "8",
            "--deep", "5", "--round", "2", "--out", str(out), "--no-progress", "--seed", "9"]
    assert train_main(args) == 0
    first = Network.load(out, PLAKOTO_INPUTS)
    assert (first.hidden, first.deep_units, first.meta["games"]) == (8, 5, 4)
    assert first.w4 is not None and np.abs(first.w4).max() > 0  # the new layer's output weights have learnt
    assert train_main([*args[:3], "6", *args[4:], "--resume"]) == 0
    resumed = Network.load(out, PLAKOTO_INPUTS)
    assert (resumed.meta["games"], resumed.deep_units) == (6, 5)
    assert Network.load(out.with_name("checkpoint-2.npz"), PLAKOTO_INPUTS).deep_units == 5
