"""Arrows for the steps of a turn being built (and a tavli board's last play): from where a checker left
to where it stands now.

An arrow's coverage is computed from its shape's distance field (a capsule for the shaft, a triangle
for the head, each pixel's coverage the distance clipped to one pixel's ramp), only for the pixels near
the arrow, and cached in the kit; painting blends those pixels on the finished palette picture and maps
them back to the palette through a lookup table. A long diagonal arrow costs about its length, not its
bounding box, and a new one a fraction of a millisecond.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

import numpy as np
from PIL import Image

from fevga.position import Position
from fevga.rules import OFF

from .layers import Kit
from .layout import VISIBLE_STACK, checker_centre

Point = tuple[float, float]
Pixels = tuple[np.ndarray, np.ndarray, np.ndarray]  # rows, columns (int16, from the start), (outline, body) 0-1
HEAD_SHARE = 0.6  # the head's half-width as a share of its length (as sprites.arrow draws it)
COVERAGE_CACHE = 512  # arrow shapes kept across kits: ~12 bytes a pixel, ~25 KB for an arrow of 3 points


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


@dataclass(frozen=True, slots=True)
class ArrowPaint:
    """An arrow ready to paint on one kit's pictures, in pixels relative to the pixel its start lies in:
    those it covers fully, with their palette index, and the edge ones as ``colour = under * keep + add``
    (``keep`` per pixel, ``add`` per pixel and channel). Every arrow of the same vector and sub-pixel
    start shares it, wherever it starts."""

    solid: tuple[np.ndarray, np.ndarray]
    solid_index: np.ndarray
    edge: tuple[np.ndarray, np.ndarray]
    keep: np.ndarray
    add: np.ndarray
    box: tuple[int, int, int, int]  # left, top, right, bottom (exclusive) of the pixels it touches


def paint_arrows(img: Image.Image, k: Kit, segments: Sequence[tuple[Point, Point]]) -> None:
    """Paint an outlined arrow for each of ``segments`` onto the palette picture ``img`` (in place).

    Only the pixels under an arrow change: the fully covered ones take their colour's palette index, the
    edge ones are blended with what is under them and mapped back to the palette; the rows the arrows
    span are taken out of the picture and put back once.
    """
    placed = [(arrow_paint(k, start, end), math.floor(start[0]), math.floor(start[1])) for start, end in segments]
    placed = [(a, x, y) for a, x, y in placed if a.box[3] > a.box[1]]
    if not placed:
        return
    palette, lut = palette_lut(k)
    top = max(0, min(a.box[1] + y for a, _x, y in placed))
    bottom = min(img.height, max(a.box[3] + y for a, _x, y in placed))
    if bottom <= top:
        return
    band = img.crop((0, top, img.width, bottom))
    pixels = np.array(band)
    for arrow, x, y in placed:
        left, up, right, down = arrow.box
        inside = left + x >= 0 and right + x <= img.width and up + y >= top and down + y <= bottom
        rows, cols, index = _on_picture(arrow.solid, x, y - top, pixels.shape, inside, arrow.solid_index)
        pixels[rows, cols] = index
        rows, cols, keep, add = _on_picture(arrow.edge, x, y - top, pixels.shape, inside, arrow.keep, arrow.add)
        pixels[rows, cols] = _nearest(lut, palette[pixels[rows, cols]] * keep + add)
    band.frombytes(pixels.tobytes())
    img.paste(band, (0, top))


def _on_picture(
    where: tuple[np.ndarray, np.ndarray], x: int, y: int, shape: tuple[int, ...], inside: bool, *values: np.ndarray
) -> tuple[np.ndarray, ...]:
    """Relative pixels moved by (``x``, ``y``), with their ``values``, less those off a picture of ``shape``."""
    rows, cols = where[0] + y, where[1] + x
    if inside:
        return (rows, cols, *values)
    keep = (rows >= 0) & (rows < shape[0]) & (cols >= 0) & (cols < shape[1])
    return (rows[keep], cols[keep], *(v[keep] for v in values))


def _nearest(lut: np.ndarray, rgb: np.ndarray) -> np.ndarray:
    """Palette indexes of float RGB rows, through the kit's 15-bit lookup table."""
    q = (rgb + 0.5).astype(np.int32) >> 3
    return lut[(q[:, 0] << 10) | (q[:, 1] << 5) | q[:, 2]]


def arrow_paint(k: Kit, start: Point, end: Point) -> ArrowPaint:
    """The arrow from ``start`` to ``end`` ready to paint on this kit's pictures, relative to the pixel
    ``start`` lies in (cached by its vector and sub-pixel start)."""
    x, y = math.floor(start[0]), math.floor(start[1])
    local = ((start[0] - x, start[1] - y), (end[0] - x, end[1] - y))
    return k.cached(("arrow", *local), partial(_arrow_paint, k, *local), store="arrows")


def _arrow_paint(k: Kit, start: Point, end: Point) -> ArrowPaint:
    """Outline colour over what is under, then body colour over that, folded into one multiply-add."""
    rows, cols, cover = _coverage(k.geom.unit, start, end)
    a, b = cover[:, 0:1], cover[:, 1:2]
    edge, body = (np.array(c, dtype=np.float32) for c in (k.theme.frame_edge, k.theme.highlight))
    keep = (1 - a) * (1 - b)
    add = edge * a * (1 - b) + body * b
    full = np.flatnonzero(keep[:, 0] == 0)
    part = np.flatnonzero(keep[:, 0] != 0)
    _palette, lut = palette_lut(k)
    box = (int(cols.min()), int(rows.min()), int(cols.max()) + 1, int(rows.max()) + 1) if len(rows) else (0, 0, 0, 0)
    return ArrowPaint(
        solid=(rows[full], cols[full]),
        solid_index=_nearest(lut, add[full]),
        edge=(rows[part], cols[part]),
        keep=keep[part],
        add=add[part],
        box=box,
    )


@lru_cache(maxsize=COVERAGE_CACHE)
def _coverage(unit: int, start: Point, end: Point) -> Pixels:
    """The arrow's pixels and their outline and body coverage, from the distance to its shape (shared by
    every kit of the picture size: both viewers and every game see the same moves' vectors; read-only).

    The shapes are those ``sprites.arrow`` draws: a shaft ``width`` wide with a round start and a head
    ``head`` long, the outline the same grown by ``edge`` (a wider shaft, a longer head)."""
    width, edge, head = max(2, unit // 9), max(1, unit // 28), unit * 0.42
    (ax, ay), (bx, by) = start, end
    length = math.hypot(bx - ax, by - ay)
    if length < 1:
        empty = np.zeros(0, dtype=np.int16)
        return empty, empty, np.zeros((0, 2), dtype=np.float32)
    ux, uy = (bx - ax) / length, (by - ay) / length
    outline = (width + 2 * edge, min(head + 2.5 * edge, length * HEAD_SHARE))
    body = (width, min(head, length * HEAD_SHARE))
    shaft_r, head_len = outline[0] / 2, outline[1]
    near = 1.5  # pixels around the outline that may get partial coverage
    parts = [
        _rect(start, (ux, uy), -shaft_r - near, length - head_len, shaft_r + near),
        _rect(start, (ux, uy), length - head_len - near, length + near, HEAD_SHARE * head_len + near),
    ]
    rows = np.concatenate([p[0] for p in parts])
    cols = np.concatenate([p[1] for p in parts])
    px, py = cols + (0.5 - ax), rows + (0.5 - ay)
    along = px * ux + py * uy
    across = np.abs(py * ux - px * uy)
    cover = np.stack([_shape_cover(along, across, length, w, h) for w, h in (outline, body)], axis=1)
    keep = np.flatnonzero(cover[:, 0] > 0)
    out = rows[keep].astype(np.int16), cols[keep].astype(np.int16), cover[keep]
    for array in out:
        array.flags.writeable = False
    return out


def forget_shapes() -> None:
    """Empty the arrow shapes shared by the kits (with each kit's "arrows" store: a benchmark drawing anew)."""
    _coverage.cache_clear()


def _shape_cover(along: np.ndarray, across: np.ndarray, length: float, width: float, head: float) -> np.ndarray:
    """Coverage (0-1) of an arrow along the x axis from 0 to ``length``: shaft capsule union head triangle."""
    shaft_end = length - head
    nearest = np.clip(along, 0.0, shaft_end)
    shaft = np.hypot(along - nearest, across) - width / 2
    back = length - along  # distance back from the tip
    half = HEAD_SHARE * head
    tip = np.maximum(back - head, (head * across - half * back) / math.hypot(head, half))
    return np.clip(0.5 - np.minimum(shaft, tip), 0.0, 1.0).astype(np.float32)


def _rect(origin: Point, direction: Point, lo: float, hi: float, half: float) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the pixels whose centres lie in a rectangle along ``direction`` from ``origin``
    (``lo``..``hi`` along it, within ``half`` across): row by row spans."""
    (ox, oy), (ux, uy) = origin, direction
    ys = [oy + uy * s + ux * t for s in (lo, hi) for t in (-half, half)]
    row = np.arange(math.floor(min(ys)), math.ceil(max(ys)) + 1)
    dy = row + (0.5 - oy)
    low = np.full(row.shape, -np.inf)
    high = np.full(row.shape, np.inf)
    for cx, cy, a, b in ((ux, uy, lo, hi), (-uy, ux, -half, half)):  # along, then across: cx*dx + cy*dy in [a, b]
        if abs(cx) < 1e-9:
            inside = (cy * dy >= a) & (cy * dy <= b)
            low = np.where(inside, low, np.inf)
            continue
        e1, e2 = (a - cy * dy) / cx, (b - cy * dy) / cx
        low, high = np.maximum(low, np.minimum(e1, e2)), np.minimum(high, np.maximum(e1, e2))
    first, last = np.ceil(low + ox - 0.5), np.floor(high + ox - 0.5)  # columns of the span (inf: none)
    spans = last >= first
    x0 = np.where(spans, first, 0).astype(np.intp)
    counts = np.where(spans, last - first + 1, 0).astype(np.intp)
    rows = np.repeat(row, counts)
    cols = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts - x0, counts)
    return rows, cols


@lru_cache(maxsize=24)
def palette_lut(k: Kit) -> tuple[np.ndarray, np.ndarray]:
    """The kit's palette as float RGB rows, and the nearest palette index of every 15-bit colour."""
    holder = k.palette.getpalette() or []
    palette = np.array(holder[: 256 * 3], dtype=np.float32).reshape(-1, 3)
    levels = (np.arange(32, dtype=np.uint8) << 3) | 4  # the middle of each 5-bit step
    r, g, b = np.meshgrid(levels, levels, levels, indexing="ij")
    grid = Image.fromarray(np.stack([r, g, b], axis=-1).reshape(1, -1, 3), mode="RGB")
    lut = np.asarray(grid.quantize(palette=k.palette, dither=Image.Dither.NONE)).reshape(-1)
    return palette, lut


def _short_of(target: Point, origin: Point, by: float) -> Point:
    """``target`` moved ``by`` pixels back towards ``origin`` (unchanged when they are closer)."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    length = (dx * dx + dy * dy) ** 0.5
    if length <= 2 * by:
        return target
    return target[0] - dx / length * by, target[1] - dy / length * by
