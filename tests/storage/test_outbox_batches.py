"""The outbox calls over several streams at once (reclaim, ack, touch): the same answers on every store, one
round trip on one Redis."""

from __future__ import annotations

import asyncio

from bot.storage import RedisStore, Store
from bot.storage.base import Commit

from .conftest import Clock

STREAMS = [f"fevga:{{h:{n}}}:out:t" for n in range(3)]


async def _fill(store: Store, per_stream: int) -> None:
    for stream in STREAMS:
        await store.ensure_group(stream, "g")
        for i in range(per_stream):
            assert await store.commit(Commit().xadd(stream, {"n": str(i)}))


async def _idle(clock: Clock) -> None:
    await asyncio.sleep(0.15)
    clock.now += 0.15


async def test_a_dead_consumers_entries_of_every_stream_are_reclaimed_past_the_first_page(
    store: Store, clock: Clock
) -> None:
    await _fill(store, 5)
    taken = await store.consume_many(STREAMS, "g", "dead", 5)
    assert len(taken) == 15
    assert await store.reclaim_many(STREAMS, "g", "alive", min_idle_ms=100, count=4) == []  # not idle yet
    await _idle(clock)
    first = await store.reclaim_many(STREAMS, "g", "alive", min_idle_ms=100, count=4)
    assert sorted(first) == sorted(taken[:4] + taken[5:9] + taken[10:14])  # 4 of each stream, in order
    handled: dict[str, list[str]] = {}
    for stream, (entry_id, _) in first:
        handled.setdefault(stream, []).append(entry_id)
    assert await store.ack_many("g", handled) == 12
    await _idle(clock)
    rest = await store.reclaim_many(STREAMS, "g", "alive", min_idle_ms=100, count=4)
    assert sorted(rest) == sorted([taken[4], taken[9], taken[14]])


async def test_acks_of_several_streams_at_once(store: Store) -> None:
    await _fill(store, 2)
    taken = await store.consume_many(STREAMS, "g", "c", 10)
    ids: dict[str, list[str]] = {}
    for stream, (entry_id, _) in taken:
        ids.setdefault(stream, []).append(entry_id)
    ids[STREAMS[0]] = ids[STREAMS[0]][:1]  # one entry of the first stream stays pending
    assert await store.ack_many("g", ids) == 5
    assert await store.ack_many("g", ids) == 0  # acked already: nothing more
    assert await store.ack_many("g", {}) == 0


async def test_touching_entries_of_several_streams_keeps_them_from_a_reclaim(store: Store, clock: Clock) -> None:
    await _fill(store, 1)
    taken = await store.consume_many(STREAMS, "g", "live", 10)
    await _idle(clock)
    await store.touch_many("g", "live", {stream: [entry_id] for stream, (entry_id, _) in taken[:2]})
    reclaimed = await store.reclaim_many(STREAMS, "g", "other", min_idle_ms=100)
    assert reclaimed == [taken[2]]  # only the untouched one


async def test_one_redis_answers_a_batch_in_one_round_trip(redis_server: object) -> None:
    from bot.storage import LocalRedis

    assert isinstance(redis_server, LocalRedis)
    store = RedisStore.from_url(redis_server.url)
    try:
        await store.client.flushall()
        await _fill(store, 1)
        taken = await store.consume_many(STREAMS, "g", "c", 10)
        before = await store.client.info("commandstats")
        await store.touch_many("g", "c", {stream: [entry_id] for stream, (entry_id, _) in taken})
        assert await store.ack_many("g", {stream: [entry_id] for stream, (entry_id, _) in taken}) == 3
        after = await store.client.info("commandstats")
        calls = {name: after[name]["calls"] - before.get(name, {"calls": 0})["calls"] for name in after}
        assert calls["cmdstat_xclaim"] == 3 and calls["cmdstat_xack"] == 3
        assert store.pool_stats()["in_use"] == 0
    finally:
        await store.close()
