"""Plakoto (RULES-TAVLI.md "Plakoto"): pinning instead of hitting. The rule of one step (pinned
checkers stay, blocked and own-pinned points, pins and releases on every landing, no bearing off
while pinned), the mother rule, the end of a game and the resignation points. The walk over whole
plays is shared with Portes (``fevga.variants.tavli``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import FevgaError
from ..rules import CHECKERS, OFF
from .codes import BEAR_OFF_PINNED, BLOCKED, NO_BAR, NO_CHECKER, NOT_ALL_HOME, OVERSHOOT, OWN_PINNED, PINNED
from .position import TavliPosition
from .state import StepState

MOTHER_RULES = ("exception", "strict")
PINNED_HERE = 1  # ``apply`` flag: the landing pinned an opposing checker
RELEASED_HERE = 2  # ``apply`` flag: leaving the point freed the checker pinned under it


@dataclass(frozen=True, slots=True)
class PlakotoRules:
    """Plakoto variant options: ``mother_rule`` ("exception" by default, or "strict")."""

    mother_rule: str = "exception"

    def __post_init__(self) -> None:
        if self.mother_rule not in MOTHER_RULES:
            raise FevgaError('mother_rule must be "exception" or "strict"', key="bad_variant", name="mother_rule")

    def to_dict(self) -> dict[str, Any]:
        return {"mother_rule": self.mother_rule}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlakotoRules:
        return cls(mother_rule=data.get("mother_rule", "exception"))


class PlakotoSteps:
    """The rule of one Plakoto step on a mutable ``StepState``; every caller judges steps with it."""

    game = "plakoto"

    @staticmethod
    def facts(s: StepState) -> tuple[bool, bool, int]:
        """What every step from this state shares: (all 15 on 19-24 or off, a checker of the mover's
        is pinned, index of his rearmost free checker)."""
        b, pins = s.board, s.pins
        lowest = -1
        pinned = False
        home = True
        for i in range(24):
            if pins[i] == 1:
                pinned = True
                if i < 18:
                    home = False
            elif b[i] > 0:
                if lowest < 0:
                    lowest = i
                if i < 18:
                    home = False
        return home, pinned, lowest

    @staticmethod
    def landing(s: StepState, p: int, d: int, facts: tuple[bool, bool, int]) -> int:
        """THE rule of one step: the point (1-24, 25 = off) a step of ``d`` from point ``p`` reaches,
        or a negative reason code."""
        if p == 0:
            return NO_BAR
        b = s.board
        if b[p - 1] <= 0:
            return PINNED if s.pins[p - 1] == 1 else NO_CHECKER
        t = p + d
        if t <= 24:
            v = b[t - 1]
            if v < 0:
                if s.pins[t - 1] == 1:
                    return OWN_PINNED
                if v < -1:
                    return BLOCKED
            return t
        home, pinned, lowest = facts
        if not home:
            return NOT_ALL_HOME
        if pinned:
            return BEAR_OFF_PINNED
        if t > OFF and p - 1 > lowest:
            return OVERSHOOT
        return OFF

    @staticmethod
    def apply(s: StepState, p: int, t: int) -> int:
        """Move a free checker from ``p`` to ``t`` (judged legal): flags PINNED_HERE, RELEASED_HERE."""
        b, pins = s.board, s.pins
        i = p - 1
        b[i] -= 1
        flag = 0
        if b[i] == 0 and pins[i] == -1:
            b[i] = -1
            pins[i] = 0
            flag = RELEASED_HERE
        if t == OFF:
            s.off += 1
        elif b[t - 1] == -1:
            b[t - 1] = 1
            pins[t - 1] = -1
            flag |= PINNED_HERE
        else:
            b[t - 1] += 1
        return flag

    @staticmethod
    def undo(s: StepState, p: int, t: int, flag: int) -> None:
        """Take back ``apply(s, p, t)`` that returned ``flag``."""
        b, pins = s.board, s.pins
        if t == OFF:
            s.off -= 1
        elif flag & PINNED_HERE:
            b[t - 1] = -1
            pins[t - 1] = 0
        else:
            b[t - 1] -= 1
        i = p - 1
        if flag & RELEASED_HERE:
            b[i] = 0
            pins[i] = -1
        b[i] += 1

    @staticmethod
    def key(s: StepState) -> tuple[Any, ...]:
        """The position as a hashable key (both sides)."""
        return (tuple(s.board), tuple(s.pins), s.off)

    @staticmethod
    def from_key(key: tuple[Any, ...], start: TavliPosition) -> TavliPosition:
        """The position a ``key`` stands for (the mover's view, as ``start``)."""
        board, pins, off = key
        return TavliPosition._make("plakoto", board, pins, 0, 0, off, start.opp_off)

    @staticmethod
    def position(s: StepState, start: TavliPosition) -> TavliPosition:
        """The state as a position (still the mover's view)."""
        return TavliPosition._make("plakoto", tuple(s.board), tuple(s.pins), 0, 0, s.off, start.opp_off)


def mothers(position: TavliPosition) -> tuple[bool, bool]:
    """(the mover's mother is pinned, the opponent's mother is pinned): a lone checker on the
    owner's point 1 pinned under the other's checker(s)."""
    return position.pins[0] == 1, position.pins[23] == -1


def plakoto_outcome(position: TavliPosition, rules: PlakotoRules) -> tuple[int | None, int] | None:
    """The end of a game after a whole play, or None: (0 the mover / 1 the opponent / None a draw,
    points). Bearing off all 15 wins 1 or 2 (mars); then the mother rule (rule 6, K-5, K-6)."""
    if position.me_off == CHECKERS:
        return 0, 2 if position.opp_off == 0 else 1
    if position.opp_off == CHECKERS:
        return 1, 2 if position.me_off == 0 else 1
    mine, his = mothers(position)
    if mine and his:
        return None, 0
    if rules.mother_rule == "strict":
        return (1, 2) if mine else (0, 2) if his else None
    if mine and position.board[23] >= 0:  # the pinner (opponent) has none left on his point 1 (my 24)
        return 1, 2
    if his and position.board[0] <= 0:  # I pinned his mother and have none left on my point 1
        return 0, 2
    return None


def plakoto_resign_points(resigner_view: TavliPosition) -> int:
    """What resigning gives the opponent: 2 while the resigner has borne off none, else 1 (M-2)."""
    return 2 if resigner_view.me_off == 0 else 1
