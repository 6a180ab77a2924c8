"""Building and running the Discord bot: ``build_bot(core, settings)`` and ``run_discord(core, settings)``.

A ``commands.Bot`` (an ``AutoShardedBot`` when DISCORD_SHARD_COUNT is set or Discord recommends more
than one shard) with the ``/fevga`` group, persistent buttons, Greek command descriptions, the tick
loop and the update follower. Commands are synced once, on the first READY.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord.ext import commands

from bot.chat.core import BotCore
from bot.config import Settings

from . import lines, web_link
from .background import Background
from .cog import FevgaCog
from .command_text import CommandTranslator, text
from .components import TokenButton, TokenSelect, orphan_token
from .endpoints import point_discord_py, recommended_shards
from .frontend import DiscordFrontend
from .members import MemberEvents
from .more_commands import FevgaMoreCog
from .tournament_commands import TournamentCog

log = logging.getLogger(__name__)


class FevgaBotMixin:
    """What both bot classes share; ``build_bot`` sets the attributes before ``start``."""

    frontend: DiscordFrontend
    background: Background
    sync_guild: int | None
    commands_synced: asyncio.Event
    _sync_started: bool

    def _fevga_init(self, core: BotCore, tick_seconds: float, sync: bool, sync_guild: int | None) -> None:
        client: discord.Client = self  # type: ignore[assignment]
        self.frontend = DiscordFrontend(client, core)
        self.background = Background(self.frontend, core, tick_seconds)
        self.sync_guild = sync_guild
        self.commands_synced = asyncio.Event()
        self._sync_started = not sync
        if not sync:
            self.commands_synced.set()

    async def setup_hook(self) -> None:
        bot: commands.Bot = self  # type: ignore[assignment]
        await bot.tree.set_translator(CommandTranslator())
        await bot.add_cog(FevgaCog(self.frontend))
        await bot.add_cog(self.background)
        await bot.add_cog(MemberEvents(self.frontend.core, bot))
        await bot.add_cog(TournamentCog(self.frontend))
        await bot.add_cog(FevgaMoreCog(self.frontend))
        bot.add_dynamic_items(TokenButton, TokenSelect)

    async def on_ready(self) -> None:
        """Sync the command tree once per process (global, or to one guild for tests)."""
        if self._sync_started:
            return
        self._sync_started = True
        bot: commands.Bot = self  # type: ignore[assignment]
        try:
            if self.sync_guild is not None:
                guild = discord.Object(self.sync_guild)
                bot.tree.copy_global_to(guild=guild)
                synced = await bot.tree.sync(guild=guild)
            else:
                synced = await bot.tree.sync()
            log.info("synced %d application commands (guild %s)", len(synced), self.sync_guild)
        except discord.HTTPException as exc:
            log.error("syncing the application commands failed: HTTP %s, code %s", exc.status, exc.code)
        finally:
            self.commands_synced.set()

    async def close(self) -> None:
        """Let commands still being answered and deliveries in flight finish (bounded), then close."""
        await self.frontend.drain()
        await self.background.stop()
        await super().close()  # type: ignore[misc]  # commands.Bot or AutoShardedBot, after this mixin

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Clicks on components no longer on their message still get the core's 'out of date' answer."""
        token = orphan_token(interaction)
        if token is not None:
            await self.frontend.on_press(interaction, token)

    async def on_command_error(self, ctx: commands.Context[Any], error: commands.CommandError) -> None:
        """A prefix line discord.py cannot parse still goes to the core, which explains what to type."""
        if ctx.interaction is None and isinstance(error, commands.CommandNotFound | commands.UserInputError):
            await self.frontend.on_prefix(ctx.message, lines.prefix_line(ctx.message.content, ctx.prefix or ""))
            return
        original = getattr(error, "original", error)
        log.error("command %s failed: %r", ctx.command, original)
        if ctx.interaction is not None and not ctx.interaction.response.is_done():
            await ctx.interaction.response.send_message(text("ui.failed"), ephemeral=True)


class FevgaBot(FevgaBotMixin, commands.Bot):
    """The bot in one gateway connection."""


class ShardedFevgaBot(FevgaBotMixin, commands.AutoShardedBot):
    """The bot over several gateway shards in this process."""


AnyFevgaBot = FevgaBot | ShardedFevgaBot


def intents_for(prefix_commands: bool, member_events: bool = False) -> discord.Intents:
    """Default intents, plus message content when prefix commands are on and server members when members who
    leave should be withdrawn from tournaments (both privileged intents)."""
    intents = discord.Intents.default()
    intents.message_content = prefix_commands
    intents.members = member_events
    return intents


def build_bot(
    core: BotCore,
    settings: Settings,
    *,
    sharded: bool | None = None,
    prefix_commands: bool = True,
    tick_seconds: float | None = None,
    sync: bool = True,
    sync_guild: int | None = None,
    **client_options: Any,
) -> AnyFevgaBot:
    """The bot, not started. ``sharded=None``: sharded exactly when DISCORD_SHARD_COUNT is set.

    Prefix commands work when mentioning the bot even without the message-content intent.
    ``client_options`` go to discord.py's client (e.g. ``guild_ready_timeout``).
    """
    web_link.configure(settings)  # the boards' "Open board" button (WEB_BASE_URL)
    shard_count = settings.discord_shard_count
    options: dict[str, Any] = {
        "command_prefix": commands.when_mentioned_or(settings.discord_command_prefix),
        "intents": intents_for(prefix_commands, settings.discord_member_events),
        "help_command": None,
        "case_insensitive": True,
        "allowed_mentions": discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False),
        **client_options,
    }
    bot: AnyFevgaBot
    if sharded or (sharded is None and shard_count is not None):
        if settings.discord_shard_ids:  # this process runs only these shards (others run the rest)
            options["shard_ids"] = list(settings.discord_shard_ids)
        bot = ShardedFevgaBot(shard_count=shard_count, **options)
    else:
        bot = FevgaBot(**options)
    tick = settings.fevga_tick_seconds if tick_seconds is None else tick_seconds
    bot._fevga_init(core, tick, sync, sync_guild)
    return bot


async def prepare_bot(core: BotCore, settings: Settings, **options: Any) -> AnyFevgaBot:
    """Point discord.py at the configured endpoints and build the bot, sharded if Discord says so."""
    await point_discord_py(settings)
    sharded = settings.discord_shard_count is not None or await recommended_shards(settings) > 1
    return build_bot(core, settings, sharded=sharded, **options)


async def run_discord(core: BotCore, settings: Settings) -> None:
    """Run the Discord frontend until cancelled (used by ``bot/__main__.py``); logs through our logging.
    Without the privileged Message Content intent it runs with slash commands only (one clear warning)."""
    if settings.discord_token is None:
        raise ValueError("DISCORD_TOKEN is not set")
    await start_discord(core, settings, settings.discord_token.get_secret_value())


async def start_discord(core: BotCore, settings: Settings, token: str, **options: Any) -> None:
    """Start the bot (prefix commands as DISCORD_PREFIX_COMMANDS says); if Discord refuses the Message
    Content intent, warn once and start again in slash-only mode instead of dying with a traceback."""
    prefix = settings.discord_prefix_commands
    while True:
        bot = await prepare_bot(core, settings, prefix_commands=prefix, **options)
        try:
            async with bot:
                await bot.start(token)
            return
        except discord.PrivilegedIntentsRequired:
            if not prefix:
                raise
            log.warning(
                "Discord refused the Message Content intent: running with slash commands only. Enable the intent "
                "in the Developer Portal (Bot > Privileged Gateway Intents) for prefix commands, or set "
                "DISCORD_PREFIX_COMMANDS=false to choose slash-only and silence this warning."
            )
            prefix = False
