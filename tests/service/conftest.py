"""Fixtures for the service tests: a real redis-server (AOF on) on a free loopback port, a clock we
control, and services wired to either store."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.service import GameService, Place, PlayerRef
from bot.service.ai import RandomAI
from bot.storage import LocalRedis, RedisStore, Store
from tests.store_kinds import STORE_KINDS, empty_store


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def fresh_redis(tmp_path: Path) -> Iterator[LocalRedis]:
    """A redis-server of its own, on its own data folder, that the test may stop and restart."""
    server = LocalRedis(tmp_path / "redis")
    server.start()
    yield server
    server.stop()


@pytest.fixture
async def redis_store(redis_server: LocalRedis) -> AsyncIterator[RedisStore]:
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    yield store
    await store.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=STORE_KINDS)
async def any_store(request: pytest.FixtureRequest, redis_server: LocalRedis, clock: FakeClock) -> AsyncIterator[Store]:
    """The same tests on every store (single Redis, memory, Redis Cluster): they must behave alike."""
    async with empty_store(request, redis_server, clock) as store:
        yield store


def make_service(store: Store, clock: FakeClock, **kw: object) -> GameService:
    return GameService(store, clock=clock, ai=RandomAI(seed=7), **kw)  # type: ignore[arg-type]


@pytest.fixture
def service(any_store: Store, clock: FakeClock) -> GameService:
    return make_service(any_store, clock)


@pytest.fixture
def redis_service(redis_store: RedisStore, clock: FakeClock) -> GameService:
    return make_service(redis_store, clock)


ALICE = PlayerRef("discord", "100", "alice")
BOB = PlayerRef("discord", "200", "bob")
CAROL = PlayerRef("discord", "300", "carol")
HERE = Place("discord", "guild1", "chan1")
THERE = Place("discord", "guild1", "chan2")
