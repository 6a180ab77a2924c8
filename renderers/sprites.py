"""Antialiased RGBA pieces (checkers, dice, borne-off slabs), drawn 4x larger then scaled down."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from .fonts import font
from .theme import RGB, CheckerColours, Theme

Point = tuple[float, float]

SS = 4  # supersampling factor


def _down(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    return img.resize(size, Image.Resampling.BOX)


def checker(
    colours: CheckerColours,
    tile: int,
    radius: float,
    *,
    count: int | None = None,
    ring: RGB | None = None,
) -> Image.Image:
    """A checker centred in a ``tile`` x ``tile`` RGBA image, with an optional count and halo ring."""
    big = tile * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c = big / 2
    r = radius * SS
    if ring is not None:
        draw.ellipse((c - r, c - r, c + r, c + r), fill=(*ring, 255))
        r -= max(2.0, 0.11 * r)
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(*colours.rim, 255))
    body = r * 0.9
    draw.ellipse((c - body, c - body, c + body, c + body), fill=(*colours.body, 255))
    g_out, g_in = r * 0.64, r * 0.64 - max(SS * 1.2, r * 0.07)
    draw.ellipse((c - g_out, c - g_out, c + g_out, c + g_out), fill=(*colours.groove, 255))
    draw.ellipse((c - g_in, c - g_in, c + g_in, c + g_in), fill=(*colours.body, 255))
    if count is not None:
        f = font(int(r * (0.78 if count < 10 else 0.66)), bold=True)
        draw.text((c, c), str(count), font=f, fill=(*colours.text, 255), anchor="mm")
    return _down(img, (tile, tile))


def ghost(tile: int, radius: float, colour: RGB) -> Image.Image:
    """A hollow ring where a checker stood before the last play."""
    big = tile * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c, r = big / 2, radius * SS * 0.92
    width = max(SS * 2, int(r * 0.14))
    draw.ellipse((c - r, c - r, c + r, c + r), outline=(*colour, 235), width=width)
    return _down(img, (tile, tile))


_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


def die(face: int, side: int, face_colour: RGB, pip: RGB, edge: RGB) -> Image.Image:
    """A die showing ``face`` as a rounded square ``side`` pixels wide."""
    big = side * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    pad = SS
    draw.rounded_rectangle((pad, pad, big - pad, big - pad), radius=big * 0.18, fill=(*edge, 255))
    inset = pad + max(SS, big // 40)
    draw.rounded_rectangle((inset, inset, big - inset, big - inset), radius=big * 0.16, fill=(*face_colour, 255))
    pr = big * 0.085
    for fx, fy in _PIPS[face]:
        x, y = fx * big, fy * big
        draw.ellipse((x - pr, y - pr, x + pr, y + pr), fill=(*pip, 255))
    return _down(img, (side, side))


def slab(width: int, height: int, colours: CheckerColours) -> Image.Image:
    """A borne-off checker seen from the side, for the trays."""
    big_w, big_h = width * SS, height * SS
    img = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, big_w - 1, big_h - 1), radius=big_h * 0.35, fill=(*colours.rim, 255))
    b = max(SS, big_h // 6)
    draw.rounded_rectangle((b, b, big_w - 1 - b, big_h - 1 - b), radius=big_h * 0.3, fill=(*colours.body, 255))
    return _down(img, (width, height))


def disc(diameter: int, colours: CheckerColours) -> Image.Image:
    """A small checker for the name strips, saying which colour a player has."""
    return checker(colours, diameter, diameter / 2 - 0.5)


def _mix(a: RGB, b: RGB, share: float) -> RGB:
    """``a`` moved ``share`` of the way towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * share),
        round(a[1] + (b[1] - a[1]) * share),
        round(a[2] + (b[2] - a[2]) * share),
    )


def spent_die_colours(theme: Theme) -> tuple[RGB, RGB, RGB]:
    """Face, pip and edge colours of a die already used by the pending steps: faded into the felt."""
    return (
        _mix(theme.die_face, theme.felt, 0.55),
        _mix(theme.die_pip, theme.felt, 0.6),
        _mix(theme.frame_edge, theme.felt, 0.6),
    )


def arrow(d: ImageDraw.ImageDraw, a: Point, b: Point, width: float, head: float, colour: tuple[int, ...]) -> None:
    """A straight shaft from ``a`` ending in a triangular head whose tip is at ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    ux, uy = dx / length, dy / length
    head = min(head, length * 0.6)
    base = (b[0] - ux * head, b[1] - uy * head)
    d.line([a, base], fill=colour, width=max(1, int(width)))
    r = width / 2
    d.ellipse((a[0] - r, a[1] - r, a[0] + r, a[1] + r), fill=colour)
    half = head * 0.6
    tip_l = (base[0] - uy * half, base[1] + ux * half)
    tip_r = (base[0] + uy * half, base[1] - ux * half)
    d.polygon([b, tip_l, tip_r], fill=colour)


def arrow_sample(tile: int, theme: Theme) -> Image.Image:
    """A short outlined arrow on a transparent tile, so the palette learns the arrows' blends."""
    big = tile * 2
    img = Image.new("RGBA", (big * 2, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    width, head = max(2, tile // 9) * 2, tile * 0.84
    edge = max(1, tile // 28) * 2
    a, b = (big * 0.2, big * 0.7), (big * 1.8, big * 0.3)
    arrow(d, a, b, width + 2 * edge, head + 2.5 * edge, (*theme.frame_edge, 255))
    arrow(d, a, b, width, head, (*theme.highlight, 255))
    return _down(img, (tile * 2, tile))
