"""The health endpoint: 200 while the store answers, 503 while the bot drains after SIGTERM (not ready)."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import aiohttp
import pytest

from bot.chat.core import BotCore
from bot.health import serve_health


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def first_answer(http: aiohttp.ClientSession, url: str) -> tuple[int, Any]:
    """The status and JSON of ``url`` once the server listens (it starts in a task)."""
    for _ in range(100):
        try:
            async with http.get(url) as response:
                return response.status, await response.json()
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.02)
    raise AssertionError(f"{url} never answered")


async def test_healthz_says_not_ready_while_draining(core: BotCore) -> None:
    port = free_port()
    server = asyncio.create_task(serve_health(core, port, host="127.0.0.1"))
    try:
        async with aiohttp.ClientSession() as http:
            ready = await first_answer(http, f"http://127.0.0.1:{port}/healthz")
            store = core.store.health()  # the store's counters (wait_timeouts on Redis) ride along
            assert ready == (200, {"ok": True, "draining": False, "store_reachable": True, "store": store})
            core.draining = True
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                assert (response.status, await response.json()) == (503, {"ok": False, "draining": True,
                                                                          "store_reachable": True, "store": store})
    finally:
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)


async def test_livez_stays_up_while_the_store_is_away(core: BotCore, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the store unreachable, /healthz is 503 and says why (store_reachable false), while /livez (the
    liveness probe's) stays 200: a Redis outage must not restart every bot, which recovers by itself."""
    async def unreachable() -> bool:
        return False

    monkeypatch.setattr(core, "healthy", unreachable)
    port = free_port()
    server = asyncio.create_task(serve_health(core, port, host="127.0.0.1"))
    try:
        async with aiohttp.ClientSession() as http:
            ready = await first_answer(http, f"http://127.0.0.1:{port}/healthz")
            assert ready[0] == 503 and ready[1]["store_reachable"] is False and ready[1]["draining"] is False
            async with http.get(f"http://127.0.0.1:{port}/livez") as response:
                assert response.status == 200 and (await response.json())["ok"] is True
    finally:
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)
