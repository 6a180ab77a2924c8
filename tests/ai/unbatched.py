"""Today's unbatched search (one forward pass per play, per roll), kept as the reference the
batched fevga.ai.search is checked against: same chosen plays, equities within 1e-9."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fevga import Play, Position, Rules, legal_plays
from fevga.ai.encoding import FloatArray
from fevga.ai.evaluate import afterstate_outputs, terminal_points
from fevga.ai.network import Network, equity
from fevga.ai.replies import ROLL_WEIGHTS as _ROLL_WEIGHTS
from fevga.ai.replies import ROLLS


def play_equities(net: Network, plays: Sequence[Play]) -> FloatArray:
    results = [p.result for p in plays]
    _, out = afterstate_outputs(net, results)
    eq = -equity(out)
    for k, r in enumerate(results):
        points = terminal_points(r)
        if points is not None:
            eq[k] = points
    return np.asarray(eq, dtype=np.float64)


def one_ply(
    net: Network, plays: Sequence[Play], rules: Rules, max_work: int | None = None, min_plays: int = 2
) -> FloatArray:
    """The mover's equity after each play when the opponent answers each roll with his 0-ply best.

    With ``max_work``, plays are searched in the given order until the opponent's replies
    generated so far exceed it (at least ``min_plays`` plays are searched); the rest get NaN. The budget
    counts replies, not seconds, so the choice is the same on any machine.
    """
    eq = np.full(len(plays), np.nan)
    work = 0
    for k, play in enumerate(plays):
        if max_work is not None and k >= min_plays and work > max_work:
            break
        points = terminal_points(play.result)
        if points is not None:
            eq[k] = points
            continue
        value, replies = _reply_value(net, play.result.flip(), rules)
        eq[k] = -value
        work += replies
    return eq


def _reply_value(net: Network, position: Position, rules: Rules) -> tuple[float, int]:
    """(expected 0-ply equity of the player on roll over the 21 rolls, number of replies judged)."""
    results: list[Position] = []
    owners: list[int] = []
    for r, (dice, _) in enumerate(ROLLS):
        for play in legal_plays(position, dice, rules):
            results.append(play.result)
            owners.append(r)
    _, out = afterstate_outputs(net, results)
    eq = -equity(out)
    for k, result in enumerate(results):
        points = terminal_points(result)
        if points is not None:
            eq[k] = points
    best = np.full(len(ROLLS), -9.0)
    np.maximum.at(best, np.asarray(owners), eq)
    return float(best @ _ROLL_WEIGHTS), len(results)


def two_ply(net: Network, plays: Sequence[Play], rules: Rules) -> FloatArray:
    """Like :func:`one_ply`, but the opponent's reply to each roll is then judged by our 1-ply
    answer (our expected best 0-ply play over our 21 rolls)."""
    eq = np.empty(len(plays))
    for k, play in enumerate(plays):
        points = terminal_points(play.result)
        if points is not None:
            eq[k] = points
            continue
        opp_pos = play.result.flip()
        total = 0.0
        for dice, w in ROLLS:
            replies = legal_plays(opp_pos, dice, rules)
            reply_eq = play_equities(net, replies)
            best = replies[int(np.argmax(reply_eq))]
            end = terminal_points(best.result)
            if end is not None:
                total -= w * end
                continue
            total += w * _reply_value(net, best.result.flip(), rules)[0]
        eq[k] = total
    return eq
