"""The Redis Cluster store against a real 3+3 cluster: one-slot commits, spills across slots applied once,
the outbox and timers per slot, WAIT on replicas (and the "saved but may be delayed" mark), failover."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.storage import ClusterStore, Commit, durability, parse_cluster_url
from bot.storage.spill import PENDING_PATTERN, split_commit
from tests.redis_cluster import LocalCluster


@pytest.fixture
async def cstore(redis_cluster: LocalCluster) -> AsyncIterator[ClusterStore]:
    """A cluster store on the session's cluster, flushed; WAIT for one replica up to 2 s."""
    redis_cluster.flushall()
    store = ClusterStore.from_cluster_url(redis_cluster.url, wait_replicas=1, wait_ms=2000)
    yield store
    await store.close()


def test_parse_cluster_url() -> None:
    nodes, auth = parse_cluster_url("redis+cluster://u:pw@10.0.0.1:7000,10.0.0.2:7001/")
    assert nodes == [("10.0.0.1", 7000), ("10.0.0.2", 7001)] and auth == {"username": "u", "password": "pw"}
    _nodes, encoded = parse_cluster_url("redis+cluster://fe%40vga:p%40ss%3Aw@h:7000")  # percent-encoded, as redis://
    assert encoded == {"username": "fe@vga", "password": "p@ss:w"}
    with pytest.raises(ValueError, match="host:port"):
        parse_cluster_url("redis+cluster://10.0.0.1")


async def test_one_slot_commit_is_atomic_and_waits(cstore: ClusterStore) -> None:
    commit = Commit().expect("fevga:{g:a}", 0).put_versioned("fevga:{g:a}", 1, b"x").zadd("fevga:{g:a}:t", "m", 5)
    assert await cstore.commit(commit)
    assert not await cstore.commit(Commit().expect("fevga:{g:a}", 0).put("fevga:{g:a}:other", b"y"))
    assert await cstore.read([("get", "fevga:{g:a}"), ("get", "fevga:{g:a}:other"), ("zscore", "fevga:{g:a}:t", "m")]) \
        == [b"1:x", None, 5.0]
    assert cstore.spills == 0 and cstore.wait_timeouts == 0 and not durability.take_lagged()


async def test_spilled_commit_applies_every_slot_once(cstore: ClusterStore) -> None:
    keys = ["fevga:{g:a}", "fevga:{r:x}:z", "fevga:{ch:y}:play"]
    assert len({cstore.nodes.keyslot(k) for k in keys}) == 3
    commit = Commit().expect(keys[0], 0).put_versioned(keys[0], 1, b"g").zadd(keys[1], "u", 1500.0)
    commit.hset(keys[2], "u", "a")
    assert await cstore.commit(commit)
    assert cstore.spills == 1
    assert await cstore.read([("zscore", keys[1], "u"), ("hget", keys[2], "u")]) == [1500.0, "a"]
    assert await cstore.scan(PENDING_PATTERN) == []  # the pending record is gone once applied
    # a refused home commit spills nothing
    assert not await cstore.commit(Commit().expect(keys[0], 0).zadd(keys[1], "v", 1.0))
    assert (await cstore.read([("zscore", keys[1], "v")]))[0] is None


async def test_crash_between_home_and_spill_is_finished_once_by_sweep(cstore: ClusterStore,
                                                                     redis_cluster: LocalCluster) -> None:
    """The writer dies after the home commit: two sweepers (two instances) finish the spill, once."""
    keys = ["fevga:{g:b}", "fevga:{r:x}:p:u"]
    commit = Commit().expect(keys[0], 0).put_versioned(keys[0], 1, b"g").hset(keys[1], "n", "1")
    plan = split_commit(commit, cstore.nodes.keyslot)
    assert plan.spill is not None
    assert await cstore._commit_one(plan.home)  # the crash: the spilled part never ran
    assert (await cstore.read([("hget", keys[1], "n")]))[0] is None
    assert await cstore.scan(PENDING_PATTERN) == [plan.spill.pending_key]
    other = ClusterStore.from_cluster_url(redis_cluster.url, wait_replicas=0)
    try:
        done = await asyncio.gather(cstore.sweep(older_than=0), other.sweep(older_than=0))
    finally:
        await other.close()
    assert sum(done) >= 1
    await cstore.commit(Commit().hset(keys[1], "n", "2"))  # a later write; a replayed spill must not undo it
    assert await cstore.sweep(older_than=0) == 0
    assert (await cstore.read([("hget", keys[1], "n")]))[0] == "2"
    assert await cstore.scan(PENDING_PATTERN) == []


async def test_outbox_and_timers_in_the_cluster(cstore: ClusterStore) -> None:
    streams = [f"fevga:{{b{i}}}:out" for i in range(4)]
    for i, stream in enumerate(streams):
        await cstore.ensure_group(stream, "grp")
        assert await cstore.commit(Commit().xadd(stream, {"k": "board", "n": str(i)}))
    got = [e for s in streams for e in await cstore.consume(s, "grp", "c1", count=10)]
    assert sorted(f["n"] for _, f in got) == [b"0", b"1", b"2", b"3"]
    assert await cstore.ack(streams[0], "grp", got[0][0]) == 1
    for i, stream in enumerate(streams):
        assert await cstore.commit(Commit().xadd(stream, {"k": "board", "n": str(10 + i)}))
    one, two = await asyncio.gather(cstore.consume_many(streams, "grp", "c1", 10, 500),
                                    cstore.consume_many(streams, "grp", "c2", 10, 500))
    got_many = one + two
    assert sorted(f["n"] for _, (_, f) in got_many) == [b"10", b"11", b"12", b"13"]  # each once, over both
    assert all(s == f"fevga:{{b{int(f['n']) - 10}}}:out" for s, (_, f) in got_many)
    assert await cstore.consume_many(streams, "grp", "c1", 10, 100) == []  # waits, then nothing
    timers = "fevga:{b1}:due"
    await cstore.commit(Commit().zadd(timers, "g:x:discord", 10.0))
    assert await cstore.due(timers, 11.0, 10) == ["g:x:discord"]
    claims = await asyncio.gather(*(cstore.claim(timers, "g:x:discord", 11.0, 30.0) for _ in range(5)))
    assert claims.count(True) == 1


async def test_wait_timeout_marks_the_commit_lagged(redis_cluster: LocalCluster) -> None:
    """The replica is asleep: the commit is applied, but the store says it is not yet replicated."""
    redis_cluster.flushall()
    store = ClusterStore.from_cluster_url(redis_cluster.url, wait_replicas=1, wait_ms=200)
    try:
        key = "fevga:{g:lag}"
        master = redis_cluster.master_of_key(key)
        replica = redis_cluster.replicas_of(master)[0]
        await store.read([("get", key)])
        redis_cluster.pause(replica, 1500)
        assert await store.commit(Commit().put(key, b"v"))
        assert store.wait_timeouts == 1
        assert durability.take_lagged() and store.health()["wait_timeouts"] == 1
        assert not durability.take_lagged()  # told once
        assert (await store.read([("get", key)]))[0] == b"v"
    finally:
        await asyncio.sleep(1.6)
        redis_cluster.wait_ok()
        await store.close()


async def test_acknowledged_commit_survives_losing_its_master(redis_cluster: LocalCluster) -> None:
    """kill -9 the master right after a WAIT-confirmed commit: the promoted replica has it, and the store
    carries on against the new topology."""
    redis_cluster.flushall()
    store = ClusterStore.from_cluster_url(redis_cluster.url, wait_replicas=1, wait_ms=2000, failover_wait=20)
    key = "fevga:{g:failover}"
    master = redis_cluster.master_of_key(key)
    try:
        assert await store.commit(Commit().expect(key, 0).put_versioned(key, 1, b"move"))
        assert not durability.take_lagged()
        await asyncio.to_thread(redis_cluster.kill_master, master)
        assert (await store.read([("get", key)]))[0] == b"1:move"
        assert await store.commit(Commit().expect(key, 1).put_versioned(key, 2, b"next"))
    finally:
        await store.close()
        await asyncio.to_thread(redis_cluster.restart_node, master)
