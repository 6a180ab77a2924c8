"""Acks of outbox entries sent together (bot/delivery/acks.py): one round trip for the entries delivered within
a window, and an ack that fails leaves every entry of its batch pending (reclaimed later, never lost)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.chat.core import BotCore
from bot.delivery.acks import Acker
from bot.storage.base import Commit

STREAMS = ["fevga:{h:1}:out:acks", "fevga:{h:2}:out:acks"]


async def _taken(core: BotCore, per_stream: int) -> list[tuple[str, str]]:
    for stream in STREAMS:
        await core.store.ensure_group(stream, "g")
        for i in range(per_stream):
            assert await core.store.commit(Commit().xadd(stream, {"n": str(i)}))
    return [(s, e[0]) for s, e in await core.store.consume_many(STREAMS, "g", "c", 100)]


async def _pending(core: BotCore) -> int:
    return len(await core.store.reclaim_many(STREAMS, "g", "checker", min_idle_ms=0, count=100))


async def test_entries_delivered_together_are_acked_in_one_call(core: BotCore) -> None:
    taken = await _taken(core, 5)
    acker = Acker(core.store, "g")
    await asyncio.gather(*(acker.ack(stream, entry_id) for stream, entry_id in taken))
    assert acker.calls == 1
    assert await _pending(core) == 0
    await acker.ack(*taken[0])  # a later one: a window of its own
    assert acker.calls == 2


async def test_a_failed_ack_tells_each_entry_and_leaves_them_pending(
    core: BotCore, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = await _taken(core, 2)

    async def refused(group: str, ids: Mapping[str, Sequence[str]]) -> int:
        raise RedisConnectionError("connection refused")

    monkeypatch.setattr(core.store, "ack_many", refused)
    acker = Acker(core.store, "g")
    outcomes = await asyncio.gather(*(acker.ack(s, e) for s, e in taken), return_exceptions=True)
    assert all(isinstance(o, RedisConnectionError) for o in outcomes) and len(outcomes) == 4
    monkeypatch.undo()
    assert await _pending(core) == 4  # nothing acked: a reclaim delivers them again


async def test_a_cancelled_waiter_does_not_stop_the_others_ack(core: BotCore) -> None:
    taken = await _taken(core, 2)
    acker = Acker(core.store, "g", window=0.05)
    waiting = [asyncio.create_task(acker.ack(s, e)) for s, e in taken]
    await asyncio.sleep(0.01)
    waiting[0].cancel()
    done = await asyncio.gather(*waiting, return_exceptions=True)
    assert isinstance(done[0], asyncio.CancelledError) and done[1:] == [None, None, None]
    assert await _pending(core) == 0  # the cancelled one's ack went out with the batch too
