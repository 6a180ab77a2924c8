"""Fixtures for the browser tests: a real redis-server, the real BotCore, the fake Bot API with the product's
PTB Application, the real web server, and Debian's chromium driven by Playwright."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from playwright.async_api import async_playwright

from tests.fakes.telegram import FakeTelegram
from tests.telegram.fixtures import app, chat, core, fake, redis_url
from tests.telegram.harness import CoreSpy

from .harness import ARGS, CHROMIUM, Chromium, Site, web_site

__all__ = ["app", "chat", "core", "fake", "redis_url"]  # the Telegram stack's fixtures


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
