"""The analysis's judge: equities of the best and the played play at one ply, and the luck of a roll.

Only ``fevga.ai``'s public API is used (``get_player`` and the search/evaluation functions it
exports), so the analysis follows whatever the hard level becomes.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

import numpy as np

from .ai import Player, get_player, has_weights, playing_score
from .ai.evaluate import result_equities
from .ai.games import has_game_weights
from .ai.network import Network, default_network
from .ai.search import ROLLS, one_ply, two_ply
from .ai.stakes import MONEY, MatchScore, Stakes
from .movegen import legal_plays
from .play import Play
from .position import Position
from .rules import Rules

_ROLL_WEIGHTS = np.array([w for _, w in ROLLS])


class Judge:
    """Ranks plays like the hard level (``ply=None``) or the network at 0, 1 or 2 ply, and judges any
    played play at the same depth so the two equities are comparable."""

    def __init__(self, ply: int | None = None, game: str = "fevga") -> None:
        """Pick the player of ``game`` for ``ply`` (None: the hard level) and remember its network
        and depth (each game is judged with its own network)."""
        if ply not in (None, 0, 1, 2):
            raise ValueError(f"ply is 0, 1 or 2 (None for the hard level), not {ply!r}")
        self.name = self.name_for(ply)
        self.player = get_player(self.name, game)
        net = getattr(self.player, "net", None)
        self.net: Network | None = net if isinstance(net, Network) else None
        self.ply: int = int(getattr(self.player, "ply", 0)) if self.net is not None else 0
        self.neural = self.net is not None and (has_weights() if game == "fevga" else has_game_weights(game))
        self.stakes: Stakes = MONEY

    def at_score(self, score: MatchScore | None) -> Judge:
        """The same judge playing a match's ``score`` (None: money play), as the AI and ``hint`` do, so
        the analysis ranks a match's plays as the hint did."""
        judge = copy.copy(self)
        judge.player = playing_score(self.player, score)
        judge.stakes = MONEY if score is None else score.stakes()
        return judge

    @staticmethod
    def name_for(ply: int | None) -> str:
        """The player name of a ply: ``hard`` for None, else ``neural0/1/2``."""
        return "hard" if ply is None else f"neural{ply}"

    def legal(self, position: Position, dice: tuple[int, int], rules: Rules) -> list[Play]:
        """The legal plays (one per distinct result)."""
        return legal_plays(position, dice, rules)

    def judge(
        self,
        position: Position,
        dice: tuple[int, int],
        rules: Rules,
        plays: Sequence[Play],
        played: Play,
        ranked: Sequence[tuple[Play, float]] | None = None,
    ) -> tuple[Play, float, float]:
        """(best play, its equity, the played play's equity), both at the judge's depth; when the
        played play turns out at least as good as the search's first choice it is the best.
        ``ranked`` is the judge's own ranking when the caller has it already."""
        if ranked is None:
            ranked = self.player.rank(position, dice, rules)
        best, best_eq = ranked[0]
        if played == best:
            return best, best_eq, best_eq
        played_eq = self.equity(played, rules, ranked)
        if played_eq >= best_eq:
            return played, played_eq, played_eq
        return best, best_eq, played_eq

    def equity(self, play: Play, rules: Rules, ranked: Sequence[tuple[Play, float]]) -> float:
        """One play's equity at the judge's depth (the search's own value when it is a scored rank)."""
        if self.net is None or not self.neural or self.ply == 0:
            return next(eq for p, eq in ranked if p == play)
        if self.ply == 1:
            return float(one_ply(self.net, [play], rules, stakes=self.stakes)[0])
        return float(two_ply(self.net, [play], rules, stakes=self.stakes)[0])


def roll_bests(net: Network, position: Position, rules: Rules, stakes: Stakes = MONEY) -> np.ndarray:
    """The mover's best 0-ply equity (by ``stakes``) for each of the 21 rolls (ROLLS order)."""
    results: list[Position] = []
    owners: list[int] = []
    for r, (dice, _) in enumerate(ROLLS):
        found = [p.result for p in legal_plays(position, dice, rules)]
        results.extend(found)
        owners.extend([r] * len(found))
    eq = result_equities(net, results, stakes)
    best = np.full(len(ROLLS), -9.0)
    np.maximum.at(best, np.asarray(owners, dtype=np.intp), eq)
    return best


def roll_index(dice: tuple[int, int]) -> int:
    """The index of ``dice`` (either order) in ROLLS."""
    key = (min(dice), max(dice))
    return next(r for r, (d, _) in enumerate(ROLLS) if d == key)


def luck_of_roll(judge: Judge, position: Position, dice: tuple[int, int], rules: Rules) -> float | None:
    """Equity after the roll (best 0-ply play) minus the equity before it (the 21 rolls' weighted
    average of the same), at the judge's stakes; None without the network."""
    if not judge.neural:
        return None
    bests = roll_bests(judge.net or default_network(), position, rules, judge.stakes)
    return float(bests[roll_index(dice)] - bests @ _ROLL_WEIGHTS)


def rate_players(
    players: Mapping[str, Player],
    turns: Sequence[tuple[Position, tuple[int, int]]],
    rules: Rules,
    ply: int | None = None,
) -> dict[str, tuple[float, int]]:
    """Each player's (error rate, unforced decisions) on the same turns (mover's view, dice), so
    players whose games lead to different positions compare fairly; the search runs once a turn."""
    judge = Judge(ply)
    totals = dict.fromkeys(players, 0.0)
    count = 0
    for position, dice in turns:
        plays = legal_plays(position, dice, rules)
        if len(plays) <= 1:
            continue
        count += 1
        ranked = judge.player.rank(position, dice, rules)
        for name, player in players.items():
            chosen = player.choose(position, dice, rules)
            _best, best_eq, played_eq = judge.judge(position, dice, rules, plays, chosen, ranked)
            totals[name] += max(0.0, best_eq - played_eq)
    return {name: ((1000 * total / count if count else 0.0), count) for name, total in totals.items()}


def rate_player(
    player: Player, turns: Sequence[tuple[Position, tuple[int, int]]], rules: Rules, ply: int | None = None
) -> tuple[float, int]:
    """One player's (error rate, unforced decisions) on given turns (see :func:`rate_players`)."""
    return rate_players({"p": player}, turns, rules, ply)["p"]
