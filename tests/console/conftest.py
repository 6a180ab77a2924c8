"""A core on the shared real redis-server, for the terminal-chat tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.chat.core import BotCore
from bot.service.ai import RandomAI
from bot.storage import LocalRedis, RedisStore


@pytest.fixture
async def core(redis_server: LocalRedis) -> AsyncIterator[BotCore]:
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    bot = await BotCore.create(store=store, ai=RandomAI(seed=3))
    yield bot
    await bot.close()
