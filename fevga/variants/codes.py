"""Reason codes of an illegal single step in Portes and Plakoto (negative, like ``fevga.steps``'s),
shared by the step rules, the move generator, the diagnosis and the step builder."""

from __future__ import annotations

from ..steps import BLOCKED, NO_CHECKER, NOT_ALL_HOME, OVERSHOOT

BAR_FIRST = -7  # Portes: a checker on the bar must enter first
PINNED = -8  # Plakoto: the checker on that point is pinned
OWN_PINNED = -9  # Plakoto: the target point holds a pinned checker of the mover's
BEAR_OFF_PINNED = -10  # Plakoto: no bearing off while a checker of the mover's is pinned
NO_BAR = -11  # a step from the bar with nothing there, or in a game without a bar

__all__ = [
    "BAR_FIRST",
    "BEAR_OFF_PINNED",
    "BLOCKED",
    "NOT_ALL_HOME",
    "NO_BAR",
    "NO_CHECKER",
    "OVERSHOOT",
    "OWN_PINNED",
    "PINNED",
]
