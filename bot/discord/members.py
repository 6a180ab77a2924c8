"""Members who leave a server (the gateway's GUILD_MEMBER_REMOVE, with the Server Members intent on:
DISCORD_MEMBER_EVENTS): withdrawn from its tournaments, their running matches judged to their opponents."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.chat.core import BotCore

from .identity import player_of

log = logging.getLogger(__name__)


class MemberEvents(commands.Cog):
    """Hands a member's departure to the service (``player_gone``); never raises into discord.py."""

    def __init__(self, core: BotCore) -> None:
        self.core = core

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """He left, was kicked or banned: out of this server's tournaments."""
        if payload.user.bot:
            return
        try:
            await self.core.service.player_gone(player_of(payload.user), str(payload.guild_id))
        except Exception:  # the next round's deadline judges his match anyway
            log.exception("withdrawing member %s of guild %s failed", payload.user.id, payload.guild_id)
