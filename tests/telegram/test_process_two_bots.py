"""Two Telegram bots (two tokens: say a test bot and the production bot) as real ``python -m bot`` processes on one
Redis. Each Bot API numbers its updates from 1, so their update ids collide: each bot answers its own users."""

from __future__ import annotations

import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage.local_redis import LocalRedis
from tests.fakes.telegram import FakeTelegram

from .test_process import BotProcess, until

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
async def two_bots(tmp_path: Path) -> AsyncIterator[list[tuple[FakeTelegram, BotProcess]]]:
    with LocalRedis(tmp_path / "redis") as server:
        async with FakeTelegram("111111111:TEST-one", "fevga_one_bot") as one, \
                FakeTelegram("222222222:TEST-two", "fevga_two_bot") as two:
            bots = []
            for n, fake in enumerate((one, two)):
                (tmp_path / f"bot{n}").mkdir()
                bots.append((fake, BotProcess(fake, server.url, tmp_path / f"bot{n}")))
            try:
                yield bots
            finally:
                for _, bot in bots:
                    await bot.stop()


async def test_two_bots_on_one_redis_with_colliding_update_ids_each_answer_their_own_user(two_bots: Any) -> None:
    rooms = []
    for n, (fake, bot) in enumerate(two_bots):
        await bot.start(f"pod-{n}")
        rooms.append((fake, fake.user(101, "Alice"), fake.group(-1001, "Tavli")))
    ids = []
    for answers in (1, 2):
        for n, (fake, alice, room) in enumerate(rooms):
            ids.append(await fake.send_text(alice, room, "/rules"))
            await until(lambda f=fake, r=room, a=answers: len(f.bot_messages(r)) >= a, 40, f"bot {n} to answer")
    assert ids == [1, 1, 2, 2]  # the same update ids on both bots
    for fake, _alice, room in rooms:
        await fake.settle(timeout=10, quiet=1.0)
        assert len(fake.bot_messages(room)) == 2  # each of its users' commands answered, once
    for _, bot in two_bots:
        assert await bot.signal(signal.SIGTERM) == 0
