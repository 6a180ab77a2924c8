"""The outbox: stream entries added by commits and read through a consumer group (at least once)."""

from __future__ import annotations

import asyncio

from bot.storage import MemoryStore, Store
from bot.storage.base import Commit

from .conftest import Clock

OUT = "fevga:{o}:out"


async def _add(store: Store, n: int) -> None:
    """Commit ``n`` outbox entries numbered 0..n-1."""
    for i in range(n):
        assert await store.commit(Commit().xadd(OUT, {"n": str(i), "blob": b"\x00\xff"}))


async def test_an_entry_of_a_failed_commit_is_not_added(store: Store) -> None:
    await store.ensure_group(OUT, "g")
    await store.commit(Commit().put_versioned("v", 2, b"x"))
    assert not await store.commit(Commit().xadd(OUT, {"n": "lost"}).expect("v", 1))
    assert await store.commit(Commit().expect("v", 2).xadd(OUT, {"n": "kept"}))
    got = await store.consume(OUT, "g", "c1", 10)
    assert [fields["n"] for _, fields in got] == [b"kept"]


async def test_entries_added_before_the_group_exists_are_delivered(store: Store) -> None:
    await _add(store, 2)
    await store.ensure_group(OUT, "g")
    await store.ensure_group(OUT, "g")  # idempotent
    got = await store.consume(OUT, "g", "c1", 10)
    assert [f["n"] for _, f in got] == [b"0", b"1"] and got[0][1]["blob"] == b"\x00\xff"


async def test_two_consumers_get_distinct_entries(store: Store) -> None:
    await store.ensure_group(OUT, "g")
    await _add(store, 6)
    first = await store.consume(OUT, "g", "c1", 3)
    second = await store.consume(OUT, "g", "c2", 10)
    ids1, ids2 = {i for i, _ in first}, {i for i, _ in second}
    assert len(ids1) == 3 and len(ids2) == 3 and not ids1 & ids2
    assert await store.consume(OUT, "g", "c1", 10) == []


async def test_a_dead_consumers_entries_are_reclaimed_after_min_idle(store: Store, clock: Clock) -> None:
    await store.ensure_group(OUT, "g")
    await _add(store, 3)
    taken = await store.consume(OUT, "g", "dead", 2)
    assert len(taken) == 2
    assert await store.reclaim(OUT, "g", "alive", min_idle_ms=100) == []  # not idle long enough
    await asyncio.sleep(0.15)
    clock.now += 0.15
    reclaimed = await store.reclaim(OUT, "g", "alive", min_idle_ms=100)
    assert [i for i, _ in reclaimed] == [i for i, _ in taken] and reclaimed[0][1] == taken[0][1]
    assert await store.ack(OUT, "g", *(i for i, _ in reclaimed)) == 2
    await asyncio.sleep(0.15)
    clock.now += 0.15
    assert await store.reclaim(OUT, "g", "other", min_idle_ms=100) == []


async def test_touched_entries_stay_with_their_live_consumer(store: Store, clock: Clock) -> None:
    await store.ensure_group(OUT, "g")
    await _add(store, 2)
    taken = await store.consume(OUT, "g", "live", 2)
    await asyncio.sleep(0.15)
    clock.now += 0.15
    await store.touch(OUT, "g", "live", taken[0][0])  # the live consumer's heartbeat: only the first is in hand
    reclaimed = await store.reclaim(OUT, "g", "other", min_idle_ms=100)
    assert [i for i, _ in reclaimed] == [taken[1][0]]  # the untouched one only
    assert await store.ack(OUT, "g", taken[1][0]) == 1
    await asyncio.sleep(0.15)
    clock.now += 0.15
    assert [i for i, _ in await store.reclaim(OUT, "g", "other", min_idle_ms=100)] == [taken[0][0]]  # touch stopped
    await store.touch(OUT, "g", "live")  # nothing in hand: nothing to do


async def test_acked_entries_are_not_redelivered(store: Store, clock: Clock) -> None:
    await store.ensure_group(OUT, "g")
    await _add(store, 2)
    got = await store.consume(OUT, "g", "c1", 10)
    assert await store.ack(OUT, "g", got[0][0]) == 1
    assert await store.ack(OUT, "g", got[0][0]) == 0
    await asyncio.sleep(0.05)
    clock.now += 0.05
    again = await store.reclaim(OUT, "g", "c2", min_idle_ms=0)
    assert [i for i, _ in again] == [got[1][0]]  # only the unacked one
    assert await store.consume(OUT, "g", "c1", 10) == []


async def test_consume_blocks_until_an_entry_arrives(store: Store) -> None:
    await store.ensure_group(OUT, "g")
    waiting = asyncio.create_task(store.consume(OUT, "g", "c1", 10, block_ms=3000))
    await asyncio.sleep(0.1)
    assert not waiting.done()
    await _add(store, 1)
    got = await asyncio.wait_for(waiting, 2)
    assert [f["n"] for _, f in got] == [b"0"]
    assert await store.consume(OUT, "g", "c1", 10, block_ms=50) == []


async def test_the_stream_is_trimmed_to_about_maxlen(store: Store) -> None:
    for i in range(300):
        await store.commit(Commit().xadd(OUT, {"n": str(i)}, maxlen=100))
    await store.ensure_group(OUT, "g")
    got = await store.consume(OUT, "g", "c", 1000)
    assert 100 <= len(got) < 300 and got[-1][1]["n"] == b"299"
    if isinstance(store, MemoryStore):
        assert len(got) == 100
