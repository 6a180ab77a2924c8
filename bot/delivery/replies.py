"""What the bot says back, for every chat: translated text, an optional picture or file, and buttons.

Frontends turn a Reply into a Discord message/embed/view, a Telegram message/keyboard, or terminal
text. They never look inside game state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.commands.intents import Intent
from bot.service.button_kinds import ButtonKind
from bot.service.models import Place, PlayerRef

TOKEN_MAX_BYTES = 64  # Telegram's callback_data limit; Discord custom ids allow 100


@dataclass(frozen=True, slots=True)
class Button:
    """One button. ``token`` is opaque: hand it back to ``BotCore.press`` when the button is pressed.
    ``kind`` (a :class:`ButtonKind`) lets a frontend lay buttons out."""

    label: str
    token: str
    kind: ButtonKind
    style: str = "secondary"  # primary | secondary | success | danger
    row: int = 0


@dataclass(frozen=True, slots=True)
class Reply:
    """One message to post (or, with ``game_id`` set, the board of that game to update in place)."""

    text: str
    image: bytes | None = None
    image_name: str | None = None  # "board.png" or "replay.gif"
    document: bytes | None = None  # e.g. the .mat export
    document_name: str | None = None
    buttons: tuple[Button, ...] = ()
    game_id: str | None = None  # set on a board: frontends edit the game's board message in place
    version: int | None = None
    caption: str | None = None  # short text for under a picture (whose turn, dice)
    board_text: str | None = None  # the same board as Unicode text (terminal, accessibility, image failures)
    private: bool = False  # only the actor should see it (ephemeral / alert)
    error: bool = False
    mention: tuple[PlayerRef, ...] = ()  # players to ping with this message
    pictures: tuple[tuple[bytes, str], ...] = ()  # extra PNGs with captions (an analysis's blunders): an album
    lang: str | None = None  # the language the reply is in (a board: its place's), for a frontend's own widget texts
    code: str | None = None  # an error reply's catalogue key (the web API returns it as its error code)
    fallback: str | None = None  # a private reply that cannot go privately: what the group is told instead


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the bot says on its own (a timer fired, another instance moved): where and what."""

    place: Place
    reply: Reply
    direct_to: tuple[PlayerRef, ...] = field(default=())  # also send privately (reminders)


@dataclass(frozen=True, slots=True)
class Handled:
    """What ``BotCore`` did with one line or button: the intent it read (None when it could not read one)
    and the replies to show. Frontends use ``word`` instead of parsing the line again."""

    intent: Intent | None
    replies: list[Reply]
    challenge_ends: tuple[dict[str, bytes | str], ...] = ()  # challenges it ended: edit their messages at once

    @property
    def word(self) -> str | None:
        """The command word that ran (``board``, ``top``, ``step``...), None when nothing could be read."""
        return self.intent.word if self.intent is not None else None
