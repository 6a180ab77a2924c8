"""The store contract: atomic version-checked commits, timer claims, and the fallback choice."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.storage import MEMORY_WARNING, MemoryStore, RedisStore, Store, open_store
from bot.storage.base import Commit


async def test_commit_checks_versions_and_fields(any_store: Store) -> None:
    assert await any_store.commit(Commit().expect("k", 0).put_versioned("k", 1, b"one").hset("h", "a", "x"))
    assert not await any_store.commit(Commit().expect("k", 0).put_versioned("k", 1, b"again"))
    assert not await any_store.commit(Commit().expect("k", 1).field_free("h", "a").put("other", b"no"))
    got = await any_store.read([("get", "k"), ("get", "other"), ("hget", "h", "a"), ("hgetall", "h")])
    assert got == [b"1:one", None, "x", {"a": "x"}]
    assert await any_store.commit(Commit().expect("k", 1).put_versioned("k", 2, b"two").hdel("h", "a", only_if="y"))
    assert (await any_store.read([("hget", "h", "a")])) == ["x"]
    assert await any_store.commit(Commit().hdel("h", "a", only_if="x"))
    assert (await any_store.read([("hget", "h", "a"), ("get", "k")])) == [None, b"2:two"]


async def test_sorted_sets_rank_and_top(any_store: Store) -> None:
    commit = Commit()
    for n, score in enumerate([1500.0, 1620.5, 1480.0, 1700.0]):
        commit.zadd("z", f"p{n}", score)
    await any_store.commit(commit)
    top, rank, missing, count = await any_store.read([("ztop", "z", 2), ("zrank", "z", "p0"), ("zrank", "z", "x"),
                                                      ("zcard", "z")])
    assert top == [("p3", 1700.0), ("p1", 1620.5)] and rank == 2 and missing is None and count == 4


async def test_racing_commits_one_wins(any_store: Store) -> None:
    await any_store.commit(Commit().put_versioned("g", 1, b"x"))
    wins = await asyncio.gather(*(any_store.commit(Commit().expect("g", 1).put_versioned("g", 2, b"%d" % n))
                                  for n in range(20)))
    assert sum(wins) == 1


async def test_timer_claim_is_exclusive(any_store: Store) -> None:
    await any_store.commit(Commit().zadd("t", "a", 100.0).zadd("t", "b", 300.0))
    assert await any_store.due("t", 200.0, 10) == ["a"]
    claims = await asyncio.gather(*(any_store.claim("t", "a", 200.0, 60) for _ in range(10)))
    assert sum(claims) == 1
    assert await any_store.due("t", 200.0, 10) == []
    assert await any_store.due("t", 260.0, 10) == ["a"]  # the lease ran out: it comes back
    assert not await any_store.claim("t", "b", 200.0, 60)


def test_open_store_prefers_url_then_local_server_then_memory(tmp_path, monkeypatch, caplog) -> None:
    store, server = open_store("redis://127.0.0.1:1/0")
    assert isinstance(store, RedisStore) and server is None
    store, server = open_store(None, tmp_path / "data")
    try:
        assert isinstance(store, RedisStore) and server is not None
        assert (tmp_path / "data").is_dir()
    finally:
        assert server is not None
        server.stop()
    monkeypatch.setattr("bot.storage.redis_server_path", lambda: None)
    with caplog.at_level(logging.WARNING):
        store, server = open_store(None, tmp_path / "x")
    assert isinstance(store, MemoryStore) and server is None
    assert MEMORY_WARNING in caplog.text and not store.durable


@pytest.mark.parametrize("garbage", [b"", b"abc", b"12"])
def test_split_versioned_rejects_garbage(garbage: bytes) -> None:
    from bot.storage.base import split_versioned

    with pytest.raises(ValueError):
        split_versioned(garbage)


async def test_via_reads_an_index_and_its_target_together(any_store: Store) -> None:
    await any_store.commit(Commit().hset("idx", "u1", "abc").put("pre:abc:suf", b"payload"))
    got = await any_store.read([("via", "idx", "u1", "pre:", ":suf"), ("via", "idx", "nobody", "pre:", ":suf")])
    assert got == [["abc", b"payload"], [None, None]]


def test_local_redis_accepts_a_relative_data_folder(tmp_path, monkeypatch) -> None:
    from bot.storage import LocalRedis

    monkeypatch.chdir(tmp_path)
    server = LocalRedis("data/redis")  # redis-server changes into its --dir: paths must be absolute
    server.start()
    try:
        assert server.data_dir == tmp_path / "data" / "redis"
        assert (tmp_path / "data" / "redis" / "redis.log").exists()
    finally:
        server.stop()
