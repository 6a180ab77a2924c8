"""The core's own events on Discord: timers every ``tick_seconds`` (``core.tick``) and board updates
published by any instance (``core.updates``), each shown through the ``DiscordFrontend``."""

from __future__ import annotations

import asyncio
import logging

from discord.ext import commands, tasks

from bot.core import BotCore

from .frontend import DiscordFrontend
from .identity import PLATFORM

log = logging.getLogger(__name__)
RETRY_SECONDS = 5.0
STOP_SECONDS = 0.5
STOP_ATTEMPTS = 6


class Background(commands.Cog):
    """Runs the tick loop and follows the update stream while the bot is connected."""

    def __init__(self, frontend: DiscordFrontend, core: BotCore, tick_seconds: float = 30.0) -> None:
        self.frontend = frontend
        self.core = core
        self.tick_loop.change_interval(seconds=tick_seconds)
        self._follower: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.tick_loop.start()
        self._follower = asyncio.create_task(self.follow_updates(), name="fevga-discord-updates")

    async def cog_unload(self) -> None:
        self.tick_loop.cancel()
        follower, self._follower = self._follower, None
        if follower is not None:
            # A cancellation can be swallowed inside the Redis subscription's read (the task then waits
            # for the next message forever), so it is repeated until the follower has really stopped.
            for _ in range(STOP_ATTEMPTS):
                follower.cancel()
                done, _ = await asyncio.wait({follower}, timeout=STOP_SECONDS)
                if done:
                    return
            log.warning("the update stream did not stop after %d cancellations", STOP_ATTEMPTS)

    async def tick_once(self) -> int:
        """Act on the core's due timers once; returns how many notices were shown."""
        notices = await self.core.tick(PLATFORM)
        for notice in notices:
            await self.frontend.deliver_notice(notice)
        return len(notices)

    @tasks.loop(seconds=30.0)
    async def tick_loop(self) -> None:
        try:
            await self.tick_once()
        except Exception:  # a failed tick must not stop the loop: the next one retries
            log.exception("a tick failed")

    @tick_loop.before_loop
    async def _until_ready(self) -> None:
        await self.frontend.client.wait_until_ready()

    async def follow_updates(self) -> None:
        """Show every update for places of this bot; reconnects after errors."""
        await self.frontend.client.wait_until_ready()
        while True:
            try:
                async for notice in self.core.updates(PLATFORM):
                    try:
                        await self.frontend.deliver_notice(notice, may_post=False)
                    except Exception:
                        log.exception("showing an update in %s failed", notice.place)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the update stream failed; following it again in %s s", RETRY_SECONDS)
            await asyncio.sleep(RETRY_SECONDS)
