"""A core (no pictures drawn) on the shared real redis-server, emptied for each test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.chat.core import BotCore
from bot.storage import LocalRedis, RedisStore
from tests.botkit import OffsetClock as Clock


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def core(redis_server: LocalRedis, clock: Clock) -> AsyncIterator[BotCore]:
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    bot = await BotCore.create(store=store, draw=False, clock=clock)
    bot.ping_after = 0.0  # pings at once unless a test sets the idle time (test_idle_pings.py)
    yield bot
    await bot.close()
