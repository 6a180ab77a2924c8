"""Commits are all or nothing: every key type, input and version is checked before the first write."""

from __future__ import annotations

import pytest

from bot.storage import ClusterStore, RedisStore, Store
from bot.storage.base import Commit, DamagedKey

WRITES = [("get", "s1"), ("hget", "h1", "f"), ("zscore", "z1", "m"), ("get", "s2")]


async def test_a_wrong_typed_third_key_writes_nothing(store: Store) -> None:
    await store.commit(Commit().zadd("damaged", "x", 1.0))  # a zset where the 3rd op wants a hash
    commit = Commit().put("s1", b"one").zadd("z1", "m", 2.0).hset("damaged", "f", "v").hset("h1", "f", "v")
    with pytest.raises(DamagedKey) as caught:
        await store.commit(commit.put("s2", b"two"))
    assert caught.value.key == "damaged" and isinstance(caught.value, ValueError)
    assert await store.read(WRITES) == [None, None, None, None]


@pytest.mark.parametrize("bad", [
    lambda c: c.expect("damaged", 1),           # a version check on a non-string
    lambda c: c.field_free("s0", "f"),          # a field check on a non-hash
    lambda c: c.put("damaged", b"x"),           # SET over a zset
    lambda c: c.zrem("s0", "m"),                # zset op on a string
    lambda c: c.xadd("damaged", {"a": "b"}),    # stream op on a zset
    lambda c: c.put("fresh", b"x").hset("fresh", "f", "v"),  # types are tracked through the ops
])  # fmt: skip
async def test_every_kind_of_wrong_type_is_caught_before_writing(store: Store, bad: object) -> None:
    await store.commit(Commit().zadd("damaged", "x", 1.0).put("s0", b"1:zero"))
    commit = Commit().put("s1", b"one").hset("h1", "f", "v")
    with pytest.raises(DamagedKey):
        await store.commit(bad(commit).put("s2", b"two"))  # type: ignore[operator]
    assert await store.read(WRITES) == [None, None, None, None]


@pytest.mark.parametrize("bad", [
    lambda c: c.put("k", b"x", ttl=-1),
    lambda c: c.zadd("z1", "m", float("nan")),
    lambda c: c.xadd("st", {}),
])  # fmt: skip
async def test_malformed_inputs_write_nothing(store: Store, bad: object) -> None:
    with pytest.raises(ValueError) as caught:
        await store.commit(bad(Commit().put("s1", b"one").hset("h1", "f", "v")))  # type: ignore[operator]
    assert not isinstance(caught.value, DamagedKey)
    assert await store.read(WRITES) == [None, None, None, None]


async def test_failed_check_after_good_types_writes_nothing(store: Store) -> None:
    assert await store.commit(Commit().put_versioned("g", 3, b"x"))
    assert not await store.commit(Commit().put("s1", b"one").expect("g", 2).xadd("st", {"a": "b"}))
    assert await store.read(WRITES[:1]) == [None]


async def test_delete_then_reuse_a_key_with_another_type(store: Store) -> None:
    await store.commit(Commit().put("k", b"str"))
    assert await store.commit(Commit().delete("k").hset("k", "f", "v"))
    assert await store.read([("hgetall", "k")]) == [{"f": "v"}]


async def test_reads_of_a_wrong_typed_key_say_damaged(store: Store) -> None:
    await store.commit(Commit().hset("h", "f", "v"))
    with pytest.raises(DamagedKey):
        await store.read([("get", "h")])


async def test_a_bad_redis_script_error_is_not_half_applied(own_redis: object) -> None:
    """Even a key damaged between our read and our commit cannot make the script stop halfway."""
    from bot.storage import LocalRedis

    assert isinstance(own_redis, LocalRedis)
    store = RedisStore.from_url(own_redis.url)
    try:
        await store.client.lpush("list", "x")  # a type the store never writes
        with pytest.raises(DamagedKey):
            await store.commit(Commit().put("a", b"1").put("b", b"2").hdel("list", "f").put("c", b"3"))
        assert await store.client.dbsize() == 1
    finally:
        await store.close()


async def test_a_whole_float_ttl_is_accepted_and_expires(store: Store) -> None:
    assert await store.commit(Commit().put("k", b"v", ttl=60.0))
    assert await store.read([("get", "k")]) == [b"v"]
    if isinstance(store, ClusterStore):
        master = store.nodes.master_of("k")
        assert master is not None
        assert 0 < await store.nodes.client(master).ttl("k") <= 60
    elif isinstance(store, RedisStore):
        assert 0 < await store.client.ttl("k") <= 60
