"""Building and running the web frontend: the aiohttp application with its live hub, the config from the
bot's settings, and ``serve_web`` (started with the bot when WEB_PORT is set; by the terminal chat on a local
port)."""

from __future__ import annotations

import asyncio
import logging
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from bot.chat.core import BotCore
from bot.config import Settings
from bot.delivery.replies import Handled
from bot.service.models import PlayerRef

from . import links
from .app import MAX_BODY, WEB_APP, WebApp, WebConfig, guard
from .routes import add_routes

log = logging.getLogger(__name__)
LOCAL_PORT = 8766  # the terminal chat's default port (WEB_PORT overrides it)
NEXT_PORTS = 10  # ports after it tried when it is taken (a second terminal chat), before one the system picks


MAX_LINE = 65536  # bytes of a request line aiohttp reads (its default 8190): a longer address up to this gets
# the guard's plain 414 (see app.MAX_URL); past it aiohttp's own 400, logged by _ProtocolLog in one line


class _ProtocolLog(logging.LoggerAdapter):
    """The log aiohttp's connection handler writes to: a request it could not read at all (a line too long,
    bad HTTP) is one warning line, without the exception's text or traceback, which quote the request line
    and so a board link's token; anything else as aiohttp logs it."""

    def exception(self, msg: object, *args: object, exc_info: object = True, **kwargs: Any) -> None:
        exc = exc_info if isinstance(exc_info, BaseException) else sys.exc_info()[1]
        if isinstance(exc, HttpProcessingError):
            self.logger.warning("web request unreadable from %s: %s (status %s)", args[0] if args else "?",
                                type(exc).__name__, exc.code)
            return
        self.logger.exception(msg, *args, exc_info=exc_info, **kwargs)


def make_app(core: BotCore, config: WebConfig) -> web.Application:
    """The aiohttp application; the live hub starts and stops with it."""
    state = WebApp(core, config)
    app = web.Application(client_max_size=MAX_BODY, middlewares=[guard])
    app[WEB_APP] = state
    add_routes(app)

    async def lifecycle(_app: web.Application) -> AsyncIterator[None]:
        await state.hub.start()
        yield
        await state.hub.stop()

    async def wake_streams(_app: web.Application) -> None:
        await state.hub.stop()  # open event streams end now, not at the shutdown timeout

    app.cleanup_ctx.append(lifecycle)
    app.on_shutdown.append(wake_streams)
    return app


def config_from(settings: Settings, *, port: int | None = None) -> WebConfig:
    """The web frontend's config from the bot's settings (the link key: WEB_SECRET, else from the tokens)."""
    tg = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    base = settings.web_base_url or f"http://127.0.0.1:{port or settings.web_port or LOCAL_PORT}"
    key = links.settings_key(settings)
    return WebConfig(links=links.WebLinks(key, base.rstrip("/"), None, settings.telegram_webapp_name),
                     telegram_token=tg)


async def start_web(core: BotCore, config: WebConfig, port: int, host: str = "0.0.0.0") -> web.AppRunner:
    """Start serving; the runner (``await runner.cleanup()`` stops it)."""
    runner = web.AppRunner(make_app(core, config), access_log=None, shutdown_timeout=2.0,
                           max_line_size=MAX_LINE, logger=_ProtocolLog(log, {}))
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


async def start_local(core: BotCore, settings: Settings, players: tuple[PlayerRef, ...] = (),
                      on_play: Callable[[Handled], Awaitable[None]] | None = None,
                      ) -> tuple[web.AppRunner, links.WebLinks] | None:
    """The terminal chat's page on 127.0.0.1: WEB_PORT, else 8766, else (taken, e.g. by another terminal chat)
    one of the next ports or one the system picks; None when no port at all could be bound. The page
    plays for ``players`` (the terminal's) when asked from this machine; ``on_play`` gets what the bot
    answered to each play made there (the terminal prints it)."""
    first = settings.web_port or LOCAL_PORT
    tried: list[str] = []
    for port in [*range(first, min(first + NEXT_PORTS + 1, 65536)), 0]:
        port = port or _free_local_port()
        if not port:
            tried.append("no port free")
            continue
        config = replace(config_from(settings, port=port), local_players=players, on_local_play=on_play)
        try:
            runner = await start_web(core, config, port, "127.0.0.1")
        except OSError as exc:
            tried.append(f"{port}: {exc.strerror or exc}")
            continue
        if port != first:
            log.warning("the board page's port %s is taken: serving it on port %s", first, port)
        return runner, config.links
    log.warning("the board page could not start on any port (%s)", "; ".join(tried))
    return None


def _free_local_port() -> int:
    """A port on 127.0.0.1 that the system says is free now (0 when none could be had)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            return int(sock.getsockname()[1])
    except OSError:
        return 0
