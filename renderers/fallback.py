"""The font fallback chain for names: the bundled DejaVu first, then system fonts by glyph coverage.

Debian's ``fonts-noto-cjk``, ``fonts-noto-core`` (Arabic, Hebrew and the other scripts),
``fonts-noto-color-emoji`` and ``fonts-symbola`` are used when installed (``scripts/setup.sh`` and the
Dockerfile install them); coverage is read from each font's cmap with fontTools, once, lazily. A
character no font has is left out rather than drawn as "?" or a missing-glyph box.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont, TTLibError
from PIL import ImageFont

from .fonts import BOLD, REGULAR

log = logging.getLogger(__name__)

FONT_ROOT = Path("/usr/share/fonts")
EMOJI_BITMAP_SIZE = 109  # Noto Color Emoji is a CBDT bitmap font: FreeType only loads it at this size
ARABIC = ((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))
HEBREW = ((0x0590, 0x05FF), (0xFB1D, 0xFB4F))
EMOJI = ((0x1F000, 0x1FAFF),)  # pictographs: in colour, even where DejaVu has a plain outline
Ranges = tuple[tuple[int, int], ...]
PLAIN_BELOW = 0x0590  # below Hebrew no font is preferred over DejaVu
# (regular, bold or None, ttc index, colour, ranges it is preferred for even over DejaVu), relative to
# FONT_ROOT, tried in this order after DejaVu
CURATED: tuple[tuple[str, str | None, int, bool, Ranges], ...] = (
    ("opentype/noto/NotoSansCJK-Regular.ttc", "opentype/noto/NotoSansCJK-Bold.ttc", 0, False, ()),
    ("truetype/noto/NotoSansArabic-Regular.ttf", "truetype/noto/NotoSansArabic-Bold.ttf", 0, False, ARABIC),
    ("truetype/noto/NotoSansHebrew-Regular.ttf", "truetype/noto/NotoSansHebrew-Bold.ttf", 0, False, HEBREW),
    ("truetype/noto/NotoColorEmoji.ttf", None, 0, True, EMOJI),
    ("truetype/ancient-scripts/Symbola_hint.ttf", None, 0, False, ()),
)
OTHER_SCRIPTS = "truetype/noto/NotoSans*-Regular.ttf"  # every other script of fonts-noto-core, last


@dataclass(frozen=True, slots=True, eq=False)  # compared and hashed by identity: cheap cache keys
class Face:
    """One font of the chain: its files, whether it is a colour (bitmap emoji) font, and what it covers."""

    regular: Path
    bold: Path | None
    index: int
    colour: bool
    cover: frozenset[int]
    prefer: Ranges = ()

    def preferred(self, code: int) -> bool:
        """True when this font should draw ``code`` before DejaVu (a whole script, or colour emoji)."""
        return code in self.cover and any(lo <= code <= hi for lo, hi in self.prefer)

    def path(self, bold: bool) -> Path:
        """The file to draw with: the bold one when asked for and there is one."""
        return self.bold if bold and self.bold is not None else self.regular


def _cmap(path: Path, index: int) -> frozenset[int]:
    """The code points ``path`` has glyphs for (empty when it cannot be read)."""
    try:
        font = TTFont(str(path), fontNumber=index, lazy=True)
        try:
            return frozenset(font.getBestCmap() or {})
        finally:
            font.close()
    except (OSError, TTLibError, KeyError, AssertionError) as exc:
        log.warning("font %s unreadable: %s", path, exc)
        return frozenset()


@lru_cache(maxsize=1)
def primary() -> Face:
    """The bundled DejaVu Sans (Latin, Greek, Cyrillic and many symbols)."""
    return Face(REGULAR, BOLD, 0, False, _cmap(REGULAR, 0))


@lru_cache(maxsize=1)
def curated() -> tuple[Face, ...]:
    """The installed fonts of CURATED, in order."""
    faces = []
    for regular, bold, index, colour, prefer in CURATED:
        path = FONT_ROOT / regular
        if path.is_file():
            bold_path = FONT_ROOT / bold if bold and (FONT_ROOT / bold).is_file() else None
            faces.append(Face(path, bold_path, index, colour, _cmap(path, index), prefer))
    return tuple(faces)


@lru_cache(maxsize=1)
def others() -> tuple[Face, ...]:
    """Noto's fonts for every other script (read only when a character is in none of the fonts above)."""
    known = {face.regular for face in curated()}
    faces = []
    for path in sorted(FONT_ROOT.glob(OTHER_SCRIPTS)):
        if path in known or "Mono" in path.name or "Display" in path.name:
            continue
        bold = path.with_name(path.name.replace("-Regular", "-Bold"))
        faces.append(Face(path, bold if bold.is_file() else None, 0, False, _cmap(path, 0)))
    return tuple(faces)


def chain() -> tuple[Face, ...]:
    """DejaVu, then the curated fonts (the other scripts are looked at only for what these lack)."""
    return (primary(), *curated())


@lru_cache(maxsize=8192)
def face_for(code: int) -> Face | None:
    """The font for ``code``: one preferred for its script, else the first of the chain with a glyph for it;
    None when no installed font has one."""
    if code < PLAIN_BELOW and code in primary().cover:  # Latin, Greek, Cyrillic: no other font read at all
        return primary()
    for face in curated():
        if face.preferred(code):
            return face
    for face in chain():
        if code in face.cover:
            return face
    for face in others():
        if code in face.cover:
            return face
    return None


@lru_cache(maxsize=256)
def load(face: Face, size: int, bold: bool) -> ImageFont.FreeTypeFont:
    """``face`` at ``size`` pixels (a colour emoji font always at its one bitmap size)."""
    if face.colour:
        return ImageFont.truetype(str(face.regular), EMOJI_BITMAP_SIZE, index=face.index)
    return ImageFont.truetype(str(face.path(bold)), max(6, size), index=face.index)
