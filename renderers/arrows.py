"""Arrows for the steps of a turn being built: from where a checker left to where it stands now.

Each arrow is a pair of antialiased masks (cached in the kit) painted on the finished palette picture
only inside its own bounding box, so a step's picture stays a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from PIL import Image, ImageDraw

from fevga.position import Position
from fevga.rules import OFF

from . import sprites
from .layers import Kit
from .layout import VISIBLE_STACK, Box, checker_centre

Point = tuple[float, float]
SS = 2  # supersampling of the overlay (4 would cost more than it shows at these widths)


def endpoints(k: Kit, shown: Position, steps: Sequence[tuple[int, int]], mover_side: int) -> list[tuple[Point, Point]]:
    """Pixel (start, end) of each step, viewer numbering: from the emptied slot to the moved checker.

    ``shown`` is the drawn position in the viewer's numbering; ``mover_side`` 0 when the mover's checkers
    are the viewer's (positive), else 1.
    """
    board = shown.board
    sign = 1 if mover_side == 0 else -1
    out: list[tuple[Point, Point]] = []
    for src, dst in steps:
        left = max(0, sign * board[src - 1])
        start = checker_centre(k.geom, src, min(left, VISIBLE_STACK - 1))
        if dst == OFF:
            x0, y0, x1, y1 = k.geom.trays[mover_side]
            end: Point = ((x0 + x1) / 2, (y0 + y1) / 2)
        else:
            count = max(1, sign * board[dst - 1])
            cx, cy = checker_centre(k.geom, dst, min(count, VISIBLE_STACK) - 1)
            end = _short_of((cx, cy), start, k.geom.unit * 0.3)  # the checker's face stays visible
        out.append((start, end))
    return out


def draw_arrows(img: Image.Image, k: Kit, segments: Sequence[tuple[Point, Point]]) -> None:
    """Paint an arrow for each of ``segments`` onto the palette picture ``img`` (in place).

    Each arrow is two antialiased masks (outline, body) over its own bounding box, cached by its pixel
    ends, so the next step's picture reuses the arrows of the steps before it.
    """
    for start, end in segments:
        box, masks = arrow_masks(k, img.size, start, end)
        region = img.crop(box).convert("RGB")
        region.paste(k.theme.frame_edge, (0, 0), masks.getchannel(0))
        region.paste(k.theme.highlight, (0, 0), masks.getchannel(1))
        img.paste(k.to_p(region), box[:2])


def arrow_box(k: Kit, size: tuple[int, int], start: Point, end: Point) -> Box:
    """The box an arrow from ``start`` to ``end`` can touch (half a point's width around it), on the picture."""
    pad = k.geom.unit // 2
    return (
        max(0, int(min(start[0], end[0])) - pad),
        max(0, int(min(start[1], end[1])) - pad),
        min(size[0], int(max(start[0], end[0])) + pad + 1),
        min(size[1], int(max(start[1], end[1])) + pad + 1),
    )


def arrow_masks(k: Kit, size: tuple[int, int], start: Point, end: Point) -> tuple[Box, Image.Image]:
    """The arrow's bounding box on a picture of ``size`` and its outline/body masks (cached by its ends)."""
    box = arrow_box(k, size, start, end)
    key = ("arrow", box, round(start[0]), round(start[1]), round(end[0]), round(end[1]))
    return box, k.cached(key, partial(_masks, k, box, start, end), store="arrows")


def _masks(k: Kit, box: Box, start: Point, end: Point) -> Image.Image:
    """The arrow's outline and body coverage (bands 0 and 1 of an "LA" image), drawn ``SS`` times larger
    and scaled down, so its edges are antialiased."""
    w, h = box[2] - box[0], box[3] - box[1]
    u = k.geom.unit
    width = max(2, u // 9) * SS
    edge = max(1, u // 28) * SS
    head = u * 0.42 * SS
    a = ((start[0] - box[0]) * SS, (start[1] - box[1]) * SS)
    b = ((end[0] - box[0]) * SS, (end[1] - box[1]) * SS)
    bands = []
    for grow in (edge, 0):
        big = Image.new("L", (w * SS, h * SS), 0)
        sprites.arrow(ImageDraw.Draw(big), a, b, width + 2 * grow, head + 2.5 * grow, (255,))
        bands.append(big.resize((w, h), Image.Resampling.BOX))
    return Image.merge("LA", bands)


def _short_of(target: Point, origin: Point, by: float) -> Point:
    """``target`` moved ``by`` pixels back towards ``origin`` (unchanged when they are closer)."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    length = (dx * dx + dy * dy) ** 0.5
    if length <= 2 * by:
        return target
    return target[0] - dx / length * by, target[1] - dy / length * by
