"""Shared pieces of the Portes and Plakoto network inputs: positions as arrays (many at once), the
view of the other player, and the features both games use (gnubg-style point units, shots at blots,
runs of points, the race flag). Each game's own inputs are in ``encoding_portes``/``encoding_plakoto``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from numpy.typing import NDArray

from fevga import Position
from fevga.variants import TavliPosition

POINTS = 24
FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

# Rolls as (distances a checker can travel with it, weight/36), blocks ignored: a, b, a+b; a double's 1-4 a.
_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
_REACH = np.zeros((POINTS + 1, len(_ROLLS)), dtype=np.float64)  # row d: rolls that travel d pips
for _r, (_a, _b) in enumerate(_ROLLS):
    for _d in (_a, 2 * _a, 3 * _a, 4 * _a) if _a == _b else (_a, _b, _a + _b):
        _REACH[_d, _r] = 1.0
_ROLL_WEIGHTS = np.array([(1.0 if a == b else 2.0) / 36.0 for a, b in _ROLLS])
_BITS = np.int64(1) << np.arange(POINTS + 1, dtype=np.int64)  # a point's bit in a bit set
_DIST = (POINTS - np.arange(POINTS)).astype(np.float64)  # pips of a checker on each index


@dataclass(frozen=True)
class TavliArrays:
    """Many Portes/Plakoto positions (mover's view) as arrays: signed boards, pins (+1 the mover's
    checker pinned there, -1 the opponent's), bars and borne-off counts."""

    board: IntArray
    pins: IntArray
    me_bar: IntArray
    opp_bar: IntArray
    me_off: IntArray
    opp_off: IntArray

    def flipped(self) -> TavliArrays:
        """The same positions seen by the other player (``TavliPosition.flip`` for many at once)."""
        return TavliArrays(
            -self.board[:, ::-1], -self.pins[:, ::-1], self.opp_bar, self.me_bar, self.opp_off, self.me_off
        )


def arrays_of(positions: Sequence[Position]) -> TavliArrays:
    """The positions (``TavliPosition``) as :class:`TavliArrays`."""
    tavli = cast(Sequence[TavliPosition], positions)
    n = len(tavli)
    board = np.array([p.board for p in tavli], dtype=np.int64).reshape(n, POINTS)
    pins = np.array([p.pins for p in tavli], dtype=np.int64).reshape(n, POINTS)
    ints = np.array([(p.me_bar, p.opp_bar, p.me_off, p.opp_off) for p in tavli], dtype=np.int64).reshape(n, 4)
    return TavliArrays(board, pins, ints[:, 0], ints[:, 1], ints[:, 2], ints[:, 3])


def units(out: FloatArray, counts: FloatArray) -> None:
    """gnubg-style point units into ``out`` (n, 96): count >= 1, >= 2, >= 3, (count - 3) / 2 per point."""
    out[:, 0:96:4] = counts >= 1
    out[:, 1:96:4] = counts >= 2
    out[:, 2:96:4] = counts >= 3
    out[:, 3:96:4] = np.maximum(counts - 3.0, 0.0) / 2.0


def shots(blots: BoolArray, hitters: FloatArray) -> FloatArray:
    """The share of the 36 rolls with which the other side can land on one of ``blots`` (n, 24), my
    numbering; ``hitters`` (n, 25) counts his checkers per my index, index 24 his bar (he moves down).
    Both sides are bit sets, so each distance is one shift and one AND."""
    blot_bits = blots.astype(np.int64) @ _BITS[:POINTS]
    hit_bits = (hitters > 0).astype(np.int64) @ _BITS
    reach = np.zeros((blots.shape[0], POINTS + 1), dtype=np.float64)
    for d in range(1, POINTS + 1):
        reach[:, d] = ((blot_bits << d) & hit_bits) != 0
    hit = (reach @ _REACH) > 0
    return np.asarray(hit @ _ROLL_WEIGHTS, dtype=np.float64)


def longest_run(flags: BoolArray) -> tuple[IntArray, IntArray]:
    """(length, index of the last point) of the longest run of True in each row (n, 24); the
    first such run when two are as long, index -1 when there is none."""
    count = np.cumsum(flags, axis=1)
    at_gap = np.maximum.accumulate(np.where(flags, 0, count), axis=1)
    run: IntArray = count - at_gap
    best: IntArray = run.max(axis=1)
    end = np.where(best > 0, np.argmax(run, axis=1), -1)
    return best.astype(np.int64), end.astype(np.int64)


def rearmost(mine: FloatArray, bar: IntArray) -> IntArray:
    """Index of each row's rearmost checker of the side moving up (-1 on the bar, 24 with none)."""
    has = mine > 0
    first = np.where(has.any(axis=1), np.argmax(has, axis=1), POINTS)
    return np.where(bar > 0, -1, first)


def foremost_other(other: FloatArray, other_bar: IntArray) -> IntArray:
    """Index, in my numbering, of the other side's rearmost checker (he moves down: 24 = his bar,
    -1 with none)."""
    has = other > 0
    last = np.where(has.any(axis=1), POINTS - 1 - np.argmax(has[:, ::-1], axis=1), -1)
    return np.where(other_bar > 0, POINTS, last)


def pips(mine: FloatArray, bar: IntArray) -> FloatArray:
    """Pip counts of the side whose checkers per own point are ``mine`` (the bar is 25 away)."""
    return np.asarray(mine @ _DIST + 25.0 * bar, dtype=np.float64)
