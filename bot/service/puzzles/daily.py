"""The daily puzzle of a channel: posted at the place's ``puzzle_hour`` (UTC) exactly once a day, answered in
the channel (each player told privately), and the next day's post says what the answer was and how many
solved it (docs/puzzles.md, "Daily puzzle").

Exactly once across instances and crashes: the channel's due member is claimed (a lease), then ONE commit in
the channel's home checks the day's document's version, writes the new day, moves the due time to the next
day and appends the post to the outbox (``bot.service.timers.notice_entry``). A second instance, or the same
one after a crash, finds the day written and only reschedules; a crash after the commit loses nothing (the
outbox entry is delivered by whichever instance consumes it).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from bot.service import keys as service_keys
from bot.service.config import Clock
from bot.service.models import Msg, Place, PlayerRef, Result
from bot.service.reads import read_one
from bot.service.settings import default_game
from bot.service.timers import notice_entry
from bot.storage.base import Commit, Store, split_versioned

from . import keys
from .bank import Bank
from .schedule import DAY, day_of, next_due, parse_hour
from .steps import step_actions
from .trainer import Trainer, judge, puzzle_args

log = logging.getLogger(__name__)
LEASE = 60.0  # seconds a claimed post is left to its instance before another may try
KEEP = 8 * DAY
MAX_ANSWERS = 5000  # answers kept a day per channel (more are judged but not counted)


class Daily:
    """Post, answer and tally the daily puzzles."""

    def __init__(self, store: Store, clock: Clock, bank: Bank, trainer: Trainer) -> None:
        self.store = store
        self.clock = clock
        self.bank = bank
        self.trainer = trainer

    async def load(self, place: Place) -> tuple[int, dict[str, Any]]:
        """The channel's day document and its version (0 and {} before its first post)."""
        raw = await read_one(self.store, lambda r: r.get(keys.daily(place)))
        if raw is None:
            return 0, {}
        version, blob = split_versioned(raw)
        try:
            doc = json.loads(blob)
        except ValueError:
            doc = None
        if not isinstance(doc, dict):
            log.error("the daily puzzle of %s is damaged; starting afresh", place)
            doc = {}
        return version, doc

    async def tick(self, platform: str | None = None, limit: int = 20) -> list[Result]:
        """Post every daily puzzle whose time has come and this instance claims (``platform``'s only, when
        given); the posts are in the outbox already, the results are returned for frontends without one."""
        out: list[Result] = []
        now = self.clock()
        homes = [keys.daily_due(bucket) for bucket in range(service_keys.BUCKETS)]
        for zset, due in zip(homes, await self.store.due_many(homes, now, limit), strict=True):  # one round trip
            for member in due:
                place = keys.member_place(member)
                if place is None:
                    await self.store.commit(Commit().zrem(zset, member))
                    continue
                if platform is not None and place.platform != platform:
                    continue
                if not await self.store.claim(zset, member, now, LEASE):
                    continue
                try:
                    posted = await self.post(place, now)
                except Exception:  # one bad channel must not stop the others; its lease runs out, it is retried
                    log.exception("the daily puzzle of %s failed", member)
                    continue
                if posted is not None:
                    out.append(posted)
        return out

    async def post(self, place: Place, now: float) -> Result | None:
        """Post today's puzzle here unless it is posted already (then only the next due time is set)."""
        settings = await read_one(self.store, lambda r: r.hgetall(service_keys.place_settings(place)))
        hour = parse_hour(settings.get("puzzle_hour"))
        zset, member = keys.daily_due(service_keys.place_bucket(place)), keys.daily_member(place)
        if hour is None:
            await self.store.commit(Commit().zrem(zset, member))
            return None
        day = day_of(now)
        version, doc = await self.load(place)
        if doc.get("day") == day:
            await self.store.commit(Commit().zadd(zset, member, next_due(hour, now)))
            return None
        pid = await self._choose(day, place, str(doc.get("pid", "")), default_game(settings, place))
        if pid is None:
            return None
        found = await self.bank.get(pid)
        if found is None:
            return None
        puzzle, rating = found
        args: dict[str, Any] = {**puzzle_args(puzzle, pid, rating), "day": day}
        messages = [Msg("puzzle_daily", args)]
        if doc.get("pid"):
            who = doc.get("who") or {}
            messages.append(Msg("puzzle_yesterday", {"answer": doc.get("answer", "?"), "tried": len(who),
                                                     "solved": sum(1 for v in who.values() if v)}))
        result = Result(ok=True, messages=messages, actions=step_actions(puzzle, pid, ""), place=place)
        fresh = {"day": day, "pid": pid, "answer": puzzle.answer, "who": {}}
        commit = Commit().expect(keys.daily(place), version)
        commit.put_versioned(keys.daily(place), version + 1, json.dumps(fresh).encode(), KEEP)
        commit.zadd(zset, member, next_due(hour, now))
        if not await self.store.commit(notice_entry(commit, result)):
            return None  # another instance posted it at this very moment
        return result

    async def _choose(self, day: str, place: Place, last: str, kind: str) -> str | None:
        """The day's puzzle here: drawn by a hash of the day and channel (not yesterday's) from the puzzles of
        ``kind``, the place's ``default_game`` (Fevga unless set; ``tavli``: every game's)."""
        every = await self.bank.ids(None if kind == "tavli" else kind)
        ids = [pid for pid in every if pid != last] or every
        if not ids:
            return None
        digest = hashlib.sha256(f"{day}|{place.platform}|{place.channel_id}".encode()).digest()
        return ids[int.from_bytes(digest[:8], "big") % len(ids)]

    async def show(self, place: Place) -> Result:
        """Today's puzzle here again (``puzzle`` typed in a group)."""
        _version, doc = await self.load(place)
        if doc.get("day") != day_of(self.clock()) or not doc.get("pid"):
            return Result.error("puzzle_no_daily")
        found = await self.bank.get(str(doc["pid"]))
        if found is None:
            return Result.error("puzzle_missing")
        puzzle, rating = found
        args = {**puzzle_args(puzzle, str(doc["pid"]), rating), "day": doc["day"]}
        return Result(ok=True, messages=[Msg("puzzle_daily", args)], actions=step_actions(puzzle, str(doc["pid"]), ""),
                      place=place)

    async def today(self, place: Place) -> str | None:
        """The id of today's puzzle here (None when none was posted today)."""
        _version, doc = await self.load(place)
        return str(doc["pid"]) if doc.get("day") == day_of(self.clock()) and doc.get("pid") else None

    async def answered(self, actor: PlayerRef, place: Place) -> Result | None:
        """The "you have answered already" refusal (naming whether he was right, and the best play, for him
        alone) when the actor has answered today's puzzle here; None when he has not."""
        _version, doc = await self.load(place)
        who = doc.get("who") or {}
        if doc.get("day") != day_of(self.clock()) or actor.user_id not in who:
            return None
        key = "puzzle_answered_right" if who[actor.user_id] else "puzzle_answered_wrong"
        return Result.error(key, best=str(doc.get("answer", "?")))

    async def answer(self, actor: PlayerRef, place: Place, text: str) -> Result:
        """Judge an answer to today's puzzle here, count the player's first answer in the day's tally and rate
        it (his first answer to that puzzle anywhere)."""
        for _ in range(8):
            version, doc = await self.load(place)
            if doc.get("day") != day_of(self.clock()) or not doc.get("pid"):
                return Result.error("puzzle_no_daily")
            pid = str(doc["pid"])
            judged = await judge(self.bank, pid, text)
            if isinstance(judged, Result):
                return judged
            puzzle, verdict = judged
            who: dict[str, int] = doc.setdefault("who", {})
            if actor.user_id in who or len(who) >= MAX_ANSWERS:
                break
            who[actor.user_id] = int(verdict.correct)
            commit = Commit().expect(keys.daily(place), version)
            commit.put_versioned(keys.daily(place), version + 1, json.dumps(doc).encode(), KEEP)
            if await self.store.commit(commit):
                break
        else:
            return Result.error("puzzle_busy")
        return Result(ok=True, messages=await self.trainer.judged(actor, puzzle, pid, verdict), place=place)
