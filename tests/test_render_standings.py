"""The standings picture: a valid PNG that grows with the field, names drawn as written (CJK, emoji,
right-to-left, never "?"), long names cut to their column so the numbers beside them stay put."""

import io

import numpy as np
from PIL import Image

from renderers.standings_png import LOST, NAME_WIDTH, PAD, WON, StandingRow, render_standings

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
