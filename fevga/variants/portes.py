"""Portes (RULES-TAVLI.md "Portes"): backgammon without a cube. The rule of one step (bar first,
blocked points, hitting on every landing, bearing off), the end of a game and the resignation points.
The walk over whole plays is shared with Plakoto (``fevga.variants.tavli``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import FevgaError
from ..rules import CHECKERS, OFF
from .codes import BAR_FIRST, BLOCKED, NO_BAR, NO_CHECKER, NOT_ALL_HOME, OVERSHOOT
from .position import TavliPosition
from .state import StepState


@dataclass(frozen=True, slots=True)
class PortesRules:
    """Portes variant options: ``backgammon_value`` (2 by default, 3 for a triple game)."""

    backgammon_value: int = 2

    def __post_init__(self) -> None:
        if type(self.backgammon_value) is not int or self.backgammon_value not in (2, 3):  # 3.0 and True too
            raise FevgaError("backgammon_value must be 2 or 3", key="bad_variant", name="backgammon_value")

    def to_dict(self) -> dict[str, Any]:
        return {"backgammon_value": self.backgammon_value}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PortesRules:
        return cls(backgammon_value=data.get("backgammon_value", 2))


class PortesSteps:
    """The rule of one Portes step on a mutable ``StepState``; every caller judges steps with it."""

    game = "portes"

    @staticmethod
    def facts(s: StepState) -> tuple[bool, int]:
        """What every step from this state shares: (all 15 home or off, index of the rearmost checker)."""
        b = s.board
        lowest = -1
        for i in range(24):
            if b[i] > 0:
                lowest = i
                break
        return s.bar == 0 and (lowest < 0 or lowest >= 18), lowest

    @staticmethod
    def landing(s: StepState, p: int, d: int, facts: tuple[bool, int]) -> int:
        """THE rule of one step: the point (1-24, 25 = off) a step of ``d`` from point ``p`` (0 = the
        bar) reaches, or a negative reason code."""
        b = s.board
        if s.bar:
            if p != 0:
                return BAR_FIRST
        elif p == 0:
            return NO_BAR
        elif b[p - 1] <= 0:
            return NO_CHECKER
        t = p + d
        if t <= 24:
            return BLOCKED if b[t - 1] < -1 else t
        home, lowest = facts
        if not home:
            return NOT_ALL_HOME
        if t > OFF and p - 1 > lowest:
            return OVERSHOOT
        return OFF

    @staticmethod
    def apply(s: StepState, p: int, t: int) -> int:
        """Move a checker from ``p`` to ``t`` (judged legal); returns 1 if it hit a blot, else 0."""
        b = s.board
        if p == 0:
            s.bar -= 1
        else:
            b[p - 1] -= 1
        if t == OFF:
            s.off += 1
            return 0
        if b[t - 1] == -1:
            b[t - 1] = 1
            s.obar += 1
            return 1
        b[t - 1] += 1
        return 0

    @staticmethod
    def undo(s: StepState, p: int, t: int, flag: int) -> None:
        """Take back ``apply(s, p, t)`` that returned ``flag``."""
        b = s.board
        if t == OFF:
            s.off -= 1
        elif flag:
            b[t - 1] = -1
            s.obar -= 1
        else:
            b[t - 1] -= 1
        if p == 0:
            s.bar += 1
        else:
            b[p - 1] += 1

    @staticmethod
    def key(s: StepState) -> tuple[Any, ...]:
        """The position as a hashable key (both sides)."""
        return (tuple(s.board), s.bar, s.obar, s.off)

    @staticmethod
    def from_key(key: tuple[Any, ...], start: TavliPosition) -> TavliPosition:
        """The position a ``key`` stands for (the mover's view, as ``start``)."""
        board, bar, obar, off = key
        return TavliPosition._make("portes", board, start.pins, bar, obar, off, start.opp_off)

    @staticmethod
    def position(s: StepState, start: TavliPosition) -> TavliPosition:
        """The state as a position (still the mover's view)."""
        return TavliPosition._make("portes", tuple(s.board), start.pins, s.bar, s.obar, s.off, start.opp_off)


def portes_outcome(position: TavliPosition, rules: PortesRules) -> tuple[int, int] | None:
    """If a player has borne off all 15: (0 the mover / 1 the opponent, points), else None.
    1 point, 2 for a mars (loser bore off none), ``backgammon_value`` when he also has a checker on
    the bar or in the winner's home."""
    if position.me_off == CHECKERS:
        return 0, _win_points(position.flip(), rules)
    if position.opp_off == CHECKERS:
        return 1, _win_points(position, rules)
    return None


def _win_points(loser_view: TavliPosition, rules: PortesRules) -> int:
    """Points the opponent of the player seen in ``loser_view`` wins (or gets when he resigns)."""
    if loser_view.me_off:
        return 1
    if loser_view.me_bar or any(c > 0 for c in loser_view.board[:6]):  # his 1-6 = the winner's home
        return rules.backgammon_value
    return 2


def portes_resign_points(resigner_view: TavliPosition, rules: PortesRules) -> int:
    """What resigning gives the opponent: the points of a loss now (M-2)."""
    return _win_points(resigner_view, rules)
