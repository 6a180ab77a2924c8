"""The v3 encoding (Fevga-specific inputs appended to the base 209) and the third network's start:
hard-v2's weights with zero weights for the new inputs, which plays exactly like hard-v2."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from fevga import DEFAULT_RULES, Position, legal_plays
from fevga.ai.encoding import (
    EXTRA_PER_SIDE,
    N_INPUTS,
    N_INPUTS_V3,
    encode,
    encode_afterstates,
    encode_reference,
)
from fevga.ai.evaluate import result_equities
from fevga.ai.network import V2_PATH, Network, WeightsError, extend_inputs, v2_network
from fevga.ai.search import NeuralPlayer
from fevga.ai.train import main

MINE, THEIRS = N_INPUTS, N_INPUTS + EXTRA_PER_SIDE  # where each side's extra inputs start


def primed_position() -> Position:
    """12 of my checkers on my point 2 behind his four points 3-6, 3 on my 11; his other 11 checkers
    on his start (my 13). Board indexes are my points - 1; his checkers are negative."""
    board = [0] * 24
    board[1], board[10] = 12, 3
    for j in (2, 3, 4, 5):
        board[j] = -1
    board[12] = -11
    return Position(tuple(board), 0, 0)


def test_extra_inputs_of_a_primed_position_read_as_worked_out_by_hand():
    x = encode([primed_position()], N_INPUTS_V3)[0]
    assert np.array_equal(x[:N_INPUTS], encode([primed_position()])[0])  # the base inputs are unchanged
    # Me: the 12 on point 2 sit behind a run of four (not five, not six); the run starts right in front.
    assert list(x[MINE : MINE + 4]) == [12 / 15, 0.0, 0.0, 4 / 6]
    # From point 2 the furthest block within 12 is my 13 (his start): only 5-5 (7, 12, 17) and 6-6
    # (8, 14) land past it; every smaller roll stops on a block or short of it.
    assert x[MINE + 4] == 2 / 36
    # Him: nothing of mine stands within 12 points in front of his start, no run traps anything.
    assert list(x[THEIRS : THEIRS + 5]) == [0.0, 0.0, 0.0, 0.0, 1.0]
    # Pips: mine 12 x 23 + 3 x 14 = 318, his 11 x 24 + 10 + 9 + 8 + 7 = 298; not a race.
    assert x[-2] == pytest.approx((298 - 318) / 100) and x[-1] == 0.0


def test_flipping_swaps_the_extra_inputs_and_negates_the_lead(sample_positions):
    positions = [p for p, _ in sample_positions]
    x, y = encode(positions, N_INPUTS_V3), encode([p.flip() for p in positions], N_INPUTS_V3)
    assert np.array_equal(x[:, MINE:THEIRS], y[:, THEIRS : THEIRS + EXTRA_PER_SIDE])
    assert np.array_equal(x[:, THEIRS : THEIRS + EXTRA_PER_SIDE], y[:, MINE:THEIRS])
    assert np.allclose(x[:, -2:], -y[:, -2:])
    assert np.array_equal(encode_afterstates(positions, N_INPUTS_V3), y)
    assert np.array_equal(x[:, :N_INPUTS], encode_reference(positions))


def test_a_race_lead_is_set_only_in_a_race():
    board = [0] * 24
    board[20], board[2] = 15, -15  # my 21; his 15 checkers on my 3 = his 15: both past each other
    x = encode([Position(tuple(board), 0, 0)], N_INPUTS_V3)[0]
    assert x[N_INPUTS - 1] == 1.0  # the race flag
    assert x[-2] == x[-1] == pytest.approx((15 * 10 - 15 * 4) / 100)
    assert x[MINE + 4] == x[THEIRS + 4] == 1.0  # nothing in front of anyone


def test_the_v3_network_from_hard_v2_plays_exactly_like_hard_v2(sample_positions):
    v2 = v2_network()
    v3 = extend_inputs(v2, N_INPUTS_V3)
    assert v3.n_inputs == N_INPUTS_V3 and v2.n_inputs == N_INPUTS
    assert not np.array_equal(encode([p for p, _ in sample_positions], N_INPUTS_V3)[:, N_INPUTS:], 0.0)
    results = [play.result for position, dice in sample_positions for play in legal_plays(position, dice)]
    assert np.array_equal(result_equities(v3, results), result_equities(v2, results))
    old, new = NeuralPlayer(v2, ply=1), NeuralPlayer(v3, ply=1)
    for position, dice in sample_positions:
        assert new.choose(position, dice, DEFAULT_RULES) == old.choose(position, dice, DEFAULT_RULES)
    with pytest.raises(ValueError, match="cannot narrow"):
        extend_inputs(v3, N_INPUTS)


def test_weights_files_name_their_encoding_by_their_input_count(tmp_path, monkeypatch):
    v3 = extend_inputs(v2_network(), N_INPUTS_V3)
    v3.save(tmp_path / "v3.npz")
    assert Network.load(tmp_path / "v3.npz").n_inputs == N_INPUTS_V3  # any Fevga encoding loads
    with pytest.raises(WeightsError, match=r"v3\.npz: weights expect 221 inputs, the encoding has 209"):
        Network.load(tmp_path / "v3.npz", N_INPUTS)
    Network(hidden=4, n_inputs=215).save(tmp_path / "portes-sized.npz")
    with pytest.raises(WeightsError, match=r"portes-sized\.npz: weights expect 215 inputs"):
        Network.load(tmp_path / "portes-sized.npz")
    # hard-v2 keeps the base encoding: a v3 file in its place is refused, naming the file.
    import fevga.ai.network as network

    monkeypatch.setattr(network, "V2_PATH", tmp_path / "v3.npz")
    monkeypatch.setattr(network, "_V2", None)
    with pytest.raises(WeightsError, match=r"v3\.npz"):
        network.v2_network()


def test_training_v3_from_hard_v2_starts_from_its_weights(tmp_path):
    init = tmp_path / "v2.npz"
    shutil.copy(V2_PATH, init)
    out = tmp_path / "ck.npz"
    args = ["--encoding", "v3", "--init", str(init), "--hidden", "160", "--games", "2", "--every", "2"]
    assert main([*args, "--eval-games", "0", "--lr", "0.01", "--out", str(out), "--no-progress"]) == 0
    net = Network.load(out)
    v2 = v2_network()
    assert net.n_inputs == N_INPUTS_V3 and net.meta["games"] == 2
    assert net.meta["settings"]["encoding"] == "v3"
    assert np.abs(net.w1[:, :N_INPUTS] - v2.w1).max() < 0.05  # two small steps away from hard-v2
    assert np.abs(net.w1[:, N_INPUTS:]).max() > 0.0  # the new inputs have started to learn
