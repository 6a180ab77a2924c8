"""The search's inner layer for Portes and Plakoto on the compiled core (fevga._core.tavli_reply_inputs:
inputs and game ends written straight from the move walk) against the same layer built from
legal_plays, the encoder and the numpy game ends: the same rows in the same order, the same points,
the same counts per roll, the same values; and the compiled game ends (tavli_outcomes) against numpy."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fevga import DEFAULT_RULES, accel, legal_plays
from fevga.ai.encoding_tavli import arrays_of
from fevga.ai.games import game_network, kind
from fevga.ai.replies import ROLLS, roll_values
from fevga.ai.search import NeuralPlayer
from fevga.variants import TavliPosition
from tests.ai.tavli_samples import random_tavli_positions
from tests.engine.tavli_placements import any_position

core = accel.compiled()  # the compiled core itself, whatever FEVGA_PURE_PYTHON says (ImportError if unbuilt)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["portes", "plakoto"]), st.integers(0, 2**32), st.integers(1, 4))
def test_reply_inputs_are_legal_plays_encoded(game: str, seed: int, count: int) -> None:
    rng = random.Random(seed)
    sample = [any_position(game, rng) for _ in range(count)]
    k = kind(game)
    data, ends, sizes = core.tavli_reply_inputs(sample)
    rows = np.frombuffer(data, dtype=np.float32).reshape(-1, k.n_inputs)
    points = np.frombuffer(ends, dtype=np.float64)
    counts = np.frombuffer(sizes, dtype=np.int32)
    results = [p.result for position in sample for dice, _ in ROLLS for p in legal_plays(position, dice)]
    assert counts.tolist() == [len(legal_plays(position, dice)) for position in sample for dice, _ in ROLLS]
    want = np.empty((len(results), k.n_inputs))
    core.encode_tavli(results, True, want)  # equal to numpy's afterstate inputs: test_tavli_inputs_compiled
    assert np.array_equal(rows, want.astype(np.float32))
    assert np.array_equal(points, k.outcomes(arrays_of(results)), equal_nan=True)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["portes", "plakoto"]), st.integers(0, 2**32), st.integers(0, 40))
def test_compiled_game_ends_equal_numpy(game: str, seed: int, count: int) -> None:
    rng = random.Random(seed)
    sample = [any_position(game, rng) for _ in range(count)]
    got = np.full(count, 7.0)
    core.tavli_outcomes(sample, got)
    assert np.array_equal(got, kind(game).outcomes(arrays_of(sample)), equal_nan=True)


def mother_position(mine_pinned: bool, his_pinned: bool) -> TavliPosition:
    """A Plakoto result with my mother (point 1) and/or his (my point 24) pinned, the rest home."""
    board, pins = [0] * 24, [0] * 24
    mine, theirs = 15, 15
    if mine_pinned:
        board[0], pins[0] = -1, 1
        mine, theirs = mine - 1, theirs - 1
    if his_pinned:
        board[23], pins[23] = 1, -1
        mine, theirs = mine - 1, theirs - 1
    board[20] += mine
    board[5] -= theirs
    return TavliPosition(tuple(board), 0, 0, "plakoto", tuple(pins))


@pytest.mark.parametrize(
    ("mine", "his", "points"),
    [(True, False, -2.0), (False, True, 2.0), (True, True, 0.0), (False, False, None)],
)
def test_the_mother_rule_in_the_compiled_game_ends(mine: bool, his: bool, points: float | None) -> None:
    """My mother pinned loses 2, his wins 2, both is a draw (RULES-TAVLI.md, the mother rule)."""
    position = mother_position(mine, his)
    got = np.empty(1)
    core.tavli_outcomes([position], got)
    assert (np.isnan(got[0]) and points is None) or got[0] == points


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_roll_values_match_the_pure_python_layer(game: str) -> None:
    net = game_network(game)
    sample = [p for p, _ in random_tavli_positions(game, 6, seed=5)]
    with accel.compiled_path():
        fast, judged = roll_values(net, sample, DEFAULT_RULES)
    with accel.pure_python():
        slow, judged_slow = roll_values(net, sample, DEFAULT_RULES)
    assert judged == judged_slow > 0
    assert np.allclose(fast, slow, atol=1e-6)


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_expert_chooses_the_same_plays_on_both_paths(game: str) -> None:
    """The 2-ply search (expert's settings, smaller budgets) picks the same plays on both layers."""
    player = NeuralPlayer(game_network(game), ply=2, keep1=4, keep2=2, max_work=1500, max_work2=8000)
    cases = random_tavli_positions(game, 5, seed=9)
    with accel.compiled_path():
        fast = [player.choose(p, dice, DEFAULT_RULES) for p, dice in cases]
    with accel.pure_python():
        slow = [player.choose(p, dice, DEFAULT_RULES) for p, dice in cases]
    assert [p.result for p in fast] == [p.result for p in slow]


def test_bad_calls_are_refused() -> None:
    portes, plakoto = TavliPosition.start("portes"), TavliPosition.start("plakoto")
    with pytest.raises(ValueError, match="one game"):
        core.tavli_reply_inputs([portes, plakoto])
    with pytest.raises(TypeError, match="TavliPosition"):
        core.tavli_reply_inputs([object()])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="float64 values"):
        core.tavli_outcomes([portes], np.empty(2))
    with pytest.raises(TypeError, match="TavliPosition"):
        core.tavli_outcomes([object()], np.empty(1))  # type: ignore[list-item]
    assert core.tavli_reply_inputs([]) == (b"", b"", b"")


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_reply_inputs_write_into_a_buffer(game: str) -> None:
    sample = [p for p, _ in random_tavli_positions(game, 3, seed=4)]
    width = kind(game).n_inputs
    data, ends, sizes = core.tavli_reply_inputs(sample)
    want = np.frombuffer(data, dtype=np.float32).reshape(-1, width)
    out = np.full(len(want) * width, -1.0, dtype=np.float32)
    assert core.tavli_reply_inputs(sample, out) == (len(want), ends, sizes)
    assert np.array_equal(out.reshape(-1, width), want)
    guarded = np.full(8 * width, -1.0, dtype=np.float32)
    assert core.tavli_reply_inputs(sample, guarded[: 7 * width])[0] == len(want)  # room for 7 rows
    assert (guarded[7 * width :] == -1.0).all()  # none written past the end
    with pytest.raises(ValueError, match="float32"):
        core.tavli_reply_inputs(sample, np.zeros(10))
    assert core.tavli_reply_inputs([], out) == (0, b"", b"")
