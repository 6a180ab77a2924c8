"""Names drawn as written: split into runs by the font that has their glyphs, laid out in visual order.

A run is shaped by Pillow's raqm layout where it is available (Arabic joined, right-to-left ordered,
emoji sequences such as flags and ZWJ families as one glyph); without raqm, a right-to-left run is
simply reversed (readable in order, its letters unjoined). Colour emoji are drawn at their bitmap size
and scaled to the line. Text is cut to a width by whole clusters, with an ellipsis.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, features
from PIL.ImageFont import FreeTypeFont

from .fallback import Face, curated, face_for, load, primary
from .fonts import font

RAQM = bool(features.check_feature("raqm"))
ZWJ = 0x200D
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive characters drawn with one font, ``rtl`` when they are right-to-left text."""

    text: str
    face: Face
    rtl: bool


def _attaches(code: int) -> bool:
    """Characters that belong to the one before: marks, joiners, variation selectors, skin tones, tags."""
    if code in (ZWJ, 0x200C, 0x20E3) or 0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF:
        return True
    if 0xE0020 <= code <= 0xE007F or 0xE0100 <= code <= 0xE01EF:
        return True
    return unicodedata.category(chr(code)) in ("Mn", "Me")


def clusters(text: str) -> list[str]:
    """``text`` cut into user-visible characters: a base with its marks, a ZWJ sequence, a flag pair."""
    out: list[str] = []
    joined = False
    for ch in text:
        code = ord(ch)
        regional = 0x1F1E6 <= code <= 0x1F1FF
        if out and (joined or _attaches(code) or (regional and _lone_regional(out[-1]))):
            out[-1] += ch
        else:
            out.append(ch)
        joined = code == ZWJ
    return out


def _lone_regional(cluster: str) -> bool:
    return len(cluster) == 1 and 0x1F1E6 <= ord(cluster) <= 0x1F1FF


def _is_rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def _wants_emoji(cluster: str) -> bool:
    """An emoji presentation asked for (U+FE0F) or a sequence only an emoji font draws as one glyph."""
    return len(cluster) > 1 and any(ord(c) in (0xFE0F, ZWJ) or 0x1F1E6 <= ord(c) <= 0x1F1FF for c in cluster)


def _face(cluster: str) -> Face | None:
    base = face_for(ord(cluster[0]))
    if base is not None and not base.colour and _wants_emoji(cluster):
        emoji = next((f for f in _emoji_faces() if ord(cluster[0]) in f.cover), None)
        return emoji or base
    return base


@lru_cache(maxsize=1)
def _emoji_faces() -> tuple[Face, ...]:
    return tuple(f for f in curated() if f.colour)


def _hidden(cluster: str) -> bool:
    """Controls, format characters (bidi marks, a lone joiner), surrogates, private use, unassigned."""
    return unicodedata.category(cluster[0]) in ("Cc", "Cf", "Cs", "Co", "Cn")


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """``text`` without control characters and without the clusters no installed font can draw."""
    return "".join(c for c in clusters(text) if not _hidden(c) and _face(c) is not None)


def plain(text: str) -> bool:
    """True when the bundled font alone draws ``text`` left to right (no fallback, no bidi needed)."""
    cover = primary().cover
    return all(ord(c) in cover and ord(c) < 0x0590 for c in text)


@lru_cache(maxsize=2048)
def runs(text: str) -> tuple[Run, ...]:
    """The runs of ``text`` in visual order (right to left when its first strong character is)."""
    out: list[Run] = []
    for cluster in clusters(text):
        face = None if _hidden(cluster) else _face(cluster)
        if face is None:
            continue
        cluster = "".join(c for c in cluster if c == cluster[0] or ord(c) in face.cover or face.colour)
        rtl = _is_rtl(cluster[0])
        last = out[-1] if out else None
        if last is not None and cluster.isspace() and not last.face.colour and ord(cluster[0]) in last.face.cover:
            out[-1] = Run(last.text + cluster, last.face, last.rtl)  # a space stays with the word before
        elif last is not None and last.face is face and last.rtl == rtl:
            out[-1] = Run(last.text + cluster, face, rtl)
        else:
            out.append(Run(cluster, face, rtl))
    rtl_paragraph = next((_is_rtl(c) for c in text if unicodedata.bidirectional(c) in ("L", "R", "AL")), False)
    return tuple(visual_order(out, rtl_paragraph))


def _kind(run: Run) -> str:
    """A run's direction for ordering: "R", "L" (a letter or digit written left to right) or "N" (neutral)."""
    if run.rtl:
        return "R"
    return "L" if any(unicodedata.bidirectional(c) in ("L", "EN", "AN") for c in run.text) else "N"


def visual_order(logical: list[Run], rtl_paragraph: bool) -> list[Run]:
    """Runs from logical to visual order, left to right: the Unicode bidi rules at the level of whole runs
    (a neutral run takes the direction of its neighbours when they agree, else the paragraph's; then every
    sequence at a level of at least k is reversed, for k from the highest level down to 1)."""
    kinds = [_kind(r) for r in logical]
    base = "R" if rtl_paragraph else "L"
    resolved = []
    for i, kind in enumerate(kinds):
        if kind == "N":
            before = next((k for k in reversed(kinds[:i]) if k != "N"), base)
            after = next((k for k in kinds[i + 1 :] if k != "N"), base)
            kind = before if before == after else base
        resolved.append(kind)
    levels = [(1 if k == "R" else 0) if not rtl_paragraph else (1 if k == "R" else 2) for k in resolved]
    order = list(range(len(logical)))
    for level in range(max(levels, default=0), 0, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return [logical[i] for i in order]


def _basic(run: Run) -> str:
    """Without raqm: a right-to-left run's characters reversed (clusters kept), so it reads in order."""
    return "".join(reversed(clusters(run.text))) if run.rtl else run.text


def _scale(size: int, bold: bool, face: Face) -> float:
    """How much a colour emoji bitmap shrinks to sit on the line of DejaVu at ``size``."""
    dv = font(size, bold).getmetrics()
    em = load(face, size, bold).getmetrics()
    return (dv[0] + dv[1]) / max(1, em[0] + em[1])


def _draw_args(run: Run) -> dict[str, object]:
    return {"direction": "rtl" if run.rtl else "ltr"} if RAQM else {}


@lru_cache(maxsize=4096)
def width(text: str, size: int, bold: bool = False) -> float:
    """The drawn width of ``text`` in pixels."""
    total = 0.0
    for run in runs(text):
        f = load(run.face, size, bold)
        shown = run.text if RAQM else _basic(run)
        w = f.getlength(shown, **_draw_args(run))  # type: ignore[arg-type]
        total += w * _scale(size, bold, run.face) if run.face.colour else w
    return total


def draw(img: Image.Image, xy: tuple[float, float], text: str, size: int, fill: tuple[int, ...],
         bold: bool = False) -> float:
    """Draw ``text`` with its top-left at ``xy`` (DejaVu's line box at ``size``); returns its width."""
    x, top = xy
    baseline = top + font(size, bold).getmetrics()[0]
    d = ImageDraw.Draw(img)
    for run in runs(text):
        f = load(run.face, size, bold)
        shown = run.text if RAQM else _basic(run)
        if run.face.colour:
            x += _paste_emoji(img, (x, top), shown, f, _scale(size, bold, run.face))
            continue
        d.text((x, baseline), shown, font=f, fill=fill, anchor="ls", **_draw_args(run))  # type: ignore[arg-type]
        x += f.getlength(shown, **_draw_args(run))  # type: ignore[arg-type]
    return x - xy[0]


def _paste_emoji(img: Image.Image, xy: tuple[float, float], text: str, f: FreeTypeFont, scale: float) -> float:
    """Colour emoji drawn at the bitmap size, scaled down and pasted with their alpha; their width."""
    tile = _emoji_tile(text, f, round(scale * 1000))
    img.paste(tile, (round(xy[0]), round(xy[1])), tile)
    return tile.width


@lru_cache(maxsize=512)
def _emoji_tile(text: str, f: FreeTypeFont, scale_milli: int) -> Image.Image:
    """The emoji of ``text`` in colour on a transparent tile, ``scale_milli`` / 1000 of the bitmap size."""
    ascent, descent = f.getmetrics()
    w = max(1, int(f.getlength(text)))
    big = Image.new("RGBA", (w, ascent + descent), (0, 0, 0, 0))
    ImageDraw.Draw(big).text((0, 0), text, font=f, embedded_color=True)
    scale = scale_milli / 1000
    return big.resize((max(1, round(w * scale)), max(1, round((ascent + descent) * scale))), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4096)
def fit(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """``text`` cut by whole clusters, with an ellipsis, so it is at most ``max_width`` pixels wide."""
    if width(text, size, bold) <= max_width:
        return text
    parts = clusters(text)
    low, high = 0, len(parts)  # the longest prefix that fits, by bisection (widths only grow)
    while low < high:
        mid = (low + high + 1) // 2
        if width("".join(parts[:mid]) + ELLIPSIS, size, bold) <= max_width:
            low = mid
        else:
            high = mid - 1
    return "".join(parts[:low]).rstrip() + ELLIPSIS


def has_face(ch: str) -> bool:
    """True when some installed font of the chain draws ``ch``."""
    return ch.isspace() or face_for(ord(ch)) is not None


__all__ = ["RAQM", "Run", "clusters", "draw", "drawable", "fit", "has_face", "primary", "runs", "width"]
