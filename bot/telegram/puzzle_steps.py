"""A member's steps on a group's daily puzzle are his alone, and Telegram has no message only he can see: his
next step buttons go to his private chat (where they answer the group's puzzle) and his press is answered with
an alert showing his steps so far. The group's post is never edited with them, nothing is posted in the group."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from telegram import User
from telegram.error import TelegramError

from bot.chat.core import BotCore
from bot.commands.puzzle_intents import PuzzleStep
from bot.delivery.replies import Reply
from bot.logging_setup import get_logger
from bot.service.models import Place

from .delivery import Delivery
from .identity import player_of
from .texts import MAX_ALERT, clip

log = get_logger(__name__)


async def steps_privately(core: BotCore, delivery: Delivery, bot: Any, user: User, place: Place, step: PuzzleStep,
                          replies: list[Reply], title: str | None = None) -> list[Reply]:
    """The replies to ``step`` pressed in a group with his steps (a private reply with buttons) taken out of the
    group: sent to his private chat, under a line naming the group (``title``; he may be in several), and turned
    into an alert showing them, or, when the bot may not write to him there, an alert showing them and how to go
    on (pressing them again, once he has started the chat)."""
    actor = player_of(user)
    lang = await core.language(actor, place, user.language_code)
    out: list[Reply] = []
    for reply in replies:
        if reply.code == "puzzle_steps_shown":  # shown already, and in his private chat, not under the post
            out.append(replace(reply, text=core.t("puzzle_steps_shown_private", lang)))
            continue
        if not reply.private or reply.error or not reply.buttons:
            out.append(reply)
            continue
        try:
            key, args = ("puzzle_steps_in_group", {"group": title}) if title else ("puzzle_steps_in_a_group", {})
            head = core.t(key, lang, **args)  # which group's puzzle: he may be in several
            await delivery.post(bot, user.id, replace(reply, text=f"{head}\n{reply.text}", private=False, mention=()))
            note = "puzzle_steps_sent"
        except TelegramError as error:  # he never started a private chat with the bot
            log.info("telegram_puzzle_steps_not_sent", user_id=user.id, error=error.message)
            note = "puzzle_steps_start"
            await core.service.puzzles.unshown(actor, place, step.pid)
        text = clip(f"{reply.text}\n{core.t(note, lang)}", MAX_ALERT)
        out.append(Reply(text, private=True, lang=reply.lang))
    return out
