"""Exactly-once commits with a truthful answer: compact idempotency records, the "key absent" check that
lets one of several instances commit, and resolving a commit whose answer was lost.

Every state-changing commit carries an idempotency key (the platform's, scoped by the frontend, or a
private one made here) with the check "this key is absent" and the write of a compact record. So:

* of several instances handling one update, exactly one commits; the others read the record;
* when a commit's answer is lost (:class:`CommitOutcomeUnknown`), the record tells whether it was applied;
  if it is absent, a *fence* (a tombstone written under the same check) makes sure the lost commit can
  never apply later, so "not applied" is then the truth.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError

from bot.service.button_kinds import ButtonKind
from bot.storage.base import Commit, CommitOutcomeUnknown, DamagedKey, DamagedValue, Store
from bot.storage.bounded import inflate

from . import keys
from .commits import new_id
from .models import Action, Msg, Place, PlayerRef, Result
from .reads import read_one

log = logging.getLogger(__name__)

RECORD_TTL = 900  # seconds an idempotency record is kept (a platform's retries come within minutes)
MARKER_TTL = 120  # a private key (no platform key): only needed to resolve a lost answer
MAX_RECORD = 2048  # stored record bytes; more is damage
TOMBSTONE = b"-"  # "this command was not applied" (a lost commit was fenced off)
MARKER = b"+"  # "applied" (a private key: the caller still has its own answer)
RESOLVE_SECONDS = 20.0  # how long to keep trying to learn a lost commit's outcome
OMITTED_ARGS = ("commitment",)  # rebuilt from the game on replay (64 hex characters do not compress)


class OutcomeUnknown(RedisError):
    """A commit's outcome stayed unknown for ``RESOLVE_SECONDS`` (the store stayed away)."""


@dataclass
class Record:
    """What is needed to answer a command again: its messages, the game it changed (its view and buttons
    are rebuilt from the game), or for a command without a game its buttons and place."""

    ok: bool
    messages: list[Msg] = field(default_factory=list)
    game_id: str | None = None
    error_key: str | None = None
    notify: list[PlayerRef] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    place: Place | None = None
    applied: bool = True  # False: a tombstone (the command was fenced off, never applied)


def encode_record(result: Result) -> bytes:
    """A result as a compact record (a JSON list, zlib-compressed when that is smaller)."""
    data: dict[str, Any] = {"m": [[m.key, {k: v for k, v in m.args.items()
                                           if not (result.game_id and k in OMITTED_ARGS)}] for m in result.messages]}
    if not result.ok:
        data["x"] = 1
    if result.error_key:
        data["e"] = result.error_key
    if result.to_notify:
        data["n"] = [[p.platform, p.user_id, p.name] for p in result.to_notify]
    if result.game_id:
        data["g"] = result.game_id
    else:
        if result.actions:
            data["a"] = [[a.kind.value, a.game_id, a.version, a.label_key, a.payload] for a in result.actions]
        if result.place is not None:
            data["p"] = [result.place.platform, result.place.scope_id, result.place.channel_id]
    body = json.dumps(data, separators=(",", ":")).encode()
    packed = zlib.compress(body, 9)
    return b"z" + packed if len(packed) < len(body) else b"j" + body


def decode_record(raw: bytes) -> Record:
    """Inverse of :func:`encode_record`, bounded; a tombstone or marker too. DamagedValue if unreadable."""
    if raw == TOMBSTONE:
        return Record(ok=False, applied=False)
    if raw == MARKER:
        return Record(ok=True)
    if len(raw) > MAX_RECORD:
        raise DamagedValue("idempotency record too large")
    body = inflate(raw[1:], MAX_RECORD, 8 * MAX_RECORD) if raw[:1] == b"z" else raw[1:]
    try:
        data = json.loads(body) if raw[:1] in (b"z", b"j") else None
        if not isinstance(data, dict):
            raise DamagedValue("not an idempotency record")
        return Record(
            ok=not data.get("x"),
            messages=[Msg(str(k), dict(a)) for k, a in data.get("m", [])],
            game_id=str(data["g"]) if data.get("g") else None,
            error_key=data.get("e"),
            notify=[PlayerRef(str(a), str(b), str(c)) for a, b, c in data.get("n", [])],
            actions=[Action(ButtonKind(k), str(g), int(v), str(label), dict(p)) for k, g, v, label, p in
                     data.get("a", [])],
            place=Place(*(str(x) for x in data["p"])) if data.get("p") else None,
        )
    except DamagedValue:
        raise
    except (ValueError, TypeError, KeyError) as exc:
        raise DamagedValue(f"unreadable idempotency record: {exc}") from None


def scoped_key(actor: PlayerRef, idem: str | None, place: Place | None = None) -> tuple[str, bool]:
    """The record's key for this command (in the home of ``place``, where the command's game lives) and
    whether it is the platform's (answerable again) or private."""
    if idem:
        return keys.idem(actor.platform, idem, place), True
    return keys.idem(actor.platform, "local:" + new_id(), place), False


def mark(commit: Commit, key: str, shared: bool, result: Result, ttl: int = RECORD_TTL) -> Commit:
    """Check that the key is absent and write the record (kept ``ttl``, at most 15 minutes) or the private
    marker in the same commit."""
    commit.expect(key, 0)
    if shared:
        return commit.put(key, encode_record(result), max(1, min(ttl, RECORD_TTL)))
    return commit.put(key, MARKER, MARKER_TTL)


def _optional(key: str) -> bool:
    """Keys whose writes a commit may skip when they are damaged: the timer sets, leaderboards, the "last game
    here" index and a player's running-games index (repaired by later writes); never a session, record or
    check."""
    return key in keys.ALL_TIMERS or (key.startswith(f"{keys.PREFIX}:{{r:") and key.endswith("}:z")) \
        or (key.startswith(f"{keys.PREFIX}:{{ch:") and key.endswith("}:last")) \
        or (key.startswith(f"{keys.PREFIX}:{{u:") and key.endswith("}:games"))


async def robust_commit(store: Store, commit: Commit) -> bool:
    """``store.commit``, but a wrong-typed timer set, leaderboard or last-game index never blocks a game:
    its writes are dropped (logged) and the rest is committed."""
    skipped: set[str] = set()
    while True:
        try:
            return await store.commit(commit)
        except DamagedKey as exc:
            if not _optional(exc.key) or exc.key in skipped:
                raise
            log.error("key %s is damaged (wrong type); committing without writing it", exc.key)
            skipped.add(exc.key)
            commit = Commit(list(commit.checks), [op for op in commit.ops if op[0] in ("pub", "xadd")
                                                  or op[1] not in skipped])


async def commit_once(store: Store, commit: Commit, key: str) -> bool | Record:
    """Commit (with :func:`mark` already applied): True when applied, False when a check failed, or the
    record found when the answer was lost (``Record.applied`` False: it never will be)."""
    try:
        return await robust_commit(store, commit)
    except CommitOutcomeUnknown:
        log.warning("commit answer lost; resolving through %s", key)
        return await resolve(store, key)


async def resolve(store: Store, key: str) -> Record:
    """Learn whether the commit that writes ``key`` was applied, fencing it off if it was not yet."""
    deadline = time.monotonic() + RESOLVE_SECONDS
    delay = 0.05
    while True:
        try:
            raw = await read_one(store, lambda r: r.get(key))
            if raw is not None:
                return decode_record(raw)
            if await store.commit(Commit().expect(key, 0).put(key, TOMBSTONE, RECORD_TTL)):
                log.warning("lost commit fenced off: not applied")
                return Record(ok=False, applied=False)
        except (RedisError, OSError) as exc:  # still unreachable (a lost fence is resolved the same way)
            if time.monotonic() + delay > deadline:
                raise OutcomeUnknown(f"outcome of a commit still unknown: {exc}") from exc
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)
