"""Typed intents of the tournament commands (issue 24): ``tournament create|join|leave|start|cancel|remove``,
``tournament [standings]`` and ``tournaments``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .intents import Intent


@dataclass(frozen=True, slots=True)
class TournamentCreate(Intent):
    """An admin opens an event: Swiss (``rounds``) or knockout, match length ``points``, round ``deadline``
    (seconds), starting ``start_in`` seconds from now or at ``start_at`` (epoch seconds), rated or not; its
    matches play ``game`` (fevga, portes, plakoto, tavli; None: the place's ``default_game``)."""

    word: ClassVar[str] = "tournament"
    kind: str = "swiss"
    rounds: int = 5
    points: int = 1
    deadline: float = 86400.0
    start_in: float | None = None
    start_at: float | None = None
    rated: bool = True
    game: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentAct(Intent):
    """``join``, ``leave``, ``start`` (admin, early) or ``cancel`` (admin) the event here."""

    word: ClassVar[str] = "tournament"
    action: str = "join"


@dataclass(frozen=True, slots=True)
class TournamentRemove(Intent):
    """The admin takes ``target`` (a mention or name the frontend resolves) out of the event."""

    word: ClassVar[str] = "tournament"
    target: str = ""


@dataclass(frozen=True, slots=True)
class TournamentShow(Intent):
    """The standings of the event here (or of event ``tournament_id``)."""

    word: ClassVar[str] = "tournament"
    tournament_id: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentList(Intent):
    """The events of this place, past and present, with their winners."""

    word: ClassVar[str] = "tournaments"
