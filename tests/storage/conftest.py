"""Fixtures for the store tests: both stores on the same contract, and redis-servers of their own."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.storage import LocalRedis, Store
from tests.store_kinds import STORE_KINDS, empty_store


class Clock:
    """A clock the test moves by hand (MemoryStore timers, TTLs and stream idle times follow it)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    """A hand-moved clock for the MemoryStore."""
    return Clock()


@pytest.fixture(params=STORE_KINDS)
async def store(request: pytest.FixtureRequest, redis_server: LocalRedis, clock: Clock) -> AsyncIterator[Store]:
    """The same tests on every store (one Redis, memory, a Redis Cluster): they must behave alike."""
    async with empty_store(request, redis_server, clock) as opened:
        yield opened


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[LocalRedis]:
    """A redis-server of its own that the test may kill, stop and restart (same port, same AOF folder): its
    watchdog does not restart it (``restarts=False``), so a kill is an outage until the test starts it again."""
    server = LocalRedis(tmp_path / "redis", restarts=False)
    server.start()
    yield server
    server.stop()
