"""An in-process store with the same semantics as the Redis one, for when no Redis is available.

Nothing survives a restart and it cannot be shared by several bot instances: :func:`bot.storage.open_store`
warns loudly when it falls back to it. Every method runs without awaiting in the middle, so each commit
is atomic on the event loop.
"""

from __future__ import annotations

import asyncio
import bisect
import fnmatch
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

from .base import Commit, Read, Store, split_versioned


class _SortedSet:
    """A sorted set: member -> score plus a list ordered by (-score, member) for rank in O(log n)."""

    def __init__(self) -> None:
        self.scores: dict[str, float] = {}
        self.order: list[tuple[float, str]] = []

    def add(self, member: str, score: float) -> None:
        self.remove(member)
        self.scores[member] = score
        bisect.insort(self.order, (-score, member))

    def remove(self, member: str) -> None:
        old = self.scores.pop(member, None)
        if old is not None:
            i = bisect.bisect_left(self.order, (-old, member))
            del self.order[i]

    def rank(self, member: str) -> int | None:
        score = self.scores.get(member)
        if score is None:
            return None
        return bisect.bisect_left(self.order, (-score, member))

    def top(self, n: int) -> list[tuple[str, float]]:
        return [(m, -s) for s, m in self.order[:n]]

    def due(self, now: float, limit: int) -> list[str]:
        items = sorted((s, m) for m, s in self.scores.items() if s <= now)
        return [m for _, m in items[:limit]]


class MemoryStore(Store):
    """Dicts in this process; honours TTLs lazily. For a single instance only."""

    durable = False

    def __init__(self, clock: Any = time.time) -> None:
        self.clock = clock
        self.strings: dict[str, tuple[bytes, float]] = {}  # key -> (value, expires at or 0)
        self.hashes: dict[str, dict[str, str]] = {}
        self.zsets: dict[str, _SortedSet] = {}
        self.queues: dict[str, list[asyncio.Queue[bytes]]] = {}
        self.patterns: set[str] = set()

    def _get(self, key: str) -> bytes | None:
        item = self.strings.get(key)
        if item is None:
            return None
        value, expires = item
        if expires and expires <= self.clock():
            del self.strings[key]
            return None
        return value

    def _zset(self, key: str) -> _SortedSet:
        return self.zsets.setdefault(key, _SortedSet())

    async def read(self, requests: Sequence[Read]) -> list[Any]:
        out: list[Any] = []
        for req in requests:
            kind, key = req[0], req[1]
            if kind == "get":
                out.append(self._get(key))
            elif kind == "hget":
                out.append(self.hashes.get(key, {}).get(req[2]))
            elif kind == "hgetall":
                out.append(dict(self.hashes.get(key, {})))
            elif kind == "ztop":
                out.append(self.zsets[key].top(req[2]) if key in self.zsets else [])
            elif kind == "zrank":
                out.append(self.zsets[key].rank(req[2]) if key in self.zsets else None)
            elif kind == "zscore":
                out.append(self.zsets[key].scores.get(req[2]) if key in self.zsets else None)
            elif kind == "via":
                found = self.hashes.get(key, {}).get(req[2])
                out.append([found, None if found is None else self._get(f"{req[3]}{found}{req[4]}")])
            elif kind == "zcard":
                out.append(len(self.zsets[key].scores) if key in self.zsets else 0)
            else:
                raise ValueError(f"unknown read {kind!r}")
        return out

    def _version(self, key: str) -> int:
        raw = self._get(key)
        if raw is None:
            return 0
        try:
            return split_versioned(raw)[0]
        except ValueError:
            return -1

    async def commit(self, commit: Commit) -> bool:
        for check in commit.checks:
            if check[0] == "v" and self._version(check[1]) != check[2]:
                return False
            if check[0] == "h" and check[2] in self.hashes.get(check[1], {}):
                return False
        now = self.clock()
        for op in commit.ops:
            kind = op[0]
            if kind == "set":
                self.strings[op[1]] = (op[2], now + op[3] if op[3] else 0.0)
            elif kind == "del":
                self.strings.pop(op[1], None)
            elif kind == "hset":
                self.hashes.setdefault(op[1], {})[op[2]] = op[3]
            elif kind == "hdel":
                fields = self.hashes.get(op[1], {})
                if op[2] in fields and (not op[3] or fields[op[2]] == op[3]):
                    del fields[op[2]]
            elif kind == "zadd":
                self._zset(op[1]).add(op[2], op[3])
            elif kind == "zrem":
                self._zset(op[1]).remove(op[2])
            elif kind == "pub":
                for queue in self.queues.get(op[1], []):
                    queue.put_nowait(op[2])
                for pattern in self.patterns:
                    if fnmatch.fnmatchcase(op[1], pattern):
                        for queue in self.queues.get(pattern, []):
                            queue.put_nowait(op[2])
        return True

    async def due(self, key: str, now: float, limit: int) -> list[str]:
        return self.zsets[key].due(now, limit) if key in self.zsets else []

    async def claim(self, key: str, member: str, now: float, lease: float) -> bool:
        zset = self.zsets.get(key)
        score = zset.scores.get(member) if zset else None
        if zset is None or score is None or score > now:
            return False
        zset.add(member, now + lease)
        return True

    async def subscribe(self, channel: str, pattern: bool = False) -> AsyncIterator[bytes]:
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        self.queues.setdefault(channel, []).append(queue)
        if pattern:
            self.patterns.add(channel)

        async def messages() -> AsyncIterator[bytes]:
            try:
                while True:
                    yield await queue.get()
            finally:
                self.queues[channel].remove(queue)

        return messages()
