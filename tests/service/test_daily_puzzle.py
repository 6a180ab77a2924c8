"""The daily puzzle: the ``puzzle_hour`` setting, one post per channel per day across two instances and a
``kill -9`` (real processes on a real redis-server), answers in the channel, and the next day's tally."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.service import GameService, Place
from bot.service.keys import place_bucket
from bot.service.puzzles import keys
from bot.service.puzzles.schedule import next_due
from bot.service.result_codec import decode_result
from bot.storage import RedisStore
from fevga.play import format_steps
from fevga.puzzles import ordered_plays
from tests.service.test_tournament_service import outbox_notices

from .conftest import ALICE, BOB, CAROL, HERE, FakeClock, make_service
from .test_puzzles import msg

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(120)
DAY = 86400


async def daily_posts(store) -> list:
    """Every daily puzzle post in the discord outboxes (each read once, by this test's consumer group)."""
    told = [decode_result(raw) for raw in await outbox_notices(store)]
    return [r for r in told if r is not None and any(m.key == "puzzle_daily" for m in r.messages)]


async def at_hour(service: GameService, clock: FakeClock, hour: int = 10) -> None:
    """Set the place's puzzle hour (as an admin) and move the clock to a minute before it."""
    assert (await service.set_setting(ALICE, HERE, "puzzle_hour", str(hour), is_admin=True)).ok
    clock.now = next_due(hour, clock.now) - 60


async def test_the_setting_is_for_admins_and_takes_an_hour_or_off(service: GameService) -> None:
    refused = await service.set_setting(BOB, HERE, "puzzle_hour", "10")
    assert not refused.ok and refused.error_key == "setting_admin_only"
    for bad in ("24", "-1", "noon", "9.5"):
        answer = await service.set_setting(ALICE, HERE, "puzzle_hour", bad, is_admin=True)
        assert not answer.ok and answer.error_key == "setting_bad_value", bad
    lines = {m.args["name"]: m.args["value"] for m in (await service.settings(ALICE, HERE)).messages}
    assert lines["puzzle_hour"] == "off"
    assert (await service.set_setting(ALICE, HERE, "puzzle_hour", "07", is_admin=True)).ok
    lines = {m.args["name"]: m.args["value"] for m in (await service.settings(ALICE, HERE)).messages}
    assert lines["puzzle_hour"] == "7"


async def test_posted_once_at_the_hour_answered_and_tallied_the_next_day(redis_store: RedisStore,
                                                                        clock: FakeClock) -> None:
    service = make_service(redis_store, clock)
    await at_hour(service, clock)
    assert await service.tick() == [] and await daily_posts(redis_store) == []
    none = await service.puzzle_answer(BOB, HERE, "1/7 7/12")
    assert not none.ok and none.error_key == "puzzle_no_daily"
    clock.advance(61)
    (posted,) = [r for r in await service.tick() if r.place == HERE]
    today = msg(posted, "puzzle_daily")
    assert "puzzle_yesterday" not in [m.key for m in posted.messages]
    assert len(await daily_posts(redis_store)) == 1  # in the outbox, from the same commit
    clock.advance(3600)
    assert await service.tick() == [] and await daily_posts(redis_store) == []  # once a day

    shown = await service.puzzle(CAROL, HERE)  # ``puzzle`` in the channel shows today's
    assert msg(shown, "puzzle_daily")["id"] == today["id"]
    found = await service.puzzles.bank.get(today["id"])
    assert found is not None
    puzzle = found[0]
    wrong = next(format_steps(p.steps) for p in ordered_plays(puzzle.start(), puzzle.dice)
                 if p.result.id() != puzzle.result)
    right = await service.puzzle_answer(ALICE, HERE, puzzle.answer)
    assert msg(right, "puzzle_verdict")["correct"] is True and msg(right, "puzzle_rating")["delta"] > 0
    missed = await service.puzzle_answer(BOB, HERE, wrong)
    assert msg(missed, "puzzle_verdict")["correct"] is False and float(msg(missed, "puzzle_verdict")["loss"]) > 0
    again = await service.puzzle_answer(ALICE, HERE, wrong)  # a second answer: judged, not counted
    assert "puzzle_answered_before" in [m.key for m in again.messages]
    bad = await service.puzzle_answer(CAROL, HERE, "banana")
    assert not bad.ok

    clock.advance(DAY)
    (next_day,) = [r for r in await service.tick() if r.place == HERE]
    assert msg(next_day, "puzzle_daily")["id"] != today["id"]
    assert msg(next_day, "puzzle_yesterday") == {"answer": puzzle.answer, "tried": 2, "solved": 1}

    assert (await service.set_setting(ALICE, HERE, "puzzle_hour", "off", is_admin=True)).ok
    clock.advance(DAY)
    assert await service.tick() == []


async def test_two_instances_post_once(redis_server, clock: FakeClock) -> None:
    stores = [RedisStore.from_url(redis_server.url) for _ in range(2)]
    await stores[0].client.flushall()
    try:
        first, second = (make_service(s, clock) for s in stores)
        places = [Place("discord", "guild1", f"chan{n}") for n in range(6)]
        for place in places:
            assert (await first.set_setting(ALICE, place, "puzzle_hour", "10", is_admin=True)).ok
        for day in range(2):
            clock.now = next_due(10, clock.now) + 1
            told = await asyncio.gather(first.tick(), second.tick(), first.tick(), second.tick())
            posted = [r.place for results in told for r in results]
            assert sorted(posted, key=str) == sorted(places, key=str), day  # each place once, by either
            assert sorted((r.place for r in await daily_posts(stores[0])), key=str) == sorted(places, key=str)
    finally:
        for s in stores:
            await s.close()


WORKER = """
import asyncio, os, signal, sys
from bot.service import GameService
from bot.service.ai import RandomAI
from bot.service.puzzles.daily import Daily
from bot.storage import RedisStore

url, now, mode = sys.argv[1], float(sys.argv[2]), sys.argv[3]
original = Daily.post
if mode == "after":  # SIGKILL itself right after the post's commit (before anything is delivered)
    async def post(self, place, at):
        await original(self, place, at)
        os.kill(os.getpid(), signal.SIGKILL)
    Daily.post = post
if mode == "before":  # SIGKILL itself once it has claimed the post, before its commit
    async def post(self, place, at):
        os.kill(os.getpid(), signal.SIGKILL)
    Daily.post = post

async def main():
    store = RedisStore.from_url(url)
    service = GameService(store, clock=lambda: now, ai=RandomAI(seed=1))
    print(len(await service.tick("discord")))
    await store.close()

asyncio.run(main())
"""


def run_worker(url: str, now: float, mode: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", WORKER, url, repr(now), mode], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip


async def wait(process: subprocess.Popen[bytes]) -> int:
    return await asyncio.to_thread(process.wait, 60)


async def test_kill_9_before_and_after_the_commit(redis_server, clock: FakeClock) -> None:
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    try:
        service = make_service(store, clock)
        await at_hour(service, clock)
        due = clock.now + 61
        killed = run_worker(redis_server.url, due, "before")  # claimed, then died: the lease runs out
        assert await wait(killed) == -signal.SIGKILL
        assert await daily_posts(store) == []
        survivors = [run_worker(redis_server.url, due + 5, "run") for _ in range(2)]  # within the lease
        assert [await wait(p) for p in survivors] == [0, 0]
        assert await daily_posts(store) == []
        killed = run_worker(redis_server.url, due + 61, "after")  # lease over: posted, then died
        assert await wait(killed) == -signal.SIGKILL
        survivors = [run_worker(redis_server.url, due + 130, "run") for _ in range(2)]
        assert [await wait(p) for p in survivors] == [0, 0]
        posts = await daily_posts(store)
        assert [r.place for r in posts] == [HERE]  # posted once: by the killed one, in its commit
        _v, doc = await service.puzzles.daily.load(HERE)
        assert doc["pid"] == msg(posts[0], "puzzle_daily")["id"]
        (score,) = await store.read([("zscore", keys.daily_due(place_bucket(HERE)), keys.daily_member(HERE))])
        assert score == next_due(10, due + 61)  # the next post: tomorrow at the hour
    finally:
        await store.close()
