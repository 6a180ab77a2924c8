"""The neural player: 0-ply (static evaluation of each play's afterstate), 1-ply (average over the
opponent's 21 rolls of his best reply) and 2-ply (also over our next roll), with move filtering:
deeper plies only look at the plays the shallower one ranks near the top.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np

from fevga import Play, Position, Rules, legal_plays

from .encoding import FloatArray
from .evaluate import play_equities, result_equities, terminal_points
from .network import Network, default_network
from .replies import ROLLS, collect_replies, roll_values
from .stakes import MONEY, Stakes


def one_ply(
    net: Network,
    plays: Sequence[Play],
    rules: Rules,
    max_work: int | None = None,
    min_plays: int = 2,
    stakes: Stakes = MONEY,
) -> FloatArray:
    """The mover's equity after each play when the opponent answers each roll with his 0-ply best.

    With ``max_work``, plays are searched in the given order until the opponent's replies
    generated so far exceed it (at least ``min_plays`` plays are searched); the rest get NaN. The budget
    counts replies, not seconds, so the choice is the same on any machine. Each play's replies to
    all 21 rolls are judged together (:func:`~fevga.ai.replies.roll_values`: with the compiled core,
    straight from the move walk to network inputs). ``stakes``: what the game's ends are worth to the mover.
    """
    eq = np.full(len(plays), np.nan)
    work = 0
    for k, play in enumerate(plays):
        if max_work is not None and k >= min_plays and work > max_work:
            break
        points = terminal_points(play.result)
        if points is not None:
            eq[k] = stakes.point(points)
            continue
        values, judged = roll_values(net, [play.result.flip()], rules, stakes.other())
        eq[k] = -values[0]
        work += judged
    return eq


def two_ply(
    net: Network, plays: Sequence[Play], rules: Rules, max_work: int | None = None, stakes: Stakes = MONEY
) -> FloatArray:
    """Like :func:`one_ply`, but the opponent's reply to each roll is then judged by our 1-ply
    answer (our expected best 0-ply play over our 21 rolls). Per play: one forward pass for the
    opponent's replies to all 21 rolls, one for our answers to all 21 x 21 rolls.

    With ``max_work`` (positions judged in our answers), the search stops before a play when the
    plays searched so far cost more than ``max_work`` times their share (predicted from the first
    play); unsearched plays get NaN. The budget counts positions, so it is the same on any machine."""
    eq = np.full(len(plays), np.nan)
    work = 0
    for k, play in enumerate(plays):
        if max_work is not None and k > 0 and work * (k + 1) > max_work * k:
            break
        points = terminal_points(play.result)
        if points is not None:
            eq[k] = stakes.point(points)
            continue
        replies: list[Position] = []
        owners: list[int] = []
        collect_replies(play.result.flip(), rules, 0, replies, owners)
        reply_eq = result_equities(net, replies, stakes.other())
        bests: list[Position] = []
        for r in range(len(ROLLS)):
            lo = owners.index(r)
            hi = lo + owners.count(r)
            bests.append(replies[lo + int(np.argmax(reply_eq[lo:hi]))])
        open_rolls = [r for r, best in enumerate(bests) if terminal_points(best) is None]
        values, judged = roll_values(net, [bests[r].flip() for r in open_rolls], rules, stakes)
        work += judged
        value_of = dict(zip(open_rolls, values, strict=True))
        total = 0.0
        for r, (_, w) in enumerate(ROLLS):
            end = terminal_points(bests[r])
            if end is not None:
                total -= w * stakes.other().point(end)
            else:
                total += w * value_of[r]
        eq[k] = total
    return eq


class NeuralPlayer:
    """Plays the best play by the network at ``ply`` 0, 1 or 2, with move filtering: 1-ply looks
    at the ``keep1`` best 0-ply plays that are within ``margin`` of the best (best first, until
    ``max_work`` opponent replies have been judged, but at least two), and always at least the
    ``widen`` best (for hints); 2-ply at the ``keep2`` best 1-ply plays, unless they would judge
    more than ``max_work2`` positions (then the 1-ply ranking stands). ``stakes``: what the game's
    ends are worth (money play, or the score of a match: :meth:`at_stakes`)."""

    def __init__(
        self,
        net: Network | None = None,
        ply: int = 1,
        keep1: int = 8,
        margin: float = 0.16,
        keep2: int = 2,
        max_work: int | None = 3000,
        widen: int = 1,
        name: str | None = None,
        max_work2: int | None = None,
        stakes: Stakes = MONEY,
    ) -> None:
        self.net = net if net is not None else default_network()
        self.ply = ply
        self.keep1 = keep1
        self.margin = margin
        self.keep2 = keep2
        self.max_work = max_work
        self.widen = widen
        self.max_work2 = max_work2
        self.name = name or f"neural-{ply}ply"
        self.stakes = stakes

    def at_stakes(self, stakes: Stakes) -> NeuralPlayer:
        """The same player judging the game's ends by ``stakes`` (the score of a match)."""
        player = copy.copy(self)
        player.stakes = stakes
        return player

    def rank(self, position: Position, dice: tuple[int, int], rules: Rules) -> list[tuple[Play, float]]:
        """All legal plays, best first, with equities; plays searched deeper come first, since
        their equities are the better estimates."""
        plays = legal_plays(position, dice, rules)
        eq0 = play_equities(self.net, plays, self.stakes)
        order = [int(i) for i in np.argsort(-eq0, kind="stable")]
        ranked = [(plays[i], float(eq0[i])) for i in order]
        if self.ply == 0 or len(plays) == 1:
            return ranked
        top = eq0[order[0]]
        cut = [
            i
            for n, i in enumerate(order)
            if n < max(self.keep1, self.widen) and (n < self.widen or eq0[i] >= top - self.margin)
        ]
        eq1 = one_ply(self.net, [plays[i] for i in cut], rules, self.max_work, max(2, self.widen), self.stakes)
        searched = [(plays[i], float(e)) for i, e in zip(cut, eq1, strict=True) if not np.isnan(e)]
        deep = sorted(searched, key=lambda t: -t[1])
        if self.ply >= 2 and len(deep) > 1:
            head = deep[: self.keep2]
            eq2 = two_ply(self.net, [p for p, _ in head], rules, self.max_work2, self.stakes)
            done = [(p, float(e)) for (p, _), e in zip(head, eq2, strict=True) if not np.isnan(e)]
            if len(done) > 1:  # a single 2-ply equity is not comparable with the 1-ply ones
                head = sorted(done, key=lambda t: -t[1])
                deep = head + deep[len(head) :]
        seen = {p for p, _ in deep}
        return deep + [(p, e) for p, e in ranked if p not in seen]

    def choose(self, position: Position, dice: tuple[int, int], rules: Rules) -> Play:
        return self.rank(position, dice, rules)[0][0]
