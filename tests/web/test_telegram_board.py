"""The web board with the real Telegram stack (PTB Application against the fake Bot API, the same core on
the real redis-server): boards carry the "Open board" button, and a play made on the page edits the
group's board message exactly once and advances the version exactly once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.storage import LocalRedis
from bot.web.initdata import secret_key, sign_init_data
from bot.web.links import compact
from bot.web.server import config_from, make_app
from tests.fakes.telegram import FakeTelegram
from tests.telegram.fixtures import fake
from tests.telegram.harness import Chat, CoreSpy, make_core, running_bot, settings_for
from tests.telegram.scenes import group_game, seats, the_board

from .kit import stored_version

BASE = "https://fevga.test"
__all__ = ["fake"]  # the fixture


@pytest.fixture
async def core(redis_server: LocalRedis) -> AsyncIterator[CoreSpy]:
    real = await make_core(redis_server.url)
    await real.store.client.flushall()
    try:
        yield CoreSpy(real)
    finally:
        await real.close()


@pytest.fixture
async def stack(core: CoreSpy, fake: FakeTelegram) -> AsyncIterator[tuple[Chat, TestClient, Any]]:
    extra = {"web_base_url": BASE, "telegram_webapp_name": "board"}
    config = config_from(settings_for(fake, **extra))
    async with running_bot(core, fake, **extra) as app, TestClient(TestServer(make_app(core.real, config))) as web:
        yield Chat(fake, app), web, config
        assert app.bot_data["test_errors"] == []


def _init(fake: FakeTelegram, user: Any) -> str:
    fields = {"auth_date": str(int(time.time())), "user": f'{{"id": {user.id}, "first_name": "{user.first_name}"}}'}
    return sign_init_data(fields, secret_key(fake.token))


async def test_a_play_on_the_page_edits_the_group_board_once(core: CoreSpy, fake: FakeTelegram, stack: Any) -> None:
    chat, web, config = stack
    alice, _bob, room, board = await group_game(fake, chat, core)
    gid = core.last_board().game_id
    token = config.links.token(gid)
    link = [b.url for row in board.buttons for b in row if b.url]
    startapp = compact(config.links.key, gid)  # the page reads it as start_param and uses it as its token
    assert link == [f"https://t.me/{fake.bot.username}/board?startapp={startapp}"]
    assert (await web.get(f"/api/g/{startapp}/state")).status == 200
    _view, mover, _waiting = await seats(core, fake, alice, room)
    state = await (await web.get(f"/api/g/{token}/state")).json()
    version, edits = state["version"], len(board.history)
    steps = await web.post(f"/api/g/{token}/steps", json={"version": version, "pending": []},
                           headers={"X-Init-Data": _init(fake, mover)})
    pending: list[Any] = []
    answer = await steps.json()
    while not answer["complete"]:
        pending.append([answer["options"][0]["from"], answer["options"][0]["to"]])
        steps = await web.post(f"/api/g/{token}/steps", json={"version": version, "pending": pending},
                               headers={"X-Init-Data": _init(fake, mover)})
        answer = await steps.json()
    played = await web.post(f"/api/g/{token}/play", json={"version": version, "text": answer["text"]},
                            headers={"X-Init-Data": _init(fake, mover)})
    assert played.status == 200, await played.text()
    assert await stored_version(core.real, gid) == version + 1
    deadline = time.monotonic() + 10
    while len(board.history) == edits and time.monotonic() < deadline:  # the outbox draws it (after its grace)
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)  # and nothing draws it twice
    assert len(board.history) == edits + 1 and board.history[-1].method == "editMessageMedia"
    assert await stored_version(core.real, gid) == version + 1
    assert the_board(fake, room) is board


async def test_a_private_board_opens_the_mini_app(core: CoreSpy, fake: FakeTelegram, stack: Any) -> None:
    chat, _web, config = stack
    carol = fake.user(103, "Carol")
    private = fake.private_chat(carol)
    await chat.say(carol, private, "/play ai easy")
    board = the_board(fake, private)
    gid = core.last_board().game_id
    rows = (board.reply_markup or {})["inline_keyboard"]
    assert rows[-1] == [{"text": "Open board", "web_app": {"url": f"{BASE}/g/{config.links.token(gid)}"}}]
