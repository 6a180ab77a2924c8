"""What a game's ends are worth to the AI: points in a single game, chances of the match in a match.

In a single game (or a money session) a 2-point win is worth twice a 1-point win. In a match to N
points it is worth what it does to the chance of winning the match: at 1-away it is worth no more
than a 1-point win, and when the opponent needs one point a 2-point loss costs no more than a 1-point
loss. The searcher judges every end through :class:`Stakes`, so the same network plays the score.
The chances come from a cubeless match table (tavli has no doubling cube) built from each game's
rate of 2-point games, measured from the networks' own estimates at the start of a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from fevga.match import game_kind

from .encoding import FloatArray

# The chance that a game ends with 2 points (mars, a mother win or loss), P(win 2+) + P(lose 2+) of
# each shipped network at the starting position (docs/ai-training.md, "Playing the score").
MARS_RATE = {"fevga": 0.18, "portes": 0.19, "plakoto": 0.50}


@dataclass(frozen=True)
class Stakes:
    """The worth of each end of the game to the mover, on the scale of a 1-point win (+1) and a
    1-point loss (-1): ``win2``/``lose2`` for winning/losing 2 points or more, ``draw`` for a draw
    (a Plakoto game whose mothers are both pinned). Money play: 2, -2 and 0."""

    win2: float = 2.0
    lose2: float = -2.0
    draw: float = 0.0

    @property
    def is_money(self) -> bool:
        return self == MONEY

    def other(self) -> Stakes:
        """The same ends seen by the opponent (zero-sum: his gain is the mover's loss)."""
        return Stakes(-self.lose2, -self.win2, -self.draw)

    def equity(self, outputs: FloatArray) -> FloatArray:
        """The worth to the player on roll of his network outputs (n, 3): win, win 2+, lose 2+."""
        win = outputs[:, 0]
        wm = np.minimum(outputs[:, 1], win)
        lm = np.minimum(outputs[:, 2], 1.0 - win)
        return 2.0 * win - 1.0 + (self.win2 - 1.0) * wm + (self.lose2 + 1.0) * lm

    def points(self, points: FloatArray) -> FloatArray:
        """The worth of game ends given in points won by the mover (negative: lost; NaN: not over)."""
        if self.is_money:
            return points
        conditions = [points >= 2.0, points <= -2.0, points == 0.0]
        return np.select(conditions, [self.win2, self.lose2, self.draw], points)

    def point(self, points: float) -> float:
        """:meth:`points` of one end."""
        return float(self.points(np.array([points]))[0])


MONEY = Stakes()


@lru_cache(maxsize=4096)
def match_chance(need: int, opp_need: int, kind: str, number: int) -> float:
    """The chance of winning a cubeless match of ``kind`` when the player needs ``need`` points, his
    opponent ``opp_need``, and game ``number`` (from 1) is about to start; both equally strong."""
    if need <= 0:
        return 1.0
    if opp_need <= 0:
        return 0.0
    g = MARS_RATE[game_kind(kind, number)]
    nxt = number + 1
    win = (1 - g) * match_chance(need - 1, opp_need, kind, nxt) + g * match_chance(need - 2, opp_need, kind, nxt)
    lose = (1 - g) * match_chance(need, opp_need - 1, kind, nxt) + g * match_chance(need, opp_need - 2, kind, nxt)
    return 0.5 * win + 0.5 * lose


def match_stakes(length: int, score: tuple[int, int], kind: str, number: int) -> Stakes:
    """The stakes of game ``number`` of a match of ``kind`` to ``length`` points for the player whose
    score is ``score[0]`` (his opponent's ``score[1]``). A 1-point match, or the first game of any, plays
    like money only when the match table says so."""
    need, opp_need = length - score[0], length - score[1]
    nxt = number + 1

    def chance(mine: int, theirs: int) -> float:
        return match_chance(need - mine, opp_need - theirs, kind, nxt)

    w1, l1 = chance(1, 0), chance(0, 1)
    mid, half = (w1 + l1) / 2.0, (w1 - l1) / 2.0
    if half <= 0.0:
        return MONEY
    return Stakes(
        win2=(chance(2, 0) - mid) / half,
        lose2=(chance(0, 2) - mid) / half,
        draw=(chance(0, 0) - mid) / half,
    )


@dataclass(frozen=True)
class MatchScore:
    """Where a match stands for the player about to move: its ``length``, his points and his
    opponent's, its ``kind`` (a game's name or "tavli") and the ``number`` of the game being played."""

    length: int
    mine: int
    theirs: int
    kind: str = "fevga"
    number: int = 1

    def stakes(self) -> Stakes:
        """What this game's ends are worth to the player, in chances of the match."""
        return match_stakes(self.length, (self.mine, self.theirs), self.kind, self.number)
