"""Live updates: a chat move reaches an SSE watcher within a second, a reconnect catches up by version,
one load per version however many watch, a lost pub/sub message is covered, per-IP caps and idle close."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.chat.core import BotCore
from bot.storage import RedisStore
from bot.web.app import WEB_APP, WebApp
from bot.web.server import make_app

from .conftest import make_config
from .kit import ROOM, Site, init_data, start_game, stored_version


class Stream:
    """An SSE connection read event by event."""

    def __init__(self, resp: ClientResponse) -> None:
        self.resp = resp
        self.buffer = b""

    async def next(self, timeout: float = 3.0) -> dict[str, str]:
        """The next event (comments are returned as {"comment": ...})."""
        deadline = time.monotonic() + timeout
        while b"\n\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no event")
            chunk = await asyncio.wait_for(self.resp.content.readany(), left)
            if not chunk:
                raise EOFError("stream ended")
            self.buffer += chunk
        block, self.buffer = self.buffer.split(b"\n\n", 1)
        event: dict[str, str] = {}
        for line in block.decode().splitlines():
            key, _, value = line.partition(":")
            event[key or "comment"] = value.strip()
        return event

    async def state(self, timeout: float = 3.0) -> tuple[int, dict[str, Any]]:
        while True:
            event = await self.next(timeout)
            if event.get("event") == "state":
                return int(event["id"]), json.loads(event["data"])


async def open_stream(client: TestClient, token: str, since: int | None = None, **headers: str) -> Stream:
    query = f"?since={since}" if since is not None else ""
    resp = await client.get(f"/api/g/{token}/events{query}", headers=headers)
    assert resp.status == 200, await resp.text()
    assert resp.headers["Content-Type"].startswith("text/event-stream")
    return Stream(resp)


async def a_chat_move(site: Site, gid: str) -> str:
    """The player to move plays in the chat (BotCore, as the Telegram frontend would)."""
    st, mover, _ = await site.mover(gid)
    text = await site.a_play(gid, mover, st["version"])
    handled = await site.core.handle_text(mover, ROOM, text)
    assert not any(r.error for r in handled.replies), [r.text for r in handled.replies]
    return text


async def test_a_chat_move_reaches_the_page_within_a_second(site: Site) -> None:
    gid = await start_game(site.core)
    v = await stored_version(site.core, gid)
    stream = await open_stream(site.client, site.token(gid), since=v)
    await asyncio.sleep(0.1)
    for _ in range(3):
        started = time.monotonic()
        await a_chat_move(site, gid)
        version, state = await stream.state(timeout=1.0)
        assert time.monotonic() - started < 1.0
        assert version == state["version"] == await stored_version(site.core, gid)
    stream.resp.close()


async def test_a_reconnect_catches_up_by_version(site: Site) -> None:
    gid = await start_game(site.core)
    v = await stored_version(site.core, gid)
    behind = await open_stream(site.client, site.token(gid), since=v - 1)
    assert (await behind.state())[0] == v  # behind: the current state at once
    await a_chat_move(site, gid)
    resp = await site.client.get(f"/api/g/{site.token(gid)}/events", headers={"Last-Event-ID": str(v)})
    assert (await Stream(resp).state())[0] == await stored_version(site.core, gid)
    behind.resp.close()
    resp.close()


async def test_an_up_to_date_client_gets_heartbeats_only(core: BotCore, static_dir: Path) -> None:
    config = make_config(static_dir, heartbeat_seconds=0.2)
    async with TestClient(TestServer(make_app(core, config))) as client:
        site = Site(core, config, client)
        gid = await start_game(core)
        stream = await open_stream(client, site.token(gid), since=await stored_version(core, gid))
        events = [await stream.next(1.0) for _ in range(3)]
        assert events[0] == {"retry": "2000"} and all(e == {"comment": "hb"} for e in events[1:])
        stream.resp.close()


async def test_one_load_per_version_for_many_watchers(site: Site) -> None:
    gid = await start_game(site.core)
    v = await stored_version(site.core, gid)
    streams = [await open_stream(site.client, site.token(gid), since=v) for _ in range(10)]
    await asyncio.sleep(0.1)
    hub = site.client.app[WEB_APP]  # type: ignore[union-attr]
    builds = hub.snapshots.builds
    await a_chat_move(site, gid)
    got = [await s.state(2.0) for s in streams]
    assert {g[0] for g in got} == {v + 1} or {g[0] for g in got} == {await stored_version(site.core, gid)}
    assert hub.snapshots.builds - builds == 1
    for s in streams:
        s.resp.close()


async def test_a_lost_event_is_covered_by_the_periodic_check(site: Site) -> None:
    gid = await start_game(site.core)
    web: WebApp = site.client.app[WEB_APP]  # type: ignore[union-attr]
    web.hub.recheck_seconds = 0.2
    for task in web.hub._tasks:  # restart the periodic check at the short period, and lose the reader
        task.cancel()
    web.hub._tasks = [asyncio.create_task(web.hub._recheck())]
    stream = await open_stream(site.client, site.token(gid), since=await stored_version(site.core, gid))
    await a_chat_move(site, gid)
    version, _state = await stream.state(timeout=2.0)
    assert version == await stored_version(site.core, gid)
    stream.resp.close()


@pytest.fixture
async def capped(core: BotCore, static_dir: Path) -> AsyncIterator[Site]:
    config = make_config(static_dir, sse_per_ip=2, sse_idle_seconds=0.5, heartbeat_seconds=0.2)
    app = make_app(core, config)
    async with TestClient(TestServer(app)) as client:
        yield Site(core, config, client)


async def test_streams_are_capped_per_address(capped: Site) -> None:
    gid = await start_game(capped.core)
    token = capped.token(gid)
    first, second = await open_stream(capped.client, token), await open_stream(capped.client, token)
    third = await capped.client.get(f"/api/g/{token}/events")
    assert third.status == 429 and (await third.json())["code"] == "too_many_streams"
    first.resp.close()
    await asyncio.sleep(0.2)  # the server notices the closed connection
    deadline = time.monotonic() + 3
    while True:
        again = await capped.client.get(f"/api/g/{token}/events")
        if again.status == 200 or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.1)
    assert again.status == 200
    again.close()
    second.resp.close()


async def test_idle_streams_are_closed(capped: Site) -> None:
    gid = await start_game(capped.core)
    stream = await open_stream(capped.client, capped.token(gid), since=await stored_version(capped.core, gid))
    started = time.monotonic()
    events = []
    with pytest.raises(EOFError):
        while True:
            events.append(await stream.next(3.0))
    assert {"event": "idle", "data": "{}"} in events and time.monotonic() - started < 2.5
    web: WebApp = capped.client.app[WEB_APP]  # type: ignore[union-attr]
    assert web.hub.count == 0


async def test_a_shutdown_ends_streams_without_calling_them_idle(site: Site) -> None:
    gid = await start_game(site.core)
    stream = await open_stream(site.client, site.token(gid), since=await stored_version(site.core, gid))
    await stream.next(1.0)  # retry
    web: WebApp = site.client.app[WEB_APP]  # type: ignore[union-attr]
    await web.hub.stop()
    events = []
    with pytest.raises(EOFError):
        while True:
            events.append(await stream.next(2.0))
    assert all(e.get("event") != "idle" for e in events) and web.hub.count == 0


async def test_the_stream_knows_its_viewer_from_init_data(site: Site) -> None:
    gid = await start_game(site.core)
    _st, mover, _ = await site.mover(gid)
    resp = await site.client.get(f"/api/g/{site.token(gid)}/events?init={quote(init_data(mover))}")
    _version, state = await Stream(resp).state()
    assert state["viewer"]["to_move"] and state["viewer"]["seat"] == state["turn"]
    resp.close()


async def test_a_move_on_another_instance_reaches_this_one(site: Site, redis_server: Any) -> None:
    other = await BotCore.create(store=RedisStore.from_url(redis_server.url), draw=False)
    try:
        gid = await start_game(site.core)
        stream = await open_stream(site.client, site.token(gid), since=await stored_version(site.core, gid))
        await asyncio.sleep(0.1)
        elsewhere = Site(other, site.config, site.client)  # the chat move is handled by the other instance
        started = time.monotonic()
        await a_chat_move(elsewhere, gid)
        version, _state = await stream.state(timeout=1.0)
        assert version == await stored_version(other, gid) and time.monotonic() - started < 1.0
        stream.resp.close()
    finally:
        await other.close()
