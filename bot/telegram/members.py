"""Players who leave a group (a ``chat_member`` update: left or kicked) or block the bot (a 403 "bot was
blocked by the user" on a private message): withdrawn from the tournaments there (the group's; every one of
the platform when he blocked the bot), their running matches judged to their opponents at once. A command
naming one who left the group marks him away (no challenge to him)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from telegram import Chat, ChatMember, Update
from telegram.error import Forbidden, TelegramError

from bot.chat.core import BotCore
from bot.logging_setup import get_logger
from bot.service.models import PlayerRef

from .identity import place_of, player_of

log = get_logger(__name__)
GONE = (ChatMember.LEFT, ChatMember.BANNED)  # "left", "kicked"


async def player_gone(core: BotCore, player: PlayerRef, scope_id: str | None) -> None:
    """Hand a departure to the service; never raises (the next round's deadline judges his match anyway)."""
    try:
        await core.service.player_gone(player, scope_id)
    except Exception:
        log.exception("telegram_withdraw_failed", user_id=player.user_id)


async def mark_departed(bot: Any, chat: Chat, actor: PlayerRef, mentions: dict[str, PlayerRef]) -> dict[str, PlayerRef]:
    """A group command's named players, those Telegram says left the group or were removed (getChatMember) marked
    away: a challenge to one could never be accepted. Unknown (the call refused): left as they are."""
    if chat.type == Chat.PRIVATE:
        return mentions
    out = dict(mentions)
    for word, ref in mentions.items():
        if ref.bot or ref.same(actor) or not ref.user_id.isdigit():
            continue
        try:
            member = await bot.get_chat_member(chat.id, int(ref.user_id))
        except TelegramError as error:
            log.info("telegram_membership_unknown", chat_id=chat.id, user_id=ref.user_id, error=error.message)
            continue
        if member.status in GONE:
            out[word] = replace(ref, away=True)
    return out


def blocked(error: Forbidden) -> bool:
    """Whether a refused private message means the user blocked the bot (not "never started it")."""
    return "blocked" in (error.message or "").lower()


class MemberHandler:
    """The ``chat_member`` updates of groups where the bot is an admin."""

    def __init__(self, core: BotCore) -> None:
        self.core = core

    async def on_chat_member(self, update: Update, context: Any) -> None:
        """A member left or was removed: out of this group's tournaments."""
        changed = update.chat_member
        if changed is None or changed.new_chat_member.status not in GONE or changed.new_chat_member.user.is_bot:
            return
        place = place_of(changed.chat)
        await player_gone(self.core, player_of(changed.new_chat_member.user), place.scope_id)
