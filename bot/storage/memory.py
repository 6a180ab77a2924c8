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

from .base import MAX_VERSION_DIGITS, Commit, DamagedKey, Entry, Read, Store, split_versioned
from .memory_streams import MemoryStream

_NEEDS = {"set": "string", "hset": "hash", "hdel": "hash", "zadd": "zset", "zrem": "zset", "xadd": "stream"}


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
    kind = "memory"

    def __init__(self, clock: Any = time.time) -> None:
        self.clock = clock
        self.strings: dict[str, tuple[bytes, float]] = {}  # key -> (value, expires at or 0)
        self.hashes: dict[str, dict[str, str]] = {}
        self.zsets: dict[str, _SortedSet] = {}
        self.streams: dict[str, MemoryStream] = {}
        self.queues: dict[str, list[asyncio.Queue[bytes]]] = {}
        self.patterns: set[str] = set()

    def _type(self, key: str) -> str:
        """The Redis type of ``key`` ("none" when absent or empty)."""
        if self._get(key) is not None:
            return "string"
        if self.hashes.get(key):
            return "hash"
        zset = self.zsets.get(key)
        if zset is not None and zset.scores:
            return "zset"
        return "stream" if key in self.streams else "none"

    def _need(self, key: str, kind: str) -> None:
        """Raise DamagedKey (as Redis's WRONGTYPE) unless ``key`` is absent or of type ``kind``."""
        if self._type(key) not in ("none", kind):
            raise DamagedKey(key)

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
            self._need(key, "string" if kind in ("get", "head")
                       else "hash" if kind in ("hget", "hgetall", "via") else "zset")
            if kind == "get":
                out.append(self._get(key))
            elif kind == "head":
                value = self._get(key)
                out.append(value[: MAX_VERSION_DIGITS + 1] if value else None)
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
                target = f"{req[3]}{found}{req[4]}"
                if found is not None:
                    self._need(target, "string")
                out.append([found, None if found is None else self._get(target)])
            elif kind == "zcard":
                out.append(len(self.zsets[key].scores) if key in self.zsets else 0)
            elif kind == "due":
                out.append(self.zsets[key].due(req[2], req[3]) if key in self.zsets else [])
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

    def _validate(self, commit: Commit) -> None:
        """Everything the Redis commit script checks before its first write: each key's type (tracked
        through the ops in order) and each input. Raise DamagedKey / ValueError; change nothing."""
        planned: dict[str, str] = {}

        def fits(key: str, kind: str) -> None:
            if planned.setdefault(key, self._type(key)) not in ("none", kind):
                raise DamagedKey(key)

        for check in commit.checks:
            fits(check[1], "string" if check[0] == "v" else "hash")
        for n, op in enumerate(commit.ops, 1):
            kind = op[0]
            if kind == "pub":
                continue
            if kind == "del":
                planned[op[1]] = "none"
                continue
            if kind not in _NEEDS:
                raise ValueError(f"malformed commit op #{n}: {kind!r}")
            fits(op[1], _NEEDS[kind])
            bad = (kind == "set" and not (isinstance(op[3], int) and op[3] >= 0)) or (
                kind == "zadd" and op[3] != op[3]) or (
                kind == "xadd" and (not op[2] or not isinstance(op[3], int) or op[3] < 0))
            if bad:
                raise ValueError(f"malformed commit op #{n}: {kind!r}")
            if kind in ("set", "hset", "zadd", "xadd"):
                planned[op[1]] = _NEEDS[kind]

    async def commit(self, commit: Commit) -> bool:
        self._validate(commit)
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
                for table in (self.strings, self.hashes, self.zsets, self.streams):
                    table.pop(op[1], None)
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
            elif kind == "xadd":
                self._stream(op[1]).add(op[2], op[3])
            elif kind == "pub":
                for queue in self.queues.get(op[1], []):
                    queue.put_nowait(op[2])
                for pattern in self.patterns:
                    if fnmatch.fnmatchcase(op[1], pattern):
                        for queue in self.queues.get(pattern, []):
                            queue.put_nowait(op[2])
        return True

    def _stream(self, key: str) -> MemoryStream:
        """The stream at ``key``, created empty when missing (as XADD / MKSTREAM do)."""
        if key not in self.streams:
            self.streams[key] = MemoryStream(lambda: int(self.clock() * 1000))
        return self.streams[key]

    async def ensure_group(self, stream: str, group: str) -> None:
        self._need(stream, "stream")
        self._stream(stream).ensure_group(group)

    async def consume(self, stream: str, group: str, consumer: str, count: int = 10,
                      block_ms: int = 0) -> list[Entry]:
        self._need(stream, "stream")
        if stream not in self.streams:
            raise ValueError(f"NOGROUP no stream {stream!r}")
        state = self.streams[stream]
        got = state.deliver(group, consumer, count)
        if got or block_ms <= 0:
            return got
        try:
            await asyncio.wait_for(state.changed.wait(), block_ms / 1000)
        except TimeoutError:
            return []
        return state.deliver(group, consumer, count)

    async def ack(self, stream: str, group: str, *ids: str) -> int:
        self._need(stream, "stream")
        return self.streams[stream].ack(group, ids) if stream in self.streams else 0

    async def reclaim(self, stream: str, group: str, consumer: str, min_idle_ms: int,
                      count: int = 10) -> list[Entry]:
        self._need(stream, "stream")
        if stream not in self.streams:
            raise ValueError(f"NOGROUP no stream {stream!r}")
        return self.streams[stream].reclaim(group, consumer, min_idle_ms, count)

    async def touch(self, stream: str, group: str, consumer: str, *ids: str) -> None:
        self._need(stream, "stream")
        if stream in self.streams:
            self.streams[stream].touch(group, consumer, ids)

    async def scan(self, pattern: str) -> list[str]:
        every = {*self.strings, *self.hashes, *self.zsets, *self.streams}
        return sorted(k for k in every if fnmatch.fnmatchcase(k, pattern) and self._type(k) != "none")

    async def due(self, key: str, now: float, limit: int) -> list[str]:
        self._need(key, "zset")  # a damaged set answers as Redis's WRONGTYPE does
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
