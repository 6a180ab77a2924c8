"""Where Portes and Plakoto put what Fevga has not: checkers on the middle bar and a pinned checker
under its pinner's stack. Public, so tests and frontends find them on the picture.

The viewer's checkers on the bar wait in the bar's top half, next to the quarter where they enter
(his points 1-6, top right); the opponent's in the bottom half (he enters on the viewer's 19-24).
Each stack starts next to the middle band and grows towards the edge.
"""

from __future__ import annotations

from .layout import VISIBLE_STACK, Geometry

PINNED_SLOT = 0  # a pinned checker lies at the edge of its point, its pinner's stack starts one slot in


def bar_centre(geom: Geometry, side: int, slot: int) -> tuple[float, float]:
    """Centre of the ``slot``-th checker (0 = next to the middle) on the bar; ``side`` 0 the viewer's."""
    if side not in (0, 1):
        raise ValueError(f"side must be 0 or 1, not {side!r}")
    if not 0 <= slot < VISIBLE_STACK:
        raise ValueError(f"slot must be 0..{VISIBLE_STACK - 1}")
    cx = (geom.left_half[2] + geom.right_half[0]) / 2
    _l, mid_top, _r, mid_bottom = geom.middle
    b = geom.bar
    if side == 0:
        return cx, mid_top - b / 2 - slot * b
    return cx, mid_bottom + b / 2 + slot * b


def stack_slots(count: int, pinned_under: bool) -> tuple[int, int, bool]:
    """For a holder's stack of ``count`` (over a pinned checker or not): its first slot, how many of
    its checkers are drawn, and whether the last drawn one carries the count."""
    first = 1 if pinned_under else 0
    room = VISIBLE_STACK - first
    return first, min(count, room), count > room


def bar_slots(count: int) -> tuple[int, bool]:
    """How many checkers of a bar stack of ``count`` are drawn, and whether the last carries the count."""
    return min(count, VISIBLE_STACK), count > VISIBLE_STACK
