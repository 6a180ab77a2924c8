"""A paired match that cannot start because a player is still in another match in the event's channel (one
match per player and channel): who keeps it waiting, the notice that tells the pair (once), and the verdict
when it has still not started at the round's deadline (docs/tournaments.md, "Deadlines and adjudication").

The match is tried again at every look (every 60 s, and when a match in the channel ends). Each failed try
writes who was busy to the event's waits hash (``...:t:<id>:waits``, slot -> ids), in the event's home; the
first one also writes the notice to the outbox in the same commit, so the pair is told once, whichever
instance tried. Both commits check that the match's slot in the games hash is still free (same home).
"""

from __future__ import annotations

from bot.service import keys
from bot.service.models import Msg, Result
from bot.service.timers import notice_entry
from bot.storage.base import Commit, Store

from .model import Pair, Tournament, round_games, round_waits

BUSY_ERRORS = ("already_in_game_here", "opponent_in_game_here")
"""What :meth:`Challenges.start` answers when a player of the pair has a running match in the channel."""


async def note_busy(store: Store, t: Tournament, pair: Pair, field: str) -> list[str]:
    """Record who of ``pair`` is in another match in the event's channel now (and tell the pair, the first
    time); the busy players' ids (empty: nobody is, the start failed for another reason)."""
    assert pair.b is not None
    found = await store.read([("hget", keys.channel_games(t.place), p) for p in (pair.a, pair.b)])
    busy = [p for p, gid in zip((pair.a, pair.b), found, strict=True) if gid]
    if not busy:
        return busy
    key, value = round_waits(t.id), ",".join(busy)
    first = Commit().field_free(round_games(t.id), field).field_free(key, field).hset(key, field, value)
    names = [t.name_of(p) for p in busy]
    told = Msg("tournament_match_waits_both" if len(busy) == 2 else "tournament_match_waits", {
        "round": t.round, "player0": t.name_of(pair.a), "player1": t.name_of(pair.b), "busy": names[0]})  # fmt: skip
    notice_entry(first, Result(ok=True, place=t.place, messages=[told], to_notify=[t.ref(pair.a), t.ref(pair.b)]))
    if not await store.commit(first):  # told before: only who is busy now
        await store.commit(Commit().field_free(round_games(t.id), field).hset(key, field, value))
    return busy


def verdict(t: Tournament, pair: Pair, busy: list[str]) -> tuple[str | None, Msg] | None:
    """The result of a match of ``pair`` that never started, by who was busy at its last try: the busy player
    loses to the other; both busy, both lose. None when nobody was recorded busy (judged as before)."""
    assert pair.b is not None
    busy = [p for p in busy if p in (pair.a, pair.b)]
    if not busy:
        return None
    args = {"player0": t.name_of(pair.a), "player1": t.name_of(pair.b)}
    if len(set(busy)) == 2:
        return None, Msg("tournament_adjudicated_both_busy", args)
    winner = pair.b if busy[0] == pair.a else pair.a
    return winner, Msg("tournament_adjudicated_busy", {**args, "winner": t.name_of(winner),
                                                       "loser": t.name_of(busy[0])})  # fmt: skip
