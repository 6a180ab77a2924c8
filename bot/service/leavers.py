"""A player who left a server or group: his ordinary matches there end at once instead of waiting for someone
who cannot come back (tournament matches are judged by bot/service/tournaments/gone.py first).

A match between two people ends as his resignation of the whole match (his opponent wins, rated as a
resignation is), or, before both players have moved, is called off as a resignation then is; a match against
the AI is called off. Each end is a version-checked commit of the session that also writes the verdict to the
outbox (a notice, drawn with the final board, like a timer's), so of two instances told of the same departure
exactly one ends each match: the other finds it over. His challenges there, and those addressed to him, are
withdrawn the same way (their messages say so through the outbox)."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from bot.storage.base import Commit, Store

from . import fairness, keys
from .challenge_find import load_challenge
from .commits import Change
from .flow import MatchFlow
from .models import Msg, Place, PlayerRef
from .reads import Reads, read_one
from .session import Session
from .sessions import Sessions
from .timers import notice_entry

log = logging.getLogger(__name__)
TRIES = 8  # a lost compare-and-set (a move at the same moment): read again


def _scope_of(entry: str) -> tuple[str, str]:
    """(scope id, channel id) of a running-games index entry (``[platform, scope, channel, opponent]``)."""
    try:
        found = json.loads(entry)
        return str(found[1]), str(found[2])
    except (ValueError, TypeError, IndexError, KeyError):
        return "", ""


class Leavers:
    """Ends the running matches and withdraws the challenges of a player who left a server or group."""

    def __init__(self, store: Store, sessions: Sessions, flow: MatchFlow) -> None:
        self.store = store
        self.sessions = sessions
        self.flow = flow

    async def leave(self, who: PlayerRef, scope_id: str, channels: Sequence[str] = ()) -> list[str]:
        """End ``who``'s running matches in server or group ``scope_id`` and withdraw his challenges there (in
        the channels he plays in, the scope's own and ``channels``: those the frontend knows); the ids of the
        matches this call ended."""
        index = await read_one(self.store, lambda r: r.hgetall(keys.player_games(who.platform, who.user_id)))
        here = {gid: _scope_of(entry) for gid, entry in index.items()}
        ended: list[str] = []
        for gid in sorted(gid for gid, (scope, _channel) in here.items() if scope == scope_id):
            try:
                if await self._end(gid, who, scope_id):
                    ended.append(gid)
            except Exception:  # one damaged match must not keep the others open
                log.exception("ending match %s of %s, who left %s, failed", gid, who.user_id, scope_id)
        rooms = {scope_id, *channels, *(channel for scope, channel in here.values() if scope == scope_id)}
        await self._withdraw(who, [Place(who.platform, scope_id, c) for c in sorted(rooms) if c])
        if ended:
            log.info("%s left %s: matches %s ended", who.user_id, scope_id, ", ".join(ended))
        return ended

    async def _end(self, gid: str, who: PlayerRef, scope_id: str) -> bool:
        """End one match as the leaver's resignation (or call it off); False when it is over already."""
        for _ in range(TRIES):
            loaded = await self.sessions.load(gid)
            s = loaded.session
            seat = s.seat_of(who) if s is not None else None
            if s is None or seat is None or s.status != "play" or s.place.scope_id != scope_id:
                return False
            change = await self._verdict(s, seat)
            s.turn_version = loaded.version + 1
            result = self.sessions.result(s, loaded.version + 1, change.messages, change.notify)
            notice_entry(change.extra, result)  # the verdict, posted with the final board (no handler draws it)
            if await self.sessions.save(s, loaded.version, change, result) is not None:
                return True
        return False

    async def _verdict(self, s: Session, seat: int) -> Change:
        """The change that ends the match of the player in ``seat``, who left."""
        name = s.players[seat].name
        if s.ai_level is not None or not fairness.both_moved(s):  # nothing to win yet, or nobody to win it
            change = Change(kind="aborted")
            self.flow.abort(s, change, Msg("left_game_aborted", {"player": name}))
            s.end = "left"  # called off because he left: no rematch with someone gone either
        else:
            change = Change(kind="resign")
            s.game.resign(seat)
            change.messages.append(Msg("left_game_resigned", {"player": name}))
            self.flow.game_over(s, change, whole_match=True, end="left")  # no rematch with someone gone
            await self.flow.advance(s, change)
            await self.flow.rate(s, change)
        if not s.is_ai(seat ^ 1):
            change.notify.append(s.players[seat ^ 1])
        return change

    async def _withdraw(self, who: PlayerRef, places: list[Place]) -> None:
        """Withdraw the challenges from or to ``who`` in ``places``: each message says he left."""
        reads = Reads()
        found = [(place, reads.hgetall(keys.channel_challenges(place))) for place in places]
        await reads.run(self.store)
        for place, index in found:
            for cid, pair in index.value.items():
                src, _, dst = pair.partition("|")
                if who.user_id not in (src, dst):
                    continue
                version, ch = await load_challenge(self.store, cid)
                if ch is not None and ch.is_here(place):  # taken or ended meanwhile: its version says so
                    await self.store.commit(ch.drop(Commit(), version, "gone", who.name))
