"""redis-py connections with less work per command (bot/storage/connections.py): commands packed by hiredis, byte
for byte as redis-py packs them; writes bounded by a timer (no task per command), and a write that cannot finish
(the server stopped, its socket full) still ends at the socket timeout, drops its connection and leaves the store
usable once the server is back."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.asyncio.connection import Connection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.storage import LocalRedis, RedisStore
from bot.storage.base import MAX_VERSION_DIGITS, Commit
from bot.storage.connections import LeanConnection, LeanPool, exchange, lean_connections
from bot.storage.read_ops import decode_read, read_command, shaped

COMMANDS: list[tuple[Any, ...]] = [
    ("SET", "k", b"v"),
    ("EVALSHA", "a" * 40, 2, "fevga:{b1}:g:x", "k2", b"\x00\xff" * 5000, 1, 2.5, 1e-7, -3, "Γειά 漢字"),
    ("SCRIPT LOAD", "return 1"),
    (b"CLIENT SETNAME", b"x"),
    ("XADD", "s", "*", "k", bytearray(b"board"), "blob", memoryview(b"\x01\x02")),
    ("ZRANGEBYSCORE", "fevga:{b0}:due", "-inf", 1_800_000_000.123, "LIMIT", 0, 100),
]


def test_commands_are_packed_as_redis_py_packs_them() -> None:
    lean = lean_connections(aioredis.ConnectionPool()).connection_class()
    plain = Connection()
    for command in COMMANDS:
        assert b"".join(lean.pack_command(*command)) == b"".join(plain.pack_command(*command)), command
    pipeline = [("SET", "a", 1), ("GET", "a"), ("HGETALL", "h")]
    assert b"".join(lean.pack_commands(pipeline)) == b"".join(plain.pack_commands(pipeline))
    for bad in (("SET", "k", None), ("SET", "k", object())):
        with pytest.raises(DataError):
            lean.pack_command(*bad)
        with pytest.raises(DataError):
            plain.pack_command(*bad)


async def test_reads_and_commits_start_no_wait_for_task(own_redis: LocalRedis, monkeypatch: pytest.MonkeyPatch) -> None:
    store = RedisStore.from_url(own_redis.url)
    calls = 0
    wait_for = asyncio.wait_for

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return await wait_for(*args, **kwargs)

    try:
        assert issubclass(store.client.connection_pool.connection_class, LeanConnection)
        assert await store.commit(Commit().put_versioned("g", 1, b"one"))  # connect and load the script first
        monkeypatch.setattr(asyncio, "wait_for", counted)
        for version in range(2, 12):
            assert await store.commit(Commit().expect("g", version - 1).put_versioned("g", version, b"x"))
            assert (await store.read([("get", "g"), ("hgetall", "h")]))[0] == f"{version}:x".encode()
        assert calls == 0
    finally:
        await store.close()


@pytest.mark.timeout(30)
async def test_a_write_stuck_on_a_stopped_server_times_out_and_drops_its_connection(own_redis: LocalRedis) -> None:
    store = RedisStore.from_url(own_redis.url, socket_timeout=0.5, max_connections=2)
    assert own_redis.server_pid is not None
    big = b"x" * (64 << 20)  # more than the socket buffers hold: the write itself must wait for the server
    try:
        assert await store.commit(Commit().put("small", b"1"))
        os.kill(own_redis.server_pid, signal.SIGSTOP)
        try:
            pool = store.client.connection_pool
            conn = await pool.get_connection()
            began = time.monotonic()
            with pytest.raises(RedisTimeoutError, match="writing"):
                await conn.send_packed_command(conn.pack_command("SET", "big", big))
            assert 0.4 < time.monotonic() - began < 5
            assert not conn.is_connected  # dropped: half a command must never be followed by another
            await pool.release(conn)
            assert store.pool_stats()["in_use"] == 0
        finally:
            os.kill(own_redis.server_pid, signal.SIGCONT)
        assert await store.commit(Commit().put("after", b"2"))
        assert await store.read([("get", "small"), ("get", "after"), ("get", "big")]) == [b"1", b"2", None]
    finally:
        await store.close()


async def test_the_lean_pool_hands_out_free_connections_directly_and_queues_commands_when_none_is_free(
    own_redis: LocalRedis, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = RedisStore.from_url(own_redis.url, max_connections=2, pool_timeout=0.5)
    pool = store.client.connection_pool
    assert isinstance(pool, LeanPool)
    waits = 0
    slow_path = aioredis.BlockingConnectionPool.get_connection

    async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal waits
        waits += 1
        return await slow_path(self, *args, **kwargs)

    monkeypatch.setattr(aioredis.BlockingConnectionPool, "get_connection", counted)
    try:
        assert await store.commit(Commit().put("k", b"v"))
        first = waits
        for _ in range(20):  # one command at a time: a free connection every time, no condition, no wait
            assert (await store.read([("get", "k")]))[0] == b"v"
        assert waits == first
        answers = await asyncio.gather(*(store.read([("get", "k")]) for _ in range(40)))  # 40 on 2 connections
        assert all(a == [b"v"] for a in answers) and waits > first
        assert store.pool_stats()["in_use"] == 0 and len(pool._available_connections) <= 2
        held = [await pool.get_connection(), await pool.get_connection()]
        with pytest.raises(RedisConnectionError, match="No connection available"):
            await pool.get_connection()  # the bound holds on the fast path too
        for conn in held:
            await pool.release(conn)
        assert (await store.read([("get", "k")]))[0] == b"v"  # the released connections work
    finally:
        await store.close()


def queue_typed(pipe: Any, req: Any) -> None:
    """A common read queued through redis-py's own typed pipeline methods (its reply callbacks): the reference."""
    kind, key = req[0], req[1]
    queue = {
        "get": lambda: pipe.get(key),
        "head": lambda: pipe.getrange(key, 0, MAX_VERSION_DIGITS),
        "hget": lambda: pipe.hget(key, req[2]),
        "hgetall": lambda: pipe.hgetall(key),
        "ztop": lambda: pipe.zrevrange(key, 0, req[2] - 1, withscores=True),
        "zrank": lambda: pipe.zrevrank(key, req[2]),
        "zscore": lambda: pipe.zscore(key, req[2]),
        "zcard": lambda: pipe.zcard(key),
        "due": lambda: pipe.zrangebyscore(key, "-inf", req[2], start=0, num=req[3]),
    }
    queue[kind]()


async def test_reads_without_redis_pys_pipeline_answer_as_its_pipeline_does(own_redis: LocalRedis) -> None:
    """Every common read, sent raw by ``exchange`` and shaped, decodes to what redis-py's pipeline (with its reply
    callbacks) decodes to; an error answer in the middle is a value, and the reads after it are still answered."""
    store = RedisStore.from_url(own_redis.url)
    client = store.client
    try:
        await client.set("s", b"12:value")
        await client.hset("h", mapping={"a": "1", "b": "two"})
        await client.zadd("z", {"m1": 1.5, "m2": -3.0, "m3": 7.25})
        reads: list[Any] = [("get", "s"), ("get", "none"), ("head", "s"), ("head", "none"), ("hget", "h", "b"),
                            ("hget", "h", "x"), ("hgetall", "h"), ("hgetall", "none"), ("ztop", "z", 2),
                            ("zrank", "z", "m2"), ("zrank", "z", "x"), ("zscore", "z", "m3"), ("zscore", "z", "x"),
                            ("zcard", "z"), ("due", "z", 2.0, 10), ("hgetall", "s"), ("get", "s")]
        async with client.pipeline(transaction=False) as pipe:
            for req in reads:
                queue_typed(pipe, req)
            old = await pipe.execute(raise_on_error=False)
        commands = [read_command(req) for req in reads]
        raw = await exchange(client.connection_pool, [c for c in commands if c is not None])
        new = [shaped(req[0], value) for req, value in zip(reads, raw, strict=True)]
        for req, a, b in zip(reads, old, new, strict=True):
            if isinstance(a, Exception):
                assert type(a) is type(b) and "WRONGTYPE" in str(b), req  # hgetall of a string
                continue
            assert decode_read(req[0], a) == decode_read(req[0], b), req
        assert new[-1] == b"12:value"  # answered after the error
        assert await store.read([("ztop", "z", 3)]) == [[("m3", 7.25), ("m1", 1.5), ("m2", -3.0)]]
    finally:
        await store.close()


async def test_a_read_cancelled_midway_drops_its_connection_and_the_pool_goes_on(own_redis: LocalRedis) -> None:
    store = RedisStore.from_url(own_redis.url, max_connections=1)
    pool = store.client.connection_pool
    assert own_redis.server_pid is not None
    try:
        assert await store.commit(Commit().put("k", b"v"))
        os.kill(own_redis.server_pid, signal.SIGSTOP)  # the answer will not come: the read waits
        try:
            task = asyncio.create_task(exchange(pool, [("GET", "k")]))
            await asyncio.sleep(0.2)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        finally:
            os.kill(own_redis.server_pid, signal.SIGCONT)
        assert store.pool_stats()["in_use"] == 0
        assert all(not c.is_connected for c in pool._available_connections)  # its answer may still come: dropped
        assert await store.read([("get", "k"), ("get", "none")]) == [b"v", None]
    finally:
        await store.close()


def test_raw_answers_are_shaped_alike_from_resp2_and_resp3() -> None:
    assert shaped("hgetall", [b"a", b"1", b"b", b"2"]) == shaped("hgetall", {b"a": b"1", b"b": b"2"})
    assert shaped("ztop", [b"m", b"1.5", b"n", b"-2"]) == [(b"m", b"1.5"), (b"n", b"-2")]
    assert shaped("ztop", [[b"m", 1.5], [b"n", -2.0]]) == [(b"m", 1.5), (b"n", -2.0)]
    assert decode_read("ztop", shaped("ztop", [b"m", b"1.5"])) == decode_read("ztop", shaped("ztop", [[b"m", 1.5]]))
    assert shaped("ztop", []) == [] and shaped("get", None) is None


async def test_a_write_on_a_closing_connection_says_nothing_was_sent(own_redis: LocalRedis) -> None:
    """A write the socket takes at once waits for nothing, but one on a closing connection still raises before
    anything is sent (a commit can then be sent again safely), and the pool reconnects."""
    store = RedisStore.from_url(own_redis.url, max_connections=1)
    pool = store.client.connection_pool
    try:
        assert await store.commit(Commit().put("k", b"v"))
        conn = await pool.get_connection()
        conn._writer.transport.close()
        with pytest.raises(RedisConnectionError, match="writing"):
            await conn.send_packed_command(conn.pack_command("SET", "k", b"other"))
        assert not conn.is_connected
        await pool.release(conn)
        assert await store.read([("get", "k")]) == [b"v"]
    finally:
        await store.close()
