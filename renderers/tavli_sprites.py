"""Pieces only Portes and Plakoto draw: a pinned checker (ringed in the pin colour), the smaller
checkers on the middle bar, and the star that marks a hit or a pin at a landing."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from . import sprites
from .layout import Geometry
from .theme import RGB, CheckerColours, Theme

PIN_COLOUR: RGB = (206, 30, 48)  # red: a pinned checker's ring and the hit/pin star (apart from the yellow highlight)
SS = sprites.SS


def bar_tile(geom: Geometry) -> int:
    """The side in pixels of a checker drawn on the middle bar (the bar's width)."""
    return geom.bar


PIN_RING = 0.2  # the pin ring's width as a share of the checker's radius


def pinned(colours: CheckerColours, tile: int, radius: float) -> Image.Image:
    """A pinned checker: its own colour, a little smaller, inside a thick ring of the pin colour."""
    ring = Image.new("RGBA", (tile * SS, tile * SS), (0, 0, 0, 0))
    c, r = tile * SS / 2, radius * SS
    ImageDraw.Draw(ring).ellipse((c - r, c - r, c + r, c + r), fill=(*PIN_COLOUR, 255))
    ring = ring.resize((tile, tile), Image.Resampling.BOX)
    ring.alpha_composite(sprites.checker(colours, tile, radius * (1 - PIN_RING)))
    return ring


def bar_checker(colours: CheckerColours, tile: int, count: int | None = None) -> Image.Image:
    """A checker on the bar, as wide as the bar, with the stack's count on the last one drawn."""
    return sprites.checker(colours, tile, tile / 2 - max(1, tile // 26), count=count)


def star(side: int, edge: RGB) -> Image.Image:
    """A five-pointed star ``side`` pixels wide in the pin colour, outlined in ``edge``."""
    big = side * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = big / 2
    for radius, colour in ((big / 2 - 1, edge), (big / 2 - 1 - max(SS, big // 10), PIN_COLOUR)):
        inner = radius * 0.45
        points = []
        for i in range(10):
            r = radius if i % 2 == 0 else inner
            angle = -math.pi / 2 + i * math.pi / 5
            points.append((c + r * math.cos(angle), c + r * math.sin(angle)))
        d.polygon(points, fill=(*colour, 255))
    return img.resize((side, side), Image.Resampling.BOX)


def star_side(geom: Geometry) -> int:
    """The star's width: about half a checker."""
    return max(8, int(geom.unit * 0.5))


def tavli_pieces(theme: Theme, geom: Geometry) -> list[Image.Image]:
    """Samples of these pieces, so the palette of a Portes/Plakoto kit learns their blends."""
    u, r, b = geom.unit, geom.radius, bar_tile(geom)
    out = [star(star_side(geom), theme.frame_edge)]
    for colours in theme.checkers:
        out.append(pinned(colours, u, r))
        out.append(bar_checker(colours, b))
        out.append(bar_checker(colours, b, count=7))
    return out
