"""The health endpoint: 200 while the store answers, 503 while the bot drains after SIGTERM (not ready)."""

from __future__ import annotations

import asyncio
import socket

import aiohttp

from bot.chat.core import BotCore
from bot.health import serve_health


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_healthz_says_not_ready_while_draining(core: BotCore) -> None:
    port = free_port()
    server = asyncio.create_task(serve_health(core, port, host="127.0.0.1"))
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(100):
                try:
                    async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                        ready = (response.status, await response.json())
                    break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.02)
            store = core.store.health()  # the store's counters (wait_timeouts on Redis) ride along
            assert ready == (200, {"ok": True, "draining": False, "store": store})
            core.draining = True
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                assert (response.status, await response.json()) == (503, {"ok": False, "draining": True,
                                                                          "store": store})
    finally:
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)
