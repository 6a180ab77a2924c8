"""The core's own work on Discord: timers every ``tick_seconds`` (``core.tick``; their notices are written
to the outbox by the timers' own commits) and the outbox consumer (``bot.delivery``), which converges the
boards changed by any instance and posts notices, each exactly once across instances."""

from __future__ import annotations

import asyncio
import logging
import os
import socket

from discord.ext import commands, tasks

from bot.chat.core import BotCore
from bot.delivery import OutboxConsumer

from .frontend import DiscordFrontend
from .identity import PLATFORM

log = logging.getLogger(__name__)
STOP_SECONDS = 10.0


class Background(commands.Cog):
    """Runs the tick loop and the outbox consumer while the bot is connected."""

    def __init__(self, frontend: DiscordFrontend, core: BotCore, tick_seconds: float = 30.0,
                 consumer: str | None = None) -> None:
        self.frontend = frontend
        self.core = core
        self.consumer_name = consumer or f"{socket.gethostname()}:{os.getpid()}"
        self.tick_loop.change_interval(seconds=tick_seconds)
        self.outbox: OutboxConsumer | None = None
        self._follower: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.tick_loop.start()
        self._follower = asyncio.create_task(self.follow_outbox(), name="fevga-discord-outbox")

    async def cog_unload(self) -> None:
        await self.stop()

    async def stop(self, timeout: float = STOP_SECONDS) -> None:
        """Stop the tick loop and the consumer; deliveries in flight finish (bounded)."""
        self.tick_loop.cancel()
        ticking = self.tick_loop.get_task()
        follower, self._follower = self._follower, None
        if self.outbox is not None:
            await self.outbox.stop(timeout)
        if follower is not None:
            follower.cancel()
        # Wait for both tasks to end, so none is left pending when the event loop closes.
        pending = {t for t in (ticking, follower) if t is not None and not t.done()}
        if pending:
            await asyncio.wait(pending, timeout=2.0)

    def consumer(self) -> OutboxConsumer:
        """The outbox consumer (group: this platform and bot; consumer: this instance)."""
        if self.outbox is None:
            user = self.frontend.client.user
            group = f"{PLATFORM}:{user.id if user is not None else 'bot'}"
            self.outbox = self.core.delivery(PLATFORM, self.frontend.boards, self.frontend, group=group,
                                             consumer=self.consumer_name, pinger=self.frontend.boards.pinger)
            self.outbox.tracker = self.frontend.boards.tracker  # one tracker: handlers and consumer alike
        return self.outbox

    async def tick_once(self) -> int:
        """Act on the core's due timers once, then deliver what waits in the outbox; entries delivered."""
        await self.core.tick(PLATFORM, notices=False)
        return await self.consumer().drain()

    @tasks.loop(seconds=30.0)
    async def tick_loop(self) -> None:
        try:
            self.consumer()  # registers the follow-up sink: the analysis of a game a timer ends is posted
            await self.core.tick(PLATFORM, notices=False)
        except Exception:  # a failed tick must not stop the loop: the next one retries
            log.exception("a tick failed")

    @tick_loop.before_loop
    async def _until_ready(self) -> None:
        await self.frontend.client.wait_until_ready()

    async def follow_outbox(self) -> None:
        """Consume the outbox once connected (it reconnects to the store by itself)."""
        await self.frontend.client.wait_until_ready()
        await self.consumer().run()
