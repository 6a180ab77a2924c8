"""Board geometry: where every point, checker, tray and label sits, in the viewer's own numbering.

The viewer sits at the bottom and, like his opponent, moves counter-clockwise: his start (point 1)
is the top-right corner, 1-12 run right to left along the top, 13-24 left to right along the
bottom, so his home (19-24) is the bottom-right quarter next to his tray. The opponent's start
(the viewer's 13) is the bottom-left corner and his home (the viewer's 7-12) the top-left quarter.
These functions are public so tests and frontends can find a checker on the picture.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fevga.position import opponent_point

VISIBLE_STACK = 5  # checkers drawn per point; a taller stack shows its count on the last one
DEFAULT_SIZE = 720
MIN_SIZE = 320
MAX_SIZE = 2400

Box = tuple[int, int, int, int]  # left, top, right, bottom (right/bottom exclusive)


@dataclass(frozen=True, slots=True)
class Geometry:
    """Pixel measures of one picture size; ``unit`` is a point's width (a checker's diameter)."""

    width: int
    height: int
    unit: int
    frame: int
    label: int
    strip: int
    bar: int
    tray: int
    gap: int
    board: Box  # the playing field inside the frame, bar included
    left_half: Box
    right_half: Box
    trays: tuple[Box, Box]  # (viewer's tray at the bottom, opponent's tray at the top)
    strips: tuple[Box, Box]  # (viewer's strip at the bottom, opponent's strip at the top)

    @property
    def radius(self) -> float:
        """A checker's radius in pixels."""
        return self.unit / 2 - max(1, self.unit // 26)

    @property
    def middle(self) -> Box:
        """The band between the two rows of points (dice, winner banner)."""
        left, top, right, bottom = self.board
        mid = (top + bottom) // 2
        return left, mid - self.gap // 2, right, mid + self.gap // 2


@lru_cache(maxsize=16)
def geometry(size: int = DEFAULT_SIZE) -> Geometry:
    """The geometry of a picture about ``size`` pixels wide (clamped to MIN_SIZE..MAX_SIZE)."""
    if not isinstance(size, int) or isinstance(size, bool):
        raise ValueError("size must be a whole number of pixels")
    size = max(MIN_SIZE, min(MAX_SIZE, size))
    unit = max(16, int(size / 15.4)) & ~1  # even, so a checker centre falls on a half-unit
    frame = round(0.42 * unit)
    label = round(0.56 * unit)
    strip = round(0.92 * unit)
    bar = round(0.8 * unit)
    gap = round(1.5 * unit)
    tray = size - (12 * unit + bar + 3 * frame)
    tray = max(tray, round(1.2 * unit))
    width = 12 * unit + bar + 3 * frame + tray
    point_h = VISIBLE_STACK * unit
    board_top = strip + label
    board_bottom = board_top + 2 * point_h + gap
    height = board_bottom + label + strip
    left = frame
    left_half = (left, board_top, left + 6 * unit, board_bottom)
    right_half = (left + 6 * unit + bar, board_top, left + 12 * unit + bar, board_bottom)
    board = (left, board_top, right_half[2], board_bottom)
    tray_left = right_half[2] + frame
    tray_right = tray_left + tray - frame
    tray_mid = (board_top + board_bottom) // 2
    trays = (
        (tray_left, tray_mid + gap // 4, tray_right, board_bottom),
        (tray_left, board_top, tray_right, tray_mid - gap // 4),
    )
    strips = ((0, board_bottom + label, width, height), (0, 0, width, strip))
    return Geometry(
        width, height, unit, frame, label, strip, bar, tray, gap, board, left_half, right_half, trays, strips
    )


def is_top(point: int) -> bool:
    """True for the viewer's points 1-12, drawn along the top edge."""
    _check_point(point)
    return point <= 12


def point_box(geom: Geometry, point: int) -> Box:
    """The rectangle of the viewer's point ``point`` (1-24), its triangle's bounding box."""
    _check_point(point)
    u = geom.unit
    if point <= 6:
        x = geom.right_half[0] + (6 - point) * u
    elif point <= 12:
        x = geom.left_half[0] + (12 - point) * u
    elif point <= 18:
        x = geom.left_half[0] + (point - 13) * u
    else:
        x = geom.right_half[0] + (point - 19) * u
    top, bottom = geom.board[1], geom.board[3]
    h = VISIBLE_STACK * u
    return (x, top, x + u, top + h) if point <= 12 else (x, bottom - h, x + u, bottom)


def checker_centre(geom: Geometry, point: int, slot: int) -> tuple[float, float]:
    """Centre of the ``slot``-th checker (0 = at the edge) on the viewer's point ``point``."""
    if not 0 <= slot < VISIBLE_STACK:
        raise ValueError(f"slot must be 0..{VISIBLE_STACK - 1}")
    x0, top, _x1, bottom = point_box(geom, point)
    u = geom.unit
    cx = x0 + u / 2
    cy = top + u / 2 + slot * u if point <= 12 else bottom - u / 2 - slot * u
    return cx, cy


def label_box(geom: Geometry, point: int) -> Box:
    """Where the number of the viewer's point ``point`` is written on the frame."""
    x0, _top, x1, _bottom = point_box(geom, point)
    if point <= 12:
        return x0, geom.board[1] - geom.label, x1, geom.board[1]
    return x0, geom.board[3], x1, geom.board[3] + geom.label


def viewer_point(point: int, owner: int, perspective: int) -> int:
    """Translate ``owner``'s own point number into ``perspective``'s numbering."""
    _check_point(point)
    return point if owner == perspective else opponent_point(point)


def shown_checkers(count: int) -> int:
    """How many checkers a stack of ``count`` draws (the rest is written as a number)."""
    return min(count, VISIBLE_STACK)


def _check_point(point: int) -> None:
    if not 1 <= point <= 24:
        raise ValueError(f"a point is numbered 1 to 24, not {point!r}")
