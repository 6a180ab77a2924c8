"""Puzzles of one game under production faults, on a real redis-server: a bot process killed with SIGKILL right after
committing a Portes channel's daily post, then two instances ticking at once (each channel posted once, each of its
own game, nothing posted twice); and ``puzzle portes`` arriving on two instances at once (double-typed, or one update
handled by two): every answer shown is the puzzle his record holds, or a plain "send it again"."""

from __future__ import annotations

import asyncio
import signal

import pytest

from bot.service import Place
from bot.service.puzzles.schedule import next_due
from bot.storage import RedisStore

from .conftest import ALICE, HERE, FakeClock, make_service
from .test_daily_puzzle import daily_posts, run_worker, wait
from .test_puzzles import DM, msg

pytestmark = pytest.mark.timeout(120)
THERE = Place("discord", "guild2", "chan-plakoto")  # settings are a server's


async def test_kill_9_after_a_portes_post_then_two_instances_post_each_game_once(redis_server,
                                                                                 clock: FakeClock) -> None:
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    try:
        service = make_service(store, clock)
        for place, game in ((HERE, "portes"), (THERE, "plakoto")):
            for name, value in (("default_game", game), ("puzzle_hour", "10")):
                assert (await service.set_setting(ALICE, place, name, value, is_admin=True)).ok
        due = next_due(10, clock.now) + 1
        killed = run_worker(redis_server.url, due, "after")  # posts one channel, dies before anything else
        assert await wait(killed) == -signal.SIGKILL
        posts = await daily_posts(store)  # its post is in the outbox, from its commit (each read once here)
        assert len(posts) == 1
        survivors = [run_worker(redis_server.url, due + 130, "run") for _ in range(2)]  # its claim has run out
        assert [await wait(p) for p in survivors] == [0, 0]
        posts += await daily_posts(store)
        assert sorted((str(r.place), msg(r, "puzzle_daily")["game"]) for r in posts) == sorted(
            [(str(HERE), "portes"), (str(THERE), "plakoto")])
        for post in posts:
            _v, doc = await service.puzzles.daily.load(post.place)
            assert doc["pid"] == msg(post, "puzzle_daily")["id"]
    finally:
        await store.close()


async def test_puzzle_portes_on_two_instances_at_once_records_one_puzzle(redis_server, clock: FakeClock) -> None:
    stores = [RedisStore.from_url(redis_server.url) for _ in range(2)]
    await stores[0].client.flushall()
    try:
        first, second = (make_service(s, clock) for s in stores)
        results = await asyncio.gather(*(s.puzzle(ALICE, DM, "portes") for s in (first, second, first, second)))
        shown = {msg(r, "puzzle")["id"] for r in results if r.ok}
        refused = [r.error_key for r in results if not r.ok]
        assert len(shown) == 1 and set(refused) <= {"puzzle_busy"}
        _v, me = await first.puzzles.trainer.solver(ALICE)
        assert (me.current, me.game, me.answered) == (shown.pop(), "portes", 0)
        again = await second.puzzle(ALICE, DM)  # the one he was shown, whichever instance asks
        assert msg(again, "puzzle")["id"] == me.current
    finally:
        for s in stores:
            await s.close()
