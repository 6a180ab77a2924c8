"""Knockout brackets (issue 24): seeded by rating, first-round byes to the top seeds (pure functions).

The bracket has a power-of-two number of slots; seeds are placed so that seed 1 and 2 can meet only
in the final (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight). Slots past the field are empty, so the top seeds
meet nobody in round one: a bye. A match both players lose (both idle at the deadline) sends nobody
on, and the next opponent goes through on a bye.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .standings import Entrant

Slot = str | None


def seed_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for ``size`` slots (a power of two)."""
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def first_bracket(entrants: Sequence[Entrant]) -> list[Slot]:
    """Round one's slots: entrants sorted by rating (highest is seed 1), empty slots as byes."""
    seeded = sorted(entrants, key=lambda e: (-e.rating, e.id))
    size = 1
    while size < len(seeded):
        size *= 2
    return [seeded[seed - 1].id if seed <= len(seeded) else None for seed in seed_order(size)]


def bracket_pairs(slots: Sequence[Slot]) -> list[tuple[Slot, Slot]]:
    """The round's matches: neighbouring slots; a match with one empty side is a bye."""
    return [(slots[i], slots[i + 1]) for i in range(0, len(slots), 2)]


def next_bracket(slots: Sequence[Slot], winners: Mapping[frozenset[str], str | None]) -> list[Slot]:
    """The next round's slots from this round's winners (a bye goes through; a double loss sends none)."""
    following: list[Slot] = []
    for a, b in bracket_pairs(slots):
        if a is None or b is None:
            following.append(a if b is None else b)
        else:
            following.append(winners[frozenset((a, b))])
    return following


def champion(slots: Sequence[Slot]) -> Slot:
    """The winner once one slot is left (None if the last match was lost by both)."""
    return slots[0] if len(slots) == 1 else None
