"""The bundled DejaVu Sans fonts (Latin, Greek, Cyrillic), so rendering needs no system fonts."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
_MISSING_PROBE = "\uffff"  # a noncharacter: always drawn as the font's "missing glyph" box


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled sans font at ``size`` pixels."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), max(6, size))


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """True when the bundled font draws ``char`` (not its missing-glyph box)."""
    probe = font(24)
    if char.isspace():
        return True
    return bytes(probe.getmask(char)) != bytes(probe.getmask(_MISSING_PROBE))


def printable(text: str, replacement: str = "?") -> str:
    """``text`` with control characters dropped and characters the font lacks replaced."""
    out = []
    for ch in text:
        if ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0:
            continue
        out.append(ch if has_glyph(ch) else replacement)
    return "".join(out)


def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so it is at most ``max_width`` pixels wide."""
    f = font(size, bold)
    if f.getlength(text) <= max_width:
        return text
    while text and f.getlength(text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…"
