"""Parallel training: widening keeps the player, averaging is the mean, a two-worker run is reproducible."""

from __future__ import annotations

import numpy as np
import pytest

from fevga.ai.network import Network
from fevga.ai.parallel import average, widen
from fevga.ai.train import main


def test_widen_keeps_the_outputs_and_adds_units():
    net = Network(hidden=6, seed=1)
    wide = widen(net, 10, seed=2)
    x = np.random.default_rng(0).uniform(0, 1, size=(5, net.w1.shape[1]))
    assert wide.hidden == 10
    assert np.allclose(wide.forward(x), net.forward(x))
    assert not np.allclose(wide.w1[6:], 0.0)
    with pytest.raises(ValueError, match="shrink"):
        widen(net, 4, seed=0)


def test_average_is_the_elementwise_mean():
    a = (np.ones((2, 3)), np.zeros(2), np.ones((3, 2)), np.zeros(3))
    b = (3 * np.ones((2, 3)), 2 * np.ones(2), np.zeros((3, 2)), np.ones(3))
    mean = average([a, b])
    assert np.allclose(mean[0], 2.0) and np.allclose(mean[1], 1.0)
    assert np.allclose(mean[2], 0.5) and np.allclose(mean[3], 0.5)


def test_two_workers_train_reproducibly_and_resume(tmp_path):
    def run(out, games, *extra):
        args = ["--games", str(games), "--every", "2", "--eval-games", "0", "--hidden", "6", "--workers", "2"]
        args += ["--lr", "0.05", "--lr-final", "0.05"]  # a flat schedule: a shorter run is a prefix of a longer one
        assert main([*args, "--round", "1", "--out", str(out), "--no-progress", *extra]) == 0
        return Network.load(out)

    first = run(tmp_path / "a.npz", 4)
    again = run(tmp_path / "b.npz", 4)
    assert np.array_equal(first.w1, again.w1) and first.meta["games"] == 4
    half = run(tmp_path / "c.npz", 2)
    resumed = run(tmp_path / "c.npz", 4, "--resume")
    assert not np.array_equal(half.w1, resumed.w1)
    assert np.allclose(resumed.w1, first.w1)


def test_training_can_start_from_a_smaller_network(tmp_path):
    small = Network(hidden=4, seed=5)
    small.meta = {"games": 9}
    small.save(tmp_path / "small.npz")
    out = tmp_path / "wide.npz"
    args = ["--games", "2", "--every", "2", "--eval-games", "0", "--hidden", "7", "--no-progress"]
    assert main([*args, "--init", str(tmp_path / "small.npz"), "--out", str(out)]) == 0
    wide = Network.load(out)
    assert wide.hidden == 7 and wide.meta["games"] == 2 and wide.meta["init"].endswith("small.npz")
