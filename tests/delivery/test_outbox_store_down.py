"""The outbox consumer while its Redis is down (a real redis-server killed with SIGKILL, then started again on
the same port and data): the failure is logged once with its traceback, not once a second, and the recovery
is said; the consumer then delivers again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from pathlib import Path

import pytest

from bot.chat.core import BotCore
from bot.delivery import BoardTracker
from bot.delivery.outbox import OutboxConsumer
from bot.storage import LocalRedis, RedisStore
from tests.botkit import log_records

from .kit import FakeSink, FakeSurface, play, start_game, stored_version

pytestmark = pytest.mark.timeout(90)


async def test_a_killed_store_is_logged_once_and_its_return_said(tmp_path: Path) -> None:
    redis = LocalRedis(tmp_path / "redis", restarts=False)  # stays down until started again: an outage
    redis.start()
    store = RedisStore.from_url(redis.url)
    core = await BotCore.create(store=store, draw=False)
    surface = FakeSurface()
    boards = BoardTracker(core.store, core.board_reply, surface)
    consumer = OutboxConsumer(core.store, "telegram", "g", "solo", boards, FakeSink(), core.notices_of)
    consumer.grace = 0.0
    running = asyncio.create_task(consumer.run(block_ms=200))
    stack = contextlib.ExitStack()
    try:
        game = await start_game(core)
        await asyncio.sleep(1.0)  # its entries delivered: the consumer waits on the stream
        records = stack.enter_context(log_records("bot.delivery.outbox"))
        assert redis.server_pid is not None
        os.kill(redis.server_pid, signal.SIGKILL)  # the store dies under the consumer
        def failures() -> list[logging.LogRecord]:
            return [r for r in records.records if "outbox" in r.getMessage() and r.levelno >= logging.ERROR]

        for _ in range(300):  # the store's own retries run out first
            if failures():
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(6.0)  # several more failed reads, a second apart
        redis.start()  # back, on the same port and data
        assert len(failures()) == 1 and failures()[0].exc_info is not None, [r.getMessage() for r in failures()]
        for _ in range(100):
            if any("works again" in r.getMessage() for r in records.records):
                break
            await asyncio.sleep(0.1)
        assert any("works again" in r.getMessage() for r in records.records)
        await play(core, 1)
        version = await stored_version(core, game)
        for _ in range(100):  # delivering again
            if any(v == version for _, v in surface.edits):
                break
            await asyncio.sleep(0.1)
        assert any(v == version for _, v in surface.edits)
    finally:
        stack.close()
        await consumer.stop()
        await running
        await core.close()
        redis.stop()
