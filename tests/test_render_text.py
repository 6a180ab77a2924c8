"""The text board is read back and compared with the position it claims to show."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fevga.position import Position, opponent_point
from renderers import BoardScene, describe, render_text, samples
from renderers.text_board import GLYPHS, MAX_NAME, columns

TOP = list(range(12, 0, -1))
BOTTOM = list(range(13, 25))


def _parse(text: str) -> tuple[dict[int, tuple[int, int]], dict[int, int], list[str]]:
    """Read (viewer point -> (owner, count)), off counts per player and the numbers lines."""
    lines = text.split("\n")
    top_border = next(i for i, line in enumerate(lines) if line.startswith("┌"))
    bottom_border = next(i for i, line in enumerate(lines) if line.startswith("└"))
    rows = lines[top_border + 1 : bottom_border]
    assert len(rows) == 11  # 5 + middle + 5
    numbers = [lines[top_border - 1], lines[bottom_border + 1]]
    found: dict[int, tuple[int, int]] = {}

    def read(row_lines: list[str], points: list[int]) -> None:
        for column, point in enumerate(points):
            x = 1 + 3 * column + (1 if column >= 6 else 0)
            cells = [line[x : x + 3] for line in row_lines]
            owner, count = None, 0
            for cell in cells:
                if cell.strip() in GLYPHS:
                    who = GLYPHS.index(cell.strip())
                    assert owner in (None, who)
                    owner, count = who, count + 1
                elif cell.strip():
                    count = int(cell)
                    assert count > 5
            if count:
                assert owner is not None
                found[point] = (owner, count)

    read(rows[:5], TOP)
    read(list(reversed(rows[6:])), BOTTOM)
    offs: dict[int, int] = {}
    for line in lines:
        m = re.search(r"│ (.) off (\d+)$", line)
        if m:
            offs[GLYPHS.index(m.group(1))] = int(m.group(2))
    return found, offs, numbers


def _expected(position: Position, perspective: int) -> dict[int, tuple[int, int]]:
    out = {}
    for owner, counts in ((0, position.me), (1, position.opp)):
        for i, count in enumerate(counts):
            if count:
                out[i + 1 if owner == perspective else opponent_point(i + 1)] = (owner, count)
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), perspective=st.sampled_from([0, 1]))
def test_text_board_shows_exactly_the_position(seed: int, perspective: int):
    rng = random.Random(seed)
    position = samples.random_position(rng)
    scene = BoardScene(
        position,
        turn=rng.choice([0, 1]),
        dice=(rng.randint(1, 6), rng.randint(1, 6)),
        names=("Νίκος", "Maria"),
        match_length=5,
        score=(1, 3),
    )
    text = render_text(scene, perspective)
    found, offs, numbers = _parse(text)
    assert found == _expected(position, perspective)
    assert offs == {0: position.me_off, 1: position.opp_off}
    assert numbers[0].split() == [str(p) for p in TOP]
    assert numbers[1].split() == [str(p) for p in BOTTOM]
    mine, theirs = scene.position_for(perspective).pips()
    assert f"{GLYPHS[perspective]} {scene.names[perspective]} · start 1, home 19-24 · pips {mine}" in text
    assert f"{GLYPHS[1 - perspective]} {scene.names[1 - perspective]} · start 13, home 7-12 · pips {theirs}" in text
    assert all(len(line) <= 80 for line in text.split("\n"))


def test_dice_turn_score_and_last_play_are_shown():
    scene = samples.mid_game()  # player 1 played 1/7 7/11, player 0 to play 5-3
    mine = render_text(scene, 0)
    theirs = render_text(scene, 1)
    assert "Νίκος to play 5-3" in mine and "Νίκος to play 5-3" in theirs
    assert "Last: Maria played 1/7 7/11 (here 13/19 19/23)" in mine
    assert "Last: Maria played 1/7 7/11\n" in theirs + "\n"
    assert "score 1/5" in mine and "score 2/5" in mine
    middle = mine.split("\n")[8]
    assert "[5] [3]" in middle.split("│")[2]  # the viewer is to move: dice on his (right) half
    assert "[5] [3]" in theirs.split("\n")[8].split("│")[1]


def test_winner_and_mars_are_shown():
    scene = samples.finished_mars()
    text = render_text(scene, 0)
    assert "Maria wins (2 points, mars)" in text
    assert "WINS (mars)" in text and "to play" not in text
    single = dataclasses.replace(scene, mars=False)
    assert "Maria wins (1 point)" in render_text(single, 1)


def test_long_and_hostile_names_keep_the_board_in_80_columns_and_the_code_block_closed():
    scene = dataclasses.replace(samples.bear_off(), names=("```\nrm -rf /" + "Ω" * 100, "\x1b[31mred" + "x" * 90))
    text = render_text(scene, 0)
    assert "`" not in text and "\x1b" not in text
    assert all(len(line) <= 80 for line in text.split("\n"))
    found, offs, _ = _parse(text)
    assert found == _expected(scene.position, 0)
    assert offs == {0: 5, 1: 3}


def test_wide_characters_count_as_two_columns():
    scene = dataclasses.replace(samples.mid_game(), names=("张伟" * 20, "Maria"), match_length=25, score=(12, 13))
    text = render_text(scene, 0)
    assert all(columns(line) <= 80 for line in text.split("\n"))
    name = text.split("\n")[-3].split(" · ")[0][2:]
    assert name.endswith("…") and columns(name) <= MAX_NAME


def test_the_ai_s_greek_name_is_shown_whole():
    """"Υπολογιστής (δύσκολο)" / "(έμπειρο)" (21 letters): whole on the text board (it was cut at 20)."""
    for level in ("δύσκολο", "έμπειρο"):
        scene = dataclasses.replace(samples.mid_game(), names=("Maria", f"Υπολογιστής ({level})"))
        text = render_text(scene, 0)
        assert f"Υπολογιστής ({level})" in text and all(columns(line) <= 80 for line in text.split("\n"))


def test_bad_perspective_is_refused():
    with pytest.raises(ValueError, match="perspective"):
        render_text(samples.start(), 5)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), perspective=st.sampled_from([0, 1]))
def test_alt_text_lists_every_stack_of_both_players(seed: int, perspective: int):
    rng = random.Random(seed)
    position = samples.random_position(rng)
    scene = BoardScene(position, turn=1, dice=(6, 6), names=("Νίκος", "Maria"))
    text = describe(scene, perspective)
    assert len(text) <= 1000
    found: dict[int, tuple[int, int]] = {}
    for player in (0, 1):
        m = re.search(rf"{scene.names[player]} \((?:light|dark), (?:bottom|top)\): .*?points ([^.]*)\.", text)
        assert m is not None
        if m.group(1) != "none":
            for item in m.group(1).split(", "):
                point, count = item.split(":")
                found[int(point)] = (player, int(count))
    assert found == _expected(position, perspective)
    assert "Maria to play 6-6." in text


def test_columns_agrees_with_unicodedata_for_every_kind_of_character():
    """The ASCII fast path and the remembered widths count as the per-character rule does."""
    import unicodedata

    def reference(text: str) -> int:
        return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
                   for ch in text)

    samples = ["plain ascii 1/7 7/12", "", "Γιώργος ○ ●", "漢字かな", "e\u0301a\u0308", "ｆｕｌｌ",
               "mix 漢 ○ e\u0301 ok"]
    for text in samples * 2:  # the second time from the remembered widths
        assert columns(text) == reference(text), text
    assert columns("漢字") == 4 and columns("e\u0301") == 1 and columns("abc") == 3
