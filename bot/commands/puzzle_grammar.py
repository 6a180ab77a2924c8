"""The puzzle commands' grammar: ``puzzle`` alone, ``puzzle <game>`` (fevga, portes, plakoto, tavli: in English or
Greek), ``puzzle <play>`` (any notation), ``top puzzles [n]``."""

from __future__ import annotations

from bot.commands.numbers import whole_number
from bot.service.game_words import game_word

from . import intents as i
from . import puzzle_intents as p

TOP_WORDS = ("puzzles", "puzzle", "γρίφοι", "γριφοι", "γρίφων")
MAX_TOP_ASKED = 1_000_000  # read, then clamped by the service


def puzzle(words: list[str]) -> i.Intent | i.CommandError:
    """``puzzle``, ``puzzle <game>`` or ``puzzle <play>``."""
    if not words:
        return p.PuzzleShow()
    if len(words) == 1 and (game := game_word(words[0])) is not None:
        return p.PuzzleShow(game)
    return p.PuzzleAnswer(" ".join(words))


def is_top_puzzles(words: list[str]) -> bool:
    """``top`` with one of the puzzle words: the puzzle solvers' board, not a game's."""
    return any(w.lower() in TOP_WORDS for w in words)


def top_puzzles(words: list[str]) -> i.Intent | i.CommandError:
    """``top puzzles [n]`` (the words in any order)."""
    count = 10
    for word in words:
        low = word.lower()
        if low in TOP_WORDS:
            continue
        number = whole_number(low)
        if number is None or number < 1:
            return i.CommandError("cmd_puzzle_usage")
        count = min(number, MAX_TOP_ASKED)
    return p.PuzzleTop(count)
