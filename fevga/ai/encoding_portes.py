"""Network inputs for Portes positions seen by the player on roll, for many positions at once.

Per side (the player on roll first, then the opponent), each on his own track:
  * 24 points x 4 units (gnubg style): count >= 1, >= 2, >= 3, (count - 3) / 2;
  * bar / 2, on the bar at all, borne off / 15, pips / 200, home-or-off / 15;
  * blots / 15 and their exposure: the share of the 36 rolls with which the other side hits one;
  * made points / 12, made home points / 6, the longest prime / 6, and the other side's checkers
    behind that prime / 15 (when it is 4 long or more).
Then one flag: a race (no contact left).
"""

from __future__ import annotations

import numpy as np

from .encoding_tavli import (
    POINTS,
    FloatArray,
    IntArray,
    TavliArrays,
    foremost_other,
    longest_run,
    pips,
    rearmost,
    shots,
    units,
)

PER_SIDE = 96 + 11
N_INPUTS = 2 * PER_SIDE + 1
OFF_INPUT = 98  # index of "borne off / 15" within a side's block


def _side(mine: FloatArray, other: FloatArray, bar: IntArray, other_bar: IntArray, off: IntArray) -> FloatArray:
    """One side's inputs: ``mine`` per own point, ``other`` the other side's checkers on my numbering."""
    n = mine.shape[0]
    out = np.empty((n, PER_SIDE), dtype=np.float64)
    units(out, mine)
    out[:, 96] = bar / 2.0
    out[:, 97] = bar > 0
    out[:, 98] = off / 15.0
    out[:, 99] = pips(mine, bar) / 200.0
    out[:, 100] = (mine[:, 18:].sum(axis=1) + off) / 15.0
    blots = mine == 1
    out[:, 101] = blots.sum(axis=1) / 15.0
    out[:, 102] = shots(blots, np.concatenate([other, other_bar[:, None].astype(np.float64)], axis=1))
    made = mine >= 2
    out[:, 103] = made.sum(axis=1) / 12.0
    out[:, 104] = made[:, 18:].sum(axis=1) / 6.0
    run, end = longest_run(made)
    out[:, 105] = run / 6.0
    behind = np.arange(POINTS)[None, :] > end[:, None]
    trapped = (other * behind).sum(axis=1) + other_bar
    out[:, 106] = np.where(run >= 4, trapped, 0) / 15.0
    return out


def encode_arrays(a: TavliArrays) -> FloatArray:
    """Inputs (n, N_INPUTS) for Portes positions given as arrays (mover's view, mover on roll)."""
    mine = np.maximum(a.board, 0).astype(np.float64)
    other = np.maximum(-a.board, 0).astype(np.float64)  # his checkers on my numbering
    out = np.empty((a.board.shape[0], N_INPUTS), dtype=np.float64)
    out[:, :PER_SIDE] = _side(mine, other, a.me_bar, a.opp_bar, a.me_off)
    out[:, PER_SIDE : 2 * PER_SIDE] = _side(other[:, ::-1], mine[:, ::-1], a.opp_bar, a.me_bar, a.opp_off)
    out[:, -1] = rearmost(mine, a.me_bar) > foremost_other(other, a.opp_bar)
    return out


def outcomes(a: TavliArrays) -> FloatArray:
    """Points the mover has won in each position (a play's result, mover's view): 1, or 2 for a
    mars (``backgammon_value`` 2, the default); NaN while the game goes on."""
    won = a.me_off >= 15
    return np.where(won, np.where(a.opp_off == 0, 2.0, 1.0), np.nan)
