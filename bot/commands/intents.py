"""Typed intents: what a player asked for, whatever the chat (Discord, Telegram, terminal) and whether
typed or pressed: a button token decodes into the same intent as the text it stands for, with the game
(or challenge) and state version the button was drawn for."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot.service.game_words import AI_LEVELS as AI_LEVELS  # the grammar and the tests read the levels here
from fevga import Rules

LANGUAGES = ("en", "el")


@dataclass(frozen=True, slots=True)
class Intent:
    """Base class of every intent. ``word`` is the command word that asks for it (``board`` for ShowBoard)."""

    word: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class Help(Intent):
    """Help, in general or on one command word."""

    word: ClassVar[str] = "help"
    topic: str | None = None


@dataclass(frozen=True, slots=True)
class ShowRules(Intent):
    """A summary of the rules of a game (``game``: fevga, portes, plakoto, tavli; None: Fevga)."""

    word: ClassVar[str] = "rules"
    game: str | None = None


@dataclass(frozen=True, slots=True)
class Challenge(Intent):
    """Challenge ``target`` (a mention or name the frontend resolves), or anyone when ``target`` is None.
    ``rules`` is None unless the player named a variant: then the place's default variants apply.
    ``kind`` (fevga, portes, plakoto, tavli) is None unless named: then the place's ``default_game``."""

    word: ClassVar[str] = "challenge"

    target: str | None
    length: int = 1
    rules: Rules | None = None
    kind: str | None = None


@dataclass(frozen=True, slots=True)
class Accept(Intent):
    """Take a challenge (a button names it; typed, the one addressed to the actor or an open one)."""

    word: ClassVar[str] = "accept"
    challenge_id: str | None = None


@dataclass(frozen=True, slots=True)
class Decline(Intent):
    """Turn down a challenge addressed to the actor."""

    word: ClassVar[str] = "decline"
    challenge_id: str | None = None


@dataclass(frozen=True, slots=True)
class Cancel(Intent):
    """Take back the actor's own challenge."""

    word: ClassVar[str] = "cancel"
    challenge_id: str | None = None


@dataclass(frozen=True, slots=True)
class PlayAI(Intent):
    """Start a match against the AI at ``level``, of ``kind`` (None: the place's ``default_game``)."""

    word: ClassVar[str] = "play"
    level: str | None = None  # None: the configured default (FEVGA_AI_LEVEL)
    length: int = 1
    kind: str | None = None


@dataclass(frozen=True, slots=True)
class Move(Intent):
    """A whole play typed as text (``1/7 7/12``, ``pass``); ``game_id`` when it replies to a game's board.
    A play button adds the ``version`` of the board it was drawn for, so a tap on an old board is refused."""

    word: ClassVar[str] = "move"
    text: str
    game_id: str | None = None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Step(Intent):
    """One checker from ``from_point`` with ``die`` (a step button), on the board of ``version``."""

    word: ClassVar[str] = "step"
    game_id: str
    version: int
    from_point: int
    die: int


@dataclass(frozen=True, slots=True)
class Undo(Intent):
    """Take back the last step of the play being built; a button names its game and the version it was drawn for."""

    word: ClassVar[str] = "undo"
    game_id: str | None = None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Confirm(Intent):
    """Play the steps built so far; a button names its game and the version it was drawn for."""

    word: ClassVar[str] = "confirm"
    game_id: str | None = None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class ShowBoard(Intent):
    """Show the actor's game here afresh."""

    word: ClassVar[str] = "board"


@dataclass(frozen=True, slots=True)
class Hint(Intent):
    """The AI's best plays for the actor's roll; ``game_id`` (a button's game), else the actor's game here."""

    word: ClassVar[str] = "hint"
    game_id: str | None = None


@dataclass(frozen=True, slots=True)
class Resign(Intent):
    """Give up the game (or the whole match); a confirmation button names its game and version."""

    word: ClassVar[str] = "resign"
    whole_match: bool = False
    game_id: str | None = None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class ResignPrompt(Intent):
    """The resign button, or ``resign`` typed: ask first (privately) what resigning gives away; the answer is
    the confirm button or ``resign yes`` typed (``resign match yes`` for the whole match)."""

    word: ClassVar[str] = "resign"
    game_id: str | None = None
    version: int | None = None
    whole_match: bool = False


@dataclass(frozen=True, slots=True)
class MyGames(Intent):
    """The actor's running games on this platform, in every chat, with whose turn it is and a link."""

    word: ClassVar[str] = "mygames"


@dataclass(frozen=True, slots=True)
class Abort(Intent):
    """Call the game off before both players moved; ``game_id`` (a button's game), else the actor's game here."""

    word: ClassVar[str] = "abort"
    game_id: str | None = None


@dataclass(frozen=True, slots=True)
class Claim(Intent):
    """Claim the match after the opponent's deadline; ``game_id`` (a button's game), else the actor's game here."""

    word: ClassVar[str] = "claim"
    game_id: str | None = None


@dataclass(frozen=True, slots=True)
class Rematch(Intent):
    """A new match like the actor's last one here; ``game_id`` (a button's game) must still be that one."""

    word: ClassVar[str] = "rematch"
    game_id: str | None = None


@dataclass(frozen=True, slots=True)
class Top(Intent):
    """The leaderboard of this place (or global), of ``kind`` (None: the place's ``default_game``); ``season``:
    the running season ("") or a past one ("2026-11") instead."""

    word: ClassVar[str] = "top"
    global_: bool = False
    count: int = 10
    kind: str | None = None
    season: str | None = None


@dataclass(frozen=True, slots=True)
class Stats(Intent):
    """A player's rating and record; with ``versus``, the head-to-head of ``target`` (None: the actor) and him."""

    word: ClassVar[str] = "stats"
    target: str | None = None
    versus: str | None = None


@dataclass(frozen=True, slots=True)
class Dice(Intent):
    """Dice statistics of the actor, of a named player (a mention), or of one match (a game id)."""

    word: ClassVar[str] = "dice"
    target: str | None = None


@dataclass(frozen=True, slots=True)
class Export(Intent):
    """The actor's match here as a ``.mat`` file."""

    word: ClassVar[str] = "export"


@dataclass(frozen=True, slots=True)
class Analyze(Intent):
    """The analysis of the actor's last finished game here, or of the named match ``game_id``."""

    word: ClassVar[str] = "analyze"
    game_id: str | None = None


@dataclass(frozen=True, slots=True)
class Replay(Intent):
    """The actor's last game here as an animated GIF."""

    word: ClassVar[str] = "replay"


@dataclass(frozen=True, slots=True)
class Lang(Intent):
    """Set the language the bot uses with this player (``place_lang`` is the setting of the place)."""

    word: ClassVar[str] = "lang"
    code: str


@dataclass(frozen=True, slots=True)
class Settings(Intent):
    """``settings`` alone lists them; ``settings <name> <value>`` changes one."""

    word: ClassVar[str] = "settings"

    setting: str | None = None
    value: str | None = None


@dataclass(frozen=True, slots=True)
class CommandError:
    """A command that could not be read: a message key, its arguments, and what to type instead."""

    key: str
    args: dict[str, Any] = field(default_factory=dict)
