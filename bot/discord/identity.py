"""Who and where, in the core's terms: Discord users become ``PlayerRef``s, channels become ``Place``s."""

from __future__ import annotations

import re
from collections.abc import Iterable

import discord

from bot.service.models import Place, PlayerRef

PLATFORM = "discord"
_MENTION = re.compile(r"<@!?(\d+)>")


def player_of(user: discord.abc.User) -> PlayerRef:
    """The core's reference to a Discord user (display name as the readable name; bots are marked)."""
    return PlayerRef(PLATFORM, str(user.id), user.display_name, bot=bool(getattr(user, "bot", False)))


def place_of(channel: discord.abc.Messageable | discord.abc.GuildChannel | None, user: discord.abc.User) -> Place:
    """Guild channels and threads are ``(guild id, channel id)``; DMs are ``("dm:<user id>", channel id)``."""
    guild = getattr(channel, "guild", None)
    channel_id = str(getattr(channel, "id", "0"))
    if guild is not None:
        return Place(PLATFORM, str(guild.id), channel_id)
    return Place(PLATFORM, f"dm:{user.id}", channel_id)


def interaction_place(interaction: discord.Interaction) -> Place:
    """The place of an interaction, from its ids (the channel object may not be cached)."""
    channel_id = str(interaction.channel_id or 0)
    if interaction.guild_id is not None:
        return Place(PLATFORM, str(interaction.guild_id), channel_id)
    return Place(PLATFORM, f"dm:{interaction.user.id}", channel_id)


def is_admin(user: discord.abc.User, channel: object) -> bool:
    """May change place settings: Manage Server in a guild; in a DM the player owns the place."""
    if isinstance(user, discord.Member):
        return user.guild_permissions.manage_guild
    return getattr(channel, "guild", None) is None


def mention_map(users: Iterable[discord.abc.User]) -> dict[str, PlayerRef]:
    """``{"<@id>": PlayerRef, "<@!id>": PlayerRef}`` for each user a line may mention."""
    out: dict[str, PlayerRef] = {}
    for user in users:
        ref = player_of(user)
        out[f"<@{user.id}>"] = ref
        out[f"<@!{user.id}>"] = ref
    return out


def mentioned_ids(text: str) -> list[int]:
    """User ids mentioned as ``<@id>`` / ``<@!id>`` in ``text``, in order."""
    return [int(m) for m in _MENTION.findall(text)]


def discord_ids(players: Iterable[PlayerRef]) -> list[int]:
    """Discord user ids of the players that are on Discord (others cannot be pinged here)."""
    return [int(p.user_id) for p in players if p.platform == PLATFORM and p.user_id.isdigit()]


def split_ref(ref: str) -> tuple[int, int] | None:
    """``"channel:message"`` as stored by ``remember_board_message``; None if it is not ours."""
    channel, _, message = ref.partition(":")
    if not (channel.isdigit() and message.isdigit()):
        return None
    return int(channel), int(message)
