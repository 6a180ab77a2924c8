"""In-process streams with consumer groups for the MemoryStore: the same delivery rules as Redis.

An entry is delivered to one consumer of a group, stays pending for it until acked, and can be taken
over (reclaimed) by another consumer once it has been pending long enough.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from .base import Entry


@dataclass
class _Group:
    """A consumer group: the last delivered position and the pending (unacked) entries."""

    last: tuple[int, int] = (0, 0)
    pending: dict[tuple[int, int], tuple[str, float]] = field(default_factory=dict)  # id -> (consumer, at ms)


def _id(pos: tuple[int, int]) -> str:
    """An entry position as a Redis stream id (``<ms>-<seq>``)."""
    return f"{pos[0]}-{pos[1]}"


def _pos(entry_id: str) -> tuple[int, int]:
    """A Redis stream id as a comparable position."""
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


class MemoryStream:
    """One stream: entries in id order, its groups, and a wake-up for blocked consumers."""

    def __init__(self, clock_ms: Callable[[], int]) -> None:
        self.clock_ms = clock_ms
        self.entries: dict[tuple[int, int], dict[str, bytes]] = {}  # insertion order = id order
        self.groups: dict[str, _Group] = {}
        self.last: tuple[int, int] = (0, 0)
        self.changed = asyncio.Event()

    def add(self, fields: dict[str, bytes | str], maxlen: int) -> str:
        """Append an entry (values stored as bytes, as Redis returns them); trim to ``maxlen`` if > 0."""
        ms = self.clock_ms()
        pos = (ms, 0) if ms > self.last[0] else (self.last[0], self.last[1] + 1)
        self.last = pos
        self.entries[pos] = {k: v.encode() if isinstance(v, str) else bytes(v) for k, v in fields.items()}
        while maxlen > 0 and len(self.entries) > maxlen:
            del self.entries[next(iter(self.entries))]
        self.changed.set()
        self.changed = asyncio.Event()
        return _id(pos)

    def ensure_group(self, name: str) -> None:
        """Create the group ``name`` (from the first entry) unless it exists."""
        self.groups.setdefault(name, _Group())

    def group(self, name: str) -> _Group:
        """The group ``name``; ValueError (as Redis's NOGROUP) when it does not exist."""
        found = self.groups.get(name)
        if found is None:
            raise ValueError(f"NOGROUP no such consumer group {name!r}")
        return found

    def deliver(self, group: str, consumer: str, count: int) -> list[Entry]:
        """New entries for ``group``, now pending for ``consumer``."""
        state = self.group(group)
        out: list[Entry] = []
        now = float(self.clock_ms())
        for pos, fields in self.entries.items():
            if len(out) >= count:
                break
            if pos > state.last:
                state.last = pos
                state.pending[pos] = (consumer, now)
                out.append((_id(pos), dict(fields)))
        return out

    def ack(self, group: str, ids: tuple[str, ...]) -> int:
        """Forget pending entries; the number that were pending."""
        state = self.group(group)
        return sum(state.pending.pop(_pos(i), None) is not None for i in ids)

    def touch(self, group: str, consumer: str, ids: tuple[str, ...]) -> None:
        """Pending entries now pending for ``consumer`` with their idle time restarted (XCLAIM ... JUSTID)."""
        state = self.group(group)
        now = float(self.clock_ms())
        for pos in map(_pos, ids):
            if pos in state.pending:
                state.pending[pos] = (consumer, now)

    def reclaim(self, group: str, consumer: str, min_idle_ms: int, count: int) -> list[Entry]:
        """Pending entries idle for ``min_idle_ms`` or more, now pending for ``consumer``; entries trimmed
        away meanwhile leave the pending list (as XAUTOCLAIM does)."""
        state = self.group(group)
        now = float(self.clock_ms())
        out: list[Entry] = []
        for pos in sorted(state.pending):
            if len(out) >= count:
                break
            if now - state.pending[pos][1] < min_idle_ms:
                continue
            if pos not in self.entries:
                del state.pending[pos]
                continue
            state.pending[pos] = (consumer, now)
            out.append((_id(pos), dict(self.entries[pos])))
        return out
