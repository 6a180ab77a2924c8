"""Splitting a commit whose keys span Redis Cluster slots into an atomic home part and spilled parts.

The *home* slot is the slot of the commit's first check (else of its first write): every check and write
there, plus a pending record of the rest (``<home key>:pending`` hash, one field per spilled commit),
commit atomically. Each other slot's checks and writes then commit in their slot together with a marker
key (``<first key of the part>:spill:<id>``, so a part applies at most once), and the pending field is
dropped. A crash in between leaves the pending record, which the store's ``sweep`` finishes. Checks in
spilled parts can only refuse their own part (logged): the service keeps every check of a hot-path
commit in its home slot (see bot/service/keys.py).
"""

from __future__ import annotations

import base64
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .base import Commit

PENDING_SUFFIX = ":spill-pending"
PENDING_PATTERN = "*:spill-pending"


def beside(key: str, suffix: str) -> str:
    """A key in the same slot as ``key``: ``key + suffix`` when it has a hash tag, else tagged with it."""
    start = key.find("{")
    end = key.find("}", start + 1) if start >= 0 else -1
    return key + suffix if end > start + 1 else "{" + key + "}" + suffix


@dataclass
class Part:
    """The checks and writes of one spilled slot, and the marker that makes applying them idempotent."""

    checks: list[tuple[Any, ...]]
    ops: list[tuple[Any, ...]]
    marker: str


@dataclass
class Spill:
    """The spilled parts of one commit and where its pending record lives."""

    pending_key: str
    field: str
    created: float
    parts: list[Part]

    def encode(self) -> str:
        """The pending record (JSON; bytes values in base64)."""
        return json.dumps({"t": self.created, "p": [[_pack(p.checks), _pack(p.ops), p.marker] for p in self.parts]},
                          separators=(",", ":"))

    @classmethod
    def decode(cls, key: str, name: str, blob: str) -> Spill | None:
        """A pending record read back (None when unreadable)."""
        try:
            data = json.loads(blob)
            parts = [Part(_unpack(c), _unpack(o), str(m)) for c, o, m in data["p"]]
            return cls(key, name, float(data["t"]), parts)
        except (ValueError, TypeError, KeyError):
            return None


@dataclass
class Plan:
    """A commit as the cluster store runs it: the home part, and what spills (None: one slot)."""

    home: Commit
    spill: Spill | None


def _pack(items: list[tuple[Any, ...]]) -> list[list[Any]]:
    """Tuples with bytes inside, as JSON-safe lists."""
    out = []
    for item in items:
        row: list[Any] = []
        for x in item:
            if isinstance(x, bytes):
                row.append({"b": base64.b64encode(x).decode()})
            elif isinstance(x, dict):
                row.append({"d": {k: base64.b64encode(v if isinstance(v, bytes) else str(v).encode()).decode()
                                  for k, v in x.items()}})
            else:
                row.append(x)
        out.append(row)
    return out


def _unpack(rows: list[list[Any]]) -> list[tuple[Any, ...]]:
    """Inverse of :func:`_pack` (stream fields come back as bytes)."""
    out = []
    for row in rows:
        items: list[Any] = []
        for x in row:
            if isinstance(x, dict) and "b" in x:
                items.append(base64.b64decode(x["b"]))
            elif isinstance(x, dict) and "d" in x:
                items.append({k: base64.b64decode(v) for k, v in x["d"].items()})
            else:
                items.append(x)
        out.append(tuple(items))
    return out


def split_commit(commit: Commit, slot_of: Callable[[str], int]) -> Plan:
    """Split ``commit`` by slot (publishes stay home); a one-slot commit is returned as it is."""
    keyed = [c[1] for c in commit.checks] + [op[1] for op in commit.ops if op[0] != "pub"]
    if not keyed:
        return Plan(commit, None)
    home_slot = slot_of(keyed[0])
    slots = {key: slot_of(key) for key in keyed}
    if all(s == home_slot for s in slots.values()):
        return Plan(commit, None)
    home = Commit()
    parts: dict[int, Part] = {}
    spill_id = f"{int(time.time() * 1000)}-{secrets.token_hex(4)}"

    def part(key: str) -> Part:
        slot = slots[key]
        if slot not in parts:
            parts[slot] = Part([], [], beside(key, f":spill:{spill_id}"))
        return parts[slot]

    for check in commit.checks:
        (home.checks if slots[check[1]] == home_slot else part(check[1]).checks).append(check)
    for op in commit.ops:
        if op[0] == "pub" or slots[op[1]] == home_slot:
            home.ops.append(op)
        else:
            part(op[1]).ops.append(op)
    spill = Spill(beside(keyed[0], PENDING_SUFFIX), spill_id, time.time(), list(parts.values()))
    home.hset(spill.pending_key, spill.field, spill.encode())
    return Plan(home, spill)


_WANTS = {"set": "string", "hset": "hash", "hdel": "hash", "zadd": "zset", "zrem": "zset", "xadd": "stream"}
_SETS = {"set", "hset", "zadd", "xadd"}  # ops that give an absent key its type


def validate_inputs(commit: Commit) -> None:
    """The commit script's input checks, in Python (for commits split across slots): ValueError naming the
    first malformed op, as the script reports it."""
    for n, op in enumerate(commit.ops, 1):
        kind = op[0]
        ok = True
        if kind == "set":
            ok = isinstance(op[3], int) and not isinstance(op[3], bool) and 0 <= op[3] < 10**15
        elif kind == "zadd":
            ok = isinstance(op[3], int | float) and op[3] == op[3]  # not NaN
        elif kind == "xadd":
            ok = bool(op[2]) and isinstance(op[3], int) and 0 <= op[3] < 10**15
        elif kind not in ("del", "hset", "hdel", "zrem", "pub"):
            ok = False
        if not ok:
            raise ValueError(f"malformed commit op #{n}: {op[:2]!r}")


def first_wrong_type(checks: list[tuple[Any, ...]], ops: list[tuple[Any, ...]], found: dict[str, Any]) -> str | None:
    """The first key whose stored type (``found``: key -> TYPE answer) does not fit what the checks and ops
    do with it, tracking types through the ops in order as the commit script does; None when all fit."""
    planned = {key: str(kind) for key, kind in found.items()}

    def fits(key: str, want: str) -> bool:
        return planned.get(key, "none") in ("none", want)

    for check in checks:
        if not fits(check[1], "string" if check[0] == "v" else "hash"):
            return str(check[1])
    for op in ops:
        kind, key = op[0], op[1]
        if kind == "del":
            planned[key] = "none"
        elif kind in _WANTS:
            if not fits(key, _WANTS[kind]):
                return str(key)
            if kind in _SETS:
                planned[key] = _WANTS[kind]
    return None
