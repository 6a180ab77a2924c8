"""Store.due_many: the due members of many timer sets in one batch, as the ticks read their 64 homes."""

from __future__ import annotations

import logging

import pytest

from bot.storage import Store
from bot.storage.base import Commit

SETS = [f"fevga:{{b{n}}}:due" for n in range(6)]  # one set a home (a Cluster spreads them over its masters)


async def _fill(store: Store, skip: int = -1) -> None:
    """Set n (but ``skip``) holds members due at 10 + n and one not due yet (at 100)."""
    for n, key in enumerate(SETS):
        if n == skip:
            continue
        assert await store.commit(Commit().zadd(key, f"g:{n}:discord", 10.0 + n).zadd(key, f"later:{n}", 100.0))


async def test_due_many_answers_what_due_answers_for_each_set(store: Store) -> None:
    await _fill(store)
    assert await store.commit(Commit().zadd(SETS[0], "g:early:discord", 1.0))
    many = await store.due_many(SETS, 12.5, 10)
    assert many == [await store.due(key, 12.5, 10) for key in SETS]
    assert many == [["g:early:discord", "g:0:discord"], ["g:1:discord"], ["g:2:discord"], [], [], []]
    assert await store.due_many(SETS, 12.5, 1) == [["g:early:discord"], ["g:1:discord"], ["g:2:discord"], [], [], []]
    assert await store.due_many([], 12.5, 10) == []


async def test_a_damaged_set_is_skipped_and_the_others_still_answer(store: Store,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    await _fill(store, skip=3)
    assert await store.commit(Commit().put_versioned(SETS[3], 1, b"not a zset"))
    with caplog.at_level(logging.ERROR):
        many = await store.due_many(SETS, 50.0, 10)
    assert many == [["g:0:discord"], ["g:1:discord"], ["g:2:discord"], [], ["g:4:discord"], ["g:5:discord"]]
    assert SETS[3] in caplog.text and "damaged" in caplog.text
