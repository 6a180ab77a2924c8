"""Issue 12 with a real process: ``kill -9`` of the bot between a timer's commit (a challenge expiring, its
notice written to the outbox in the same commit) and the notice's delivery; the next process delivers the
notice, exactly once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from bot.service import keys
from bot.storage.local_redis import LocalRedis
from tests.fakes.telegram import FakeTelegram

from .test_process import BotProcess, until

pytestmark = pytest.mark.timeout(60)
EXPIRED = "expired: nobody accepted it in time"


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[FakeTelegram, BotProcess, aioredis.Redis]]:
    with LocalRedis(tmp_path / "redis") as server:
        async with FakeTelegram() as fake:
            bot = BotProcess(fake, server.url, tmp_path)
            bot.env.update(FEVGA_CHALLENGE_TTL_MINUTES="0.1", FEVGA_TICK_SECONDS="0.3")  # a 6 s challenge
            client = aioredis.Redis.from_url(server.url)
            try:
                yield fake, bot, client
            finally:
                await bot.stop()
                await client.aclose()


def notices(fake: FakeTelegram, room: Any) -> list[Any]:
    return [m for m in fake.bot_messages(room) if EXPIRED in m.content]


async def test_kill_9_between_a_timers_commit_and_its_notice_then_the_notice_arrives_once(world: Any) -> None:
    fake, bot, client = world
    alice, bob = fake.user(101, "Alice", "alice_tavli"), fake.user(102, "Bob", "bob_tavli")
    room = fake.group(-1001, "Tavli")
    outboxes = keys.outboxes("telegram")

    async def outbox_length() -> int:
        return sum([await client.xlen(stream) for stream in outboxes])

    await bot.start("pod-a")
    await fake.send_text(bob, room, "/rules")
    await until(lambda: fake.bot_messages(room), 30, "the bot to answer")
    await fake.send_text(alice, room, "/challenge@fevga_test_bot @bob_tavli")
    await until(lambda: len(fake.bot_messages(room)) >= 2, 15, "the challenge")
    before = await outbox_length()
    fake.fail_next("sendMessage", times=10_000, error_code=502, description="Bad Gateway")  # no delivery yet

    deadline = time.monotonic() + 20
    while await outbox_length() == before:  # the timer's commit (with its notice) has not happened yet
        assert time.monotonic() < deadline, "the challenge never expired"
    bot.proc.kill()  # kill -9 right after the timer's commit  # type: ignore[union-attr]
    await bot.proc.wait()  # type: ignore[union-attr]
    assert not notices(fake, room)  # the notice was not delivered by the dead process
    # the timer is gone: the commit happened, it cannot fire again
    assert not any([await client.zcard(t) for t in keys.ALL_TIMERS])
    fake.clear_failures()

    await bot.start("pod-b")
    await until(lambda: notices(fake, room), 30, "the notice from the next process")
    answered = len(fake.bot_messages(room))
    await fake.send_text(bob, room, "/rules")  # the new process is up and answering
    await until(lambda: len(fake.bot_messages(room)) > answered, 15, "the new process to answer")
    await asyncio.sleep(1.0)  # a second delivery (a reclaim, the outbox upkeep) would have come by now
    assert len(notices(fake, room)) == 1  # exactly once
