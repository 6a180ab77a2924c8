"""The trained weights ship inside the package and load with no network access."""

from __future__ import annotations

import importlib.resources
import socket

import numpy as np
import pytest

from fevga.ai import has_weights
from fevga.ai.encoding import N_INPUTS, N_INPUTS_V3
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
    assert net.w1.shape == (net.hidden, N_INPUTS_V3)  # hard's network reads the Fevga-specific (v3) inputs
    assert net.w2.shape == (3, net.hidden)
    assert net.meta["games"] > 0
    out = net.forward(np.zeros((2, N_INPUTS_V3)))
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


def test_corrupt_or_foreign_files_give_a_clear_error(tmp_path):
    from fevga.ai.network import WeightsError

    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"this is not a zip file at all")
    with pytest.raises(WeightsError, match="corrupt or unreadable"):
        Network.load(garbage)
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(WEIGHTS_PATH.read_bytes()[:5000])
    with pytest.raises(WeightsError, match=str(truncated.name)):
        Network.load(truncated)
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, w1=np.zeros((3, N_INPUTS)))
    with pytest.raises(WeightsError, match="missing array"):
        Network.load(foreign)
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, w1=np.array([object()], dtype=object), b1=np.zeros(1), w2=np.zeros(1), b2=np.zeros(1))
    with pytest.raises(WeightsError):
        Network.load(pickled)
    nan = Network(hidden=3)
    nan.w2[0, 0] = np.nan
    nan.save(tmp_path / "nan.npz")
    with pytest.raises(WeightsError, match="NaN"):
        Network.load(tmp_path / "nan.npz")
    with pytest.raises(FileNotFoundError):
        Network.load(tmp_path / "missing.npz")
