"""The blunder picture: arrows start and end at the right points, from the mover's side."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from fevga import Position
from fevga.analysis import Move
from renderers.analysis_png import (
    BEST_COLOUR,
    BEST_LANE,
    PLAYED_COLOUR,
    PLAYED_LANE,
    arrow_lines,
    render_blunder,
    render_blunder_image,
)
from renderers.layout import checker_centre, geometry

# The mover (any seat) has 14 checkers on his point 1 and one on his 20; the opponent sits on the
# mover's 13 (his own 1) with 15. Played 1/7 20/22, best 1/3 3/9: disjoint steps.
START = Position.from_lists([14] + [0] * 18 + [1] + [0] * 4, [15] + [0] * 23)


def _move(player: int) -> Move:
    """A stored move for the test position, by ``player``."""
    return Move(17, player, (6, 2), START.id(), "1/7 20/22", "1/3 3/9", -0.35, -0.1)


def _near(img: Image.Image, xy: tuple[float, float], colour: tuple[int, int, int], tol: int = 30) -> bool:
    """True when the pixel at ``xy`` has ``colour`` (within ``tol`` per channel)."""
    px = img.getpixel((int(xy[0]), int(xy[1])))
    assert isinstance(px, tuple)
    return all(abs(a - b) <= tol for a, b in zip(px[:3], colour, strict=True))


def _inside_tip(start: tuple[float, float], tip: tuple[float, float], back: float) -> tuple[float, float]:
    """A point ``back`` pixels before the tip, on the arrow's axis (inside the head)."""
    dx, dy = tip[0] - start[0], tip[1] - start[1]
    length = (dx * dx + dy * dy) ** 0.5
    return tip[0] - dx / length * back, tip[1] - dy / length * back


@pytest.mark.parametrize("player", [0, 1])
def test_arrows_start_and_end_on_the_movers_points(player: int) -> None:
    """Each arrow's dot and head sit on the right points of the mover's numbering."""
    size = 720
    geom = geometry(size)
    img = render_blunder_image(_move(player), names=("Alice", "Bob"), size=size)
    played = arrow_lines(geom, [(1, 7), (20, 22)], PLAYED_LANE)
    best = arrow_lines(geom, [(1, 3), (3, 9)], BEST_LANE)
    # From the mover's side: his point 1 is the top-right corner and his 20 bottom right.
    assert played[0][0] == checker_centre(geom, 1, PLAYED_LANE)
    assert played[0][1] == checker_centre(geom, 7, PLAYED_LANE)
    assert played[1][0] == checker_centre(geom, 20, PLAYED_LANE)
    assert best[1][1] == checker_centre(geom, 9, BEST_LANE)
    assert played[0][0][0] > geom.width / 2 and played[0][0][1] < geom.height / 2
    assert played[1][0][0] > geom.width / 2 and played[1][0][1] > geom.height / 2
    u = geom.unit
    for lines, colour, other in ((played, PLAYED_COLOUR, BEST_COLOUR), (best, BEST_COLOUR, PLAYED_COLOUR)):
        for start, tip in lines:
            assert _near(img, start, colour), (start, img.getpixel((int(start[0]), int(start[1]))))
            assert _near(img, _inside_tip(start, tip, u * 0.15), colour)
            if all(tip != other_start for other_start, _ in lines):  # a chain goes on: nothing else beyond
                assert not _near(img, _inside_tip(start, tip, -u * 0.2), colour)
            assert not _near(img, start, other)


def test_mover_is_at_the_bottom_and_the_legend_is_drawn() -> None:
    """The board is seen by the mover and the legend shows both arrow colours."""
    geom = geometry(720)
    for player in (0, 1):
        img = render_blunder_image(_move(player), names=("Alice", "Bob"))
        assert img.height > geom.height  # the legend strip
        legend = img.crop((0, geom.height, img.width, img.height))
        colours = {c for _n, c in legend.getcolors(maxcolors=1 << 16) or []}
        assert PLAYED_COLOUR in colours and BEST_COLOUR in colours
        # The mover's 14 checkers on his point 1 are drawn in his colour at the top right.
        x, y = checker_centre(geom, 1, 0)
        body = img.getpixel((int(x), int(y) + 4))
        assert isinstance(body, tuple)
        light = sum(body[:3]) > 450
        assert light == (player == 0)


def test_png_bytes() -> None:
    """render_blunder returns a PNG of the board's width."""
    png = render_blunder(_move(1), position=START, names=("Alice", "Bob"))
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.width == geometry(720).width


def test_the_board_in_a_blunder_picture_speaks_the_callers_language() -> None:
    """Given the board's words (the presenter's ``board_labels``), the board of the picture uses them."""
    from bot.chat.presenter import board_labels

    english = render_blunder_image(_move(0))
    greek = render_blunder_image(_move(0), board_labels=board_labels("el"))
    assert english.size == greek.size and english.tobytes() != greek.tobytes()
    assert render_blunder_image(_move(0), board_labels=board_labels("en")).tobytes() == english.tobytes()


def test_the_puzzle_verdict_picture_gets_templates_not_filled_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """The legend's loss line reaches the picture as a template ({loss}, {mark}, {dice} filled there), never as
    text already filled with "?"; the board's words come along in the reply's language."""
    from bot.chat import puzzle_reply
    from bot.chat.presenter import board_labels

    seen: dict[str, object] = {}

    def spy(move: Move, **kw: object) -> bytes:
        seen.update(kw)
        return b"png"

    monkeypatch.setattr(puzzle_reply, "render_blunder", spy)
    args = {"dice": "6-2", "position": START.id(), "played": "1/7 20/22", "best": "1/3 3/9",
            "played_equity": -0.35, "best_equity": -0.1}
    for lang in ("en", "el"):
        assert puzzle_reply._verdict_picture(args, lang, board_labels(lang)) == b"png"
        loss = seen["labels"]["loss"]  # type: ignore[index]
        assert "{loss}" in loss and "{dice}" in loss and "?" not in loss, loss
        assert seen["board_labels"] == board_labels(lang)
