"""Training: λ-returns are right on a small case; a tiny run checkpoints and resumes."""

from __future__ import annotations

import numpy as np

from fevga.ai.network import Network
from fevga.ai.train import lambda_returns, main


def test_lambda_returns_alternate_sides():
    # Two positions before the end; V(next) is each next mover's own estimate.
    next_values = np.array([[0.4, 0.1, 0.2]])
    z = np.array([1.0, 0.0, 0.0])  # the last mover won without mars
    g = lambda_returns(next_values, z, lam=0.5)
    # G_0 = 0.5 * flip(V_1) + 0.5 * flip(z); flip(w, wm, lm) = (1 - w, lm, wm)
    assert np.allclose(g[0], 0.5 * np.array([0.6, 0.2, 0.1]) + 0.5 * np.array([0.0, 0.0, 0.0]))
    assert np.allclose(g[1], z)


def test_tiny_run_checkpoints_and_resumes(tmp_path):
    out = tmp_path / "ck.npz"
    args = ["--games", "2", "--every", "2", "--eval-games", "0", "--hidden", "8", "--out", str(out), "--no-progress"]
    assert main(args) == 0
    first = Network.load(out)
    assert first.meta["games"] == 2 and len(first.meta["curve"]) == 1
    assert main([*args[:1], "4", *args[2:], "--resume"]) == 0
    second = Network.load(out)
    assert second.meta["games"] == 4 and len(second.meta["curve"]) == 2
    assert not np.array_equal(first.w1, second.w1)
