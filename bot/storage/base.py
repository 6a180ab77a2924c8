"""The store behind the game service: a small abstract class with a Redis and an in-memory implementation.

The service never talks to Redis directly. It reads with :meth:`Store.read` (one pipelined round trip)
and writes with :meth:`Store.commit`: a list of checks (a versioned value still has the version the
command read, a hash field is still free) and a list of writes, applied all together or not at all.

How a commit can end (both stores):

* ``True``: every check held and every write was applied.
* ``False``: a check failed (a version moved on, a field is taken); nothing was written.
* :class:`DamagedKey` (a ``ValueError``): a key holds the wrong Redis type for what the commit does with
  it (say a hash where a session string should be); nothing was written. Not a connectivity problem.
* ``ValueError``: the commit itself is malformed (negative TTL, a score that is not a number, ...);
  nothing was written.
* ``redis.exceptions.ConnectionError`` / ``TimeoutError`` (``RedisError``): the commit was *not sent*
  (server refused the connection, no pooled connection within the wait deadline); nothing was applied
  and it is safe to retry.
* :class:`CommitOutcomeUnknown` (a ``RedisError``): the commit was sent but no answer came back (socket
  timeout, connection lost). It may or may not have been applied: do NOT retry blindly; read the
  versioned value (or the idempotency record written by the same commit) to find out.

Outbox (Redis Streams): :meth:`Commit.xadd` appends a stream entry inside the same atomic commit, and
:meth:`Store.ensure_group`, :meth:`Store.consume`, :meth:`Store.ack`, :meth:`Store.reclaim` read it
through a consumer group (at-least-once delivery: ack after handling, reclaim a dead consumer's entries).
"""

from __future__ import annotations

import abc
import asyncio
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# Read requests (tuples, to stay cheap on the hot path):
#   ("get", key)              -> bytes | None
#   ("head", key)             -> bytes | None     a versioned value's first bytes, enough for its version:
#                               split_versioned() reads the version without the value being sent
#   ("hget", key, field)      -> str | None
#   ("hgetall", key)          -> dict[str, str]
#   ("ztop", key, n)          -> list[tuple[str, float]]   highest scores first
#   ("zrank", key, member)    -> int | None                0 = highest score
#   ("zscore", key, member)   -> float | None
#   ("zcard", key)            -> int
#   ("due", key, now, limit)  -> list[str]       members with score <= now, lowest score first (a timer set's due ones)
#   ("via", hkey, field, prefix, suffix) -> [value, GET(prefix + value + suffix)] (None, None if unset):
#                               an index lookup and the value it points to, in the same round trip
Read = tuple[Any, ...]

# A stream entry as the outbox methods return it: (entry id, fields).
Entry = tuple[str, dict[str, bytes]]

MAX_VERSION_DIGITS = 18  # a version fits in 64 bits; a longer "number" is damage, not a version


class DamagedKey(ValueError):
    """A stored key has the wrong type for what a commit or read does with it; nothing was written."""

    def __init__(self, key: str) -> None:
        super().__init__(f"stored key {key!r} is damaged (wrong type)")
        self.key = key


class DamagedValue(ValueError):
    """A stored value cannot be decoded within its bounds (bad prefix, too large, corrupt compression)."""


class CommitOutcomeUnknown(RedisError):
    """A commit was sent but its answer was lost: it may or may not have been applied. Do not retry
    blindly; re-read the versioned value or the idempotency record it writes to find out."""


def versioned(version: int, blob: bytes) -> bytes:
    """A versioned value as stored: ``b"<version>:"`` then the payload."""
    return b"%d:" % version + blob


def split_versioned(raw: bytes) -> tuple[int, bytes]:
    """Inverse of :func:`versioned`; raise DamagedValue (a ValueError) when the value has no sane version
    prefix (ASCII digits, at most 18 of them: a bounded number, looked at in a bounded prefix)."""
    if not isinstance(raw, bytes | bytearray | memoryview):
        raise DamagedValue("stored value is not bytes")
    colon = bytes(raw[: MAX_VERSION_DIGITS + 1]).find(b":")
    head = bytes(raw[:colon]) if colon > 0 else b""
    if not head or not head.isdigit():
        raise DamagedValue("stored value has no version prefix")
    return int(head), bytes(raw[colon + 1 :])


@dataclass
class Commit:
    """Checks that must all hold, then writes applied atomically (all or nothing)."""

    checks: list[tuple[Any, ...]] = field(default_factory=list)
    ops: list[tuple[Any, ...]] = field(default_factory=list)

    # --- checks ----------------------------------------------------------------------------
    def expect(self, key: str, version: int) -> Commit:
        """The versioned value at ``key`` has ``version`` (0 = the key must not exist)."""
        self.checks.append(("v", key, version))
        return self

    def field_free(self, key: str, name: str) -> Commit:
        """The hash field ``name`` of ``key`` is not set."""
        self.checks.append(("h", key, name))
        return self

    # --- writes ----------------------------------------------------------------------------
    def put(self, key: str, value: bytes, ttl: float = 0) -> Commit:
        """Set the string ``key`` (expiring after ``ttl`` whole seconds when > 0)."""
        if isinstance(ttl, float) and ttl.is_integer():
            ttl = int(ttl)
        self.ops.append(("set", key, value, ttl))
        return self

    def put_versioned(self, key: str, version: int, blob: bytes, ttl: int = 0) -> Commit:
        """Set ``key`` to ``blob`` under ``version`` (see :func:`versioned`)."""
        return self.put(key, versioned(version, blob), ttl)

    def delete(self, key: str) -> Commit:
        """Delete ``key`` (any type)."""
        self.ops.append(("del", key))
        return self

    def hset(self, key: str, name: str, value: str) -> Commit:
        """Set the field ``name`` of the hash ``key``."""
        self.ops.append(("hset", key, name, value))
        return self

    def hdel(self, key: str, name: str, only_if: str | None = None) -> Commit:
        """Delete a hash field (only while it still holds ``only_if``, when given)."""
        self.ops.append(("hdel", key, name, only_if or ""))
        return self

    def zadd(self, key: str, member: str, score: float) -> Commit:
        """Add ``member`` with ``score`` to the sorted set ``key``."""
        self.ops.append(("zadd", key, member, float(score)))
        return self

    def zrem(self, key: str, member: str) -> Commit:
        """Remove ``member`` from the sorted set ``key``."""
        self.ops.append(("zrem", key, member))
        return self

    def publish(self, channel: str, message: bytes) -> Commit:
        """Publish ``message`` on the pub/sub ``channel`` (fire and forget: missed if nobody listens)."""
        self.ops.append(("pub", channel, message))
        return self

    def xadd(self, stream: str, fields: dict[str, bytes | str], maxlen: int = 10_000) -> Commit:
        """Append an entry to the stream ``stream`` (the outbox), trimmed to about ``maxlen`` entries
        (``maxlen=0``: no trim). Durable, unlike :meth:`publish`; read it with a consumer group."""
        self.ops.append(("xadd", stream, dict(fields), int(maxlen)))
        return self


class Store(abc.ABC):
    """Storage for the game service. Implementations: RedisStore (shared), MemoryStore (one process)."""

    durable: bool = True  # games survive a restart of the bot (False: in this process's memory only)
    kind = "custom"  # which store, for /healthz: "redis", "cluster", "memory" (bot/health.py)

    @abc.abstractmethod
    async def read(self, requests: Sequence[Read]) -> list[Any]:
        """Answer several read requests in one round trip, in order."""

    @abc.abstractmethod
    async def commit(self, commit: Commit) -> bool:
        """Apply ``commit`` atomically if all its checks hold; False (and nothing changed) otherwise."""

    @abc.abstractmethod
    async def due(self, key: str, now: float, limit: int) -> list[str]:
        """Members of the timer set ``key`` whose time has come (score <= now), oldest first."""

    async def due_many(self, keys: Sequence[str], now: float, limit: int) -> list[list[str]]:
        """:meth:`due` of every timer set in ``keys``, in one round trip (a Cluster: one per master), so that a
        tick over the 64 homes costs one. A damaged set (wrong type) makes the batch fail; then each set is
        read on its own, and the damaged one is logged and answers no member (the others still fire)."""
        try:
            found: list[list[str]] = await self.read([("due", key, now, limit) for key in keys])
            return found
        except DamagedKey:
            pass
        out: list[list[str]] = []
        for key in keys:
            try:
                out.append(await self.due(key, now, limit))
            except DamagedKey:  # moves still work (their timer writes are skipped); nothing here fires
                log.error("the timer set %s is damaged: no timer in it can fire until it is repaired", key)
                out.append([])
        return out

    @abc.abstractmethod
    async def claim(self, key: str, member: str, now: float, lease: float) -> bool:
        """Take a due timer for ``lease`` seconds: True for exactly one caller while it is due."""

    @abc.abstractmethod
    async def subscribe(self, channel: str, pattern: bool = False) -> AsyncIterator[bytes]:
        """Subscribe now; the iterator yields the messages published on ``channel`` (a glob pattern
        such as ``fevga:ev:p:discord:*`` when ``pattern``) from then on."""

    # --- outbox (streams with a consumer group) -------------------------------------------------
    @abc.abstractmethod
    async def ensure_group(self, stream: str, group: str) -> None:
        """Create the consumer group ``group`` on ``stream`` (and the stream) unless it exists; a new
        group starts from the stream's first entry, so nothing committed before is missed."""

    @abc.abstractmethod
    async def consume(self, stream: str, group: str, consumer: str, count: int = 10,
                      block_ms: int = 0) -> list[Entry]:
        """Entries of ``stream`` never delivered to ``group`` yet, now pending for ``consumer`` until
        acked; waits up to ``block_ms`` (0 = do not wait) when there are none."""

    @abc.abstractmethod
    async def ack(self, stream: str, group: str, *ids: str) -> int:
        """Mark entries handled (they are not delivered again); the number acked."""

    @abc.abstractmethod
    async def reclaim(self, stream: str, group: str, consumer: str, min_idle_ms: int,
                      count: int = 10) -> list[Entry]:
        """Take over up to ``count`` entries pending (unacked) for longer than ``min_idle_ms`` with any
        consumer of ``group`` (a dead one), now pending for ``consumer``."""

    @abc.abstractmethod
    async def touch(self, stream: str, group: str, consumer: str, *ids: str) -> None:
        """Mark entries pending for ``consumer`` as in hand now (their idle time restarts): a live consumer's
        heartbeat, so :meth:`reclaim` with a short idle time takes only a dead consumer's entries."""

    async def consume_many(self, streams: Sequence[str], group: str, consumer: str, count: int = 10,
                           block_ms: int = 0) -> list[tuple[str, Entry]]:
        """:meth:`consume` over several streams (e.g. one outbox per home): (stream, entry) pairs, up to
        ``count`` per stream; when none has anything, waits up to ``block_ms`` (polling here; RedisStore
        blocks on all of them in one command)."""
        deadline = asyncio.get_running_loop().time() + block_ms / 1000
        pause = 0.01
        while True:
            out = [(s, e) for s in streams for e in await self.consume(s, group, consumer, count, 0)]
            left = deadline - asyncio.get_running_loop().time()
            if out or left <= 0:
                return out
            await asyncio.sleep(min(pause, left))
            pause = min(pause * 2, 0.1)

    async def reclaim_many(self, streams: Sequence[str], group: str, consumer: str, min_idle_ms: int,
                           count: int = 10) -> list[tuple[str, Entry]]:
        """:meth:`reclaim` over several streams: (stream, entry) pairs."""
        return [(s, e) for s in streams for e in await self.reclaim(s, group, consumer, min_idle_ms, count)]

    async def ack_many(self, group: str, ids: Mapping[str, Sequence[str]]) -> int:
        """:meth:`ack` of entries of several streams (stream -> ids; RedisStore: in one round trip)."""
        return sum([await self.ack(stream, group, *entry_ids) for stream, entry_ids in ids.items() if entry_ids])

    async def touch_many(self, group: str, consumer: str, ids: Mapping[str, Sequence[str]]) -> None:
        """:meth:`touch` of entries of several streams (stream -> ids; RedisStore: in one round trip)."""
        for stream, entry_ids in ids.items():
            if entry_ids:
                await self.touch(stream, group, consumer, *entry_ids)

    async def scan(self, pattern: str) -> list[str]:
        """Keys matching the glob ``pattern`` (sweeps and repairs only: it walks the whole keyspace)."""
        return []

    async def sweep(self, older_than: float = 5.0) -> int:
        """Finish commits split across Cluster slots whose writer died midway (ClusterStore); the number."""
        return 0

    def health(self) -> dict[str, int]:
        """Counters for /healthz (e.g. ``wait_timeouts``: commits saved but not confirmed by a replica)."""
        return {}

    async def close(self) -> None:  # noqa: B027 - optional hook, nothing to release by default
        """Release connections."""
