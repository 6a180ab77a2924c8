"""Pixel checks of the rating graph: axes drawn, a match marked at its rating, the name drawn with the fallback
fonts, the ±RD band shaded."""

from __future__ import annotations

import io

from PIL import Image

from renderers import textrun
from renderers.rating_graph import TITLE, Series, draw
from renderers.theme import CLASSIC

HERE = (186, 104, 62)
GLOBAL = (104, 128, 96)
POINTS = [(1500.0, 350.0), (1620.0, 280.0), (1580.0, 240.0), (1700.0, 200.0)]


def _close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=False))


def test_a_match_is_marked_at_its_rating() -> None:
    graph = draw("maria", [Series("here", POINTS, HERE)])
    for match, (rating, _rd) in enumerate(POINTS, 1):
        assert _close(graph.image.getpixel(graph.pixel(match, rating)), HERE), (match, rating)  # type: ignore[arg-type]
    # far from any marker and outside the band: the plot's background, not the line
    x, y = graph.pixel(1, 2300)
    assert not _close(graph.image.getpixel((x, max(y, TITLE + 40))), HERE)  # type: ignore[arg-type]


def test_axes_and_band() -> None:
    graph = draw("maria", [Series("here", POINTS, HERE)])
    img = graph.image
    x_left, _ = graph.pixel(0.5, 1500)  # the left edge of the axes (x limits 0.5 .. n + 0.5)
    _, y_mid = graph.pixel(2, 1600)
    spine = [img.getpixel((x, y_mid)) for x in range(x_left - 2, x_left + 3)]
    assert any(_close(p, CLASSIC.strip, 30) for p in spine)  # type: ignore[arg-type]
    band = img.getpixel(graph.pixel(3.8, 1550))  # the band there spans ~1470-1880, the line ~1680
    plain = img.getpixel(graph.pixel(3.8, 1250))  # below the band, between grid lines: the felt
    assert _close(plain, CLASSIC.felt, 3)  # type: ignore[arg-type]
    assert not _close(band, CLASSIC.felt, 3) and not _close(band, HERE)  # type: ignore[arg-type]


def test_name_drawn_with_the_fallback_fonts() -> None:
    """A name in another script is drawn (not boxes, not left out) when a system font covers it."""
    blank = draw("", [Series("here", POINTS, HERE)]).image.crop((0, 0, 400, TITLE))
    for name in ("Μαρία", "王小明", "😀"):
        if not all(textrun.has_face(c) for c in name):
            continue  # that script's font is not installed here: textrun leaves it out by design
        titled = draw(name, [Series("here", POINTS, HERE)]).image.crop((0, 0, 400, TITLE))
        differing = sum(1 for a, b in zip(titled.getdata(), blank.getdata(), strict=True) if a != b)
        assert differing > 100, name
    assert textrun.has_face("王")  # the CJK fallback is installed on this machine (scripts/setup.sh)


def test_png_and_empty_history() -> None:
    graph = draw("maria", [Series("here", POINTS, HERE), Series("global", [], GLOBAL)])
    img = Image.open(io.BytesIO(graph.png()))
    assert img.format == "PNG" and img.size == graph.image.size
    empty = draw("maria", [])
    assert empty.image.size == graph.image.size
