"""Whether the users a command names are members of its server: a challenge to one who left could never be
accepted, so his ``PlayerRef`` is marked ``away`` and the service refuses it (nothing stored)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace

import discord

from bot.service.models import PlayerRef

from .identity import mention_map

log = logging.getLogger(__name__)
LOOKUP_WAIT = 2.0  # seconds a typed command waits to learn whether a named user is still a member


async def is_member(guild: discord.Guild, user: discord.abc.User, resolved: bool) -> bool:
    """Whether ``user`` is in ``guild`` now. ``resolved``: the user came from an interaction's resolved data, where
    Discord gives a member as a Member; a message's mentions may come from a stale cache, so Discord is asked."""
    if resolved:
        return isinstance(user, discord.Member)
    try:
        await asyncio.wait_for(guild.fetch_member(user.id), LOOKUP_WAIT)
    except discord.NotFound:
        return False
    except discord.HTTPException as exc:  # not known now: let the command through, as before
        log.info("membership of user %s in guild %s unknown (HTTP %s)", user.id, guild.id, exc.status)
    except TimeoutError:  # Discord slow or failing (discord.py retries a 5xx for long): not worth the wait
        log.info("membership of user %s in guild %s unknown (no answer in %.0f s)", user.id, guild.id, LOOKUP_WAIT)
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
