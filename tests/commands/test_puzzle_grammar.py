"""The puzzle commands' grammar: ``puzzle``, ``puzzle <play>`` (any notation), ``top puzzles [n]``, and what a
puzzle answer's reply is (private, in the author's language)."""

from __future__ import annotations

from bot.chat.audience import is_private
from bot.commands import intents as i
from bot.commands.grammar import parse_command
from bot.commands.puzzle_intents import PuzzleAnswer, PuzzleShow, PuzzleTop


def test_puzzle_alone_and_with_a_play() -> None:
    assert parse_command("puzzle") == PuzzleShow()
    assert parse_command("/puzzle@fevga_bot") == PuzzleShow()
    assert parse_command("!fevga puzzle 1/7 7/12") == PuzzleAnswer("1/7 7/12")
    assert parse_command("γρίφος α/ζ ζ/ι") == PuzzleAnswer("α/ζ ζ/ι")
    assert parse_command("puzzle   19/off,  20/off") == PuzzleAnswer("19/off, 20/off")


def test_puzzle_with_a_game_chooses_its_puzzles() -> None:
    assert parse_command("puzzle portes") == PuzzleShow("portes")
    assert parse_command("/puzzle Πλακωτό") == PuzzleShow("plakoto")
    assert parse_command("γρίφος φεύγα") == PuzzleShow("fevga")
    assert parse_command("puzzle TAVLI") == PuzzleShow("tavli")
    assert parse_command("puzzle 13/8* 8/5") == PuzzleAnswer("13/8* 8/5")
    assert parse_command("puzzle bar/3") == PuzzleAnswer("bar/3")
    assert parse_command("puzzle portes 13/8") == PuzzleAnswer("portes 13/8")  # judged, and refused, as a play


def test_top_puzzles_and_the_game_boards_stay_apart() -> None:
    assert parse_command("top puzzles") == PuzzleTop(10)
    assert parse_command("top 5 puzzles") == PuzzleTop(5)
    assert parse_command("top puzzles 20") == PuzzleTop(20)
    assert isinstance(parse_command("top puzzles global"), i.CommandError)
    assert parse_command("top") == i.Top()
    assert parse_command("top global portes") == i.Top(True, 10, "portes")


def test_only_an_answer_is_private() -> None:
    assert is_private(PuzzleAnswer("1/7 7/12"))
    assert not is_private(PuzzleShow()) and not is_private(PuzzleTop())
