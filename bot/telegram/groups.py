"""Telegram groups and first contact: the ``/start`` welcome (buttons: play the computer, rules, how to
challenge), deep links ``t.me/<bot>?start=accept_<challenge>`` that accept a group's challenge from a
private chat, and the hints that name the forms reaching the bot in privacy mode (``/m 1/7 7/12`` or a
reply to the board)."""

from __future__ import annotations

import re
from dataclasses import replace

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup

from bot.button_kinds import ButtonKind
from bot.core import BotCore
from bot.replies import Reply
from bot.service.models import Place

WELCOME_PREFIX = "w:"  # callback data of the welcome buttons (core tokens never start so)
WELCOME_LINES = {"w:ai": "play ai", "w:rules": "rules"}
WELCOME_TEXTS = {"w:howto": "group_tg_how_challenge_text"}
DEEP_ACCEPT = "accept_"  # /start accept_<challenge id>
_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # a challenge id (token_urlsafe), as a deep link may carry it
IN_PLAY = frozenset({ButtonKind.STEP, ButtonKind.UNDO, ButtonKind.CONFIRM})


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


async def with_group_hints(core: BotCore, chat: Chat, word: str | None, replies: list[Reply]) -> list[Reply]:
    """In a group: ``help`` adds how moves reach the bot (and ``/setprivacy``); an error answering a move
    names the forms that work there."""
    if chat.type == Chat.PRIVATE or word not in ("help", "move"):
        return replies
    place = Place("telegram", str(chat.id), str(chat.id))
    lang = await core.language(None, place)
    key = "group_tg_help" if word == "help" else "group_tg_move_hint"
    out = []
    for reply in replies:
        if (word == "help" and reply.game_id is None and not reply.error) or (word == "move" and reply.error):
            reply = replace(reply, text=f"{reply.text}\n\n{core.t(key, lang)}")
        out.append(reply)
    return out
