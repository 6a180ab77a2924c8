"""Network inputs for Plakoto positions seen by the player on roll, for many positions at once.

Per side (the player on roll first, then the opponent), each on his own track:
  * 24 points x 4 units (gnubg style) of his free checkers: count >= 1, >= 2, >= 3, (count - 3) / 2;
  * 24 flags: his checker pinned on that point;
  * the mother: pinned, alone on point 1 (can be pinned), checkers on point 1 / 15;
  * borne off / 15, pips / 200, home-or-off / 15, pinned checkers / 15, may bear off;
  * blots / 15 and their exposure: the share of the 36 rolls with which the other side pins one;
  * points blocked for him (2+ of the other's, or his own pinned checker under the other) ahead of
    his rearmost free checker / 12, their longest run / 6, his checkers trapped (all six points
    ahead blocked) / 15.
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

PER_SIDE = 96 + 24 + 16
N_INPUTS = 2 * PER_SIDE + 1
_NO_BAR = np.zeros(1, dtype=np.int64)


def _side(mine: FloatArray, pinned: FloatArray, other: FloatArray, off: IntArray) -> FloatArray:
    """One side's inputs: ``mine`` free checkers per own point, ``pinned`` his pinned checkers,
    ``other`` the other side's free checkers on my numbering."""
    n = mine.shape[0]
    zero = np.zeros(n, dtype=np.int64)
    out = np.empty((n, PER_SIDE), dtype=np.float64)
    units(out, mine)
    out[:, 96:120] = pinned
    out[:, 120] = pinned[:, 0]
    out[:, 121] = (mine[:, 0] == 1) & (pinned[:, 0] == 0)
    out[:, 122] = mine[:, 0] / 15.0
    out[:, 123] = off / 15.0
    allmine = mine + pinned
    out[:, 124] = pips(allmine, zero) / 200.0
    home = allmine[:, 18:].sum(axis=1) + off
    out[:, 125] = home / 15.0
    out[:, 126] = pinned.sum(axis=1) / 15.0
    out[:, 127] = (home == 15) & (pinned.sum(axis=1) == 0)
    blots = mine == 1
    out[:, 128] = blots.sum(axis=1) / 15.0
    out[:, 129] = shots(blots, np.concatenate([other, zero[:, None].astype(np.float64)], axis=1))
    blocked = (other >= 2) | ((other >= 1) & (pinned > 0))
    rear = rearmost(mine, zero)
    ahead = blocked & (np.arange(POINTS)[None, :] > rear[:, None])
    out[:, 130] = ahead.sum(axis=1) / 12.0
    run, _ = longest_run(ahead)
    out[:, 131] = run / 6.0
    total = np.concatenate([np.zeros((n, 1), dtype=np.int64), np.cumsum(blocked, axis=1)], axis=1)
    walled = (total[:, 7:] - total[:, 1:-6]) == 6  # row i: points i+1..i+6 all blocked, i < 18
    out[:, 132] = (mine[:, : POINTS - 6] * walled).sum(axis=1) / 15.0
    out[:, 133] = mine[:, 18:].sum(axis=1) / 15.0
    out[:, 134] = (mine[:, :6].sum(axis=1) + pinned[:, :6].sum(axis=1)) / 15.0
    out[:, 135] = (mine >= 2).sum(axis=1) / 12.0
    return out


def encode_arrays(a: TavliArrays) -> FloatArray:
    """Inputs (n, N_INPUTS) for Plakoto positions given as arrays (mover's view, mover on roll)."""
    mine = np.maximum(a.board, 0).astype(np.float64)
    other = np.maximum(-a.board, 0).astype(np.float64)
    my_pins = (a.pins == 1).astype(np.float64)
    his_pins = (a.pins == -1).astype(np.float64)
    out = np.empty((a.board.shape[0], N_INPUTS), dtype=np.float64)
    out[:, :PER_SIDE] = _side(mine, my_pins, other, a.me_off)
    out[:, PER_SIDE : 2 * PER_SIDE] = _side(other[:, ::-1], his_pins[:, ::-1], mine[:, ::-1], a.opp_off)
    bar = np.zeros(a.board.shape[0], dtype=np.int64)
    contact = (a.pins != 0).any(axis=1) | (rearmost(mine, bar) < foremost_other(other, bar))
    out[:, -1] = ~contact
    return out


def outcomes(a: TavliArrays) -> FloatArray:
    """Points the mover has won in each position (a play's result, mover's view; the default
    ``mother_rule`` "exception"): 1 or 2 (mars) for bearing off, 2 for the mother, -2 when his own
    mother is lost, 0 for a draw (both mothers pinned); NaN while the game goes on."""
    out = np.full(a.board.shape[0], np.nan)
    mine = a.pins[:, 0] == 1
    his = a.pins[:, POINTS - 1] == -1
    out = np.where(mine & (a.board[:, POINTS - 1] >= 0), -2.0, out)
    out = np.where(his & (a.board[:, 0] <= 0), 2.0, out)
    out = np.where(mine & his, 0.0, out)
    out = np.where(a.opp_off >= 15, np.where(a.me_off == 0, -2.0, -1.0), out)
    return np.where(a.me_off >= 15, np.where(a.opp_off == 0, 2.0, 1.0), out)
