"""Choosing puzzles with the AI: a position and roll is a puzzle when the ``expert`` level's best play leads
its second by at least ``MARGIN``, and a second, wider check agrees (docs/puzzles.md, "Selection").

The second check is the expert's own depth (2-ply) over the **full play list**, with no work budget: every
legal play at 0-ply, every play within ``WIDE`` of the best again at 1-ply, the ``DEEP`` best of those at
2-ply. It is not deeper than 2-ply (a 3-ply search would take minutes a position on this network). Each
play's equity is then the best play's 2-ply equity minus the play's loss at the deepest ply both were
judged at, so losses are always measured like the analysis measures them: two plays at one depth.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from .ai import get_player
from .ai.evaluate import play_equities
from .ai.network import Network
from .ai.search import one_ply, two_ply
from .analysis import BLUNDER, Report
from .play import Play
from .position import Position
from .puzzles import MARGIN, Puzzle, make, ordered_plays
from .rules import Rules
from .variants import any_position_from_id, default_rules, game_of

WIDE = 0.35  # plays this close to the best at 0-ply are searched at 1-ply
DEEP = 6  # the best plays at 1-ply searched at 2-ply
PREFILTER = 0.06  # a turn the game's analysis judged with a lead under this is not worth the expert's time


def expert_network(game: str) -> Network | None:
    """The expert level's network for ``game`` (None without weights: then no puzzles are chosen)."""
    net = getattr(get_player("expert", game), "net", None)
    return net if isinstance(net, Network) else None


def full_equities(net: Network, plays: Sequence[Play], rules: Rules) -> list[tuple[Play, float]]:
    """Every play's equity, as described in the module docstring, best first."""
    eq0 = play_equities(net, plays)
    order0 = [int(i) for i in np.argsort(-eq0, kind="stable")]
    wide = [i for i in order0 if eq0[i] >= eq0[order0[0]] - WIDE]
    eq1 = one_ply(net, [plays[i] for i in wide], rules)
    order1 = [wide[k] for k in np.argsort(-eq1, kind="stable")]
    deep = order1[:DEEP]
    eq2 = two_ply(net, [plays[i] for i in deep], rules) if len(deep) > 1 else np.array([eq1[0]])
    best = deep[int(np.argmax(eq2))]
    top2 = float(np.max(eq2))
    e1 = dict(zip(wide, (float(x) for x in eq1), strict=True))
    e2 = dict(zip(deep, (float(x) for x in eq2), strict=True))
    out: list[tuple[Play, float]] = []
    for i, play in enumerate(plays):
        if i in e2:
            value = e2[i]
        elif i in e1:
            value = top2 - max(0.0, e1[best] - e1[i])
        else:
            value = top2 - max(0.0, float(eq0[best] - eq0[i]))
        out.append((play, value))
    return sorted(out, key=lambda t: -t[1])


def select(position: Position, dice: tuple[int, int], rules: Rules | None = None) -> Puzzle | None:
    """The puzzle of this position and roll, or None: fewer than two plays, the expert's lead under
    ``MARGIN``, the wide check disagreeing on the best play or finding a lead under ``MARGIN``, or no network.
    Only the game's default rules make puzzles (a puzzle is shown without its match's options)."""
    game = game_of(position)
    if rules is not None and rules != default_rules(game):
        return None
    rules = default_rules(game)  # type: ignore[assignment]
    assert rules is not None
    plays = ordered_plays(position, dice)
    if len(plays) < 2:
        return None
    net = expert_network(game)
    if net is None:
        return None
    ranked = get_player("expert", game).rank(position, dice, rules)
    if ranked[0][1] - ranked[1][1] < MARGIN:
        return None
    wide = full_equities(net, plays, rules)
    if wide[0][0] != ranked[0][0] or wide[0][1] - wide[1][1] < MARGIN:
        return None
    return make(position, dice, wide)


def candidates_of_report(report: Report) -> Iterator[tuple[Position, tuple[int, int]]]:
    """The turns of a stored analysis worth an expert's look: its kept blunders (position and roll)."""
    for move in report.blunders():
        if move.loss >= BLUNDER:
            yield any_position_from_id(move.position), move.dice


def puzzles_of_report(report: Report) -> list[Puzzle]:
    """The puzzles found among a stored analysis's blunders (what the bot adds after analysing a game)."""
    found = (select(position, dice) for position, dice in candidates_of_report(report))
    return [p for p in found if p is not None]


def verify(puzzle: Puzzle) -> bool:
    """True when the puzzle still holds: the wide check's best play is its answer, by ``MARGIN``."""
    position = puzzle.start()
    net = expert_network(game_of(position))
    if net is None:
        return False
    plays = ordered_plays(position, puzzle.dice)
    wide = full_equities(net, plays, default_rules(game_of(position)))  # type: ignore[arg-type]
    return wide[0][0].result.id() == puzzle.result and wide[0][1] - wide[1][1] >= MARGIN


__all__ = ["DEEP", "WIDE", "candidates_of_report", "expert_network", "full_equities", "puzzles_of_report",
           "select", "verify"]
