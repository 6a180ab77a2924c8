"""Each committed change is delivered by exactly one consumer of the group; dead consumers' entries are
reclaimed; timer notices come from the same commit as the timer's effect."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

import pytest
import redis.asyncio

from bot.chat.core import BotCore
from bot.delivery import OutboxConsumer
from bot.service import keys
from bot.storage.local_redis import LocalRedis

from .conftest import Clock
from .kit import ALICE, BOB, FakeSink, FakeSurface, play, start_game, stored_version

GROUP_NAME = "telegram:testbot"


def consumer(core: BotCore, name: str, surface: FakeSurface, sink: FakeSink | None = None) -> OutboxConsumer:
    return core.delivery("telegram", surface, sink or FakeSink(), group=GROUP_NAME, consumer=name)


async def test_every_commit_writes_one_outbox_entry_and_each_is_delivered_once(core: BotCore) -> None:
    surface = FakeSurface()
    one = consumer(core, "a", surface)
    await one.start()
    game = await start_game(core)
    await one.drain()
    for _ in range(6):
        await play(core, 1)
        assert await one.drain() == 1
    assert len(surface.posts) == 1 and len(surface.edits) == 6
    assert surface.versions() == list(range(1, await stored_version(core, game) + 1))[-7:]
    assert await one.drain() == 0  # nothing left, nothing drawn twice


async def test_two_instances_draw_each_change_exactly_once(core: BotCore) -> None:
    surface = FakeSurface(delay=0.01)
    pair = [consumer(core, "a", surface), consumer(core, "b", surface)]
    for c in pair:
        c.grace = 0.05  # no handler draws here (the core draws nothing): don't wait 3 s per change for one
        await c.start()
    runs = [asyncio.create_task(c.run(block_ms=50)) for c in pair]
    game = await start_game(core)
    for ply in range(31):
        if ply:
            await play(core, 1)
        deadline = time.monotonic() + 5
        while (await pair[0].tracker.shown(game))[0] < await stored_version(core, game):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.01)
    for c in pair:
        await c.stop()
    await asyncio.gather(*runs)
    assert len(surface.posts) == 1 and len(surface.edits) == 30  # one edit per committed change
    assert len(set(surface.edits)) == 30
    info = await core.store.read([("get", keys.board_shown(game))])
    assert info[0] is not None
    assert pair[0].handled + pair[1].handled == 32  # the challenge's end, the start + 30 moves, each acked once
    assert pair[0].handled and pair[1].handled  # both instances took part
    late = consumer(core, "c", surface)
    assert await late.drain() == 0 and await late.reclaim(min_idle_ms=0) == 0  # nothing left pending


async def test_a_dead_consumers_entries_are_reclaimed_and_delivered(
        core: BotCore, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.delivery.outbox")
    surface = FakeSurface()
    game = await start_game(core)
    dead = consumer(core, "dead", surface)
    await dead.start()
    taken = await core.store.consume_many(dead.streams, GROUP_NAME, "dead", 100, 0)  # then it dies (no ack)
    assert taken
    alive = consumer(core, "alive", surface)
    assert await alive.drain() == 0  # nothing new: the entries are pending with the dead one
    assert await alive.reclaim(min_idle_ms=0) == len(taken)
    assert (await alive.tracker.shown(game))[0] == await stored_version(core, game)
    assert len(surface.posts) == 1
    took = [r.getMessage() for r in caplog.records if r.getMessage().startswith("took over outbox entry")]
    assert len(took) == len(taken) and all(": delivered in " in m for m in took)  # each takeover timed in the log


async def test_a_timer_notice_is_delivered_once_from_the_outbox(core: BotCore, clock: Clock) -> None:
    surface, sink = FakeSurface(), FakeSink()
    one = consumer(core, "a", surface, sink)
    await one.start()
    game = await start_game(core)
    await one.drain()
    clock.offset = 13 * 3600  # past the first reminder (50 % of the 24 h deadline)
    assert await core.tick("telegram", notices=False) == []  # the notice went to the outbox, not here
    assert await one.drain() >= 1
    reminders = [n for n in sink.notices if n.reply.text]
    assert len(reminders) == 1
    assert reminders[0].direct_to and reminders[0].direct_to[0] in (ALICE, BOB)
    assert await one.drain() == 0
    assert (await one.tracker.shown(game))[0] == await stored_version(core, game)  # the board shows it too


async def test_a_timer_notice_survives_the_death_of_the_instance_that_committed_it(core: BotCore, clock: Clock) -> None:
    surface, sink = FakeSurface(), FakeSink()
    dead = consumer(core, "dead", surface, sink)
    await dead.start()
    game = await start_game(core)
    await dead.drain()
    clock.offset = 13 * 3600
    await core.tick("telegram", notices=False)  # the reminder and its effect, in one commit
    taken = await core.store.consume_many(dead.streams, GROUP_NAME, "dead", 100, 0)  # read, then kill -9: no ack
    assert [e for _, e in taken if e[1].get("k") == b"notice"]
    assert sink.notices == []
    alive = consumer(core, "alive", surface, sink)
    assert await alive.reclaim(min_idle_ms=0) == len(taken)
    assert await alive.reclaim(min_idle_ms=0) == 0 and await alive.drain() == 0
    assert len([n for n in sink.notices if n.reply.text]) == 1  # arrives once
    assert (await alive.tracker.shown(game))[0] == await stored_version(core, game)


async def test_the_periodic_repair_looks_at_a_slice_of_the_live_games_each_upkeep(core: BotCore) -> None:
    """After the start-up repair, the live games are listed once a period and repaired a share per upkeep, so that
    thousands of live games never stop the event loop for a scan of them all at once."""
    from bot.delivery import outbox

    surface = FakeSurface()
    consumer = core.delivery("telegram", surface, surface, group="telegram:slices", consumer="c1")
    games = [f"g{n}" for n in range(125)]
    listed: list[float] = []
    repaired: list[list[str]] = []

    async def live_games() -> list[str]:
        listed.append(now)
        return games

    async def repair(chosen: list[str] | None = None) -> int:
        assert chosen is not None  # never a scan of every live game
        repaired.append(chosen)
        return 0

    consumer.live_games, consumer.repair = live_games, repair  # type: ignore[method-assign]
    now = 1000.0
    per_upkeep = -(-len(games) * outbox.UPKEEP_SECONDS // outbox.REPAIR_SECONDS)  # 3 of 125 over 60 upkeeps
    for _ in range(int(outbox.REPAIR_SECONDS / outbox.UPKEEP_SECONDS)):
        await consumer._repair_slice(now)
        now += outbox.UPKEEP_SECONDS
    assert listed == [1000.0]  # listed once for the pass
    assert max(len(chunk) for chunk in repaired) == per_upkeep == 3
    assert sorted(g for chunk in repaired for g in chunk) == sorted(games)  # each live game once in the pass
    assert await consumer._repair_slice(now - 0.5) == 0 and listed == [1000.0]  # the pass is over, the next not due
    await consumer._repair_slice(now + 1)
    assert len(listed) == 2 and repaired[-1] == games[:3]  # the next pass starts over


async def test_a_board_left_behind_is_caught_by_the_periodic_repair_alone(
    core: BotCore, redis_server: LocalRedis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fault: the platform refuses a move's board for good (the bot lost its permission in the chat), so its
    entry is done with the board behind. Once the permission is back, with no new move, no restart and nothing
    pending, only the periodic repair can see it: the board catches up within a pass."""
    from bot.delivery import outbox

    monkeypatch.setattr(outbox, "REPAIR_SECONDS", 2.0)  # a pass every 2 s instead of every minute
    surface = FakeSurface()
    one = consumer(core, "a", surface)
    one.grace = 0.05
    await one.start()
    game = await start_game(core)
    run = asyncio.create_task(one.run(block_ms=50))

    async def until(check: Callable[[], Awaitable[bool]], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not await check():
            assert time.monotonic() < deadline
            await asyncio.sleep(0.02)

    async def shown_is_stored() -> bool:
        return (await one.tracker.shown(game))[0] >= await stored_version(core, game)

    try:
        await until(shown_is_stored, 5)  # the start-up repair and the start's entry: the board is current
        surface.forbidden = True
        await play(core, 1)
        target = await stored_version(core, game)
        client = redis.asyncio.Redis.from_url(redis_server.url)

        async def given_up() -> bool:  # refused, and its entry done (acked): nothing left for a reclaim to find
            pending = [await client.xpending(stream, GROUP_NAME) for stream in keys.outboxes("telegram")]
            return surface.refused > 0 and all(p["pending"] == 0 for p in pending)

        try:
            await until(given_up, 5)
        finally:
            await client.aclose()
        assert (await one.tracker.shown(game))[0] < target  # the board is behind
        surface.forbidden = False  # the permission is back; nobody moves
        await until(shown_is_stored, outbox.REPAIR_SECONDS + 3)
        assert surface.edits[-1][1] == target  # drawn by the periodic pass
        assert [v for _, v in surface.edits].count(target) == 1  # once
    finally:
        await one.stop()
        await run
