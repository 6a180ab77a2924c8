"""Read-only routes: the page (``/g/<token>``, ``/app``), its static files, the JSON state and the live
event stream (SSE). The state-changing routes are in :mod:`bot.web.actions`."""

from __future__ import annotations

import contextlib

from aiohttp import web

from . import state
from .actions import add_action_routes
from .app import HEADERS, WEB_APP, ApiError, WebApp, request_lang
from .assets import PAGE
from .initdata import InitDataError, TelegramUser
from .live import TooManyWatchers
from .local import LocalUser, is_local, local_user
from .snapshots import Snapshot
from .tournament_page import add_tournament_routes

PAGE_CACHE = "no-cache"
STATIC_CACHE = "public, max-age=3600"
MAX_SINCE = 10**15


def _web(request: web.Request) -> WebApp:
    return request.app[WEB_APP]


async def page(request: web.Request) -> web.StreamResponse:
    """The game page (the token is checked first: a bad link gets a clear page, not the app)."""
    app = _web(request)
    if "token" in request.match_info:
        app.game_id(request)
    asset = app.assets.get(PAGE)
    if asset is None:
        raise ApiError(503, "no_page")
    return app.assets.response(request, asset, PAGE_CACHE)


async def static(request: web.Request) -> web.StreamResponse:
    app = _web(request)
    asset = app.assets.get(request.match_info["name"])
    if asset is None:
        raise web.HTTPNotFound(text="not found")
    return app.assets.response(request, asset, STATIC_CACHE)


async def _viewer(app: WebApp, request: web.Request, snap: Snapshot, raw: str | None,
                  ) -> tuple[str, int | None, str | None, bool]:
    """(language, seat, auth problem, local) of the viewer: a spectator unless valid initData names a player,
    or the request is the terminal's player at this machine (local: the page plays for him)."""
    user: TelegramUser | LocalUser | None
    problem = None
    try:
        user = app.telegram_user(raw)
    except InitDataError as exc:
        user, problem = None, exc.code
    local = user is None and problem is None and is_local(request, app.config.local_players)
    if local:
        user = local_user(snap, app.config.local_players)
    seat = snap.seat_of(user.player.platform, user.player.user_id) if user is not None else None
    return await app.lang_for(request, snap, user), seat, problem, local


async def get_state(request: web.Request) -> web.Response:
    """``GET /api/g/<token>/state``: the state JSON, from the viewer's seat when X-Init-Data is valid."""
    app = _web(request)
    snap = await app.snapshot(app.game_id(request))
    lang, seat, problem, local = await _viewer(app, request, snap, request.headers.get("X-Init-Data"))
    text = snap.json(lang, seat)
    if local:  # the terminal's player at this machine: the page plays for him without initData
        text = text[:-1] + ',"local":true}'
    elif problem is not None:  # said, not refused: the page is then read-only
        text = text[:-1] + f',"auth":"{problem}"}}'
    resp = web.Response(text=text, content_type="application/json", headers={"Cache-Control": "no-store"})
    if len(text) > 1024:
        resp.enable_compression()  # a long game's moves: gzip when the client takes it
    return resp


async def get_strings(request: web.Request) -> web.Response:
    """``GET /api/strings``: the page's strings in the language the request asks for (``?lang=``, else
    ``Accept-Language``), for a page that has no game to ask about (``/app`` opened outside Telegram)."""
    app = _web(request)
    lang = request_lang(request, app.core.default_lang)
    return web.json_response({"lang": lang, "strings": state.strings(lang)}, headers={"Cache-Control": "no-cache"})


def _since(request: web.Request) -> int:
    raw = request.headers.get("Last-Event-ID") or request.query.get("since") or "-1"
    try:
        return max(-1, min(int(raw), MAX_SINCE))
    except ValueError:
        return -1


async def events(request: web.Request) -> web.StreamResponse:
    """``GET /api/g/<token>/events``: Server-Sent Events, one ``state`` event per newer version; the
    current state at once when the client is behind; a comment heartbeat every 15 s."""
    app = _web(request)
    gid = app.game_id(request)
    snap = await app.snapshot(gid)
    raw = request.headers.get("X-Init-Data") or request.query.get("init")
    lang, seat, _problem, _local = await _viewer(app, request, snap, raw)
    ip = request.remote or "?"
    try:
        watcher = app.hub.watch(gid, ip, _since(request), lang, seat)
    except TooManyWatchers:
        raise ApiError(429, "too_many_streams", lang=lang) from None
    app.hub.refresh(gid)  # a change committed while this connection was set up is not missed
    response = web.StreamResponse(headers={
        "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no", **HEADERS})
    try:
        await response.prepare(request)
        await response.write(b"retry: 2000\n\n")
        current: Snapshot | None = snap if snap.version > watcher.sent else None
        while True:
            if current is not None:
                watcher.sent = current.version
                data = current.json(lang, seat)
                await response.write(f"id: {current.version}\nevent: state\ndata: {data}\n\n".encode())
            current = await app.hub.wait(watcher, app.config.heartbeat_seconds)
            if watcher.closed:
                if watcher.idle:  # told, so the page waits for its user before reconnecting
                    with contextlib.suppress(ConnectionError):
                        await response.write(b"event: idle\ndata: {}\n\n")
                break
            if current is None:
                await response.write(b": hb\n\n")
    except ConnectionError:  # the client went away
        pass
    finally:
        app.hub.unwatch(watcher)
    return response


def add_routes(app: web.Application) -> None:
    """Every route of the web frontend."""
    app.router.add_get("/g/{token}", page)
    app.router.add_get("/app", page)
    app.router.add_get("/static/{name:.+}", static)
    app.router.add_get("/api/g/{token}/state", get_state)
    app.router.add_get("/api/g/{token}/events", events)
    app.router.add_get("/api/strings", get_strings)
    add_action_routes(app)
    add_tournament_routes(app)
