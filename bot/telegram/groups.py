"""Telegram groups and first contact: the ``/start`` welcome (buttons: play the computer, rules, how to
challenge), deep links ``t.me/<bot>?start=accept_<challenge>`` that accept a group's challenge from a
private chat, and the hints that name the forms reaching the bot in privacy mode (``/m 1/7 7/12`` or a
reply to the board)."""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from dataclasses import replace
from functools import cache

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup

from bot.chat.core import BotCore
from bot.chat.presenter import context_words
from bot.delivery.replies import Reply
from bot.i18n import LANGUAGES, catalogue, translate
from bot.service.button_kinds import ButtonKind
from bot.service.models import Place, PlayerRef

WELCOME_PREFIX = "w:"  # callback data of the welcome buttons (core tokens never start so)
WELCOME_LINES = {"w:ai": "play ai", "w:rules": "rules"}
WELCOME_TEXTS = {"w:howto": "group_tg_how_challenge_text"}
DEEP_ACCEPT = "accept_"  # /start accept_<challenge id>
_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # a challenge id (token_urlsafe), as a deep link may carry it
IN_PLAY = frozenset({ButtonKind.STEP, ButtonKind.UNDO, ButtonKind.CONFIRM})
# help texts that show plain plays and commands, and their group twins that show only forms reaching the bot
# in privacy mode (``/m 1/7 7/12``, a reply to the board)
GROUP_HELP = {"help": "group_tg_privacy_help", "help_move": "group_tg_privacy_help_move"}


def is_group(chat_id: int) -> bool:
    """Group and supergroup ids are negative; a private chat's id is the user's (positive)."""
    return chat_id < 0


def welcome_keyboard(core: BotCore, lang: str) -> InlineKeyboardMarkup:
    """Play the computer, the rules, how to challenge a friend."""
    return InlineKeyboardMarkup([
        [InlineKeyboardButton(core.t("group_tg_play_ai", lang), callback_data="w:ai")],
        [InlineKeyboardButton(core.t("group_tg_rules", lang), callback_data="w:rules"),
         InlineKeyboardButton(core.t("group_tg_how_challenge", lang), callback_data="w:howto")],
    ])


def deep_link(bot_username: str, challenge_id: str) -> str:
    """The link that opens a private chat with the bot and accepts the challenge there."""
    return f"https://t.me/{bot_username}?start={DEEP_ACCEPT}{challenge_id}"


def accept_link_button(core: BotCore, lang: str, bot_username: str, reply: Reply) -> InlineKeyboardButton | None:
    """A URL button under a group challenge: accept it from a private chat (which also lets the bot send
    private pings and reminders to the player)."""
    accept = [b for b in reply.buttons if b.kind is ButtonKind.ACCEPT]
    if not accept or not bot_username:
        return None
    challenge_id = accept[0].token.split(".")[1] if accept[0].token.count(".") >= 1 else ""
    if not challenge_id or len(DEEP_ACCEPT + challenge_id) > 64:
        return None
    return InlineKeyboardButton(core.t("group_tg_accept_here", lang), url=deep_link(bot_username, challenge_id))


def start_payload(text: str) -> str | None:
    """The payload of ``start <payload>`` (a deep link), None for a plain ``start``."""
    words = text.split()
    return words[1] if len(words) == 2 and words[0] == "start" else None


async def challenge_place(core: BotCore, challenge_id: str) -> Place | None:
    """Where a challenge was made (None when it is gone or damaged)."""
    if not _ID.fullmatch(challenge_id):
        return None
    challenge = (await core.service.challenges.load(challenge_id))[1]
    return challenge.place if challenge is not None else None


async def telegram_replies(core: BotCore, actor: PlayerRef, chat: Chat, word: str | None,
                           replies: list[Reply]) -> list[Reply]:
    """The core's replies as Telegram says them: "chat", not "channel"; in a group ``help`` shows only forms
    that reach the bot in privacy mode and adds how moves reach it (and ``/setprivacy``), and an unreadable
    move names the forms that work there."""
    place = Place("telegram", str(chat.id), str(chat.id))
    lang = await core.language(actor, place)
    group = chat.type != Chat.PRIVATE
    key = "group_tg_help" if word == "help" else "group_tg_move_hint"
    out = []
    for reply in replies:
        text = chat_wording(reply.text, lang)
        if group and word == "help" and not reply.error:
            text = group_help_wording(text)
        if group and ((word == "help" and reply.game_id is None and not reply.error)
                      or (word == "move" and reply.error)):
            text = f"{text}\n\n{core.t(key, lang)}"
        out.append(replace(reply, text=text) if text != reply.text else reply)
    return out


def group_help_wording(text: str) -> str:
    """The core's help (in whichever language it was said) as a group needs it: every play and command in a
    form that reaches the bot in privacy mode (``/m 1/7 7/12``, ``/board``), not the plain ones only a private
    chat passes on."""
    for lang in LANGUAGES:
        words = context_words("telegram", lang)
        for key, twin in GROUP_HELP.items():
            core = translate(key, lang, **words)
            if core in text:
                text = text.replace(core, translate(twin, lang))
    return text


CHAT_WORDED = ("already_in_game_here", "no_game_here", "opponent_in_game_here", "wrong_place", "game_archived")


@cache
def _chat_patterns(lang: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """(the core's "channel" wording as a pattern, the Telegram "chat" wording) per message."""
    out = []
    for key in CHAT_WORDED:
        core, telegram = catalogue(lang).get(key), catalogue(lang).get(f"group_tg_{key}")
        if not core or not telegram:
            continue
        parts = []
        for literal, field, _spec, _conv in string.Formatter().parse(core):
            parts.append(re.escape(literal))
            if field:
                parts.append(f"(?P<{field}>.+?)")
        pattern = "".join(parts)
        out.append((re.compile(pattern), telegram))
    return tuple(out)


def chat_wording(text: str, lang: str) -> str:
    """The core's messages that say "channel" as Telegram says it: "chat"."""
    if not text:
        return text
    for pattern, telegram in _chat_patterns(lang if lang in ("en", "el") else "en"):
        text = pattern.sub(_reworded(telegram), text)
    return text


def _reworded(template: str) -> Callable[[re.Match[str]], str]:
    """A substitution filling ``template`` with the fields the core's wording matched."""

    def fill(match: re.Match[str]) -> str:
        return template.format(**match.groupdict())

    return fill
