"""Cached layers: the palette, the static background and every piece as a ready palette tile.

A render only copies the background and pastes palette tiles (a memory copy each), which is what
makes it fast; antialiasing survives because each tile was composited on its real background in
RGB once and the shared 256-colour palette holds the blended edge colours.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from threading import Lock
from typing import TypeVar, cast

from PIL import Image, ImageDraw

from . import sprites, textrun
from .background import draw_background
from .fonts import font
from .layout import Box, Geometry, geometry
from .tavli_sprites import tavli_pieces
from .theme import RGB, Theme, get_theme

TILE_CACHE_LIMIT = 4000  # pieces at their place: about 1.5 KB each at the default size
TEXT_CACHE_LIMIT = 1000  # names, pips and score lines: a few KB each
ARROW_CACHE_LIMIT = 512  # arrows' pixels and coverage: about 12 bytes a pixel, some tens of KB each

T = TypeVar("T")


def put(img: Image.Image, tile: Image.Image, xy: tuple[int, int]) -> None:
    """Paste a palette tile of this kit onto a picture being drawn (both "P", in memory, no mask) by Pillow's core
    call: ``Image.paste`` checks and loads both images first, ~8 µs a tile, and a board pastes about fifty."""
    if tile.mode != img.mode:
        raise ValueError(f"a {tile.mode} tile on a {img.mode} picture")
    x, y = xy
    img.im.paste(tile.im, (x, y, x + tile.width, y + tile.height))


class Kit:
    """Everything reusable for one (theme, size, viewer): palette, background and a tile cache."""

    def __init__(self, theme: Theme, geom: Geometry, perspective: int, game: str = "fevga") -> None:
        self.theme = theme
        self.geom = geom
        self.perspective = perspective
        self.game = game
        self.bg_rgb = draw_background(theme, geom, perspective, game)
        extra = tavli_pieces(theme, geom) if game != "fevga" else []
        self.palette = _build_palette(theme, geom, self.bg_rgb, extra)
        self.bg = self.to_p(self.bg_rgb)
        self._tiles: dict[tuple[object, ...], object] = {}
        self._texts: dict[tuple[object, ...], object] = {}
        self._arrows: dict[tuple[object, ...], object] = {}
        self._lock = Lock()

    def to_p(self, img: Image.Image) -> Image.Image:
        """Map an RGB image onto the shared palette (nearest colour, no dithering)."""
        return img.convert("RGB").quantize(palette=self.palette, dither=Image.Dither.NONE)

    def cached(self, key: tuple[object, ...], make: Callable[[], T], store: str = "sprites") -> T:
        """The tile (or an arrow's pixels) for ``key``, made once by ``make`` (thread-safe; each store is bounded)."""
        tiles, limit = {
            "texts": (self._texts, TEXT_CACHE_LIMIT),
            "arrows": (self._arrows, ARROW_CACHE_LIMIT),
        }.get(store, (self._tiles, TILE_CACHE_LIMIT))
        tile = tiles.get(key)
        if tile is None:
            tile = make()
            with self._lock:
                if len(tiles) >= limit:
                    tiles.clear()
                tiles[key] = tile
        return cast(T, tile)

    def forget(self, store: str) -> None:
        """Empty one tile store ("sprites", "texts", "arrows"), e.g. so a benchmark measures drawing anew."""
        with self._lock:
            {"texts": self._texts, "arrows": self._arrows}.get(store, self._tiles).clear()

    def sprite_on(self, key: tuple[object, ...], box: Box, sprite: Callable[[], Image.Image]) -> Image.Image:
        """A tile of ``sprite`` composited on the static background at ``box``."""

        def make() -> Image.Image:
            base = self.bg_rgb.crop(box).convert("RGBA")
            base.alpha_composite(self.cached(("piece", *key), sprite))  # drawn once, composited at each place
            return self.to_p(base)

        return self.cached(("sprite", *key, box), make)

    def sprite_on_colour(self, key: tuple[object, ...], colour: RGB, sprite: Callable[[], Image.Image]) -> Image.Image:
        """A tile of ``sprite`` composited on a flat ``colour``."""

        def make() -> Image.Image:
            piece = sprite()
            base = Image.new("RGBA", piece.size, (*colour, 255))
            base.alpha_composite(piece)
            return self.to_p(base)

        return self.cached(("flat", *key, colour), make)

    def text(self, text: str, size: int, fg: RGB, bg: RGB, bold: bool = False, shift: float = 0.0) -> Image.Image:
        """A tile of ``text`` on a flat ``bg``, tight to the bundled font's line height; characters it lacks
        (CJK, Arabic, emoji...) come from the fallback fonts (``renderers.textrun``). ``shift`` (0-1) starts
        plain text that far right of its pixel, as it would fall inside a longer line."""

        def make() -> Image.Image:
            f = font(size, bold)
            ascent, descent = f.getmetrics()
            if textrun.plain(text):  # pips, scores, most names: the bundled font alone, the fast way
                img = Image.new("RGB", (max(1, int(f.getlength(text) + shift) + 2), ascent + descent), bg)
                ImageDraw.Draw(img).text((1 + shift, 0), text, font=f, fill=fg)
            else:
                img = Image.new("RGB", (max(1, int(textrun.width(text, size, bold)) + 2), ascent + descent), bg)
                textrun.draw(img, (1, 0), text, size, fg, bold)
            return self.to_p(img)

        return self.cached(("text", text, size, fg, bg, bold, shift), make, store="texts")


@lru_cache(maxsize=24)
def kit(theme_name: str, size: int, perspective: int, game: str = "fevga") -> Kit:
    """The cached kit for a theme, picture size, viewer and game (Fevga, Portes and Plakoto differ in
    their start marks, home bands and pieces)."""
    return Kit(get_theme(theme_name), geometry(size), perspective, game)


def _build_palette(
    theme: Theme, geom: Geometry, bg: Image.Image, extra: list[Image.Image] | None = None
) -> Image.Image:
    """A 256-colour palette: the theme's flat colours exactly, plus colours fitted to all blends."""
    keys = _key_colours(theme)
    atlas = _atlas(theme, geom, bg, extra or [])
    colours = atlas.getcolors(maxcolors=1 << 24) or []
    key_set = set(keys)
    unique = [(c[0], c[1], c[2]) for _n, c in colours if isinstance(c, tuple) and c not in key_set]
    free = 256 - len(keys)
    fitted: list[tuple[int, int, int]] = []
    if unique:
        strip = Image.new("RGB", (len(unique), 1))
        strip.putdata(unique)
        q = strip.quantize(colors=free, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        pal = q.getpalette() or []
        used = sorted(set(q.tobytes()))
        fitted = [(pal[3 * i], pal[3 * i + 1], pal[3 * i + 2]) for i in used]
    entries = list(dict.fromkeys(keys + fitted))[:256]
    entries += [entries[-1]] * (256 - len(entries))
    holder = Image.new("P", (1, 1))
    holder.putpalette([v for rgb in entries for v in rgb])
    return holder


def _key_colours(theme: Theme) -> list[tuple[int, int, int]]:
    flat = [
        theme.frame,
        theme.frame_edge,
        theme.felt,
        theme.point_a,
        theme.point_b,
        theme.tray,
        theme.label,
        theme.label_dim,
        theme.strip,
        theme.strip_active,
        theme.strip_text,
        theme.strip_dim,
        theme.accent,
        theme.highlight,
        theme.die_face,
        theme.die_pip,
        theme.banner,
        theme.banner_text,
    ]
    for c in theme.checkers:
        flat += [c.body, c.rim, c.groove, c.text]
    return list(dict.fromkeys(flat))


def _atlas(theme: Theme, geom: Geometry, bg: Image.Image, extra: list[Image.Image]) -> Image.Image:
    """One RGB image holding a sample of every blend a render can produce (``extra``: a game's own pieces)."""
    u = geom.unit
    r = geom.radius
    samples: list[Image.Image] = []
    grounds = [theme.felt, theme.point_a, theme.point_b, theme.tray, theme.strip, theme.strip_active]
    pieces: list[Image.Image] = []
    for colours in theme.checkers:
        pieces.append(sprites.checker(colours, u, r))
        pieces.append(sprites.checker(colours, u, r, ring=theme.highlight))
        pieces.append(sprites.checker(colours, u, r, count=12))
        pieces.append(sprites.checker(colours, u, r, count=7, ring=theme.highlight))
        pieces.append(sprites.slab(u, max(4, u // 5), colours))
    pieces.append(sprites.ghost(u, r, theme.highlight))
    for face in range(1, 7):
        pieces.append(sprites.die(face, u, theme.die_face, theme.die_pip, theme.frame_edge))
    pieces.append(sprites.die(5, u, *sprites.spent_die_colours(theme)))
    pieces.append(sprites.arrow_sample(u, theme))
    pieces.extend(extra)
    for ground in grounds:
        for piece in pieces:
            base = Image.new("RGBA", piece.size, (*ground, 255))
            base.alpha_composite(piece)
            samples.append(base.convert("RGB"))
    text_pairs = [
        (theme.strip_text, theme.strip),
        (theme.strip_dim, theme.strip),
        (theme.strip_text, theme.strip_active),
        (theme.strip_dim, theme.strip_active),
        (theme.accent, theme.strip),
        (theme.accent, theme.strip_active),
        (theme.banner_text, theme.banner),
        (theme.strip_text, theme.banner),
        (theme.label, theme.frame),
        (theme.frame_edge, theme.highlight),
        (theme.label, theme.tray),
        (theme.highlight, theme.frame),
    ]
    for fg, ground in text_pairs:
        img = Image.new("RGB", (u * 6, u), ground)
        ImageDraw.Draw(img).text((2, 2), "Aa Ωψ 12", font=font(int(u * 0.5), True), fill=fg)
        samples.append(img)
    samples.append(bg)
    width = max(s.width for s in samples)
    atlas = Image.new("RGB", (width, sum(s.height for s in samples)))
    y = 0
    for s in samples:
        atlas.paste(s, (0, y))
        y += s.height
    return atlas
