"""Typed intents: what a player asked for, whatever the chat (Discord, Telegram, terminal)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fevga import Rules

AI_LEVELS = ("easy", "medium", "hard")
LANGUAGES = ("en", "el")


@dataclass(frozen=True, slots=True)
class Intent:
    """Base class of every intent."""

    @property
    def name(self) -> str:
        return type(self).__name__.lower()


@dataclass(frozen=True, slots=True)
class Help(Intent):
    topic: str | None = None


@dataclass(frozen=True, slots=True)
class ShowRules(Intent):
    pass


@dataclass(frozen=True, slots=True)
class Challenge(Intent):
    """Challenge ``target`` (a mention or name the frontend resolves), or anyone when ``target`` is None.
    ``rules`` is None unless the player named a variant: then the place's default variants apply."""

    target: str | None
    length: int = 1
    rules: Rules | None = None


@dataclass(frozen=True, slots=True)
class Accept(Intent):
    challenge_id: str | None = None


@dataclass(frozen=True, slots=True)
class Decline(Intent):
    challenge_id: str | None = None


@dataclass(frozen=True, slots=True)
class Cancel(Intent):
    challenge_id: str | None = None


@dataclass(frozen=True, slots=True)
class PlayAI(Intent):
    level: str = "medium"
    length: int = 1


@dataclass(frozen=True, slots=True)
class Move(Intent):
    text: str


@dataclass(frozen=True, slots=True)
class Undo(Intent):
    pass


@dataclass(frozen=True, slots=True)
class Confirm(Intent):
    pass


@dataclass(frozen=True, slots=True)
class ShowBoard(Intent):
    pass


@dataclass(frozen=True, slots=True)
class Hint(Intent):
    pass


@dataclass(frozen=True, slots=True)
class Resign(Intent):
    whole_match: bool = False


@dataclass(frozen=True, slots=True)
class Abort(Intent):
    pass


@dataclass(frozen=True, slots=True)
class Claim(Intent):
    pass


@dataclass(frozen=True, slots=True)
class Rematch(Intent):
    pass


@dataclass(frozen=True, slots=True)
class Top(Intent):
    global_: bool = False
    count: int = 10


@dataclass(frozen=True, slots=True)
class Stats(Intent):
    target: str | None = None


@dataclass(frozen=True, slots=True)
class Export(Intent):
    pass


@dataclass(frozen=True, slots=True)
class Replay(Intent):
    pass


@dataclass(frozen=True, slots=True)
class Lang(Intent):
    code: str


@dataclass(frozen=True, slots=True)
class Settings(Intent):
    """``settings`` alone lists them; ``settings <name> <value>`` changes one."""

    setting: str | None = None
    value: str | None = None


@dataclass(frozen=True, slots=True)
class CommandError:
    """A command that could not be read: a message key, its arguments, and what to type instead."""

    key: str
    args: dict[str, Any] = field(default_factory=dict)
