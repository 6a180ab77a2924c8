"""The health endpoint: 200 while the store answers, 503 while the bot drains after SIGTERM (not ready); it says
which store the bot runs on, loudly when it is the in-memory one (games lost on a restart)."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.chat.core import BotCore
from bot.health import serve_health
from bot.storage import ClusterStore


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
            kind = {"store_kind": "redis", "store_durable": True}  # a RedisStore on a URL (REDIS_URL)
            assert ready == (200, {"ok": True, "draining": False, "store_reachable": True, "store": store, **kind})
            core.draining = True
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                assert (response.status, await response.json()) == (503, {"ok": False, "draining": True,
                                                                          "store_reachable": True, "store": store,
                                                                          **kind})
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


async def healthz_of(core: BotCore) -> tuple[int, Any]:
    """The status and body of a real /healthz served for ``core``."""
    port = free_port()
    server = asyncio.create_task(serve_health(core, port, host="127.0.0.1"))
    try:
        async with aiohttp.ClientSession() as http:
            return await first_answer(http, f"http://127.0.0.1:{port}/healthz")
    finally:
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)


async def health_of_a_bot_in(data_dir: Path) -> tuple[int, Any]:
    """/healthz of a bot started with REDIS_URL unset and its data in ``data_dir`` (then closed)."""
    core = await BotCore.create(data_dir=data_dir, draw=False)
    try:
        return await healthz_of(core)
    finally:
        await core.close()


async def test_healthz_says_the_bot_runs_on_memory_without_redis(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """REDIS_URL unset and no redis-server on PATH: the in-memory store, and /healthz says games are not kept."""
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))  # no redis-server to start
    status, body = await health_of_a_bot_in(tmp_path)
    assert status == 200 and body["store_kind"] == "memory" and body["store_durable"] is False
    assert "games are lost when the bot stops" in body["store_warning"]


async def test_healthz_names_the_bots_own_redis_server(tmp_path: Path) -> None:
    """REDIS_URL unset with redis-server on PATH: the bot's own server (AOF in FEVGA_DATA_DIR), durable."""
    status, body = await health_of_a_bot_in(tmp_path)
    assert status == 200 and body["store_kind"] == "local-redis" and body["store_durable"] is True
    assert "store_warning" not in body
    assert ClusterStore.kind == "cluster"  # a redis+cluster:// REDIS_URL (a ClusterStore) is said as "cluster"


async def test_a_local_redis_given_up_is_said_to_players_and_probes(tmp_path: Path) -> None:
    """The bot's own redis-server keeps dying (its AOF manifest damaged) and its watchdog gives up: a command
    says the bot must be restarted (it said "try again in a moment" forever), /healthz says why, and /livez
    turns 503 so that a liveness probe restarts the bot."""
    from bot.console import ConsoleChat

    core = await BotCore.create(data_dir=tmp_path, draw=False)
    try:
        local = core.local
        assert local is not None and local.server_pid is not None
        manifest = next((local.data_dir / "appendonlydir").glob("*.manifest"))
        manifest.write_text("not a manifest\n")  # every restart fails at once
        os.kill(local.server_pid, signal.SIGKILL)
        for _ in range(400):
            if local.given_up:
                break
            await asyncio.sleep(0.05)
        assert local.given_up
        out = io.StringIO()
        chat = ConsoleChat(core, board_dir=tmp_path, out=out)
        await chat.command("stats")
        assert "must be restarted" in out.getvalue() and "try again in a moment" not in out.getvalue()
        status, body = await healthz_of(core)
        assert status == 503 and "no longer restarted" in body["store_warning"]
        port = free_port()
        server = asyncio.create_task(serve_health(core, port, host="127.0.0.1"))
        try:
            async with aiohttp.ClientSession() as http:
                status, body = await first_answer(http, f"http://127.0.0.1:{port}/livez")
        finally:
            server.cancel()
            await asyncio.gather(server, return_exceptions=True)
        assert status == 503 and body["ok"] is False
    finally:
        await core.close()
