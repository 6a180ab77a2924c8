"""Network inputs for positions seen by the player on roll, computed for many positions at once.

Per side (the player on roll first, then the opponent), each on his own track:
  * 24 points x 4 units (gnubg style): count >= 1, >= 2, >= 3, (count - 3) / 2;
  * borne off / 15, pips / 200, unlocked, on the start point / 15, home-or-off / 15,
    made points within 12 ahead of the other's rearmost checker / 6, the longest such run / 6,
    all made points ahead of the other's rearmost checker / 12.
Then one flag: no point of either side stands ahead of the other's rearmost checker (a race).

The v3 encoding (``N_INPUTS_V3``, the third network) appends Fevga-specific inputs to those 209, per
side (the player on roll first), each on his own track with the other side's made points as blocks:
  * checkers behind a run of >= 4, >= 5, >= 6 of the other's made points (trapped / primed) / 15;
  * the other's made points directly in front of the rearmost checker (a run from the next point) / 6;
  * escapes: of the 36 rolls, those that move the rearmost checker alone past the furthest block
    within 12 points ahead of it, / 36 (36 when nothing blocks it);
then the pip lead of the player on roll (his opponent's pips minus his) / 100, and the same lead
when the game is a race (else 0). Weight files carry their input count, which names the encoding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from fevga import Position, accel

POINTS = 24
PER_SIDE = 4 * POINTS + 8
N_INPUTS = 2 * PER_SIDE + 1  # the base encoding (hard-v1, hard-v2)
EXTRA_PER_SIDE = 5
N_INPUTS_V3 = N_INPUTS + 2 * EXTRA_PER_SIDE + 2  # base + Fevga-specific inputs
FEVGA_ENCODINGS = (N_INPUTS, N_INPUTS_V3)  # the input counts a Fevga weights file may have
PRIMES = (4, 5, 6)  # run lengths of blocks that count a checker as trapped
_IDX = np.arange(POINTS)
_DIST = (POINTS - _IDX).astype(np.float64)  # pips per checker on point i+1

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


def boards_of(positions: Sequence[Position]) -> tuple[IntArray, IntArray, IntArray]:
    """(signed boards (n, 24), mover's off (n,), opponent's off (n,)) of positions."""
    boards = np.array([p.board for p in positions], dtype=np.int64).reshape(len(positions), POINTS)
    me_off = np.array([p.me_off for p in positions], dtype=np.int64)
    opp_off = np.array([p.opp_off for p in positions], dtype=np.int64)
    return boards, me_off, opp_off


def flip_boards(boards: IntArray, me_off: IntArray, opp_off: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The same positions seen by the other player (like ``Position.flip`` for many at once)."""
    return -np.roll(boards, -12, axis=1), opp_off, me_off


def _side(mine: IntArray, other: IntArray, off: IntArray) -> FloatArray:
    """One side's inputs; ``mine`` and ``other`` are counts per point, each on its own track."""
    n = mine.shape[0]
    out = np.empty((n, PER_SIDE), dtype=np.float64)
    m = mine.astype(np.float64)
    out[:, 0:96:4] = m >= 1
    out[:, 1:96:4] = m >= 2
    out[:, 2:96:4] = m >= 3
    out[:, 3:96:4] = np.maximum(m - 3.0, 0.0) / 2.0
    out[:, 96] = off / 15.0
    out[:, 97] = (m @ _DIST) / 200.0
    out[:, 98] = (off > 0) | (mine[:, 12:] > 0).any(axis=1)
    out[:, 99] = m[:, 0] / 15.0
    out[:, 100] = (m[:, 18:].sum(axis=1) + off) / 15.0
    # My made points on the other's track: his point j+1 is my point (j + 12) % 24 + 1.
    made = np.roll(mine, -12, axis=1) > 0
    has_other = (other > 0).any(axis=1)
    rear = np.where(has_other, np.argmax(other > 0, axis=1), POINTS)[:, None]
    ahead = made & (rear < _IDX)
    near = ahead & (rear + 12 >= _IDX)
    out[:, 101] = near.sum(axis=1) / 6.0
    run = np.zeros(n, dtype=np.int64)
    best = np.zeros(n, dtype=np.int64)
    for j in range(POINTS):
        run = (run + 1) * near[:, j]
        np.maximum(best, run, out=best)
    out[:, 102] = best / 6.0
    out[:, 103] = ahead.sum(axis=1) / 12.0
    return out


def _escapes(blocked: list[bool], rear: int) -> int:
    """Of the 36 rolls, those with which the checker on index ``rear`` alone (landing only on points
    not ``blocked``, never past index 23) passes the furthest block within 12 points ahead of it."""
    blocks = [j for j in range(rear + 1, min(rear + 12, POINTS - 1) + 1) if blocked[j]] if rear < POINTS else []
    if not blocks:
        return 36
    last = blocks[-1]
    free = [not b for b in blocked] + [False] * POINTS  # nothing lands past the board

    def passes(*steps: int) -> bool:
        p = rear
        for d in steps:
            p += d
            if not free[p]:
                return False
            if p > last:
                return True
        return False

    count = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            count += passes(d1, d1, d1, d1) if d1 == d2 else passes(d1, d2) or passes(d2, d1)
    return count


def _extra_side(mine: IntArray, other: IntArray) -> FloatArray:
    """One side's Fevga-specific inputs (v3); ``mine`` and ``other`` as in :func:`_side`."""
    n = mine.shape[0]
    blocked = np.roll(other, -12, axis=1) > 0  # the other's checkers on my track
    run = np.zeros((n, POINTS + 2), dtype=np.int64)  # run[:, j]: blocks from index j on
    best = np.zeros((n, POINTS + 1), dtype=np.int64)  # best[:, j]: the longest run starting after j
    for j in range(POINTS - 1, -1, -1):
        run[:, j] = (run[:, j + 1] + 1) * blocked[:, j]
        best[:, j] = np.maximum(best[:, j + 1], run[:, j + 1])
    out = np.empty((n, EXTRA_PER_SIDE), dtype=np.float64)
    for k, length in enumerate(PRIMES):
        out[:, k] = (mine * (best[:, :POINTS] >= length)).sum(axis=1) / 15.0
    has = (mine > 0).any(axis=1)
    rear = np.where(has, np.argmax(mine > 0, axis=1), POINTS)
    out[:, 3] = run[np.arange(n), rear + 1] / 6.0
    out[:, 4] = [_escapes(list(blocked[i]), int(rear[i])) / 36.0 for i in range(n)]
    return out


def encode_boards(boards: IntArray, me_off: IntArray, opp_off: IntArray, n_inputs: int = N_INPUTS) -> FloatArray:
    """Inputs (n, ``n_inputs``) for signed boards seen by the player on roll (N_INPUTS or N_INPUTS_V3)."""
    _check_inputs(n_inputs)
    mine = np.maximum(boards, 0)
    theirs = np.roll(np.maximum(-boards, 0), -12, axis=1)  # opponent's point j+1 is my index (j+12)%24
    n = boards.shape[0]
    out = np.empty((n, n_inputs), dtype=np.float64)
    out[:, :PER_SIDE] = _side(mine, theirs, me_off)
    out[:, PER_SIDE : 2 * PER_SIDE] = _side(theirs, mine, opp_off)
    race = (out[:, 103] == 0) & (out[:, PER_SIDE + 103] == 0)
    out[:, N_INPUTS - 1] = race
    if n_inputs == N_INPUTS_V3:
        e = N_INPUTS
        out[:, e : e + EXTRA_PER_SIDE] = _extra_side(mine, theirs)
        out[:, e + EXTRA_PER_SIDE : e + 2 * EXTRA_PER_SIDE] = _extra_side(theirs, mine)
        lead = (theirs.astype(np.float64) @ _DIST - mine.astype(np.float64) @ _DIST) / 100.0
        out[:, -2] = lead
        out[:, -1] = np.where(race, lead, 0.0)
    return out


def _check_inputs(n_inputs: int) -> None:
    """ValueError unless ``n_inputs`` names a Fevga encoding."""
    if n_inputs not in FEVGA_ENCODINGS:
        raise ValueError(f"no Fevga encoding has {n_inputs} inputs (known: {FEVGA_ENCODINGS})")


def encode(positions: Sequence[Position], n_inputs: int = N_INPUTS) -> FloatArray:
    """Inputs for positions seen by the player on roll, in the encoding of ``n_inputs`` inputs
    (the compiled core's when it is loaded; it reads the encoding off the buffer's size)."""
    core = accel.core
    if core is not None:
        _check_inputs(n_inputs)
        out = np.empty((len(positions), n_inputs), dtype=np.float64)
        core.encode(positions, False, out)
        return out
    return encode_reference(positions, n_inputs)


def encode_afterstates(results: Sequence[Position], n_inputs: int = N_INPUTS) -> FloatArray:
    """Inputs for play results (mover's view) as the opponent, now on roll, sees them."""
    out: FloatArray = _compiled_afterstates(results, n_inputs, np.float64)
    return out if out is not None else encode_afterstates_reference(results, n_inputs)


def encode_afterstates_single(results: Sequence[Position], n_inputs: int = N_INPUTS) -> NDArray[np.float32]:
    """:func:`encode_afterstates` as float32, the network's forward pass's own type (no copy)."""
    out: NDArray[np.float32] = _compiled_afterstates(results, n_inputs, np.float32)
    return out if out is not None else encode_afterstates_reference(results, n_inputs).astype(np.float32)


def _compiled_afterstates(results: Sequence[Position], n_inputs: int, dtype: type[np.floating[Any]]) -> Any:
    """The compiled encoder's afterstate rows of ``dtype`` (float64 or float32); None without the core."""
    core = accel.core
    if core is None:
        return None
    _check_inputs(n_inputs)
    out = np.empty((len(results), n_inputs), dtype=dtype)
    core.encode(results, True, out)
    return out


def encode_reference(positions: Sequence[Position], n_inputs: int = N_INPUTS) -> FloatArray:
    """:func:`encode` in numpy (the reference the compiled encoder is checked against)."""
    return encode_boards(*boards_of(positions), n_inputs=n_inputs)


def encode_afterstates_reference(results: Sequence[Position], n_inputs: int = N_INPUTS) -> FloatArray:
    """:func:`encode_afterstates` in numpy."""
    return encode_boards(*flip_boards(*boards_of(results)), n_inputs=n_inputs)
