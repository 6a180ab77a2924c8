"""The trained weights ship inside the package and load with no network access."""

from __future__ import annotations

import importlib.resources
import socket

import numpy as np
import pytest

from fevga.ai import has_weights
from fevga.ai.encoding import N_INPUTS
from fevga.ai.network import WEIGHTS_PATH, Network


def test_weights_ship_in_the_package_and_are_small():
    resource = importlib.resources.files("fevga.ai").joinpath("weights.npz")
    assert resource.is_file()
    assert has_weights()
    assert WEIGHTS_PATH.stat().st_size < 2_000_000


def test_weights_load_without_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("no network access allowed")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    net = Network.load(WEIGHTS_PATH)
    assert net.w1.shape == (net.hidden, N_INPUTS)
    assert net.w2.shape == (3, net.hidden)
    assert net.meta["games"] > 0
    out = net.forward(np.zeros((2, N_INPUTS)))
    assert out.shape == (2, 3)
    assert np.all((out > 0) & (out < 1))


def test_save_and_load_round_trip(tmp_path):
    net = Network(hidden=5, seed=3)
    net.meta = {"games": 7}
    net.save(tmp_path / "w.npz")
    back = Network.load(tmp_path / "w.npz")
    assert np.array_equal(back.w1, net.w1) and np.array_equal(back.b2, net.b2)
    assert back.meta == {"games": 7}


def test_load_refuses_weights_for_another_encoding(tmp_path):
    net = Network(hidden=4, n_inputs=N_INPUTS + 1)
    net.save(tmp_path / "w.npz")
    with pytest.raises(ValueError, match="inputs"):
        Network.load(tmp_path / "w.npz")
