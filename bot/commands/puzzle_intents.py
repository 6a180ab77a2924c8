"""Typed intents of the puzzle commands: ``puzzle [game]``, ``puzzle <play>`` and ``top puzzles`` (docs/puzzles.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .intents import Intent


@dataclass(frozen=True, slots=True)
class PuzzleShow(Intent):
    """A puzzle near the actor's puzzle rating (private chats), or today's daily puzzle here (groups); ``game``
    (fevga, portes, plakoto; tavli: every game) chooses whose puzzles he gets from now on (None: as before)."""

    word: ClassVar[str] = "puzzle"
    game: str | None = None


@dataclass(frozen=True, slots=True)
class PuzzleAnswer(Intent):
    """An answer (a play as typed) to the actor's puzzle, or to the daily one here."""

    word: ClassVar[str] = "puzzle"
    text: str = ""


@dataclass(frozen=True, slots=True)
class PuzzleTop(Intent):
    """The platform's best puzzle solvers."""

    word: ClassVar[str] = "top"
    count: int = 10


@dataclass(frozen=True, slots=True)
class PuzzleStep(Intent):
    """A puzzle's step button: the (from point, die) steps clicked so far on puzzle ``pid`` (the last one just
    now), for ``owner`` (empty on the shared post, where anyone may start)."""

    word: ClassVar[str] = "puzzle"
    pid: str = ""
    owner: str = ""
    path: tuple[tuple[int, int], ...] = ()
