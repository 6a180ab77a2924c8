"""Fixtures for the store tests: both stores on the same contract, and redis-servers of their own."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.storage import ClusterStore, LocalRedis, MemoryStore, RedisStore, Store
from tests.redis_cluster import LocalCluster


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


@pytest.fixture(params=["redis", "memory", "cluster"])
async def store(request: pytest.FixtureRequest, redis_server: LocalRedis, clock: Clock) -> AsyncIterator[Store]:
    """The same tests on every store (one Redis, memory, a Redis Cluster): they must behave alike."""
    if request.param == "memory":
        yield MemoryStore(clock)
        return
    if request.param == "cluster":
        cluster: LocalCluster = request.getfixturevalue("redis_cluster")
        cluster.flushall()
        cstore = ClusterStore.from_cluster_url(cluster.url, wait_replicas=1, wait_ms=1000)
        yield cstore
        await cstore.close()
        return
    redis_store = RedisStore.from_url(redis_server.url)
    await redis_store.client.flushall()
    yield redis_store
    await redis_store.close()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[LocalRedis]:
    """A redis-server of its own that the test may kill, stop and restart (same port, same AOF folder)."""
    server = LocalRedis(tmp_path / "redis")
    server.start()
    yield server
    server.stop()
