"""One empty store of each kind (one Redis, memory, a Redis Cluster), for the fixtures that run the same
tests on every store."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from bot.storage import ClusterStore, LocalRedis, MemoryStore, RedisStore, Store
from tests.redis_cluster import LocalCluster

STORE_KINDS = ["redis", "memory", "cluster"]


@asynccontextmanager
async def empty_store(request: pytest.FixtureRequest, redis_server: LocalRedis,
                      clock: Callable[[], float]) -> AsyncIterator[Store]:
    """An empty store of the kind ``request.param`` names; a cluster store waits for 1 replica up to 1 s."""
    store: Store
    if request.param == "memory":
        yield MemoryStore(clock)
        return
    if request.param == "cluster":
        cluster: LocalCluster = request.getfixturevalue("redis_cluster")
        cluster.flushall()
        store = ClusterStore.from_cluster_url(cluster.url, wait_replicas=1, wait_ms=1000)
    else:
        redis_store = RedisStore.from_url(redis_server.url)
        await redis_store.client.flushall()
        store = redis_store
    try:
        yield store
    finally:
        await store.close()
