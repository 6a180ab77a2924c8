"""The web frontend on the real stack: BotCore on the shared real redis-server (emptied per test), the
aiohttp application on a loopback port, a page folder of our own, and Telegram Mini App users."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.chat.core import BotCore
from bot.storage import LocalRedis, RedisStore
from bot.web.app import WebConfig
from bot.web.links import WebLinks, derive_key
from bot.web.server import make_app

from .kit import BOT_TOKEN, Site


@pytest.fixture
async def core(redis_server: LocalRedis) -> AsyncIterator[BotCore]:
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    bot = await BotCore.create(store=store, draw=False)
    yield bot
    await bot.close()


@pytest.fixture
def static_dir(tmp_path: Path) -> Path:
    """A stand-in for the page's folder (the real page is the page's own part)."""
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "game.html").write_text('<!doctype html><title>Fevga</title><script src="/static/app.js"></script>\n')
    (folder / "app.js").write_text("// the board\n" + "const board = [];\n" * 200)
    return folder


def make_config(static_dir: Path, **limits: float) -> WebConfig:
    links = WebLinks(derive_key("web-tests-secret-0123"), "https://fevga.test", "fevga_test_bot", "board")
    return WebConfig(links=links, telegram_token=BOT_TOKEN, static_dir=static_dir, **limits)  # type: ignore[arg-type]


@pytest.fixture
def config(static_dir: Path) -> WebConfig:
    return make_config(static_dir)


@pytest.fixture
async def site(core: BotCore, config: WebConfig) -> AsyncIterator[Site]:
    async with TestClient(TestServer(make_app(core, config))) as client:
        yield Site(core, config, client)
