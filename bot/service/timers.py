"""Timers acted on exactly once across bot instances: challenge expiry, turn reminders, deadlines.

Timers sit in :data:`keys.TIMER_BUCKETS` sorted sets (member ``c:<challenge>`` or ``g:<game>``, score = due
time; the bucket is a CRC of the member), spread over the Redis Cluster's slots. Any instance may call
:meth:`Timers.tick`, which walks every bucket (each instance from its own starting bucket); a due member
is first *claimed* (its score pushed a lease
ahead, atomically, so one instance gets it), then its effect is a version-checked commit, so a timer
that races a move, or two instances, can never act twice. A crashed claimer's lease simply runs out.
The notice of a timer is written to the platform's outbox in that same commit (see ``bot/delivery``), so it
is delivered exactly once even when the instance dies right after the commit.
"""

from __future__ import annotations

import logging
import secrets

from bot.storage.base import Commit, Store
from bot.storage.outage import is_outage

from . import keys
from .challenges import Challenges
from .commits import Change, next_timer
from .config import Clock, Options
from .flow import MatchFlow
from .models import Msg, Result
from .result_codec import encode_result
from .sessions import Sessions

log = logging.getLogger(__name__)
BATCH = 100
SPILL_SWEEP_SECONDS = 300.0


class Timers:
    """tick: claim due timers and act on them (expire a challenge, remind a player, pass a deadline)."""

    def __init__(self, store: Store, clock: Clock, options: Options, sessions: Sessions, flow: MatchFlow,
                 challenges: Challenges) -> None:
        self.store = store
        self.clock = clock
        self.options = options
        self.sessions = sessions
        self.flow = flow
        self.challenges = challenges
        self._turn = secrets.randbelow(keys.TIMER_BUCKETS)
        self._next_sweep = 0.0

    async def tick(self, platform: str | None = None) -> list[Result]:
        """Act on every due timer this instance manages to claim (only ``platform``'s, when given, so that
        each frontend gets the notices of its own chats); the results are notices to post."""
        now = self.clock()
        out: list[Result] = []
        try:
            await self.sessions.appliers.sweep()  # ratings of matches whose committer died (appliers.py)
            if now >= self._next_sweep:  # commits split across Cluster slots whose writer died (rare: SCAN)
                self._next_sweep = now + SPILL_SWEEP_SECONDS
                await self.store.sweep()
        except Exception as exc:  # never blocks the timers
            if not is_outage(exc):
                log.exception("sweeping pending writes failed")  # (a store that is down: the tick says it, once)
        start = self._turn = (self._turn + 1) % keys.TIMER_BUCKETS  # instances start at different buckets
        zsets = [keys.timers_bucket((start + bucket) % keys.TIMER_BUCKETS) for bucket in range(keys.TIMER_BUCKETS)]
        for zset, due in zip(zsets, await self.store.due_many(zsets, now, BATCH), strict=True):
            if due:
                out += await self._tick_bucket(zset, due, now, platform)
        return out

    async def _tick_bucket(self, zset: str, due: list[str], now: float, platform: str | None) -> list[Result]:
        """Claim and act on the due timers ``due`` of one bucket."""
        out: list[Result] = []
        for member in due:
            if platform is not None and member.rpartition(":")[2] != platform:
                continue
            if not await self.store.claim(zset, member, now, self.options.timer_lease):
                continue
            try:
                result = await self._fire(member, now)
            except Exception:  # one bad timer must not stop the others; its lease expires, it is retried
                log.exception("timer %s failed", member)
                continue
            if result is not None:
                out.append(result)
        return out

    async def _fire(self, member: str, now: float) -> Result | None:
        """Act on one claimed timer member (an unknown kind is dropped)."""
        kind, _, rest = member.partition(":")
        ident = rest.partition(":")[0]
        if kind == "c":
            return await self._expire_challenge(ident, now, member)
        if kind == "g":
            return await self._game_timer(ident, now, member)
        await self.store.commit(Commit().zrem(keys.timers(member), member))
        return None

    async def _expire_challenge(self, cid: str, now: float, member: str) -> Result | None:
        """Delete a challenge whose time is up and tell its challenger (not if it was taken meanwhile)."""
        version, ch = await self.challenges.load(cid)
        if ch is None:
            await self.store.commit(Commit().zrem(keys.timers(member), member))
            return None
        if now < ch.expires:
            await self.store.commit(Commit().zadd(keys.timers(member), member, ch.expires))
            return None
        result = Result(ok=True, messages=[Msg("challenge_expired", {"player": ch.from_.name, "challenge_id": cid})],
                        to_notify=[ch.from_], place=ch.place)
        if not await self.store.commit(notice_entry(ch.drop(Commit(), version, "expired"), result)):
            return None  # accepted or cancelled at the same moment: nothing expired
        return result

    async def _game_timer(self, gid: str, now: float, member: str) -> Result | None:
        """A turn reminder, or the deadline passing (the AI's human opponent then loses by timeout)."""
        loaded = await self.sessions.load(gid)
        s, version = loaded.session, loaded.version
        if s is None:
            await self.store.commit(Commit().zrem(keys.timers(member), member))
            return None
        due = next_timer(s, self.options.reminder_fractions)
        if due is None or now < due:
            commit = Commit().expect(keys.game(gid), version)
            zset = keys.timers(member)
            commit.zadd(zset, member, due) if due is not None else commit.zrem(zset, member)
            await self.store.commit(commit)
            return None
        mover = s.game.turn
        change = Change(kind="timer")
        if now >= s.deadline:
            if s.ai_level is not None:  # nobody to claim for the AI: the absent human resigns
                change = await self.flow.claim(s, mover)
            else:
                s.expired = True
                change.messages.append(Msg("deadline_passed", {"player": s.players[mover].name,
                                                               "waiting": s.players[mover ^ 1].name}))
                change.notify.append(s.players[mover ^ 1])
        else:
            while s.reminded < len(self.options.reminder_fractions) and \
                    now >= s.turn_start + self.options.reminder_fractions[s.reminded] * s.deadline_secs:
                s.reminded += 1
            left = s.deadline - now
            args = {"player": s.players[mover].name, "left": int(left),  # seconds, worded by the catalogue
                    "hours": int(left // 3600), "minutes": int(left % 3600 // 60)}
            change.messages.append(Msg("turn_reminder", args))
            change.notify.append(s.players[mover])
        result = self.sessions.result(s, version + 1, change.messages, change.notify)
        notice_entry(change.extra, result)
        if await self.sessions.save(s, version, change, result):
            return result
        return None  # a move got there first; the timer was reset by it


def notice_entry(commit: Commit, result: Result) -> Commit:
    """Add a timer's notice to its platform's outbox, in the commit that makes the timer's effect."""
    if result.place is not None:
        bucket = keys.id_bucket(result.game_id) if result.game_id else keys.place_bucket(result.place)
        commit.xadd(keys.outbox(result.place.platform, bucket), {"k": "notice", "result": encode_result(result)})
    return commit
