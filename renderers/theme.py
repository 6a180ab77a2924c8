"""Colour themes. Player 0 always gets the light checkers and player 1 the dark ones, whoever looks.

Light against dark differs in lightness, not only in hue, so the two sides stay apart for
colour-blind viewers and in greyscale.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class CheckerColours:
    """One side's checker: body, outer rim, the turned groove, and the colour of a count on it."""

    body: RGB
    rim: RGB
    groove: RGB
    text: RGB


@dataclass(frozen=True, slots=True)
class Theme:
    """All colours of a board picture."""

    name: str
    frame: RGB
    frame_edge: RGB
    felt: RGB
    point_a: RGB
    point_b: RGB
    tray: RGB
    label: RGB
    label_dim: RGB
    strip: RGB
    strip_active: RGB
    strip_text: RGB
    strip_dim: RGB
    accent: RGB
    highlight: RGB
    die_face: RGB
    die_pip: RGB
    banner: RGB
    banner_text: RGB
    checkers: tuple[CheckerColours, CheckerColours]


CLASSIC = Theme(
    name="classic",
    frame=(92, 58, 34),
    frame_edge=(58, 35, 19),
    felt=(236, 222, 190),
    point_a=(186, 104, 62),
    point_b=(104, 128, 96),
    tray=(66, 41, 23),
    label=(245, 232, 208),
    label_dim=(196, 170, 134),
    strip=(40, 34, 31),
    strip_active=(78, 60, 40),
    strip_text=(246, 240, 230),
    strip_dim=(176, 164, 150),
    accent=(240, 178, 50),
    highlight=(255, 196, 40),
    die_face=(252, 250, 244),
    die_pip=(30, 30, 34),
    banner=(30, 26, 24),
    banner_text=(255, 214, 102),
    checkers=(
        CheckerColours(body=(250, 245, 234), rim=(120, 100, 76), groove=(214, 202, 180), text=(60, 48, 36)),
        CheckerColours(body=(44, 44, 48), rim=(8, 8, 10), groove=(86, 86, 94), text=(240, 236, 228)),
    ),
)

NIGHT = Theme(
    name="night",
    frame=(34, 40, 52),
    frame_edge=(18, 22, 30),
    felt=(58, 70, 88),
    point_a=(120, 136, 160),
    point_b=(92, 104, 124),
    tray=(24, 28, 38),
    label=(226, 232, 242),
    label_dim=(140, 150, 168),
    strip=(20, 22, 28),
    strip_active=(44, 52, 70),
    strip_text=(236, 240, 246),
    strip_dim=(150, 158, 172),
    accent=(250, 186, 60),
    highlight=(255, 200, 60),
    die_face=(250, 250, 252),
    die_pip=(24, 26, 32),
    banner=(14, 16, 22),
    banner_text=(255, 214, 102),
    checkers=(
        CheckerColours(body=(248, 246, 240), rim=(150, 140, 124), groove=(214, 208, 196), text=(50, 44, 36)),
        CheckerColours(body=(178, 34, 48), rim=(92, 12, 20), groove=(140, 26, 38), text=(255, 240, 240)),
    ),
)

THEMES: dict[str, Theme] = {CLASSIC.name: CLASSIC, NIGHT.name: NIGHT}


def get_theme(name: str) -> Theme:
    """The theme called ``name``; a clear ValueError names the known ones otherwise."""
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; known themes: {', '.join(sorted(THEMES))}") from None
