"""The store behind the game service: a small abstract class with a Redis and an in-memory implementation.

The service never talks to Redis directly. It reads with :meth:`Store.read` (one pipelined round trip)
and writes with :meth:`Store.commit`: a list of checks (a versioned value still has the version the
command read, a hash field is still free) and a list of writes, applied all together or not at all.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

# Read requests (tuples, to stay cheap on the hot path):
#   ("get", key)              -> bytes | None
#   ("hget", key, field)      -> str | None
#   ("hgetall", key)          -> dict[str, str]
#   ("ztop", key, n)          -> list[tuple[str, float]]   highest scores first
#   ("zrank", key, member)    -> int | None                0 = highest score
#   ("zscore", key, member)   -> float | None
#   ("zcard", key)            -> int
#   ("via", hkey, field, prefix, suffix) -> [value, GET(prefix + value + suffix)] (None, None if unset):
#                               an index lookup and the value it points to, in the same round trip
Read = tuple[Any, ...]


def versioned(version: int, blob: bytes) -> bytes:
    """A versioned value as stored: ``b"<version>:"`` then the payload."""
    return b"%d:" % version + blob


def split_versioned(raw: bytes) -> tuple[int, bytes]:
    """Inverse of :func:`versioned`; raise ValueError when the value has no version prefix."""
    head, sep, blob = raw.partition(b":")
    if not sep or not head.isdigit():
        raise ValueError("stored value has no version prefix")
    return int(head), blob


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
    def put(self, key: str, value: bytes, ttl: int = 0) -> Commit:
        self.ops.append(("set", key, value, ttl))
        return self

    def put_versioned(self, key: str, version: int, blob: bytes, ttl: int = 0) -> Commit:
        return self.put(key, versioned(version, blob), ttl)

    def delete(self, key: str) -> Commit:
        self.ops.append(("del", key))
        return self

    def hset(self, key: str, name: str, value: str) -> Commit:
        self.ops.append(("hset", key, name, value))
        return self

    def hdel(self, key: str, name: str, only_if: str | None = None) -> Commit:
        """Delete a hash field (only while it still holds ``only_if``, when given)."""
        self.ops.append(("hdel", key, name, only_if or ""))
        return self

    def zadd(self, key: str, member: str, score: float) -> Commit:
        self.ops.append(("zadd", key, member, float(score)))
        return self

    def zrem(self, key: str, member: str) -> Commit:
        self.ops.append(("zrem", key, member))
        return self

    def publish(self, channel: str, message: bytes) -> Commit:
        self.ops.append(("pub", channel, message))
        return self


class Store(abc.ABC):
    """Storage for the game service. Implementations: RedisStore (shared), MemoryStore (one process)."""

    durable: bool = True

    @abc.abstractmethod
    async def read(self, requests: Sequence[Read]) -> list[Any]:
        """Answer several read requests in one round trip, in order."""

    @abc.abstractmethod
    async def commit(self, commit: Commit) -> bool:
        """Apply ``commit`` atomically if all its checks hold; False (and nothing changed) otherwise."""

    @abc.abstractmethod
    async def due(self, key: str, now: float, limit: int) -> list[str]:
        """Members of the timer set ``key`` whose time has come (score <= now), oldest first."""

    @abc.abstractmethod
    async def claim(self, key: str, member: str, now: float, lease: float) -> bool:
        """Take a due timer for ``lease`` seconds: True for exactly one caller while it is due."""

    @abc.abstractmethod
    async def subscribe(self, channel: str, pattern: bool = False) -> AsyncIterator[bytes]:
        """Subscribe now; the iterator yields the messages published on ``channel`` (a glob pattern
        such as ``fevga:ev:p:discord:*`` when ``pattern``) from then on."""

    async def close(self) -> None:  # noqa: B027 - optional hook, nothing to release by default
        """Release connections."""
