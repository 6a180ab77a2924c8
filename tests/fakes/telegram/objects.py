"""Users, chats, files and messages of the fake Bot API, rendered as real-shaped Bot API JSON."""

from __future__ import annotations

import io
import re
import time
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

JSON = dict[str, Any]

# Telegram marks "/command" and "/command@bot_name" as bot_command entities when they start the text or
# follow whitespace; "@username" is a mention entity.
_COMMAND_RE = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_@])")
_MENTION_RE = re.compile(r"(?<![\w@])@[A-Za-z0-9_]{4,32}(?![A-Za-z0-9_])")


def utf16_len(text: str) -> int:
    """Length of text in UTF-16 code units, the unit of Bot API entity offsets and lengths."""
    return len(text.encode("utf-16-le")) // 2


def auto_entities(text: str) -> list[JSON]:
    """The bot_command and mention entities Telegram would attach to a user's text message."""
    found: list[tuple[int, str, int]] = []
    for kind, pattern in (("bot_command", _COMMAND_RE), ("mention", _MENTION_RE)):
        for match in pattern.finditer(text):
            found.append((match.start(), kind, match.end()))
    found.sort()
    return [
        {"type": kind, "offset": utf16_len(text[:start]), "length": utf16_len(text[start:end])}
        for start, kind, end in found
    ]


@dataclass(frozen=True)
class FakeUser:
    """A Telegram user (or the bot itself when is_bot)."""

    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = "en"
    is_bot: bool = False

    def to_dict(self) -> JSON:
        """The Bot API User object."""
        data: JSON = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data


@dataclass(frozen=True)
class FakeChat:
    """A chat: "private" (id == user id), "group" or "supergroup"."""

    id: int
    type: str
    title: str | None = None
    username: str | None = None
    first_name: str | None = None

    def to_dict(self) -> JSON:
        """The Bot API Chat object."""
        data: JSON = {"id": self.id, "type": self.type}
        for key in ("title", "username", "first_name"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data


@dataclass(frozen=True)
class StoredFile:
    """An uploaded file kept by the fake; kind is "photo", "document" or "animation"."""

    file_id: str
    file_unique_id: str
    data: bytes
    kind: str
    file_name: str | None = None
    mime_type: str | None = None
    width: int = 0
    height: int = 0
    image_format: str | None = None

    def to_dict(self) -> JSON | list[JSON]:
        """The Bot API object for this file: a list of PhotoSize for photos, else Document/Animation."""
        base: JSON = {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": len(self.data),
        }
        if self.kind == "photo":
            return [{**base, "width": self.width, "height": self.height}]
        extra: JSON = {}
        if self.file_name:
            extra["file_name"] = self.file_name
        if self.mime_type:
            extra["mime_type"] = self.mime_type
        if self.kind == "animation":
            extra.update(width=self.width, height=self.height, duration=0)
        return {**base, **extra}


def image_info(data: bytes) -> tuple[int, int, str] | None:
    """(width, height, format) of an image, or None when the bytes are not a readable image."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.verify()
            return image.size[0], image.size[1], str(image.format)
    except Exception:
        return None


@dataclass(frozen=True)
class InlineButton:
    """One inline keyboard button as the bot sent it."""

    text: str
    callback_data: str | None = None
    url: str | None = None


@dataclass(frozen=True)
class MessageVersion:
    """A snapshot of a message's content, kept in FakeMessage.history (first entry is the original)."""

    method: str
    text: str | None
    caption: str | None
    file: StoredFile | None
    reply_markup: JSON | None
    at: float

    @property
    def photo(self) -> bytes | None:
        """The photo bytes of this version, if it is a photo."""
        return self.file.data if self.file is not None and self.file.kind == "photo" else None


@dataclass
class FakeMessage:
    """A message in a chat, sent by a user (through the test API) or by the bot (through the Bot API)."""

    chat: FakeChat
    message_id: int
    sender: FakeUser
    text: str | None = None
    caption: str | None = None
    entities: list[JSON] = field(default_factory=list)
    file: StoredFile | None = None
    reply_markup: JSON | None = None
    reply_to: FakeMessage | None = None
    parse_mode: str | None = None
    source: str | None = None  # text/caption exactly as the bot sent it, before parse_mode was applied
    date: int = field(default_factory=lambda: int(time.time()))
    edit_date: int | None = None
    deleted: bool = False
    history: list[MessageVersion] = field(default_factory=list)
    media_group_id: str | None = None  # set on each message of an album (sendMediaGroup)

    @property
    def from_bot(self) -> bool:
        """True for messages the bot sent."""
        return self.sender.is_bot

    @property
    def kind(self) -> str:
        """ "text", "photo", "document" or "animation"."""
        return self.file.kind if self.file is not None else "text"

    @property
    def content(self) -> str:
        """The text, or the caption of a media message ("" when there is none)."""
        return (self.text if self.file is None else self.caption) or ""

    @property
    def photo(self) -> bytes | None:
        """Bytes of the current photo (after edits), or None when this is not a photo message."""
        return self.file.data if self.file is not None and self.file.kind == "photo" else None

    @property
    def buttons(self) -> list[list[InlineButton]]:
        """The current inline keyboard, row by row (empty when there is none)."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [[InlineButton(b.get("text", ""), b.get("callback_data"), b.get("url")) for b in row] for row in rows]

    @property
    def callback_datas(self) -> list[str]:
        """All callback_data strings of the current inline keyboard, in reading order."""
        return [b.callback_data for row in self.buttons for b in row if b.callback_data is not None]

    def button(self, text: str) -> InlineButton:
        """The current inline button labelled exactly text (KeyError when there is none)."""
        for row in self.buttons:
            for b in row:
                if b.text == text:
                    return b
        raise KeyError(f"no button {text!r} on message {self.message_id}; have {self.buttons}")

    def snapshot(self, method: str) -> None:
        """Append the current content to history (called after sending and after every edit)."""
        self.history.append(
            MessageVersion(method, self.text, self.caption, self.file, self.reply_markup, time.monotonic())
        )

    def to_dict(self, with_reply: bool = True) -> JSON:
        """The Bot API Message object (reply_to_message nested one level, as Telegram does)."""
        data: JSON = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.to_dict(),
            "from": self.sender.to_dict(),
        }
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.file is None:
            data["text"] = self.text or ""
            if self.entities:
                data["entities"] = self.entities
        else:
            data[self.file.kind] = self.file.to_dict()
            if self.file.kind == "animation":  # Telegram also fills "document" for animations
                data["document"] = self.file.to_dict()
            if self.caption:
                data["caption"] = self.caption
                if self.entities:
                    data["caption_entities"] = self.entities
        if self.reply_markup:
            data["reply_markup"] = self.reply_markup
        if with_reply and self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_dict(with_reply=False)
        return data
