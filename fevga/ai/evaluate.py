"""Neural evaluation of plays: the mover's equity (expected points) of each play's afterstate.
Portes and Plakoto results go through their game's inputs and ends (``fevga.ai.games``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from fevga import Play, Position

from .encoding import PER_SIDE, FloatArray, encode_afterstates, encode_afterstates_single
from .games import kind_of, result_points
from .network import Network
from .stakes import MONEY, Stakes

CHECKERS = 15
CHUNK = 512  # results encoded and evaluated together (measured best of 128..8192 on this machine)


def terminal_points(result: Position) -> float | None:
    """Points the mover wins if ``result`` ends the game (2 for mars; a Portes/Plakoto result may
    also give 0 for a draw or a negative number for a loss), else None."""
    if kind_of(result) is not None:
        return result_points(result)
    if result.me_off >= CHECKERS:
        return 2.0 if result.opp_off == 0 else 1.0
    return None


def afterstate_outputs(net: Network, results: Sequence[Position]) -> tuple[FloatArray, FloatArray]:
    """(inputs, outputs) for the opponent on roll after each result; outputs are his estimates."""
    tavli = kind_of(results[0]) if len(results) else None
    x = tavli.afterstates(results)[0] if tavli is not None else encode_afterstates(results, net.n_inputs)
    return x, net.forward(x)


def play_equities(net: Network, plays: Sequence[Play], stakes: Stakes = MONEY) -> FloatArray:
    """The mover's equity after each play (0-ply): minus the opponent's equity on roll, or the
    points won when the play ends the game; ``stakes``: what the ends are worth to the mover."""
    return result_equities(net, [p.result for p in plays], stakes)


def result_equities(net: Network, results: Sequence[Position], stakes: Stakes = MONEY) -> FloatArray:
    """The mover's 0-ply equity of each play result: one encode and one forward pass per block of
    up to CHUNK results (small blocks stay in the CPU cache; 2-ply judges ~10^4 at once)."""
    if len(results) <= CHUNK:
        return _result_equities(net, results, stakes)
    parts = [_result_equities(net, results[i : i + CHUNK], stakes) for i in range(0, len(results), CHUNK)]
    return np.concatenate(parts)


def _result_equities(net: Network, results: Sequence[Position], stakes: Stakes) -> FloatArray:
    """:func:`result_equities` of one block. Game-ending results are read off the inputs (the mover,
    now the opponent, has 15/15 off; mars when the side on roll has none off): no Python loop."""
    tavli = kind_of(results[0]) if len(results) else None
    if tavli is not None:
        return tavli_input_equities(net, *tavli.afterstates(results), stakes)
    return input_equities(net, encode_afterstates_single(results, net.n_inputs), stakes)


def opponent_equity(net: Network, x: NDArray[np.floating[Any]], stakes: Stakes) -> FloatArray:
    """The mover's worth of afterstates ``x``: minus what the network's outputs are worth to the
    opponent, now on roll (for money play exactly ``-equity``)."""
    return -stakes.other().equity(net.forward(x))


def tavli_input_equities(
    net: Network, x: NDArray[np.floating[Any]], points: FloatArray, stakes: Stakes = MONEY
) -> FloatArray:
    """The mover's 0-ply equity of Portes/Plakoto play results given by their afterstate inputs ``x``
    and the points each ends the game with (NaN while it goes on: the network judges those)."""
    eq = np.where(np.isnan(points), opponent_equity(net, x, stakes), stakes.points(points))
    return np.asarray(eq, dtype=np.float64)


def input_equities(net: Network, x: NDArray[np.floating[Any]], stakes: Stakes = MONEY) -> FloatArray:
    """The mover's 0-ply equity of Fevga play results given by their afterstate inputs ``x``."""
    eq = opponent_equity(net, x, stakes)
    ended = x[:, PER_SIDE + 96] == 1.0
    if ended.any():
        eq = np.where(ended, np.where(x[:, 96] == 0.0, stakes.win2, 1.0), eq)
    return np.asarray(eq, dtype=np.float64)
