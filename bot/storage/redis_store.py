"""The Redis store (``redis.asyncio``): pipelined reads, one Lua script per commit, pub/sub, stream outbox.

A commit is one EVALSHA: the script validates every key type, input and version before its first
write, so it is atomic and costs one round trip. The connection pool is bounded and *waits* (with a
deadline) for a free connection instead of refusing; every connection goes back to the pool, also on
errors. Idempotent reads are retried with exponential backoff; a commit never is (see base.py for how
a commit can end). Values are bytes (``decode_responses=False``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from . import durability
from .base import Commit, CommitOutcomeUnknown, DamagedKey, Entry, Read, Store
from .connections import LeanPool, exchange, lean_connections
from .read_ops import check_answer, decode_read, read_command, shaped
from .read_ops import text as _text
from .scripts import CLAIM_LUA, COMMIT_LUA, VIA_LUA, VIA_SHA

log = logging.getLogger(__name__)
T = TypeVar("T")

LOST = (RedisConnectionError, RedisTimeoutError, OSError, asyncio.TimeoutError)  # the answer may be lost


def _field(value: Any) -> Any:
    """A hash field name/value or zset member as the commit script wants it (a string)."""
    return str(value) if isinstance(value, int | float) else value


def _entries(raw: Any) -> list[Entry]:
    """Stream entries as Redis returns them (``[[id, [f, v, ...]], ...]``), skipping deleted ones."""
    out: list[Entry] = []
    for item in raw or []:
        if not item or item[1] is None:
            continue
        flat = item[1]
        if isinstance(flat, dict):  # already parsed by redis-py (cluster pipelines apply response callbacks)
            out.append((_text(item[0]), {_text(k): v for k, v in flat.items()}))
            continue
        out.append((_text(item[0]), {_text(flat[i]): flat[i + 1] for i in range(0, len(flat), 2)}))
    return out


def read_group_args(group: str, consumer: str, count: int, block_ms: int) -> list[Any]:
    """XREADGROUP's words before ``STREAMS`` (both stores read their outbox the same way)."""
    args: list[Any] = ["XREADGROUP", "GROUP", group, consumer, "COUNT", count]
    return [*args, "BLOCK", block_ms] if block_ms > 0 else args


def group_answer(raw: Any) -> list[Entry]:
    """The entries of one stream's XREADGROUP answer: a RESP3 map stream -> entries, or RESP2 pairs."""
    if isinstance(raw, dict):
        return _entries(next(iter(raw.values()), None))
    return _entries(raw[0][1]) if raw else []


def command_options(socket_timeout: float, socket_connect_timeout: float,
                    health_check_interval: float = 15.0) -> dict[str, Any]:
    """Connection options of the command pools (one Redis, or each Cluster node): bytes, bounded waits, and
    never a command resent under the hood (the stores decide what may be sent again)."""
    return {"decode_responses": False, "socket_timeout": socket_timeout,
            "socket_connect_timeout": socket_connect_timeout, "health_check_interval": health_check_interval,
            "retry": Retry(NoBackoff(), 0)}


class RedisStore(Store):
    """Store on one Redis server (standalone or Sentinel); ClusterStore (cluster_store.py) for a Redis Cluster."""

    kind = "redis"

    def __init__(self, client: aioredis.Redis, *, read_retries: int = 3, sub_client: aioredis.Redis | None = None,
                 wait_replicas: int = 0, wait_ms: int = 500) -> None:
        self.client = client
        self.wait_replicas, self.wait_ms = wait_replicas, wait_ms
        self.wait_timeouts = 0  # commits not confirmed by wait_replicas replicas within wait_ms
        self._commit = client.register_script(COMMIT_LUA)
        self._claim = client.register_script(CLAIM_LUA)
        self._read_retry = Retry(ExponentialBackoff(cap=0.5, base=0.02), read_retries)
        self._sub_client = sub_client
        self._socket_timeout: float = client.connection_pool.connection_kwargs.get("socket_timeout") or 5.0

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        max_connections: int = 64,
        pool_timeout: float = 5.0,
        socket_timeout: float = 5.0,
        socket_connect_timeout: float = 2.0,
        health_check_interval: float = 15.0,
        read_retries: int = 3,
        wait_replicas: int = 0,
        wait_ms: int = 500,
    ) -> RedisStore:
        """A store on ``url`` with a bounded pool of ``max_connections`` that waits up to ``pool_timeout``
        seconds for a free connection; a commit whose answer takes over ``socket_timeout`` seconds raises
        :class:`CommitOutcomeUnknown`. Pub/sub uses a pool of its own (a subscription holds a connection)."""
        options = command_options(socket_timeout, socket_connect_timeout, health_check_interval)
        pool = lean_connections(LeanPool.from_url(url, max_connections=max_connections, timeout=pool_timeout,
                                                    **options))
        sub_options = dict(options, retry=Retry(ExponentialBackoff(cap=1.0, base=0.05), 5), socket_timeout=None)
        sub_client = aioredis.Redis.from_pool(aioredis.ConnectionPool.from_url(url, **sub_options))
        return cls(aioredis.Redis.from_pool(pool), read_retries=read_retries, sub_client=sub_client,
                   wait_replicas=wait_replicas, wait_ms=wait_ms)

    # --- plumbing -----------------------------------------------------------------------------------
    async def _retrying(self, do: Callable[[], Awaitable[T]]) -> T:
        """Run an idempotent read, retrying connection errors with exponential backoff."""

        async def fail(error: Exception) -> None:
            log.debug("store read failed, retrying: %s", error)

        return await self._read_retry.call_with_retry(do, fail)

    async def _call(self, *args: Any, timeout: float | None = None, unknown: bool = False,
                    wait: bool = False) -> Any:
        """One command on a pooled connection that always goes back to the pool. With ``unknown``, an
        answer lost after sending raises :class:`CommitOutcomeUnknown`; failures before sending (no
        connection, refused, health check) raise the usual connection errors: nothing was sent. With ``wait``
        (a commit), then ``WAIT`` for ``wait_replicas`` replicas on the same connection (see durability.py)."""
        pool = self.client.connection_pool
        conn = await pool.get_connection()
        try:
            await self._drop_if_stale(conn)
            await conn.send_command(*args)
            try:
                answer = await conn.read_response(timeout=timeout)
                if wait and self.wait_replicas > 0:
                    await self._wait_replicas(conn)
                return answer
            except ResponseError:
                raise
            except LOST as exc:
                await conn.disconnect()
                if unknown:
                    raise CommitOutcomeUnknown(f"{args[0]} sent but its answer was lost: {exc}") from exc
                raise
        except ResponseError:
            raise
        except BaseException:
            await conn.disconnect()  # a cancelled or broken exchange may leave an answer in the socket
            raise
        finally:
            await pool.release(conn)

    async def _keyed_call(self, key: str, *args: Any) -> Any:
        """One command about ``key`` (on a Cluster: on the master of its slot)."""
        return await self._call(*args)

    async def _wait_replicas(self, conn: Any, replicas: int | None = None) -> None:
        """``WAIT`` on the commit's own connection for ``replicas`` (default ``wait_replicas``); count and mark
        a commit no replica confirmed in time."""
        replicas = self.wait_replicas if replicas is None else replicas
        await conn.send_command("WAIT", replicas, self.wait_ms)
        acked = int(await conn.read_response(timeout=self.wait_ms / 1000 + self._socket_timeout))
        if acked < replicas:
            self._lagged(f"not confirmed by {replicas} replica(s) within {self.wait_ms} ms")

    def _lagged(self, why: str) -> None:
        """A commit stands but is not known to be replicated: count it, mark it for the caller, log it."""
        self.wait_timeouts += 1
        durability.mark_lagged()
        log.warning("commit %s (%d so far)", why, self.wait_timeouts)

    @staticmethod
    async def _drop_if_stale(conn: Any) -> None:
        """Disconnect a pooled connection the server already closed (EOF or data waiting), so the next
        send reconnects instead of writing into a dead socket and losing track of the outcome. (Some
        redis-py versions skip this check in the pool.)"""
        if not conn.is_connected:
            return
        try:
            stale = await conn.can_read()
        except (RedisConnectionError, OSError):
            stale = True
        if stale:
            await conn.disconnect()

    def pool_stats(self) -> dict[str, int]:
        """Connections of the command pool: ``in_use`` (checked out) and ``idle``, for health and tests."""
        pool = self.client.connection_pool
        return {"in_use": len(getattr(pool, "_in_use_connections", ())),
                "idle": len(getattr(pool, "_available_connections", ()))}

    # --- reads --------------------------------------------------------------------------------------
    async def read(self, requests: Sequence[Read]) -> list[Any]:
        return await self._retrying(lambda: self._read_once(requests))

    async def _read_once(self, requests: Sequence[Read]) -> list[Any]:
        """One attempt at :meth:`read`: one pipeline whose connection goes back to the pool, whatever happens.
        An index lookup is an EVALSHA in the pipeline (no SCRIPT EXISTS round trip before it, as redis-py's
        Script objects send); a server without the script (restarted, flushed) gets it, and the batch is sent again."""
        raw = await self._pipeline_once(requests)
        if any(isinstance(value, NoScriptError) for value in raw):
            await self._call("SCRIPT", "LOAD", VIA_LUA)
            raw = await self._pipeline_once(requests)
        out: list[Any] = []
        for req, value in zip(requests, raw, strict=True):
            check_answer(req, value)
            out.append(decode_read(req[0], value))
        return out

    async def _pipeline_once(self, requests: Sequence[Read]) -> list[Any]:
        """The answers (errors as values) of one pipeline of ``requests``, shaped as redis-py's would be."""
        commands: list[tuple[Any, ...]] = []
        for req in requests:
            command = read_command(req)
            if command is None:
                if req[0] != "via":
                    raise ValueError(f"unknown read {req[0]!r}")
                command = ("EVALSHA", VIA_SHA, 1, req[1], req[2], req[3], req[4])
            commands.append(command)
        raw = await exchange(self.client.connection_pool, commands)
        return [shaped(req[0], value) for req, value in zip(requests, raw, strict=True)]

    # --- commit -------------------------------------------------------------------------------------
    async def commit(self, commit: Commit) -> bool:
        keys, argv = self.encode_commit(commit)
        try:
            result = await self._call("EVALSHA", self._commit.sha, len(keys), *keys, *argv, unknown=True, wait=True)
        except NoScriptError:  # not run at all: load the script, then send the commit once
            await self._call("SCRIPT", "LOAD", COMMIT_LUA)
            result = await self._call("EVALSHA", self._commit.sha, len(keys), *keys, *argv, unknown=True, wait=True)
        return self.decode_result(commit, result)

    @staticmethod
    def encode_commit(commit: Commit) -> tuple[list[str], list[Any]]:
        """KEYS and ARGV of the commit script for ``commit`` (see scripts.py)."""
        keys: list[str] = []
        index: dict[str, int] = {}
        argv: list[Any] = [""]

        def k(key: str) -> int:
            if key not in index:
                keys.append(key)
                index[key] = len(keys)
            return index[key]

        def arg(value: bytes | str) -> int:
            argv.append(value)
            return len(argv)

        checks = [[c[0], k(c[1]), _field(c[2]) if c[0] == "h" else c[2]] for c in commit.checks]
        ops: list[list[Any]] = []
        for op in commit.ops:
            kind = op[0]
            if kind == "set":
                ops.append(["set", k(op[1]), arg(op[2]), op[3]])
            elif kind == "del":
                ops.append(["del", k(op[1])])
            elif kind in ("hset", "hdel"):
                ops.append([kind, k(op[1]), _field(op[2]), _field(op[3])])
            elif kind == "zadd":
                ops.append(["zadd", k(op[1]), _field(op[2]), repr(float(op[3]))])
            elif kind == "zrem":
                ops.append(["zrem", k(op[1]), _field(op[2])])
            elif kind == "pub":
                ops.append(["pub", op[1], arg(op[2])])
            elif kind == "xadd":
                first = len(argv) + 1
                for name, value in op[2].items():
                    arg(name)
                    arg(value)
                ops.append(["xadd", k(op[1]), op[3], first, len(op[2])])
            else:
                raise ValueError(f"unknown commit op {kind!r}")
        argv[0] = json.dumps([checks, ops], separators=(",", ":"))
        return keys, argv

    @staticmethod
    def decode_result(commit: Commit, result: Any) -> bool:
        """The commit script's answer as :meth:`commit` returns it (or raises)."""
        if isinstance(result, list):
            if _text(result[0]) == "type":
                raise DamagedKey(_text(result[1]))
            raise ValueError(f"malformed commit op #{int(result[1])}: {commit.ops[int(result[1]) - 1][:2]!r}")
        return int(result) == 0

    async def scan(self, pattern: str) -> list[str]:
        """Keys matching ``pattern`` (for sweeps and repairs; not for the hot path)."""
        return sorted({_text(k) async for k in self.client.scan_iter(match=pattern, count=500)})

    def health(self) -> dict[str, int]:
        """Counters for /healthz: WAIT timeouts (commits saved but not yet confirmed by a replica)."""
        return {"wait_timeouts": self.wait_timeouts}

    # --- timers -------------------------------------------------------------------------------------
    async def due(self, key: str, now: float, limit: int) -> list[str]:
        try:
            members = await self._due_members(key, now, limit)
        except ResponseError as exc:
            if "WRONGTYPE" in str(exc):
                raise DamagedKey(key) from None
            raise
        return [_text(m) for m in members]

    async def _due_members(self, key: str, now: float, limit: int) -> list[Any]:
        """Members of the timer set ``key`` due by ``now`` (at most ``limit``)."""
        return await self._retrying(lambda: self.client.zrangebyscore(key, "-inf", now, start=0, num=limit))

    async def claim(self, key: str, member: str, now: float, lease: float) -> bool:
        return int(await self._claim(keys=[key], args=[member, repr(now), repr(now + lease)])) == 1

    # --- pub/sub ------------------------------------------------------------------------------------
    async def subscribe(self, channel: str, pattern: bool = False) -> AsyncIterator[bytes]:
        client = self._sub_client or self.client
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        await self._retrying(lambda: pubsub.psubscribe(channel) if pattern else pubsub.subscribe(channel))

        async def messages() -> AsyncIterator[bytes]:
            delay = 0.05
            try:
                while True:  # get_message with a timeout, not listen(): a cancel then always gets through
                    try:
                        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    except LOST as exc:  # Redis went away: wait, then reconnect (which resubscribes)
                        log.debug("subscription to %s lost (%s); reconnecting", channel, exc)
                        await asyncio.sleep(delay)
                        delay = min(delay * 2, 1.0)
                        continue
                    delay = 0.05
                    if message is not None and message.get("type") in ("message", "pmessage"):
                        yield message["data"]
            finally:
                await pubsub.aclose()

        return messages()

    # --- outbox -------------------------------------------------------------------------------------
    async def ensure_group(self, stream: str, group: str) -> None:
        try:
            await self._retrying(lambda: self._call("XGROUP", "CREATE", stream, group, "0", "MKSTREAM"))
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    async def consume(self, stream: str, group: str, consumer: str, count: int = 10,
                      block_ms: int = 0) -> list[Entry]:
        args = read_group_args(group, consumer, count, block_ms)
        raw = await self._call(*args, "STREAMS", stream, ">", timeout=block_ms / 1000 + self._socket_timeout)
        return group_answer(raw)

    async def consume_many(self, streams: Sequence[str], group: str, consumer: str, count: int = 10,
                           block_ms: int = 0) -> list[tuple[str, Entry]]:
        """One XREADGROUP over all ``streams`` (one server: no slot limits), blocking up to ``block_ms``."""
        if not streams:
            return []
        args: list[Any] = ["XREADGROUP", "GROUP", group, consumer, "COUNT", count]
        if block_ms > 0:
            args += ["BLOCK", block_ms]
        raw = await self._call(*args, "STREAMS", *streams, *([">"] * len(streams)),
                               timeout=block_ms / 1000 + self._socket_timeout)
        pairs = raw.items() if isinstance(raw, dict) else ((item[0], item[1]) for item in raw or [])
        return [(_text(name), entry) for name, items in pairs for entry in _entries(items)]

    async def ack(self, stream: str, group: str, *ids: str) -> int:
        if not ids:
            return 0
        return int(await self._retrying(lambda: self._call("XACK", stream, group, *ids)))

    async def reclaim(self, stream: str, group: str, consumer: str, min_idle_ms: int,
                      count: int = 10) -> list[Entry]:
        out: list[Entry] = []
        cursor = "0-0"
        for _ in range(100):  # bounded walk over the pending list
            raw = await self._keyed_call(stream, "XAUTOCLAIM", stream, group, consumer, min_idle_ms, cursor,
                                         "COUNT", count - len(out))
            out += _entries(raw[1])
            cursor = _text(raw[0])
            if cursor == "0-0" or len(out) >= count:
                break
        return out

    async def touch(self, stream: str, group: str, consumer: str, *ids: str) -> None:
        if ids:  # XCLAIM to the same consumer with JUSTID: idle time reset, delivery count unchanged
            await self._keyed_call(stream, "XCLAIM", stream, group, consumer, 0, *ids, "JUSTID")

    # --- the outbox's streams in one round trip (one server; ClusterStore keeps the per-stream calls) ----------
    async def _per_stream(self, commands: Sequence[tuple[Any, ...]], **options: Any) -> list[Any]:
        """One pipeline of ``commands`` (idempotent: retried like a read); answers in order, an error raised."""

        async def once() -> list[Any]:
            async with self.client.pipeline(transaction=False) as pipe:  # the connection always goes back
                for command in commands:
                    pipe.execute_command(*command, **options)
                answers: list[Any] = await pipe.execute(raise_on_error=False)
            for answer in answers:
                if isinstance(answer, Exception):
                    raise answer
            return answers

        return await self._retrying(once) if commands else []

    async def reclaim_many(self, streams: Sequence[str], group: str, consumer: str, min_idle_ms: int,
                           count: int = 10) -> list[tuple[str, Entry]]:
        """The first XAUTOCLAIM of every stream in one round trip; a stream with more idle entries than that
        page is walked on by :meth:`reclaim`."""
        answers = await self._per_stream([("XAUTOCLAIM", s, group, consumer, min_idle_ms, "0-0", "COUNT", count)
                                          for s in streams])
        out: list[tuple[str, Entry]] = []
        for stream, answer in zip(streams, answers, strict=True):
            entries = _entries(answer[1])
            if _text(answer[0]) != "0-0" and len(entries) < count:  # more pending: the bounded walk
                entries += await self.reclaim(stream, group, consumer, min_idle_ms, count - len(entries))
            out += [(stream, entry) for entry in entries]
        return out

    async def ack_many(self, group: str, ids: Mapping[str, Sequence[str]]) -> int:
        answers = await self._per_stream([("XACK", s, group, *entry_ids) for s, entry_ids in ids.items() if entry_ids])
        return sum(int(answer) for answer in answers)

    async def touch_many(self, group: str, consumer: str, ids: Mapping[str, Sequence[str]]) -> None:
        await self._per_stream([("XCLAIM", s, group, consumer, 0, *entry_ids, "JUSTID")
                                for s, entry_ids in ids.items() if entry_ids], parse_justid=True)

    async def close(self) -> None:
        await self.client.aclose()
        if self._sub_client is not None:
            await self._sub_client.aclose()
