"""The one analysis post of a game against the AI under faults, on two service instances sharing a real
redis-server: while the automatic post's worker process analyses, a player's ``analyze`` on the other instance
is told the post is on its way; the worker is then killed (SIGKILL); the failed post gives its claim back, so the
next ``analyze`` gets the analysis (computed on the other instance), and a retried automatic post is then not
made: one post in all."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.service import keys
from bot.storage import LocalRedis, RedisStore

from .conftest import ALICE, HERE, FakeClock, make_service
from .helpers import play_out

pytestmark = pytest.mark.timeout(120)


async def _claimed(store: RedisStore, gid: str) -> bytes | None:
    value = (await store.read([("get", f"{keys.game_analysis(gid, 1)}:posted")]))[0]
    return value if isinstance(value, bytes | None) else str(value).encode()


async def test_a_killed_analysis_worker_frees_the_post_for_the_other_instance(redis_server: LocalRedis,
                                                                              clock: FakeClock) -> None:
    stores = [RedisStore.from_url(redis_server.url) for _ in range(2)]
    await stores[0].client.flushall()
    one, two = (make_service(store, clock, analysis_ply=0) for store in stores)
    try:
        started = await one.play_ai(ALICE, HERE, "easy")
        gid = started.game_id
        assert started.ok and gid is not None
        await play_out(one, started, HERE, random.Random(11))

        posting = asyncio.ensure_future(one.analyses.after_game(gid, 1))  # the automatic post, on instance one
        workers: list[int] = []
        for _ in range(500):  # its claim made and its worker process started
            pool = one.analyses._pool
            if isinstance(pool, ProcessPoolExecutor) and pool._processes:
                workers = list(pool._processes)
                break
            await asyncio.sleep(0.01)
        assert workers and (await _claimed(stores[0], gid) or b"").startswith(b"auto:")
        waiting = await two.analyze(ALICE, HERE)  # meanwhile, on the other instance
        assert waiting.ok and [m.key for m in waiting.messages] == ["analysis_just_posted"]
        for pid in workers:
            os.kill(pid, signal.SIGKILL)  # the worker dies mid-analysis

        with pytest.raises(BrokenProcessPool):
            await posting
        assert await _claimed(stores[0], gid) is None  # the failed post gave its claim back
        shown = await two.analyze(ALICE, HERE)
        assert shown.ok and [m.key for m in shown.messages] == ["analysis"]
        assert two.analyses.runs == 1 and (await _claimed(stores[1], gid) or b"").startswith(b"asked:")

        again = await one.analyses.after_game(gid, 1)  # the automatic post retried: the player has it already
        assert again.ok and again.messages == []
        stored = (await stores[0].read([("get", keys.game_analysis(gid, 1))]))[0]
        assert stored is not None  # the other instance's analysis is kept for everyone
    finally:
        one.close()
        two.close()
        for store in stores:
            await store.close()
