"""Swiss pairing (issue 24): score groups, no repeat pairings, at most one bye per player.

Players are taken in standings order. When the field is odd, the bye goes to the lowest-ranked player
who has not had one (and scores a win). The highest-ranked unpaired player is then paired first, with
an opponent of his own score if one is left (top half against bottom half inside the group, the
"Dutch" order), else the nearest score; a depth-first search backs out of a choice that leaves the
rest unpairable. The search is run with a growing limit on the pairs' summed squared score differences, so the round
has the fewest (and shortest) floats out of the score groups that avoiding repeats allows.
Who starts does not apply: the opening roll decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .standings import Entrant, Result, played_pairs, standings

SEARCH_BUDGET = 20_000
"""Search steps before giving up: far above what real fields need; guards a pathological late round."""


class PairingImpossible(Exception):
    """No pairing without a repeat (or a second bye) exists: the event ends after the last round played."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One round's pairs (higher-ranked player first) and the bye, if the field is odd."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None


def swiss_pairing(entrants: Sequence[Entrant], results: Sequence[Result], active: Sequence[str]) -> Pairing:
    """Pairs the next round among ``active`` (players still in the event) given all results so far."""
    table = standings(entrants, results)
    order = [row.player for row in table if row.player in set(active)]
    if len(order) < 2:
        raise PairingImpossible("fewer than two players")
    score = {row.player: row.score for row in table}
    had_bye = {row.player for row in table if row.had_bye()}
    played = played_pairs(results)
    options = (
        [(None, order)]
        if len(order) % 2 == 0
        else [(bye, [p for p in order if p != bye]) for bye in reversed(order) if bye not in had_bye]
    )
    widest = max(score.values(), default=0) ** 2 * len(order)
    for bye, rest in options:
        first = _search(rest, score, played, widest)
        if first is None:
            continue  # this bye leaves no pairing without repeats: the next-lowest player takes it
        for limit in range(_bound(rest, score), widest):
            fewest = _search(rest, score, played, limit)
            if fewest is not None:
                return Pairing(tuple(fewest), bye)
        return Pairing(tuple(first), bye)
    raise PairingImpossible("every pairing repeats a game or gives a second bye")


def _search(
    order: list[str], score: dict[str, int], played: set[frozenset[str]], limit: int
) -> list[tuple[str, str]] | None:
    """One bounded depth-first search; None if no pairing within ``limit`` was found in budget."""
    try:
        return _pair(order, score, played, [SEARCH_BUDGET], limit)
    except _BudgetSpent:
        return None


class _BudgetSpent(Exception):
    """The depth-first search took more than :data:`SEARCH_BUDGET` steps."""


def _pair(
    order: list[str], score: dict[str, int], played: set[frozenset[str]], budget: list[int], limit: int
) -> list[tuple[str, str]] | None:
    """Depth-first: pairs ``order[0]`` with the best candidate whose choice leaves the rest pairable
    with a total score difference of at most ``limit``."""
    if not order:
        return []
    if _bound(order, score) > limit:
        return None  # even without the no-repeat rule the rest would cost more
    budget[0] -= 1
    if budget[0] < 0:
        raise _BudgetSpent
    top, rest = order[0], order[1:]
    for opponent in _candidates(top, rest, score):
        cost = (score[top] - score[opponent]) ** 2
        if cost > limit or frozenset((top, opponent)) in played:
            continue
        remaining = [p for p in rest if p != opponent]
        tail = _pair(remaining, score, played, budget, limit - cost)
        if tail is not None:
            return [(top, opponent), *tail]
    return None


def _bound(order: list[str], score: dict[str, int]) -> int:
    """The least cost of pairing ``order`` (sorted by score, highest first) if repeats were allowed: pairing
    neighbours, which is optimal for squared differences on a line."""
    return sum((score[order[i]] - score[order[i + 1]]) ** 2 for i in range(0, len(order) - 1, 2))


def _candidates(top: str, rest: list[str], score: dict[str, int]) -> list[str]:
    """Opponents for ``top`` in preference order: same score first, in Dutch order (the player half a
    group below, then further down, then back up), then by distance in score, higher score first."""
    group = [p for p in rest if score[p] == score[top]]
    half = (len(group) + 1) // 2
    dutch = group[half - 1 :] + list(reversed(group[: half - 1])) if group else []
    others = sorted(
        (p for p in rest if score[p] != score[top]),
        key=lambda p: (abs(score[p] - score[top]), -score[p], rest.index(p)),
    )
    return dutch + others
