"""Container health checks: ``GET /healthz`` (readiness) is 200 while the store answers and the bot is not
draining (after SIGTERM it answers 503, so Kubernetes stops routing webhooks to it while it finishes), and says
whether the store was reachable and which store it is (the in-memory one keeps no game across a restart: said
loudly); ``GET /livez`` (liveness) is 200 while the process answers at all."""

from __future__ import annotations

import asyncio

from aiohttp import web

from bot.chat.core import BotCore

MEMORY_NOTE = "in-memory store: games are lost when the bot stops; set REDIS_URL or install redis-server"
GAVE_UP_NOTE = "the bot's own redis-server kept dying and is no longer restarted: restart the bot (see its redis.log)"


def store_kind(core: BotCore) -> dict[str, object]:
    """Which store the bot runs on: ``store_kind`` "redis" (REDIS_URL), "cluster" (redis+cluster://),
    "local-redis" (its own redis-server, REDIS_URL unset) or "memory" (no redis-server either), and
    ``store_durable`` (whether games survive a restart), with a warning for the in-memory store."""
    kind = "local-redis" if core.local is not None else core.store.kind
    said: dict[str, object] = {"store_kind": kind, "store_durable": core.store.durable}
    if not core.store.durable:
        said["store_warning"] = MEMORY_NOTE
    if core.store_given_up:
        said["store_warning"] = GAVE_UP_NOTE
    return said


async def start_health(core: BotCore, port: int, host: str = "0.0.0.0") -> web.AppRunner:
    """Bind and start /healthz, returning its runner (``await runner.cleanup()`` stops it). A port that cannot
    be bound raises ``OSError`` here, so start-up stops with one clear line instead of running on unprobed."""

    async def healthz(_request: web.Request) -> web.Response:
        draining = core.draining
        reachable = await core.healthy()
        ok = not draining and reachable
        body: dict[str, object] = {"ok": ok, "draining": draining, "store_reachable": reachable,
                                   "store": core.store.health(), **store_kind(core)}
        return web.json_response(body, status=200 if ok else 503)

    async def livez(_request: web.Request) -> web.Response:
        """The process answers (its event loop runs): for a liveness probe, which must not restart every bot
        while Redis is away (the bot recovers by itself when it returns; /healthz says it is not ready). Only
        when its own redis-server was given up (a restart of the bot is what brings it back) is it 503."""
        alive = not core.store_given_up
        return web.json_response({"ok": alive, "draining": core.draining}, status=200 if alive else 503)

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/livez", livez)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:
        await runner.cleanup()
        raise OSError(exc.errno, f"HEALTH_PORT {port} cannot be bound: {exc.strerror or exc}") from exc
    except BaseException:
        await runner.cleanup()
        raise
    return runner


async def serve_health(core: BotCore, port: int, host: str = "0.0.0.0") -> None:
    """Serve /healthz until cancelled (a port that cannot be bound raises ``OSError`` at once)."""
    runner = await start_health(core, port, host)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
