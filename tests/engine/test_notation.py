"""Notation: every accepted form, and malformed text gets a message showing the accepted forms."""

from __future__ import annotations

import pytest

from fevga import NotationError, Play, Position, format_play, parse_play

from .positions import pos

START = Position.start()


@pytest.mark.parametrize(
    "text",
    ["1/7 7/12", "1/7, 7/12", "1/7,7/12", "1/7/12", "1/12", "7/12 1/7", "α/η η/μ", "Α/Η/Μ", "1/6 6/12", " 1/7  7/12 "],
)
def test_forms_of_the_same_play(text: str) -> None:
    assert format_play(parse_play(text, START, (6, 5))) == "1/7 7/12"


def test_repeat_count_and_bear_off_words() -> None:
    position = pos({23: 4, 24: 11}, {1: 15})
    play = parse_play("23/24(2) 24/off(2)", position, (1, 1))
    assert play.result.me_off == 2 and play.result.board[22] == 2
    assert parse_play("24/off 24/off 23/24 23/24", position, (1, 1)) == play
    assert parse_play("24/25(2) ψ/ω(2)", position, (1, 1)) == play
    assert parse_play(format_play(play, compact=True), position, (1, 1)) == play


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "empty_play"),
        ("hello", "bad_token"),
        ("1/", "bad_token"),
        ("7/1", "backwards"),
        ("0/5", "bad_point"),
        ("1/30", "bad_point"),
        ("1/7(9)", "bad_repeat"),
        ("x" * 500, "too_long"),
        ("off/3", "from_off"),
    ],
)
def test_malformed_text(text: str, key: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_play(text, START, (6, 5))
    assert info.value.key == key
    assert isinstance(info.value, ValueError)


def test_malformed_text_shows_the_accepted_forms() -> None:
    with pytest.raises(NotationError, match=r"e\.g\. 1/7 7/12.*pass"):
        parse_play("move it", START, (6, 5))


def test_steps_that_do_not_fit_the_dice() -> None:
    with pytest.raises(ValueError, match="do not fit your dice 6-5"):
        parse_play("1/9", START, (6, 5))


def test_no_checker_there() -> None:
    with pytest.raises(ValueError, match="no checker on point 20"):
        parse_play("20/off", START, (1, 2))


def test_play_repr_is_pasteable_and_equality_is_by_position() -> None:
    play = parse_play("1/7 7/12", START, (6, 5))
    again = eval(repr(play), {"Play": Play, "Position": Position})
    assert again == play and hash(again) == hash(play)
    other_order = Play(START, (6, 5), ((1, 6), (6, 12)))
    assert other_order == play
    assert str(play) == "1/7 7/12"
