"""Finding the challenge a player means: by id, else the one in this channel addressed to him (or from him),
else an open one; a challenge meant for someone else is named ("this challenge is for Bob"). And the
challenges a game start supersedes."""

from __future__ import annotations

from typing import Literal

from bot.storage.base import Commit, Store, split_versioned

from . import keys
from .challenge import Challenge, CorruptChallenge
from .models import Place, PlayerRef, Result
from .reads import read_one

Role = Literal["from", "to"]  # who means the challenge: its challenger, or its addressee (or an open one's taker)


async def find_challenge(store: Store, actor: PlayerRef, place: Place, challenge_id: str | None, role: Role,
                         open_ok: bool = True) -> str | Result:
    """Pick the challenge meant: by id, else the one here for (or from) the actor."""
    if challenge_id is not None:
        return challenge_id
    index = await read_one(store, lambda r: r.hgetall(keys.channel_challenges(place)))
    mine, open_, others = [], [], []
    for cid, pair in index.items():
        src, _, dst = pair.partition("|")
        if (role == "from" and src == actor.user_id) or (role == "to" and dst == actor.user_id):
            mine.append(cid)
        elif role == "to" and not dst and src != actor.user_id and open_ok:
            open_.append(cid)
        elif role == "to" and dst and src != actor.user_id:
            others.append(cid)
    found = mine or open_
    if not found and len(others) == 1:  # a challenge here for someone else: say whom
        _version, other = await load_challenge(store, others[0])
        if other is not None and other.to is not None:
            return Result.error("challenge_for_other", player=other.to.name, challenger=other.from_.name)
    if not found:
        return Result.error("no_challenge")
    if len(found) > 1 and not mine:
        return Result.error("several_challenges", count=len(found))
    return found[-1]


async def load_challenge(store: Store, cid: str) -> tuple[int, Challenge | None]:
    """A stored challenge and its version: (0, None) when gone, (-1, None) when corrupt."""
    raw = await read_one(store, lambda r: r.get(keys.challenge(cid)))
    if raw is None:
        return 0, None
    try:
        version, blob = split_versioned(raw)
        return version, Challenge.decode(blob)
    except (CorruptChallenge, ValueError):
        return -1, None


async def challenge_here(store: Store, actor: PlayerRef, place: Place, challenge_id: str | None, role: Role,
                         open_ok: bool = True) -> tuple[int, Challenge] | Result:
    """The challenge the actor means in this channel, with its version, or an error."""
    cid = await find_challenge(store, actor, place, challenge_id, role, open_ok=open_ok)
    if isinstance(cid, Result):
        return cid
    version, ch = await load_challenge(store, cid)
    if ch is None:
        return Result.error("corrupt_challenge" if version < 0 else "no_challenge")
    if not ch.is_here(place):
        return Result.error("wrong_place")
    return version, ch


async def supersede(store: Store, place: Place, humans: list[PlayerRef], commit: Commit) -> None:
    """End the other challenges here from or to the players now starting a game (they could no longer be
    accepted), in the game's commit: their messages say they were superseded."""
    index = await read_one(store, lambda r: r.hgetall(keys.channel_challenges(place)))
    ids = {p.user_id for p in humans}
    ending = {op[1] for op in commit.ops if op[0] == "del"}  # the challenge being accepted, if any
    for cid, pair in index.items():
        src, _, dst = pair.partition("|")
        if (src in ids or dst in ids) and keys.challenge(cid) not in ending:
            version, ch = await load_challenge(store, cid)
            if ch is not None:
                ch.drop(commit, version, "superseded")
