"""The standings picture: a valid PNG that grows with the field, names drawn as written (CJK, emoji,
right-to-left, never "?"), long names cut to their column so the numbers beside them stay put."""

import io

import numpy as np
import pytest
from PIL import Image

from bot.chat.standings_reply import COLUMNS, PICTURE_TITLES, SEASON_COLUMNS
from bot.i18n import translate
from renderers import textrun
from renderers.standings_png import (
    LOST,
    MAX_WIDTH,
    NAME_WIDTH,
    PAD,
    ROW,
    SIZE,
    WON,
    StandingRow,
    column_xs,
    render_standings,
    title_lines,
)

HEADS = ("#", "Player", "Pts", "BH", "SB", "Rounds")
NAMES = ["张伟 😀", "محمد علي", "שלום", "🇬🇷 Νίκος", "👨‍👩‍👧 family", "A" * 200]


def _rows(names: list[str]) -> list[StandingRow]:
    return [
        StandingRow(rank, name, 5 - rank, 7, 3, ((True, "x"), (False, "y"), (True, None)))
        for rank, name in enumerate(names, start=1)
    ]


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)


def test_a_png_that_grows_with_the_field():
    small = Image.open(io.BytesIO(render_standings("Standings", HEADS, _rows(NAMES[:2]))))
    large = Image.open(io.BytesIO(render_standings("Standings", HEADS, _rows(NAMES))))
    assert small.format == large.format == "PNG"
    assert large.height > small.height and large.width == small.width


def test_names_are_drawn_as_written_not_as_question_marks():
    for name in NAMES[:5]:
        drawn = _pixels(render_standings("T", HEADS, _rows([name])))
        marks = _pixels(render_standings("T", HEADS, _rows(["?" * len(name)])))
        assert not np.array_equal(drawn, marks), name


def test_a_long_name_is_cut_to_its_column():
    long = _pixels(render_standings("T", HEADS, _rows(["W" * 300])))
    short = _pixels(render_standings("T", HEADS, _rows(["W"])))
    right_of_names = PAD + 48 + NAME_WIDTH + 8
    assert np.array_equal(long[:, right_of_names:], short[:, right_of_names:])  # scores and rounds untouched
    assert not np.array_equal(long[:, :right_of_names], short[:, :right_of_names])


def test_round_results_are_drawn_in_their_colours():
    wins = _pixels(render_standings("T", HEADS, [StandingRow(1, "ann", 2, 0, 0, ((True, "x"), (True, "y")))]))
    losses = _pixels(render_standings("T", HEADS, [StandingRow(1, "ann", 0, 0, 0, ((False, "x"), (False, "y")))]))
    green, red = np.array(WON, dtype=np.int16), np.array(LOST, dtype=np.int16)
    assert (np.abs(wins - green).max(axis=2) < 40).sum() > 20 and (np.abs(wins - red).max(axis=2) < 40).sum() == 0
    assert (np.abs(losses - red).max(axis=2) < 40).sum() > 20 and (np.abs(losses - green).max(axis=2) < 40).sum() == 0


@pytest.mark.parametrize("lang", ["en", "el"])
@pytest.mark.parametrize("columns", [SEASON_COLUMNS, COLUMNS])
def test_no_column_head_runs_into_the_next(lang: str, columns: tuple[str, ...]) -> None:
    """Each number column is as wide as its head ("Αγώνες", "Matches"), so the heads never overlap."""
    heads = [translate(key, lang) for key in columns]
    xs = column_xs(heads)
    for x, nxt, head in zip(xs[2:], xs[3:], heads[2:5], strict=False):
        assert textrun.width(head, SIZE - 4) <= nxt - x - 8, head


@pytest.mark.parametrize("lang", ["en", "el"])
@pytest.mark.parametrize("key", list(PICTURE_TITLES))
def test_a_tavli_title_fits_whole(lang, key):
    """A tavli event's or season's picture title (the text's header names the game in full, in Greek most of
    all) names the game shortly and fits on the picture (two lines at most), uncut."""
    args = {"id": "CpO50QIk", "game": "tavli", "kind": "tavli", "round": 1, "rounds": 4, "month": "2026-11", "min": 5}
    title = translate(PICTURE_TITLES[key], lang, **args)
    assert "Portes," not in title and "Πόρτες," not in title
    lines = title_lines(title, SIZE + 4, MAX_WIDTH - 2 * PAD)  # the picture widens up to MAX_WIDTH
    assert len(lines) <= 2 and " ".join(lines) == title, lines


def test_a_title_too_long_for_a_line_goes_on_two_whole_lines():
    """A title wider than the picture (a long game name in it) is wrapped between words, not cut: every word is
    drawn, each line within the picture, and the table moves down a row."""
    title = translate("tournament_table_final", "el", id="CpO50QIk", game="tavli")  # the text's long header
    lines = title_lines(title, SIZE + 4, MAX_WIDTH - 2 * PAD)
    assert len(lines) == 2 and " ".join(lines) == title, lines
    assert all(textrun.width(line, SIZE + 4, bold=True) <= MAX_WIDTH - 2 * PAD for line in lines)
    rows = _rows(["a", "b"])
    one_line = Image.open(io.BytesIO(render_standings("Short", HEADS, rows)))
    two_lines = Image.open(io.BytesIO(render_standings(title, HEADS, rows)))
    assert two_lines.height == one_line.height + ROW


def test_a_table_with_one_number_column_is_narrower() -> None:
    """A knockout's table draws the score alone (``numbers=1``): two number columns fewer than a Swiss one."""
    from renderers.standings_png import StandingRow, render_standings

    rows = [StandingRow(1, "alice", 3, 0, 0, tuple((True, "bob") for _ in range(8)))]
    one = Image.open(io.BytesIO(render_standings("T", ["#", "Player", "Won", "Rounds"], rows, numbers=1)))
    three = Image.open(io.BytesIO(render_standings("T", ["#", "Player", "Pts", "BH", "SB", "Rounds"], rows)))
    assert three.width - one.width >= 2 * 72
