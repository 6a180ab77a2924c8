"""Tournament results and standings: scores, Buchholz, Sonneborn-Berger and head-to-head (pure functions).

A match is won or lost (tavli has no draws); an adjudicated match where both players were idle is lost
by both. A bye scores a win. Tie-break order (issue 24): score, Buchholz, Sonneborn-Berger, then the
head-to-head result among the players still tied, then the seed (rating at the start), then the id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in an event: id (the service's user key), display name and seed rating."""

    id: str
    rating: float = 1500.0
    name: str = ""


@dataclass(frozen=True, slots=True)
class Result:
    """One game of a round. ``b`` is None for a bye (``a`` wins); ``winner`` None means both lost."""

    round: int
    a: str
    b: str | None
    winner: str | None

    @property
    def is_bye(self) -> bool:
        """A bye: one player, a free win."""
        return self.b is None

    def opponent_of(self, player: str) -> str | None:
        """The other player of this game (None for a bye)."""
        return self.b if player == self.a else self.a


@dataclass(slots=True)
class Standing:
    """One row of the standings table."""

    player: str
    score: int = 0
    buchholz: int = 0
    sonneborn_berger: int = 0
    rank: int = 0
    rounds: dict[int, tuple[str | None, bool]] = field(default_factory=dict)
    """Round number -> (opponent or None for a bye, won)."""

    def had_bye(self) -> bool:
        """Whether this player has had his (one) bye."""
        return any(opponent is None for opponent, _won in self.rounds.values())


def scores(results: Iterable[Result]) -> dict[str, int]:
    """Points per player: one per win (a bye is a win), none for a loss or a double loss."""
    points: dict[str, int] = {}
    for result in results:
        for player in (result.a, result.b):
            if player is not None:
                points.setdefault(player, 0)
        if result.winner is not None:
            points[result.winner] = points.get(result.winner, 0) + 1
    return points


def played_pairs(results: Iterable[Result]) -> set[frozenset[str]]:
    """The pairs that have met already (byes excluded): Swiss never pairs them again."""
    return {frozenset((r.a, r.b)) for r in results if r.b is not None}


def standings(entrants: Sequence[Entrant], results: Sequence[Result]) -> list[Standing]:
    """The ranked table: score, Buchholz, Sonneborn-Berger, head-to-head, seed. Ranks are 1, 2, 3...

    Buchholz is the sum of the opponents' scores, Sonneborn-Berger the sum of the scores of the
    opponents beaten; a bye adds to neither (it has no opponent).
    """
    points = scores(results)
    rows = {e.id: Standing(player=e.id, score=points.get(e.id, 0)) for e in entrants}
    for result in results:
        for player in (result.a, result.b):
            if player is None or player not in rows:
                continue
            opponent = result.opponent_of(player)
            won = result.winner == player
            rows[player].rounds[result.round] = (opponent, won)
            if opponent is not None:
                rows[player].buchholz += points.get(opponent, 0)
                if won:
                    rows[player].sonneborn_berger += points.get(opponent, 0)
    seed = {e.id: (-e.rating, e.id) for e in entrants}
    ordered = sorted(rows.values(), key=lambda s: (-s.score, -s.buchholz, -s.sonneborn_berger))
    ranked: list[Standing] = []
    index = 0
    while index < len(ordered):
        end = index
        key = _key(ordered[index])
        while end < len(ordered) and _key(ordered[end]) == key:
            end += 1
        ranked.extend(_head_to_head(ordered[index:end], results, seed))
        index = end
    for rank, row in enumerate(ranked, start=1):
        row.rank = rank
    return ranked


def _key(row: Standing) -> tuple[int, int, int]:
    return (row.score, row.buchholz, row.sonneborn_berger)


def _head_to_head(
    tied: list[Standing], results: Sequence[Result], seed: Mapping[str, tuple[float, str]]
) -> list[Standing]:
    """Orders players tied on score and both tie-breaks by their wins against each other, then seed."""
    if len(tied) < 2:
        return tied
    group = {row.player for row in tied}
    mutual: dict[str, int] = dict.fromkeys(group, 0)
    for result in results:
        if result.b is not None and result.a in group and result.b in group and result.winner is not None:
            mutual[result.winner] += 1
    return sorted(tied, key=lambda row: (-mutual[row.player], seed.get(row.player, (0.0, row.player))))
