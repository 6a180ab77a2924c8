"""The compiled Portes and Plakoto network inputs (fevga._core.encode_tavli) against the numpy
reference (encoding_portes/encoding_plakoto.encode_arrays), and GameKind.encode/afterstates on both
paths. Every input is equal exactly except the shot shares, a sum of 36ths that numpy adds in its
own (BLAS) order: those may differ in the last bit, so they are compared to 1e-15."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fevga import accel
from fevga.ai import encoding_plakoto, encoding_portes
from fevga.ai.encoding_tavli import arrays_of
from fevga.ai.games import kind
from fevga.variants import TavliPosition
from tests.engine.tavli_placements import any_position

SHOTS = {"portes": 102, "plakoto": 129}  # the shot share's index in a side's block
PER_SIDE = {"portes": encoding_portes.PER_SIDE, "plakoto": encoding_plakoto.PER_SIDE}


def assert_inputs_match(got: np.ndarray, want: np.ndarray, game: str) -> None:
    """Equal everywhere, the two shot columns to 1e-15."""
    assert got.shape == want.shape and got.dtype == np.float64
    shots = [SHOTS[game], PER_SIDE[game] + SHOTS[game]]
    rest = np.ones(want.shape[1], dtype=bool)
    rest[shots] = False
    assert np.array_equal(got[:, rest], want[:, rest])
    assert np.allclose(got[:, shots], want[:, shots], rtol=0.0, atol=1e-15)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["portes", "plakoto"]), st.integers(0, 2**32), st.integers(1, 30), st.booleans())
def test_compiled_inputs_equal_numpy(game: str, seed: int, count: int, flip: bool) -> None:
    rng = random.Random(seed)
    sample = [any_position(game, rng) for _ in range(count)]
    a = arrays_of(sample)
    want = kind(game).encode_arrays(a.flipped() if flip else a)
    got = np.full_like(want, np.nan)
    accel.compiled().encode_tavli(sample, flip, got)
    assert_inputs_match(got, want, game)


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_game_kind_uses_the_compiled_encoder_with_the_same_values(game: str) -> None:
    k = kind(game)
    rng = random.Random(11)
    sample = [any_position(game, rng) for _ in range(60)]
    with accel.pure_python():
        want, want_after = k.encode(sample), k.afterstates(sample)
    with accel.compiled_path():
        got, got_after = k.encode(sample), k.afterstates(sample)
    assert_inputs_match(got, want, game)
    assert_inputs_match(got_after[0], want_after[0], game)
    assert np.array_equal(got_after[1], want_after[1], equal_nan=True)
    with accel.compiled_path():
        empty = k.encode([])
    assert empty.shape == (0, k.n_inputs)


def test_bad_calls_are_refused() -> None:
    core = accel.compiled()
    portes, plakoto = TavliPosition.start("portes"), TavliPosition.start("plakoto")
    with pytest.raises(ValueError, match="one game"):
        core.encode_tavli([portes, plakoto], False, np.empty((2, encoding_portes.N_INPUTS)))
    with pytest.raises(ValueError, match="float64 values"):
        core.encode_tavli([plakoto], False, np.empty((1, encoding_portes.N_INPUTS)))
    with pytest.raises(ValueError, match="C-contiguous"):
        core.encode_tavli([portes], False, np.empty((1, 2 * encoding_portes.N_INPUTS))[:, ::2])
    with pytest.raises(TypeError):
        core.encode_tavli([object()], False, np.empty((1, encoding_portes.N_INPUTS)))
