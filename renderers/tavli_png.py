"""The parts of a board picture only Portes and Plakoto have: pinned checkers under their pinners,
checkers on the middle bar with counts, the play's arrows (from the bar too) with a star where a
step hit or pinned, and the match line (which game, which game of the tavli rotation, the score).

Called by ``board_png.render_board_image`` when the scene's game is not Fevga; pure like it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from PIL import Image

from fevga.rules import OFF
from fevga.variants import TavliPosition

from . import sprites, tavli_sprites
from .arrows import Point, _short_of, paint_arrows
from .fonts import font
from .layers import Kit, put
from .layout import Box, checker_centre
from .scene import BoardScene
from .tavli_layout import PINNED_SLOT, bar_centre, bar_slots, stack_slots


def draw_tavli(img: Image.Image, k: Kit, scene: BoardScene, perspective: int, shown: TavliPosition) -> None:
    """Checkers (pins and bar included) and the arrows of the turn being built, else of the last play."""
    _froms, tos = scene.marks(perspective)
    _checkers(img, k, shown, perspective, tos)
    _bar(img, k, shown, perspective)
    if scene.pending_steps and scene.turn is not None:
        steps, hits, side = scene.steps_for(perspective), scene.pending_hits(), 0 if scene.turn == perspective else 1
    elif scene.last_mover is not None and scene.last_play_steps:
        steps, hits = scene.last_steps_for(perspective), scene.last_play_hits
        side = 0 if scene.last_mover == perspective else 1
    else:
        return
    segments = endpoints(k, shown, steps, side)
    paint_arrows(img, k, segments)
    for (_a, b), (_start, end), hit in zip(steps, segments, hits or (False,) * len(steps), strict=True):
        if hit and b != OFF:
            _star(img, k, star_point(k, shown, b, side), end)


def _checkers(img: Image.Image, k: Kit, shown: TavliPosition, perspective: int, tos: frozenset[int]) -> None:
    """Every point's stack; a pinned checker at the edge in a red ring, its pinner's stack above it."""
    for index, signed in enumerate(shown.board):
        pin = shown.pins[index]
        if signed or pin:
            point = index + 1
            ringed = point in tos
            plan = k.cached(("stack", point, signed, pin, ringed), partial(_stack, k, point, signed, pin, ringed))
            for tile, xy in plan:
                put(img, tile, xy)


def _stack(k: Kit, point: int, signed: int, pin: int, ringed: bool) -> list[tuple[Image.Image, tuple[int, int]]]:
    """The tiles of one point's stack and where they go (the kit's viewer's numbering), made once a kit."""
    theme, geom, perspective = k.theme, k.geom, k.perspective
    u, r = geom.unit, geom.radius
    out: list[tuple[Image.Image, tuple[int, int]]] = []
    if pin:
        owner = perspective if pin > 0 else 1 - perspective
        box = slot_box(k, point, PINNED_SLOT)
        make = partial(tavli_sprites.pinned, theme.checkers[owner], u, r)
        out.append((k.sprite_on(("pinned", owner), box, make), (box[0], box[1])))
    if signed:
        owner = perspective if signed > 0 else 1 - perspective
        first, drawn, numbered = stack_slots(abs(signed), bool(pin))
        for i in range(drawn):
            number = abs(signed) if numbered and i == drawn - 1 else None
            ring = theme.highlight if (ringed and i == drawn - 1) else None
            box = slot_box(k, point, first + i)
            make = partial(sprites.checker, theme.checkers[owner], u, r, count=number, ring=ring)
            out.append((k.sprite_on(("checker", owner, number, ring), box, make), (box[0], box[1])))
    return out


def _bar(img: Image.Image, k: Kit, shown: TavliPosition, perspective: int) -> None:
    """The checkers on the bar: the viewer's in its top half, the opponent's in the bottom half."""
    tile = tavli_sprites.bar_tile(k.geom)
    for side, count in ((0, shown.me_bar), (1, shown.opp_bar)):
        owner = perspective if side == 0 else 1 - perspective
        drawn, numbered = bar_slots(count)
        for slot in range(drawn):
            number = count if numbered and slot == drawn - 1 else None
            cx, cy = bar_centre(k.geom, side, slot)
            x, y = int(cx - tile / 2), int(cy - tile / 2)
            box = (x, y, x + tile, y + tile)
            make = partial(tavli_sprites.bar_checker, k.theme.checkers[owner], tile, number)
            put(img, k.sprite_on(("bar", owner, number), box, make), (x, y))


def slot_box(k: Kit, point: int, slot: int) -> Box:
    """The square of the ``slot``-th checker on the viewer's point ``point``."""
    cx, cy = checker_centre(k.geom, point, slot)
    half = k.geom.unit // 2
    x, y = int(cx) - half, int(cy) - half
    return x, y, x + k.geom.unit, y + k.geom.unit


def top_slot(shown: TavliPosition, point: int, sign: int) -> int:
    """The slot of the mover's top checker on ``point`` (0 if he has none there now)."""
    signed, pin = shown.board[point - 1], shown.pins[point - 1]
    count = max(0, sign * signed)
    first, drawn, _numbered = stack_slots(count, pin != 0 and sign * signed > 0)
    return first + max(drawn, 1) - 1


def star_point(k: Kit, shown: TavliPosition, point: int, side: int) -> Point:
    """Where the star of a hit or pin on ``point`` goes: on the mover's top checker, towards the middle."""
    sign = 1 if side == 0 else -1
    cx, cy = checker_centre(k.geom, point, top_slot(shown, point, sign))
    if sign * shown.board[point - 1] <= 0:  # the checker moved on: the star alone marks the landing
        return cx, cy
    off = k.geom.unit * 0.3
    return cx + off, cy + (off if point <= 12 else -off)


def endpoints(k: Kit, shown: TavliPosition, steps: Sequence[tuple[int, int]], side: int) -> list[tuple[Point, Point]]:
    """Pixel (start, end) of each step in the viewer's numbering (0 = the mover's bar, 25 = off)."""
    sign = 1 if side == 0 else -1
    bar_count = shown.me_bar if side == 0 else shown.opp_bar
    out: list[tuple[Point, Point]] = []
    for src, dst in steps:
        if src == 0:
            start = bar_centre(k.geom, side, min(bar_count, 4))
        else:
            signed, pin = shown.board[src - 1], shown.pins[src - 1]
            left = max(0, sign * signed)
            first = 1 if pin and left else 0
            start = checker_centre(k.geom, src, min(first + left, 4))
        if dst == OFF:
            x0, y0, x1, y1 = k.geom.trays[side]
            end: Point = ((x0 + x1) / 2, (y0 + y1) / 2)
        else:
            cx, cy = checker_centre(k.geom, dst, top_slot(shown, dst, sign))
            end = _short_of((cx, cy), start, k.geom.unit * 0.3)
        out.append((start, end))
    return out


def _star(img: Image.Image, k: Kit, centre: Point, _end: Point) -> None:
    """Paint the hit/pin star centred at ``centre`` onto the palette picture (in place)."""
    side = tavli_sprites.star_side(k.geom)
    x, y = int(centre[0] - side / 2), int(centre[1] - side / 2)
    box = (max(0, x), max(0, y), min(img.width, x + side), min(img.height, y + side))
    piece = k.cached(("star", side), partial(tavli_sprites.star, side, k.theme.frame_edge))
    region = img.crop(box).convert("RGBA")
    region.alpha_composite(piece.crop((box[0] - x, box[1] - y, box[2] - x, box[3] - y)))
    img.paste(k.to_p(region), box[:2])


def draw_match_line(img: Image.Image, k: Kit, scene: BoardScene, perspective: int) -> None:
    """The match line in the middle band, on the half without dice (centred while the game is over)."""
    geom, theme = k.geom, k.theme
    _l, my0, _r, my1 = geom.middle
    if scene.winner is not None or scene.drawn:
        return
    half = geom.left_half if scene.turn == perspective else geom.right_half
    text = scene.match_line(perspective)
    room = half[2] - half[0] - geom.unit // 3
    size = max(9, int(geom.unit * 0.36))
    while size > 9 and font(size, bold=True).getlength(text) > room:
        size -= 1
    tile = k.text(text, size, theme.frame_edge, theme.felt, bold=True)
    x = (half[0] + half[2] - tile.width) // 2
    img.paste(tile, (x, (my0 + my1 - tile.height) // 2))
