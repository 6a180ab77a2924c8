"""Moving a single Redis's keys from the layout before homes (``fevga:{g:<id>}``, ``fevga:{t}:due``, ...) to
the current one (``fevga:{h:<n>}:g:<id>``, per-home timer sets; see keys.py), once, at start-up.

Renames are per key and idempotent (a key already moved is not there any more), so an instance killed
midway finishes on its next start, and two instances starting together do no harm. Old outbox streams and
idempotency records (15 minutes) are left: boards behind are repaired by the outbox consumer's repair
loop. Not for a Redis Cluster (RENAME across slots is refused there; a cluster starts with the new layout).
"""

from __future__ import annotations

import logging
from typing import Any

from redis.exceptions import ResponseError

from . import keys
from .models import Place

log = logging.getLogger(__name__)
OLD_TIMERS = f"{keys.PREFIX}:{{t}}:due"


def new_name(old: str) -> str | None:
    """The current name of a key of the old layout (None: not one to move)."""
    start, end = old.find("{"), old.find("}")
    if start < 0 or end < start:
        return None
    tag, rest = old[start + 1:end], old[end + 1:]
    kind, _, ident = tag.partition(":")
    if not ident:
        return None
    if kind == "g":
        return keys.game(ident) + rest
    if kind == "c":
        return keys.challenge(ident) + rest
    if kind == "ch":
        platform, _, channel = ident.partition(":")
        bucket = keys.place_bucket(Place(platform, "", channel))
        return f"{keys.home(bucket)}:ch:{platform}:{channel}{rest}"
    return None


async def migrate_to_homes(client: Any) -> int:
    """Rename every old-layout game, challenge and channel key and spread the old timer set over the homes'
    sets (``client``: a ``redis.asyncio.Redis`` of a single server); the number of keys moved."""
    moved = 0
    for pattern in (f"{keys.PREFIX}:{{g:*", f"{keys.PREFIX}:{{c:*", f"{keys.PREFIX}:{{ch:*"):
        async for raw in client.scan_iter(match=pattern, count=1000):
            old = raw.decode() if isinstance(raw, bytes) else str(raw)
            new = new_name(old)
            if new is None or new == old:
                continue
            try:
                if await client.renamenx(old, new):
                    moved += 1
            except ResponseError as exc:  # gone meanwhile (another instance moved it)
                log.debug("not moving %s: %s", old, exc)
    timers = await client.zrange(OLD_TIMERS, 0, -1, withscores=True)
    for member, score in timers:
        name = member.decode() if isinstance(member, bytes) else str(member)
        await client.zadd(keys.timers(name), {name: score})
        await client.zrem(OLD_TIMERS, member)
        moved += 1
    if moved:
        log.warning("moved %d keys to the layout with homes (Redis Cluster ready)", moved)
    return moved
