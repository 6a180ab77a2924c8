"""The ``head`` read: a versioned value's version without its payload, alike on every store."""

from __future__ import annotations

import pytest

from bot.storage import Store
from bot.storage.base import MAX_VERSION_DIGITS, Commit, DamagedKey, split_versioned


async def test_head_gives_the_version_of_a_large_value_and_none_for_a_missing_key(store: Store) -> None:
    blob = b"x" * 50_000
    assert await store.commit(Commit().put_versioned("fevga:{t}:g", 123456, blob))
    head, missing, whole = await store.read([("head", "fevga:{t}:g"), ("head", "fevga:{t}:none"),
                                             ("get", "fevga:{t}:g")])
    assert head is not None and len(head) == MAX_VERSION_DIGITS + 1
    assert split_versioned(head)[0] == 123456 == split_versioned(whole)[0]
    assert missing is None


async def test_head_of_a_wrong_typed_key_says_damaged(store: Store) -> None:
    await store.commit(Commit().hset("fevga:{t}:h", "f", "v"))
    with pytest.raises(DamagedKey):
        await store.read([("head", "fevga:{t}:h")])
