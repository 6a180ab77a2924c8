"""Fixtures for the browser tests: a real redis-server, the real BotCore, the fake Bot API with the product's
PTB Application, the real web server, and Debian's chromium driven by Playwright."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import async_playwright

from tests.fakes.telegram import FakeTelegram
from tests.telegram.harness import Chat, CoreSpy, make_core, redis_server, running_bot

from .harness import ARGS, CHROMIUM, Chromium, Site, web_site


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


@pytest.fixture
async def site(core: CoreSpy, fake: FakeTelegram) -> AsyncIterator[Site]:
    async with web_site(core.real, fake.token) as running:
        yield running


@pytest.fixture
async def browser() -> AsyncIterator[Chromium]:
    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        wrapped = Chromium(chromium)
        try:
            yield wrapped
        finally:
            await chromium.close()
        assert wrapped.errors == []  # no script error on any page
