"""The web frontend's aiohttp application: the game page behind a signed link, its JSON state, live updates
(SSE) and, inside Telegram, plays sent through ``BotCore`` as the chat would. See docs/web.md."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from html import escape
from pathlib import Path

from aiohttp import web

from bot.chat.core import BotCore
from bot.delivery.replies import Handled
from bot.i18n import LANGUAGES, translate
from bot.service.models import PlayerRef

from . import links
from .assets import STATIC_DIR, Assets
from .initdata import InitDataError, TelegramUser, secret_key, verify_init_data
from .live import LiveHub
from .local import LocalUser
from .snapshots import Snapshot, Snapshots

log = logging.getLogger(__name__)
MAX_BODY = 4096  # bytes of any request body
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the link's token must never leave in a Referer
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data: blob:; connect-src 'self'; font-src 'self' data:; object-src 'none'; "
        "base-uri 'none'; form-action 'none'"
    ),
}


class ApiError(Exception):
    """A refused request: HTTP ``status`` and a catalogue ``code`` (``web_<code>`` is its message)."""

    def __init__(self, status: int, code: str, snap: Snapshot | None = None, lang: str | None = None) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.snap = snap
        self.lang = lang


@dataclass
class WebConfig:
    """What the web frontend needs: link key and base URL, the Telegram bot token (Mini App data), limits,
    and the terminal chat's players (the page plays for them from this machine only: see ``local``)."""

    links: links.WebLinks
    telegram_token: str | None = None
    static_dir: Path = STATIC_DIR
    sse_per_ip: int = 16
    sse_total: int = 20_000
    sse_idle_seconds: float = 900.0
    heartbeat_seconds: float = 15.0
    init_data_max_age: float = 3600.0
    local_players: tuple[PlayerRef, ...] = ()
    # the terminal chat's printer of a play made on its page (what the bot answered: the play, the AI's reply)
    on_local_play: Callable[[Handled], Awaitable[None]] | None = None




class WebApp:
    """Holds the core, the snapshots, the live hub and the config; its handlers are in ``routes``."""

    def __init__(self, core: BotCore, config: WebConfig) -> None:
        self.core = core
        self.config = config
        self.snapshots = Snapshots(core.store, lambda place: core.language(None, place))
        self.hub = LiveHub(core.store, self.snapshots, per_ip=config.sse_per_ip, total=config.sse_total,
                           idle_seconds=config.sse_idle_seconds)
        self.assets = Assets(config.static_dir)
        self.tg_key = secret_key(config.telegram_token) if config.telegram_token else None

    # --- helpers shared by the handlers -----------------------------------------------------
    def game_id(self, request: web.Request) -> str:
        """The game a signed token names; ApiError 404 for a bad, forged or foreign token."""
        gid = links.verify(self.config.links.key, request.match_info.get("token", ""))
        if gid is None:
            raise ApiError(404, "bad_link")
        return gid

    async def snapshot(self, gid: str) -> Snapshot:
        snap = await self.snapshots.current(gid)
        if snap is None:
            raise ApiError(404, "no_game")
        self.hub.offer(snap)
        return snap

    def telegram_user(self, raw: str | None) -> TelegramUser | None:
        """The Mini App user of a request (None without initData); InitDataError when it is not valid."""
        if not raw:
            return None
        if self.tg_key is None:
            raise InitDataError("bad_init_data")
        return verify_init_data(raw, self.tg_key, max_age=self.config.init_data_max_age)

    async def lang_for(self, request: web.Request, snap: Snapshot, user: TelegramUser | LocalUser | None) -> str:
        """The viewer's language: ``?lang=`` when given, the player's setting, else the game's place's."""
        asked = request.query.get("lang", "")
        if asked in LANGUAGES:
            return asked
        if user is not None:
            return await self.core.language(user.player, snap.place)
        return snap.place_lang

    def error(self, exc: ApiError) -> web.Response:
        lang = exc.lang or (exc.snap.place_lang if exc.snap is not None else self.core.default_lang)
        body: dict[str, object] = {"ok": False, "code": exc.code, "error": translate(f"web_{exc.code}", lang)}
        if exc.snap is not None:  # a stale version: here is the current state
            body["version"] = exc.snap.version
        return web.json_response(body, status=exc.status)


WEB_APP: web.AppKey[WebApp] = web.AppKey("web", WebApp)
MAX_URL = 4096  # bytes of a request's path and query: a board link is ~40; longer is not ours (414)


def request_lang(request: web.Request, default: str) -> str:
    """The language a page without a player asks for: ``?lang=``, else the browser's first language we
    speak (``Accept-Language``), else ``default``. The tournament page and the error pages follow it."""
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("Accept-Language", "").split(","):
        code = part.strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return default


def _refusal(app: WebApp, request: web.Request, exc: ApiError) -> web.Response:
    """An ApiError as the answer: JSON for the API, else a short HTML page, in the language the request
    asks for when the error does not carry one (a bad link has no game, hence no player, to ask)."""
    if exc.lang is None and exc.snap is None:
        exc.lang = request_lang(request, app.core.default_lang)
    if request.path.startswith("/api/"):
        return app.error(exc)
    lang = exc.lang or app.core.default_lang
    text = translate(f"web_{exc.code}", lang)
    return web.Response(text=_error_page(text, lang), status=exc.status, content_type="text/html")


@web.middleware
async def guard(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
                ) -> web.StreamResponse:
    """Security headers on every answer; an ApiError becomes its JSON (or HTML page) answer; nothing
    unexpected ever shows a traceback."""
    app = request.app[WEB_APP]
    try:
        if len(request.raw_path) > MAX_URL:  # no link of ours is that long; said plainly, logged without it
            log.warning("web request refused: an address of %d bytes from %s", len(request.raw_path), request.remote)
            raise ApiError(414, "too_long")
        response = await handler(request)
    except ApiError as exc:
        response = _refusal(app, request, exc)
    except web.HTTPException as exc:
        if exc.status == 413:
            response = app.error(ApiError(413, "too_large"))
        elif exc.status >= 400 and request.path.startswith("/api/"):
            response = app.error(ApiError(exc.status, "bad_request"))
        else:
            raise
    except (asyncio.CancelledError, ConnectionResetError):
        raise
    except Exception:
        log.exception("web request failed: %s %s", request.method, request.path)
        response = app.error(ApiError(500, "internal"))
    if not response.prepared:
        for key, value in HEADERS.items():
            response.headers.setdefault(key, value)
    return response


def _error_page(text: str, lang: str) -> str:
    return (f"<!doctype html><html lang='{escape(lang)}'><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width'><title>{escape(translate('web_title', lang))}</title>"
            f"<p style='font:16px sans-serif;margin:2em'>{escape(text)}</p></html>")
