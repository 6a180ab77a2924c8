"""Whether the users a command names are members of its server: a challenge to one who left could never be
accepted, so his ``PlayerRef`` is marked ``away`` and the service refuses it (nothing stored)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

import discord

from bot.service.models import PlayerRef

from .identity import mention_map

log = logging.getLogger(__name__)


async def is_member(guild: discord.Guild, user: discord.abc.User, resolved: bool) -> bool:
    """Whether ``user`` is in ``guild`` now. ``resolved``: the user came from an interaction's resolved data, where
    Discord gives a member as a Member; a message's mentions may come from a stale cache, so Discord is asked."""
    if resolved:
        return isinstance(user, discord.Member)
    try:
        await guild.fetch_member(user.id)
    except discord.NotFound:
        return False
    except discord.HTTPException as exc:  # not known now: let the command through, as before
        log.info("membership of user %s in guild %s unknown (HTTP %s)", user.id, guild.id, exc.status)
    return True


async def named_here(users: Sequence[discord.abc.User], guild: discord.Guild | None,
                     *, resolved: bool) -> dict[str, PlayerRef]:
    """:func:`mention_map` of ``users``, those who are not members of ``guild`` (a server's command) marked away."""
    refs = mention_map(users)
    if guild is None:
        return refs
    for user in users:
        if not user.bot and not await is_member(guild, user, resolved):
            for token in (f"<@{user.id}>", f"<@!{user.id}>"):
                refs[token] = replace(refs[token], away=True)
    return refs
