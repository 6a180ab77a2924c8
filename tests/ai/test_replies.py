"""The search's inner layer on the compiled core (reply inputs written straight from the move walk)
against the same layer built from legal_plays and the numpy encoder: the same rows in the same order,
the same counts per roll, the same values; and the float32 forward pass against float64."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fevga import Position, Rules, accel
from fevga.ai import replies
from fevga.ai.encoding import FEVGA_ENCODINGS, N_INPUTS_V3, encode_afterstates, encode_afterstates_single
from fevga.ai.network import Network, default_network, sigmoid
from fevga.ai.replies import ROLLS, roll_values
from fevga.movegen import legal_plays
from tests.engine.positions import random_game_position, random_placement

core = accel.compiled()  # the compiled core itself, whatever FEVGA_PURE_PYTHON says (ImportError if unbuilt)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    rng = random.Random(draw(st.integers(0, 2**32)))
    if draw(st.booleans()):
        return random_game_position(rng)
    return random_placement(rng)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(positions(), min_size=1, max_size=4),
    st.sampled_from(FEVGA_ENCODINGS),
    st.sampled_from([13, 14]),
    st.booleans(),
)
def test_reply_inputs_are_legal_plays_encoded(sample: list[Position], n_inputs: int, unlock: int, strict: bool) -> None:
    rules = Rules(unlock_point=unlock, strict_start_quarter=strict)
    data, sizes = core.reply_inputs(sample, unlock, strict, n_inputs == N_INPUTS_V3)
    rows = np.frombuffer(data, dtype=np.float32).reshape(-1, n_inputs)
    counts = np.frombuffer(sizes, dtype=np.int32)
    results = [p.result for position in sample for dice, _ in ROLLS for p in legal_plays(position, dice, rules)]
    want = [len(legal_plays(position, dice, rules)) for position in sample for dice, _ in ROLLS]
    assert counts.tolist() == want
    assert np.array_equal(rows, encode_afterstates(results, n_inputs).astype(np.float32))


def test_reply_inputs_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match="Position"):
        core.reply_inputs([object()], 13, False, True)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="unlock_point"):
        core.reply_inputs([Position.start()], 30, False, True)
    data, sizes = core.reply_inputs([], 13, False, True)
    assert data == b"" and sizes == b""


@settings(max_examples=15, deadline=None)
@given(st.lists(positions(), min_size=1, max_size=3))
def test_roll_values_match_the_pure_python_layer(sample: list[Position]) -> None:
    net = default_network()
    rules = Rules()
    with accel.compiled_path():
        fast, judged = roll_values(net, sample, rules)
    with accel.pure_python():
        slow, judged_slow = roll_values(net, sample, rules)
    assert judged == judged_slow > 0
    assert np.allclose(fast, slow, atol=1e-5)


def test_float32_forward_is_within_a_millionth_of_float64() -> None:
    net = default_network()
    rng = random.Random(3)
    sample = [random_game_position(rng) for _ in range(300)]
    x = encode_afterstates(sample, net.n_inputs)
    single = encode_afterstates_single(sample, net.n_inputs)
    assert single.dtype == np.float32 and np.array_equal(single, x.astype(np.float32))
    exact = sigmoid(sigmoid(x @ net.w1.T + net.b1) @ net.w2.T + net.b2)
    assert np.abs(net.forward(x) - exact).max() < 1e-5
    assert np.array_equal(net.forward(single), net.forward(x))


def test_forward_follows_training_steps_and_new_weights() -> None:
    """The float32 copies are made again after a step or when the arrays are replaced."""
    net = Network(hidden=4, seed=1)
    x = np.random.default_rng(0).uniform(0, 1, size=(3, net.n_inputs))
    before = net.forward(x)
    net.train_batch(x, np.ones((3, 3)), lr=0.5)
    stepped = net.forward(x)
    assert (stepped > before).all()
    net.w2 = np.zeros_like(net.w2)
    net.b2 = np.zeros_like(net.b2)
    assert np.allclose(net.forward(x), 0.5)


def test_reply_inputs_write_into_a_buffer_and_count_what_does_not_fit() -> None:
    rng = random.Random(5)
    sample = [random_game_position(rng) for _ in range(3)]
    data, sizes = core.reply_inputs(sample, 13, False, True)
    want = np.frombuffer(data, dtype=np.float32).reshape(-1, N_INPUTS_V3)
    big = np.full(len(want) * N_INPUTS_V3 + 5, -1.0, dtype=np.float32)
    count, sizes_big = core.reply_inputs(sample, 13, False, True, big)
    assert count == len(want) and sizes_big == sizes
    assert np.array_equal(big[: count * N_INPUTS_V3].reshape(count, -1), want)
    assert (big[count * N_INPUTS_V3 :] == -1.0).all()
    guarded = np.full(11 * N_INPUTS_V3, -1.0, dtype=np.float32)
    count_small, _ = core.reply_inputs(sample, 13, False, True, guarded[: 10 * N_INPUTS_V3])  # room for 10 rows
    assert count_small == len(want)  # all counted, none written past the end
    assert (guarded[10 * N_INPUTS_V3 :] == -1.0).all()
    with pytest.raises(ValueError, match="float32"):
        core.reply_inputs(sample, 13, False, True, np.zeros(10))


def test_the_scratch_buffer_grows_when_the_replies_do_not_fit() -> None:
    rng = random.Random(6)
    sample = [random_game_position(rng) for _ in range(4)]
    net = default_network()
    with accel.compiled_path():
        want, judged = roll_values(net, sample, Rules())
        replies._SCRATCH.buf = np.empty(100, dtype=np.float32)
        got, judged_again = roll_values(net, sample, Rules())
        grown = replies._SCRATCH.buf
    assert judged == judged_again and got == want
    assert len(grown) >= judged * net.n_inputs
