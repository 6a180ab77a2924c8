"""Building and running the web frontend: the aiohttp application with its live hub, the config from the
bot's settings, and ``serve_web`` (started with the bot when WEB_PORT is set; by the terminal chat on a local
port)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from aiohttp import web

from bot.config import Settings
from bot.core import BotCore

from . import links
from .app import MAX_BODY, WebApp, WebConfig, guard
from .routes import add_routes

LOCAL_PORT = 8766  # the terminal chat's default port (WEB_PORT overrides it)


def make_app(core: BotCore, config: WebConfig) -> web.Application:
    """The aiohttp application; the live hub starts and stops with it."""
    state = WebApp(core, config)
    app = web.Application(client_max_size=MAX_BODY, middlewares=[guard])
    app["web"] = state
    add_routes(app)

    async def lifecycle(_app: web.Application) -> AsyncIterator[None]:
        await state.hub.start()
        yield
        await state.hub.stop()

    app.cleanup_ctx.append(lifecycle)
    return app


def config_from(settings: Settings, *, port: int | None = None) -> WebConfig:
    """The web frontend's config from the bot's settings (the link key: WEB_SECRET, else from the tokens)."""
    secret = settings.web_secret.get_secret_value() if settings.web_secret else None
    tg = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    dc = settings.discord_token.get_secret_value() if settings.discord_token else None
    base = settings.web_base_url or f"http://127.0.0.1:{port or settings.web_port or LOCAL_PORT}"
    key = links.derive_key(secret, tg, dc)
    return WebConfig(links=links.WebLinks(key, base.rstrip("/"), None, settings.telegram_webapp_name),
                     telegram_token=tg)


async def start_web(core: BotCore, config: WebConfig, port: int, host: str = "0.0.0.0") -> web.AppRunner:
    """Start serving; the runner (``await runner.cleanup()`` stops it)."""
    runner = web.AppRunner(make_app(core, config), access_log=None, shutdown_timeout=2.0)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner


async def serve_web(core: BotCore, config: WebConfig, port: int, host: str = "0.0.0.0") -> None:
    """Serve until cancelled."""
    runner = await start_web(core, config, port, host)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
