"""The Cluster store's slot map and per-node pools (cluster_nodes.py): parsing the cluster's answers, one
refresh for many callers, and a failover that disturbs nothing but the failed master's slots."""

from __future__ import annotations

import asyncio
import time

from bot.storage import ClusterStore, Commit, durability
from bot.storage.cluster_nodes import parse_shards, parse_slots
from tests.redis_cluster import LocalCluster

A, B = ("10.0.0.1", 7000), ("10.0.0.2", 7001)


def test_parse_shards_prefers_the_live_master_and_drops_failed_replicas() -> None:
    answer = [
        {b"slots": [0, 99, 200, 299], b"nodes": [
            {b"endpoint": b"10.0.0.1", b"port": 7000, b"role": b"master", b"health": b"failed"},
            {b"endpoint": b"10.0.0.2", b"port": 7001, b"role": b"master", b"health": b"online"},
        ]},
        [b"slots", [100, 199], b"nodes", [  # RESP2 shape: flat name/value lists
            [b"endpoint", b"", b"port", 7002, b"role", b"master", b"health", b"online"],
            [b"endpoint", b"10.0.0.4", b"port", 7003, b"role", b"replica", b"health", b"loading"],
            [b"endpoint", b"10.0.0.5", b"port", 7004, b"role", b"replica", b"health", b"failed"],
        ]],
    ]
    owners, replicas = parse_shards(answer, ("10.0.0.9", 7009))
    assert owners[0] == owners[99] == owners[250] == B and owners[300] is None
    assert owners[150] == ("10.0.0.9", 7002)  # an empty endpoint: the node that was asked
    assert replicas == {B: [], ("10.0.0.9", 7002): [("10.0.0.4", 7003)]}  # "loading" counts, "failed" not


def test_parse_shards_takes_the_port_the_client_speaks() -> None:
    """A TLS-only node lists only its ``tls-port``; a node with both lists both: TLS clients take tls-port."""
    answer = [{b"slots": [0, 16383], b"nodes": [
        {b"endpoint": b"10.0.0.1", b"port": 7000, b"tls-port": 8000, b"role": b"master", b"health": b"online"},
        {b"endpoint": b"10.0.0.2", b"tls-port": 8001, b"role": b"replica", b"health": b"online"},
    ]}]
    owners, replicas = parse_shards(answer, A, tls=True)
    assert owners[0] == ("10.0.0.1", 8000) and replicas == {("10.0.0.1", 8000): [("10.0.0.2", 8001)]}
    owners, replicas = parse_shards(answer, A)
    assert owners[0] == A and replicas == {A: [("10.0.0.2", 8001)]}  # the only port it has


def test_parse_slots_lists_replicas_with_an_address() -> None:
    answer = [[0, 10, [b"10.0.0.1", 7000, b"id1"], [b"10.0.0.2", 7001, b"id2"], [b"?", 0, b"id3"]]]
    owners, replicas = parse_slots(answer, B)
    assert owners[10] == A and owners[11] is None and replicas == {A: [B]}


async def test_many_callers_share_one_refresh(redis_cluster: LocalCluster) -> None:
    store = ClusterStore.from_cluster_url(redis_cluster.url, wait_replicas=0)
    try:
        await asyncio.gather(*(store.nodes.refresh(force=True) for _ in range(50)))
        assert store.nodes.refreshes == 1
        await asyncio.gather(*(store.nodes.refresh() for _ in range(50)))  # just loaded: reused
        assert store.nodes.refreshes == 1
        assert len(store.nodes.masters()) == 3
        assert all(store.nodes.replicas_of(m) == 1 for m in store.nodes.masters())
    finally:
        await store.close()


async def test_a_failover_disturbs_only_the_failed_masters_slots(redis_cluster: LocalCluster) -> None:
    """``kill -9`` of one master while 30 tasks commit to the other masters' slots: none of those commits
    fails (a failure stays on its own connection); commits to the failed slots resume after the promotion,
    and the promoted master, left without a replica, is not waited on (each such commit is marked)."""
    redis_cluster.flushall()
    store = ClusterStore.from_cluster_url(redis_cluster.url, wait_replicas=1, wait_ms=1000, failover_wait=30)
    victim = redis_cluster.master_of_key("fevga:{g:0}")
    others = [f"fevga:{{g:{n}}}" for n in range(200) if redis_cluster.master_of_key(f"fevga:{{g:{n}}}") != victim]
    failures: list[BaseException] = []
    stop = asyncio.Event()

    async def play(key: str) -> int:
        done = 0
        while not stop.is_set():
            try:
                assert await store.commit(Commit().hset(key, "n", str(done)))
                done += 1
            except Exception as exc:  # collected and asserted below
                failures.append(exc)
            await asyncio.sleep(0.01)
        return done

    try:
        assert await store.commit(Commit().put("fevga:{g:0}", b"before"))
        players = [asyncio.create_task(play(k)) for k in others[:30]]
        await asyncio.sleep(0.3)
        killed = time.monotonic()
        await asyncio.to_thread(redis_cluster.kill_master, victim)
        await asyncio.sleep(0.5)
        stop.set()
        counts = await asyncio.gather(*players)
        assert failures == [] and min(counts) > 10
        durability.take_lagged()
        assert await store.commit(Commit().put("fevga:{g:0}", b"after"))  # the promoted master
        assert durability.take_lagged() and store.unreplicated >= 1
        assert store.wait_timeouts == 0  # never waited on a master without replicas
        assert (await store.read([("get", "fevga:{g:0}")]))[0] == b"after"
        assert time.monotonic() - killed < 30
        assert store.pool_stats()["in_use"] == 0  # every connection went back to its pool
    finally:
        await store.close()
        await asyncio.to_thread(redis_cluster.restart_node, victim)
