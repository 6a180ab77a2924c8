"""A Telegram text message as one line of the command language, or None when it is not for the bot.

``/move@fevga_bot 1/7 7/12`` -> ``move 1/7 7/12``; a ``text_mention`` (a user without a username) and
the author of a replied-to message become ``<@id>`` words, "@username"s stay as typed; the frontend
then tells the core who each of those words is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from telegram import Chat, Message, MessageEntity, User

from bot.chat.buttons import is_puzzle
from bot.commands.grammar import ALIASES, looks_like_play

from .binding import unbind
from .identity import mention_token


@dataclass
class CommandLine:
    """What the frontend gives the core for one message."""

    text: str
    command: str | None  # the canonical command word ("move", "challenge"...), None for a bare play
    usernames: list[str] = field(default_factory=list)  # "@name" words to resolve
    users: dict[str, User] = field(default_factory=dict)  # "<@id>" words of users known by id


def _utf16_slice(text: str, start: int, end: int) -> str:
    """text[start:end] counted in UTF-16 code units, the unit of Bot API entity offsets."""
    encoded = text.encode("utf-16-le")
    return encoded[2 * start : 2 * end].decode("utf-16-le", errors="ignore")


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _head_word(line: str) -> str:
    words = line.split()
    return words[0].lower() if words else ""


def _rebuild(message: Message, bot_username: str) -> tuple[str, bool, list[str], dict[str, User]] | None:
    """The text with the leading command and user mentions rewritten; None for another bot's command."""
    text = message.text or ""
    pieces: list[str] = []
    usernames: list[str] = []
    users: dict[str, User] = {}
    is_command = False
    cursor = 0
    for entity in sorted(message.entities, key=lambda e: e.offset):
        if entity.offset < cursor:
            continue  # overlapping entities: the first one wins
        chunk = _utf16_slice(text, entity.offset, entity.offset + entity.length)
        replacement: str | None = None
        if entity.type == MessageEntity.BOT_COMMAND and entity.offset == 0:
            name, _, target = chunk.lstrip("/").partition("@")
            if target and target.lower() != bot_username.lower():
                return None
            is_command = True
            replacement = name.lower()
        elif entity.type == MessageEntity.MENTION:
            usernames.append(chunk)
        elif entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
            replacement = mention_token(entity.user.id)
            users[replacement] = entity.user
        if replacement is not None:
            pieces.append(_utf16_slice(text, cursor, entity.offset))
            pieces.append(replacement)
            cursor = entity.offset + entity.length
    pieces.append(_utf16_slice(text, cursor, _utf16_len(text)))
    return " ".join("".join(pieces).split()), is_command, usernames, users


def command_line(message: Message, bot: User) -> CommandLine | None:
    """The command-language line of a text message, or None when the bot should stay silent.

    In a private chat every text is for the bot. In a group (where privacy mode shows the bot only
    commands and replies to it) the bot reacts to its commands, to bare plays, and to replies to its own
    messages that are a play or a command word; other chatter is left alone.
    """
    if not message.text or message.from_user is None or message.from_user.is_bot:
        return None
    rebuilt = _rebuild(message, bot.username or "")
    if rebuilt is None:
        return None
    text, is_command, usernames, users = rebuilt
    if not text:
        return None
    if not is_command and text.startswith("/"):  # "/κανόνες": Telegram marks only Latin names as commands
        name, _, aimed_at = text[1:].split(" ")[0].partition("@")
        if name.lower() in ALIASES and aimed_at.lower() in ("", (bot.username or "").lower()):
            text, is_command = " ".join([name.lower(), *text.split(" ")[1:]]), True
    for word in text.split(" "):  # Telegram marks only valid usernames as mentions: resolve any @word
        if len(word) > 1 and word.startswith("@") and word not in usernames:
            usernames.append(word)
    head = _head_word(text)
    command = ALIASES.get(head)
    play = looks_like_play(text) and command is None
    if message.chat.type != Chat.PRIVATE and not (is_command or play):
        replied = message.reply_to_message
        to_bot = replied is not None and replied.from_user is not None and replied.from_user.id == bot.id
        if not (to_bot and command is not None):
            return None
    if command == "challenge" and not usernames and not users:
        target = _replied_human(message, bot)
        if target is not None:
            token = mention_token(target.id)
            users[token] = target
            words = text.split(" ")
            text = " ".join([words[0], token, *words[1:]])
    return CommandLine(text, command, usernames, users)


def _replied_human(message: Message, bot: User) -> User | None:
    """The author of the replied-to message when it is a person (``/challenge`` as a reply)."""
    replied = message.reply_to_message
    if replied is None or replied.from_user is None:
        return None
    author = replied.from_user
    if author.is_bot or author.id == bot.id:
        return None
    return author


def board_reply_ref(message: Message, bot: User) -> tuple[int, int] | None:
    """(chat, message) of the bot's message this one replies to (maybe a game's board), else None."""
    replied = message.reply_to_message
    if replied is None or replied.from_user is None or replied.from_user.id != bot.id:
        return None
    return message.chat.id, replied.message_id


def puzzle_reply_line(message: Message, bot: User, line: CommandLine) -> CommandLine:
    """A bare play sent as a reply to a puzzle the bot posted (its step buttons under it) as ``puzzle <play>``:
    the answer to that puzzle (in a group, today's daily one), not a move in a game."""
    replied = message.reply_to_message
    if line.command is not None or replied is None or replied.from_user is None or replied.from_user.id != bot.id:
        return line
    markup = replied.reply_markup
    datas = [b.callback_data for row in (markup.inline_keyboard if markup else ()) for b in row]
    if not any(isinstance(d, str) and is_puzzle(unbind(d)[1]) for d in datas):
        return line
    return CommandLine(f"puzzle {line.text}", "puzzle", line.usernames, line.users)
