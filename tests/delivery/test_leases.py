"""Leases that die with their holder (``bot/delivery/lease.py``), on the real redis-server: a live holder keeps its
board lease through a platform call longer than the lease and the change is drawn once; a dead holder's lease is
taken over within seconds; a holder that lost its lease records nothing; the outbox consumer keeps the entries it
has in hand from being reclaimed."""

from __future__ import annotations

import asyncio
import time

from bot.chat.core import BotCore
from bot.delivery import BoardTracker, Outcome, Pinger
from bot.delivery.lease import LEASE_SECONDS, hold
from bot.delivery.outbox import RECLAIM_IDLE_MS, OutboxConsumer
from bot.service import keys
from bot.service.migrate import new_name
from bot.storage import RedisStore
from bot.storage.base import Commit

from .kit import FakeSink, FakeSurface, play, start_game, stored_version
from .test_pings import PingLog


async def test_a_live_holder_keeps_its_lease_through_a_long_call_and_the_change_is_drawn_once(core: BotCore) -> None:
    game = await start_game(core)
    mine, theirs = FakeSurface(), FakeSurface()
    here, there = BoardTracker(core.store, core.board_reply, mine), BoardTracker(core.store, core.board_reply, theirs)
    assert await here.converge(game) is Outcome.SHOWN
    await play(core, 1)
    mine.delay = LEASE_SECONDS + 2.0  # the platform holds the edit well past the lease's TTL
    drawing = asyncio.create_task(here.converge(game, budget=30))
    await asyncio.wait_for(until_in_flight(mine), 5)
    store = core.store
    assert isinstance(store, RedisStore)
    outcomes = []
    started = time.monotonic()
    while not drawing.done():  # another instance keeps trying all along: never while the live holder draws
        outcomes.append(await there.converge(game))
        if time.monotonic() - started > LEASE_SECONDS + 1.0:
            ttl = await store.client.pttl(keys.board_lease(game))
            if not drawing.done():  # (the draw may end, and release the lease, during that read)
                assert 0 < ttl <= LEASE_SECONDS * 1000  # renewed, short
        await asyncio.sleep(0.2)
    assert await drawing is Outcome.SHOWN
    assert len(outcomes) > (LEASE_SECONDS + 1) / 0.25 and set(outcomes) == {Outcome.BUSY}
    assert await there.converge(game) is Outcome.CURRENT
    version = await stored_version(core, game)
    assert [v for _, v in mine.edits] == [version] and theirs.edits == theirs.posts == []  # drawn once
    assert await store.client.exists(keys.board_lease(game)) == 0  # released at the end


async def test_a_dead_holders_lease_is_taken_over_within_seconds(core: BotCore) -> None:
    game = await start_game(core)
    surface = FakeSurface()
    boards = BoardTracker(core.store, core.board_reply, surface)
    await boards.converge(game)
    await play(core, 1)
    dead = Commit().put_versioned(keys.board_lease(game), 424242, b"", LEASE_SECONDS)  # as a killed holder left it
    assert await core.store.commit(dead)
    started = time.monotonic()
    assert await boards.show(game, await stored_version(core, game), wait=LEASE_SECONDS + 3) is Outcome.SHOWN
    took = time.monotonic() - started
    assert took <= LEASE_SECONDS + 0.5, took
    assert [v for _, v in surface.edits] == [await stored_version(core, game)]


async def test_a_holder_that_lost_its_lease_records_nothing(core: BotCore) -> None:
    game = await start_game(core)
    surface = FakeSurface()
    boards = BoardTracker(core.store, core.board_reply, surface)
    await boards.converge(game)
    shown = await boards.shown(game)
    await play(core, 1)
    surface.delay = 0.5
    drawing = asyncio.create_task(boards.converge(game))
    await asyncio.sleep(0.2)  # the edit is in flight: the lease is taken from under it (a store stall past its TTL)
    assert await core.store.commit(Commit().put_versioned(keys.board_lease(game), 7, b"", LEASE_SECONDS))
    assert await drawing is Outcome.BUSY
    assert await boards.shown(game) == shown  # the fenced write did not apply: the new holder records its own

    async with hold(core.store, "fevga:{t}:lease") as lease:
        assert lease is not None
        async with hold(core.store, "fevga:{t}:lease") as second:
            assert second is None  # one holder at a time
        assert await core.store.commit(Commit().put_versioned("fevga:{t}:lease", 9, b"", LEASE_SECONDS))
        assert not await lease.renew() and lease.lost
        assert not await core.store.commit(lease.fence(Commit().put("fevga:{t}:x", b"1")))


async def test_the_consumer_touches_the_entries_in_hand_so_no_live_instance_reclaims_them(core: BotCore) -> None:
    game = await start_game(core)
    surface = FakeSurface()
    boards = BoardTracker(core.store, core.board_reply, surface)
    consumer = OutboxConsumer(core.store, "telegram", "g", "live", boards, FakeSink(), core.notices_of)
    consumer.grace = 0.0
    await boards.converge(game)
    await consumer.drain()  # the start's entries: done
    await play(core, 1)
    surface.delay = RECLAIM_IDLE_MS / 1000 + 2.0  # the board's edit is in flight longer than the reclaim idle time
    running = asyncio.create_task(consumer.run())
    try:
        await asyncio.wait_for(until_in_flight(surface), 5)
        await asyncio.sleep(RECLAIM_IDLE_MS / 1000 + 0.5)
        assert surface.in_flight == 1  # still drawing, its entry still unacked
        assert await core.store.reclaim_many(consumer.streams, "g", "other", RECLAIM_IDLE_MS, 100) == []
        await asyncio.wait_for(until_drawn(surface), 5)
    finally:
        await consumer.stop()
        await running
    assert [v for _, v in surface.edits] == [await stored_version(core, game)]


async def until_in_flight(surface: FakeSurface) -> None:
    while not surface.in_flight:
        await asyncio.sleep(0.05)


async def until_drawn(surface: FakeSurface) -> None:
    while not surface.edits:
        await asyncio.sleep(0.05)


def hash_tag(key: str) -> str:
    """The Redis Cluster hash tag of a key (its slot)."""
    return key[key.index("{") + 1: key.index("}")]


async def test_a_dead_pingers_lease_is_taken_over_and_ping_state_lives_in_the_games_home(core: BotCore) -> None:
    game = await start_game(core)
    home = hash_tag(keys.game(game))
    assert hash_tag(keys.ping_state(game)) == hash_tag(keys.ping_lease(game)) == home  # one slot per commit
    log = PingLog()
    pinger = Pinger(core.store, core.ping_plan, log)
    version = await stored_version(core, game)
    assert await core.store.commit(Commit().put_versioned(keys.ping_lease(game), 99, b"", LEASE_SECONDS))
    started = time.monotonic()
    assert await pinger.ping(game, version, wait=LEASE_SECONDS + 3) is Outcome.SHOWN
    assert time.monotonic() - started <= LEASE_SECONDS + 0.5
    assert len(log.posts) == 1 and await pinger.ping(game, version) is Outcome.CURRENT


async def test_ping_state_left_under_the_old_key_is_still_honoured(core: BotCore) -> None:
    """A rollout: the state written by the previous version (``{g:<id>}``) keeps its turn from being pinged again."""
    game = await start_game(core)
    log = PingLog()
    before = Pinger(core.store, core.ping_plan, log)
    version = await stored_version(core, game)
    assert await before.ping(game, version) is Outcome.SHOWN
    store = core.store
    assert isinstance(store, RedisStore)
    await store.client.rename(keys.ping_state(game), keys.legacy_ping_state(game))  # as the old version kept it
    after = Pinger(core.store, core.ping_plan, log)
    assert (await after.state(game)).version == version
    assert new_name(keys.legacy_ping_state(game)) == keys.ping_state(game)  # where the start-up migration moves it
    assert await after.ping(game, version) is Outcome.CURRENT and len(log.posts) == 1
