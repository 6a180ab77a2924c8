"""How a Redis commit can fail: not sent (safe to retry) versus sent without an answer (outcome unknown)."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from bot.storage import LocalRedis, RedisStore
from bot.storage.base import Commit, CommitOutcomeUnknown
from bot.storage.local_redis import free_port


@pytest.mark.timeout(30)
async def test_a_commit_sent_to_a_stopped_server_has_an_unknown_outcome(own_redis: LocalRedis) -> None:
    store = RedisStore.from_url(own_redis.url, socket_timeout=0.5, max_connections=1, pool_timeout=0.3)
    assert own_redis.server_pid is not None
    try:
        assert await store.commit(Commit().put_versioned("g", 1, b"one"))  # warm: connection and script
        os.kill(own_redis.server_pid, signal.SIGSTOP)
        try:
            began = time.monotonic()
            sent = asyncio.create_task(store.commit(Commit().expect("g", 1).put_versioned("g", 2, b"two")))
            await asyncio.sleep(0.05)
            with pytest.raises(RedisConnectionError) as queued:  # the only connection is busy: not sent
                await store.commit(Commit().put("other", b"x"))
            assert not isinstance(queued.value, CommitOutcomeUnknown)
            with pytest.raises(CommitOutcomeUnknown) as unknown:
                await sent
            assert isinstance(unknown.value, RedisError)  # existing handlers still catch it
            assert 0.4 < time.monotonic() - began < 3
            assert store.pool_stats()["in_use"] == 0
        finally:
            os.kill(own_redis.server_pid, signal.SIGCONT)
        deadline = time.monotonic() + 5
        while (got := await store.read([("get", "g"), ("get", "other")]))[0] != b"2:two":
            assert time.monotonic() < deadline, got
            await asyncio.sleep(0.05)
        assert got[1] is None  # the refused one was never sent
    finally:
        await store.close()


async def test_a_refused_connection_is_a_plain_error() -> None:
    store = RedisStore.from_url(f"redis://127.0.0.1:{free_port()}/0", read_retries=1)
    try:
        with pytest.raises(RedisConnectionError) as caught:
            await store.commit(Commit().put("k", b"v"))
        assert not isinstance(caught.value, CommitOutcomeUnknown)
        assert store.pool_stats()["in_use"] == 0
    finally:
        await store.close()


async def test_a_lost_script_cache_is_reloaded_once(own_redis: LocalRedis) -> None:
    store = RedisStore.from_url(own_redis.url)
    try:
        assert await store.commit(Commit().put("a", b"1"))
        await store.client.script_flush()
        assert await store.commit(Commit().put("b", b"2"))
        assert await store.read([("get", "a"), ("get", "b")]) == [b"1", b"2"]
    finally:
        await store.close()


async def test_an_index_lookup_is_one_round_trip_and_survives_a_lost_script_cache(own_redis: LocalRedis) -> None:
    store = RedisStore.from_url(own_redis.url)
    try:
        assert await store.commit(Commit().hset("idx", "u1", "abc").put("pre:abc:suf", b"payload"))
        await store.client.script_flush()  # a restarted or flushed server: the lookup script is gone
        lookup = [("via", "idx", "u1", "pre:", ":suf"), ("get", "pre:abc:suf")]
        assert await store.read(lookup) == [["abc", b"payload"], b"payload"]
        before = await store.client.info("commandstats")
        assert await store.read(lookup) == [["abc", b"payload"], b"payload"]
        after = await store.client.info("commandstats")
        calls = {name: after[name]["calls"] - before.get(name, {"calls": 0})["calls"] for name in after}
        assert calls["cmdstat_evalsha"] == 1 and calls["cmdstat_get"] == 2  # GET: the one read and the script's
        assert calls.get("cmdstat_script|exists", 0) == 0  # no SCRIPT EXISTS round trip before the lookup
        assert store.pool_stats()["in_use"] == 0
    finally:
        await store.close()


async def test_from_url_keeps_its_defaults_and_the_plain_constructor_works(own_redis: LocalRedis) -> None:
    store = RedisStore.from_url(own_redis.url)
    pool = store.client.connection_pool
    assert pool.max_connections == 64 and pool.timeout == 5.0  # type: ignore[attr-defined]
    assert pool.connection_kwargs["socket_timeout"] == 5.0 and pool.connection_kwargs["socket_connect_timeout"]
    plain = RedisStore(store.client)  # the old constructor still works (tests and benchmarks use it)
    assert await plain.commit(Commit().put("k", b"v")) and await plain.read([("get", "k")]) == [b"v"]
    await store.close()


async def test_the_first_commit_after_a_restart_is_not_unknown(own_redis: LocalRedis) -> None:
    """A pooled connection the killed server closed is noticed before sending: the commit is applied."""
    store = RedisStore.from_url(own_redis.url)
    try:
        assert await store.commit(Commit().put("a", b"1"))
        assert own_redis.server_pid is not None
        os.kill(own_redis.server_pid, signal.SIGKILL)
        await asyncio.sleep(0.3)
        await asyncio.to_thread(own_redis.start)
        assert await store.commit(Commit().put("a", b"2"))
        assert await store.read([("get", "a")]) == [b"2"]
    finally:
        await store.close()
