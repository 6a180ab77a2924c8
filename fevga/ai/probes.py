"""Measuring instruments, not levels: players that know more than a player may, to bound what a level
could reach (docs/ai-training.md, "a ceiling probe"). None of them is offered in the chats."""

from __future__ import annotations

import numpy as np

from fevga import Play, Position, Rules, legal_plays

from .evaluate import play_equities, result_equities, terminal_points
from .network import Network
from .players import Player
from .replies import ROLL_WEIGHTS, ROLLS


class OracleReplyPlayer:
    """1-ply over the ``keep`` best 0-ply plays of ``net``, where the opponent's answer to each of his 21
    rolls is not guessed but asked of ``opponent`` itself (the very player it faces), and the position
    after that answer is judged by ``net``. What it wins against ``opponent`` bounds what knowing the
    opponent's every reply is worth to a 1-ply player judged by that network."""

    def __init__(self, net: Network, opponent: Player, keep: int = 5, name: str = "oracle") -> None:
        self.net = net
        self.opponent = opponent
        self.keep = keep
        self.name = name

    def value(self, play: Play, rules: Rules) -> float:
        """The mover's equity after ``play`` when the opponent answers each roll as ``opponent`` does."""
        points = terminal_points(play.result)
        if points is not None:
            return points
        there = play.result.flip()
        answers = [self.opponent.choose(there, dice, rules).result for dice, _ in ROLLS]
        # the opponent's equity after each answer (the points it wins when the answer ends the game)
        return -float(ROLL_WEIGHTS @ result_equities(self.net, answers))

    def rank(self, position: Position, dice: tuple[int, int], rules: Rules) -> list[tuple[Play, float]]:
        """The ``keep`` best 0-ply plays by their value against the known answers, best first, then the rest
        at their 0-ply equities."""
        plays = legal_plays(position, dice, rules)
        eq0 = play_equities(self.net, plays)
        order = [int(i) for i in np.argsort(-eq0, kind="stable")]
        if len(plays) == 1:
            return [(plays[0], float(eq0[0]))]
        head = sorted(((plays[i], self.value(plays[i], rules)) for i in order[: self.keep]), key=lambda t: -t[1])
        return head + [(plays[i], float(eq0[i])) for i in order[self.keep :]]

    def choose(self, position: Position, dice: tuple[int, int], rules: Rules) -> Play:
        return self.rank(position, dice, rules)[0][0]
