"""The compiled core (fevga._core) against the pure-Python reference: the same plays (same final
positions, in the same order, with steps that replay to them), the same errors, the same network
inputs; and the loader's pure-Python switch and its one warning when the core is missing."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fevga import DiceError, Position, Rules, accel
from fevga.ai.encoding import (
    FEVGA_ENCODINGS,
    encode,
    encode_afterstates,
    encode_afterstates_reference,
    encode_reference,
)
from fevga.movegen import legal_plays, legal_plays_reference
from fevga.play import apply_steps

from .positions import random_game_position, random_placement

core = accel.core  # what the loader chose (None under FEVGA_PURE_PYTHON)
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
rules_st = st.builds(Rules, unlock_point=st.sampled_from([13, 14]), strict_start_quarter=st.booleans())


def crowded_placement(rng: random.Random) -> Position:
    """Checkers packed towards the end of the track (bear-off, overshoot) and opponent points
    in long runs in front of them (blocked and shut-in cases)."""
    board = [0] * 24
    me_off = rng.choice([0, 0, rng.randint(1, 14)])
    opp_off = rng.choice([0, 0, rng.randint(1, 14)])
    low = rng.choice([0, 6, 12, 18, 18])
    for _ in range(15 - me_off):
        board[rng.randrange(low, 24)] += 1
    start = rng.randrange(24)
    free = [i for i in range(24) if board[i] == 0]
    run = [i for i in ((start + k) % 24 for k in range(8)) if board[i] == 0]
    for k in range(15 - opp_off):
        spot = run[k % len(run)] if run and k < 2 * len(run) else rng.choice(free)
        board[spot] -= 1
    return Position(tuple(board), me_off, opp_off)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    rng = random.Random(draw(st.integers(0, 2**32)))
    kind = draw(st.sampled_from(["game", "placement", "crowded"]))
    if kind == "game":
        return random_game_position(rng)
    return random_placement(rng) if kind == "placement" else crowded_placement(rng)


def assert_same_plays(position: Position, dice: tuple[int, int], rules: Rules) -> None:
    """The built extension (a missing build fails here: CI installs a compiler) against the reference."""
    want = legal_plays_reference(position, dice, rules)
    got = accel.compiled().legal_plays(position, dice, rules)
    assert [p.result for p in got] == [p.result for p in want]
    assert {p.result for p in got} == {p.result for p in want}
    assert [p.steps for p in got] == [p.steps for p in want]
    for play in got:
        assert play.start is position and play.dice == dice
        assert apply_steps(position, play.steps) == play.result
        assert play.result.opp_off == position.opp_off


@settings(max_examples=150, deadline=None)
@given(positions(), rules_st)
def test_compiled_plays_equal_the_reference_for_all_rolls(position: Position, rules: Rules) -> None:
    for dice in ROLLS:
        assert_same_plays(position, dice, rules)
        if dice[0] != dice[1]:
            assert_same_plays(position, (dice[1], dice[0]), rules)


def test_known_positions_and_passes() -> None:
    start = Position.start()
    opening = accel.compiled().legal_plays(start, (5, 5), Rules())
    assert sorted(p.result.id() for p in opening) == sorted(
        p.result.id() for p in legal_plays_reference(start, (5, 5))
    )
    assert len(opening) == 2
    ended = Position(tuple([0] * 12 + [-15] + [0] * 11), 15, 0)
    for dice in ROLLS:
        assert_same_plays(ended, dice, Rules())
    assert accel.compiled().legal_plays(ended, (3, 4), Rules())[0].is_pass


BAD_DICE = [(0, 3), (3, 7), (True, 2), (2.0, 3), ("3", "4"), (1, 2, 3), 5, None, [], (-1, 4), (2**70, 1)]


@pytest.mark.parametrize("dice", BAD_DICE, ids=repr)
def test_invalid_dice_raise_the_same_error(dice: object) -> None:
    with pytest.raises(DiceError) as want:
        legal_plays_reference(Position.start(), dice)  # type: ignore[arg-type]
    with pytest.raises(DiceError) as got:
        legal_plays(Position.start(), dice)  # type: ignore[arg-type]
    assert str(got.value) == str(want.value)
    assert got.value.key == want.value.key


def test_dice_as_a_list_work_like_a_tuple() -> None:
    got = legal_plays(Position.start(), [6, 4])  # type: ignore[arg-type]
    assert got == legal_plays_reference(Position.start(), (6, 4))
    assert all(p.dice == (6, 4) and isinstance(p.dice, tuple) for p in got)


@settings(max_examples=60, deadline=None)
@given(st.lists(positions(), min_size=1, max_size=12), st.sampled_from(FEVGA_ENCODINGS))
def test_compiled_encoding_equals_numpy_exactly(sample: list[Position], n_inputs: int) -> None:
    """Both Fevga encodings: the base 209 inputs and v3 (with the Fevga-specific inputs)."""
    with accel.pure_python():
        want, want_after = encode(sample, n_inputs), encode_afterstates(sample, n_inputs)
    assert np.array_equal(want, encode_reference(sample, n_inputs))
    assert np.array_equal(want_after, encode_afterstates_reference(sample, n_inputs))
    with accel.compiled_path():
        assert accel.enabled()
        got, got_after = encode(sample, n_inputs), encode_afterstates(sample, n_inputs)
    assert got.dtype == np.float64 and got.shape == want.shape == (len(sample), n_inputs)
    assert np.array_equal(got, want) and np.array_equal(got_after, want_after)
    got[0, 0] = 5.0  # the rows are a writable array of their own


@pytest.mark.parametrize("n_inputs", FEVGA_ENCODINGS)
def test_encoding_of_no_positions(n_inputs: int) -> None:
    assert encode([], n_inputs).shape == encode_reference([], n_inputs).shape == (0, n_inputs)


def test_compiled_encoder_refuses_a_buffer_of_another_size() -> None:
    with pytest.raises(ValueError, match=r"out must hold 209 \(or 221\) values"):
        accel.compiled().encode([Position.start()], False, np.empty(100))
    with pytest.raises(ValueError, match="float64 or float32"):
        accel.compiled().encode([Position.start()], False, np.empty(209, dtype=np.int64))
    with pytest.raises(ValueError, match="no Fevga encoding has 100 inputs"):
        encode([Position.start()], 100)


def test_pure_python_context_switches_the_path() -> None:
    with accel.pure_python():
        assert not accel.enabled()
        assert legal_plays(Position.start(), (6, 5)) == legal_plays_reference(Position.start(), (6, 5))
    assert accel.core is core


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != accel.PURE_ENV}
    return subprocess.run(
        [sys.executable, "-c", code], env={**full, **env}, capture_output=True, text=True, timeout=60, check=True
    )


def test_env_var_forces_the_pure_python_path() -> None:
    done = run_python("from fevga import accel; print(accel.enabled())", FEVGA_PURE_PYTHON="1")
    assert done.stdout.strip() == "False"
    assert "WARNING" not in done.stderr


def test_missing_core_logs_one_warning_and_still_plays() -> None:
    code = (
        "import logging, sys; logging.basicConfig(level=logging.WARNING); sys.modules['fevga._core'] = None\n"
        "import fevga, fevga.ai.encoding; from fevga import accel, legal_plays, Position\n"
        "assert not accel.enabled(); print(len(legal_plays(Position.start(), (6, 5))))"
    )
    done = run_python(code)
    assert done.stdout.strip() == "1"
    warnings = [line for line in done.stderr.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1 and "pure-Python" in warnings[0]
