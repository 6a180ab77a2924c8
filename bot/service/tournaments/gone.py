"""Players who left: a player who leaves the server or group (or blocks the bot) is withdrawn from the
events he is in; his running match is judged to his opponent at once and the event goes on
(docs/tournaments.md, "A player who left").

The withdrawal is a compare-and-set of the event like any other edit; then his running match ends (won by
his opponent "by claim", unrated) in a version-checked commit of its session that also writes the notice to
the outbox, and the event is looked at (:meth:`Tournaments.advance`), closing the round if that was its last
match. A crash in between leaves the rest to the next round look: a pair with a player who is gone is
never started, and is judged to his opponent when the round closes.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.service import keys
from bot.service.models import Msg, PlayerRef, Result
from bot.service.reads import read_one
from bot.service.timers import notice_entry

from . import model
from .adjudication import forfeit

if TYPE_CHECKING:
    from .events import Tournaments

log = logging.getLogger(__name__)
SCAN = 10_000
"""Most events one home's due set is read for (every open or running event is on it)."""


async def events_of(events: Tournaments, platform: str) -> list[str]:
    """Every open or running event of ``platform`` (each home's due set lists them)."""
    found = await events.store.read([("ztop", model.due_key(b), SCAN) for b in range(keys.BUCKETS)])
    return [member.partition(":")[0] for rows in found for member, _score in rows
            if member.partition(":")[2] == platform]


async def withdraw(events: Tournaments, who: PlayerRef, scope_id: str | None = None) -> list[str]:
    """Take ``who`` out of every open or running event of his platform (only those made in ``scope_id`` when
    given: the server or group he left); the ids of the events he was taken out of."""
    touched: list[str] = []
    for tid in await events_of(events, who.platform):
        for _ in range(8):  # a lost compare-and-set: read again
            version, t = await events.load(tid)
            if t is None or t.status not in ("open", "running") or t.entrant(who.user_id) is None:
                break
            if (scope_id is not None and t.place.scope_id != scope_id) or who.user_id in t.gone:
                break
            if t.status == "open":
                t.players = [e for e in t.players if e.id != who.user_id]
            else:
                t.gone.append(who.user_id)
                if who.user_id not in t.withdrawn:
                    t.withdrawn.append(who.user_id)
            if await events._save(t, version):
                touched.append(tid)
                break
    for tid in touched:
        try:
            await end_match_of(events, tid, who.user_id)
            await events.advance(tid)  # his match ends now (and the round with it, if it was the last)
        except Exception:  # the next tick does it
            log.exception("tournament %s: judging the match of a player who left failed", tid)
    return touched


async def end_match_of(events: Tournaments, tid: str, user_id: str) -> bool:
    """End the running match of ``user_id`` in event ``tid``'s current round, won by his opponent, with its
    notice in the same commit; False when there is none (not started, or over already)."""
    _version, t = await events.load(tid)
    pair = next((p for p in t.pairs if user_id in (p.a, p.b)), None) if t is not None else None
    if t is None or pair is None or pair.b is None:
        return False
    field = model.slot(t.round, pair.a, pair.b)
    gid = await read_one(events.store, lambda r: r.hget(model.round_games(tid), field))
    for _ in range(8):
        loaded = await events.sessions.load(gid, take=False) if gid else None
        s = loaded.session if loaded is not None else None
        decided = forfeit(t, pair, s)
        if loaded is None or s is None or s.status != "play" or decided is None:
            return False
        # his game ends as his resignation (adjudication.concede); the notice says how: told once
        commit = events._end_match(s, loaded.version, decided[1], end="left")
        told = Result(ok=True, place=t.place, to_notify=[t.ref(decided[0])], messages=[Msg(
            "tournament_adjudicated_gone", {"player0": t.name_of(pair.a), "player1": t.name_of(pair.b),
                                            "winner": t.name_of(decided[0])})])  # fmt: skip
        if await events.store.commit(notice_entry(commit, told)):
            await events.sessions.appliers.finish(s.id)
            return True
    return False
