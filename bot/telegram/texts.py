"""Plain texts for Telegram: cut to the message and caption limits, with players pinged by
``text_mention`` entities (so no parse mode is needed and no user name can break the markup)."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import MessageEntity, User

from bot.service.models import PlayerRef

from .identity import user_chat_id

MAX_TEXT = 4096  # UTF-16 code units in a message
MAX_CAPTION = 1024  # ... in a media caption
MAX_ALERT = 200  # characters in an answerCallbackQuery alert


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of Telegram's limits and entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def clip(text: str, limit: int) -> str:
    """text cut to ``limit`` UTF-16 units, with an ellipsis when something was cut."""
    if utf16_len(text) <= limit:
        return text
    out: list[str] = []
    used = 1  # the ellipsis
    for char in text:
        used += utf16_len(char)
        if used > limit:
            break
        out.append(char)
    return "".join(out) + "…"


def split_text(text: str, limit: int = MAX_TEXT) -> list[str]:
    """A long text as several messages, cut at line ends where possible."""
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        candidate = f"{current}\n{line}" if current else line
        if utf16_len(candidate) <= limit:
            current = candidate
            continue
        if current:
            chunks.append(current)
        while utf16_len(line) > limit:
            head = clip(line, limit)[:-1]
            chunks.append(head)
            line = line[len(head) :]
        current = line
    if current.strip():
        chunks.append(current)
    return chunks


def with_mentions(text: str, players: Sequence[PlayerRef], prepend: bool = True) -> tuple[str, list[MessageEntity]]:
    """Ping Telegram players: each one's name in the text becomes a text_mention; names that are not in
    the text are put in front of it (unless prepend is False)."""
    known = [(p, uid) for p in players if (uid := user_chat_id(p)) is not None and p.name]
    missing = [p.name for p, _ in known if p.name not in text]
    if missing and prepend:
        text = ", ".join(missing) + "\n" + text
    entities: list[MessageEntity] = []
    searched_from = 0
    for player, user_id in sorted(known, key=lambda item: text.find(item[0].name)):
        at = text.find(player.name, searched_from)
        if at < 0:
            continue
        searched_from = at + len(player.name)
        user = User(id=user_id, first_name=player.name, is_bot=False)
        offset, length = utf16_len(text[:at]), utf16_len(player.name)
        entities.append(MessageEntity(MessageEntity.TEXT_MENTION, offset, length, user=user))
    return text, entities
