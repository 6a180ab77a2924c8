"""Network inputs for positions seen by the player on roll, computed for many positions at once.

Per side (the player on roll first, then the opponent), each on his own track:
  * 24 points x 4 units (gnubg style): count >= 1, >= 2, >= 3, (count - 3) / 2;
  * borne off / 15, pips / 200, unlocked, on the start point / 15, home-or-off / 15,
    made points within 12 ahead of the other's rearmost checker / 6, the longest such run / 6,
    all made points ahead of the other's rearmost checker / 12.
Then one flag: no point of either side stands ahead of the other's rearmost checker (a race).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from fevga import Position, accel

POINTS = 24
PER_SIDE = 4 * POINTS + 8
N_INPUTS = 2 * PER_SIDE + 1
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


def encode_boards(boards: IntArray, me_off: IntArray, opp_off: IntArray) -> FloatArray:
    """Inputs (n, N_INPUTS) for signed boards seen by the player on roll."""
    mine = np.maximum(boards, 0)
    theirs = np.roll(np.maximum(-boards, 0), -12, axis=1)  # opponent's point j+1 is my index (j+12)%24
    n = boards.shape[0]
    out = np.empty((n, N_INPUTS), dtype=np.float64)
    out[:, :PER_SIDE] = _side(mine, theirs, me_off)
    out[:, PER_SIDE : 2 * PER_SIDE] = _side(theirs, mine, opp_off)
    out[:, -1] = (out[:, 103] == 0) & (out[:, PER_SIDE + 103] == 0)
    return out


def encode(positions: Sequence[Position]) -> FloatArray:
    """Inputs for positions seen by the player on roll (the compiled core's when it is loaded)."""
    core = accel.core
    if core is not None:
        out = np.empty((len(positions), N_INPUTS), dtype=np.float64)
        core.encode(positions, False, out)
        return out
    return encode_reference(positions)


def encode_afterstates(results: Sequence[Position]) -> FloatArray:
    """Inputs for play results (mover's view) as the opponent, now on roll, sees them."""
    core = accel.core
    if core is not None:
        out = np.empty((len(results), N_INPUTS), dtype=np.float64)
        core.encode(results, True, out)
        return out
    return encode_afterstates_reference(results)


def encode_reference(positions: Sequence[Position]) -> FloatArray:
    """:func:`encode` in numpy (the reference the compiled encoder is checked against)."""
    return encode_boards(*boards_of(positions))


def encode_afterstates_reference(results: Sequence[Position]) -> FloatArray:
    """:func:`encode_afterstates` in numpy."""
    return encode_boards(*flip_boards(*boards_of(results)))
