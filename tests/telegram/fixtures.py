"""The Telegram stack's fixtures, shared by the Telegram and browser tests: a real redis-server, the real
BotCore on it, the fake Bot API, and the product's PTB Application polling that fake."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.telegram import FakeTelegram

from .harness import Chat, CoreSpy, make_core, redis_server, running_bot


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    with redis_server(tmp_path / "redis") as url:
        yield url


@pytest.fixture
async def core(redis_url: str) -> AsyncIterator[CoreSpy]:
    real = await make_core(redis_url)
    try:
        yield CoreSpy(real)
    finally:
        await real.close()


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
async def app(core: CoreSpy, fake: FakeTelegram) -> AsyncIterator[Any]:
    async with running_bot(core, fake) as application:
        yield application
    assert application.bot_data["test_errors"] == []


@pytest.fixture
def chat(fake: FakeTelegram, app: Any) -> Chat:
    return Chat(fake, app)
