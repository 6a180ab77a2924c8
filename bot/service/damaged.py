"""A way out of damaged games: a channel index entry pointing at a game that is gone (expired) or whose
stored value is damaged is freed, the damaged value kept for a while under an archive key, so the
channel is usable again (``abort`` does it on request; ``challenge`` and new games do it on the way)."""

from __future__ import annotations

import logging

from bot.storage.base import Commit, DamagedKey, Store, split_versioned

from . import keys
from .models import Place
from .once import robust_commit
from .reads import read_one
from .session import decode

log = logging.getLogger(__name__)

ARCHIVE_TTL = 7 * 86400  # a damaged game's raw value is kept this long for inspection


def archive_key(gid: str) -> str:
    """Where a damaged game's raw value is kept (same hash tag as the game)."""
    return f"{keys.game(gid)}:damaged"


def healthy(raw: bytes) -> bool:
    """Whether a stored session decodes (bounded: see ``session.decode``)."""
    try:
        decode(split_versioned(raw)[1])
    except ValueError:
        return False
    return True


async def free_stale(store: Store, place: Place, user_id: str) -> str | None:
    """If the user's game entry here points at a game that is gone or damaged, free the entry (and every
    other entry here naming that game) and archive the damaged value; the freed game id, else None."""
    index = keys.channel_games(place)
    gid = await read_one(store, lambda r: r.hget(index, user_id))  # a damaged index itself is raised
    if gid is None:
        return None
    try:
        raw, wrong_type = await read_one(store, lambda r: r.get(keys.game(gid))), False
    except DamagedKey:
        raw, wrong_type = None, True
    if raw is not None and healthy(raw):
        return None
    everyone = await read_one(store, lambda r: r.hgetall(index))
    commit = Commit()
    if raw is not None:
        log.error("game %s is damaged; archiving it and freeing channel %s", gid, place.channel_id)
        commit.put(archive_key(gid), raw, ARCHIVE_TTL)
    elif wrong_type:
        log.error("game key of %s has the wrong type; deleting it and freeing channel %s", gid, place.channel_id)
    if raw is not None or wrong_type:
        commit.delete(keys.game(gid))
    for uid, named in everyone.items():
        if named == gid:
            commit.hdel(index, uid, only_if=gid)
    member = keys.timer("g", gid, place.platform)
    commit.zrem(keys.timers(member), member)
    await robust_commit(store, commit)
    return gid
