"""The names of the games and AI levels a player may type (English and Greek, with or without accents, any case):
one reading for commands and settings."""

from __future__ import annotations

import unicodedata

MATCH_KINDS = ("fevga", "portes", "plakoto", "tavli")  # the three games and the tavli rotation
GAME_KINDS = MATCH_KINDS[:3]
_WORDS = {
    "fevga": "fevga", "φευγα": "fevga",
    "portes": "portes", "πορτες": "portes",
    "plakoto": "plakoto", "πλακωτο": "plakoto",
    "tavli": "tavli", "ταβλι": "tavli",
}

AI_LEVELS = ("easy", "medium", "hard", "expert")  # the built-in AI's levels, weakest first
_LEVELS = {
    **{level: level for level in AI_LEVELS},
    "ευκολο": "easy", "μετριο": "medium", "δυσκολο": "hard", "εμπειρο": "expert",
}

_AI_WORDS = frozenset({"ai", "bot", "vs", "against", "computer", "υπολογιστη", "υπολογιστης", "με"})


def _bare(word: str) -> str:
    """The word in lower case without accents, a final sigma as ``ς`` (``Πλακωτό`` reads as ``πλακωτο``)."""
    decomposed = unicodedata.normalize("NFD", word.strip().lower())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return bare[:-1] + "ς" if bare.endswith("σ") else bare


def game_word(word: str) -> str | None:
    """The match kind a word names (``fevga``, ``portes``, ``plakoto``, ``tavli``), or None."""
    return _WORDS.get(_bare(word))


def level_word(word: str) -> str | None:
    """The AI level a word names (``hard``, or Greek ``δύσκολο``, with or without accents), or None."""
    return _LEVELS.get(_bare(word))


def names_the_ai(word: str) -> bool:
    """A word of ``play ai`` that only names the opponent (``ai``, ``computer``, ``υπολογιστή``, ``με``)."""
    return _bare(word) in _AI_WORDS
