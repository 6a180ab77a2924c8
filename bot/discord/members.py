"""Members who leave a server (the gateway's GUILD_MEMBER_REMOVE, with the Server Members intent on:
DISCORD_MEMBER_EVENTS): withdrawn from its tournaments, their running matches there ended (won by their
opponents, or called off), their challenges there withdrawn."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.chat.core import BotCore

from .identity import player_of

log = logging.getLogger(__name__)


class MemberEvents(commands.Cog):
    """Hands a member's departure to the service (``player_gone``); never raises into discord.py."""

    def __init__(self, core: BotCore, client: discord.Client | None = None) -> None:
        self.core = core
        self.client = client

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """He left, was kicked or banned: out of this server's tournaments and games."""
        if payload.user.bot:
            return
        try:
            await self.core.service.player_gone(player_of(payload.user), str(payload.guild_id),
                                                self.channels(payload.guild_id))
        except Exception:  # the next round's deadline judges his tournament match; the turn timers the others
            log.exception("withdrawing member %s of guild %s failed", payload.user.id, payload.guild_id)

    def channels(self, guild_id: int) -> list[str]:
        """The server's channels and threads this bot knows (where his challenges may wait)."""
        guild = self.client.get_guild(guild_id) if self.client is not None else None
        if guild is None:
            return []
        return [str(c.id) for c in (*guild.channels, *guild.threads) if not isinstance(c, discord.CategoryChannel)]
