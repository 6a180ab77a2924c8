"""Timers acted on exactly once across bot instances, and the event stream for frontends.

All timers sit in one sorted set (member ``c:<challenge>`` or ``g:<game>``, score = due time). Any
instance may call :meth:`TimerMixin.tick`; a due member is first *claimed* (its score pushed a lease
ahead, atomically, so one instance gets it), then its effect is a version-checked commit, so a timer
that races a move, or two instances, can never act twice. A crashed claimer's lease simply runs out.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from bot.storage.base import Commit

from . import keys
from .challenges import ChallengeMixin
from .core import Change
from .models import Msg, Place, PlayerRef, Result
from .play import PlayMixin

log = logging.getLogger(__name__)
BATCH = 100


class TimerMixin(ChallengeMixin, PlayMixin):
    """tick / events."""

    async def tick(self, platform: str | None = None) -> list[Result]:
        """Act on every due timer this instance manages to claim (only ``platform``'s, when given, so that
        each frontend gets the notices of its own chats); the results are notices to post."""
        now = self.clock()
        out: list[Result] = []
        for member in await self.store.due(keys.TIMERS, now, BATCH):
            if platform is not None and member.rpartition(":")[2] != platform:
                continue
            if not await self.store.claim(keys.TIMERS, member, now, self.timer_lease):
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
        kind, _, rest = member.partition(":")
        ident = rest.partition(":")[0]
        if kind == "c":
            return await self._expire_challenge(ident, now, member)
        if kind == "g":
            return await self._game_timer(ident, now, member)
        await self.store.commit(Commit().zrem(keys.TIMERS, member))
        return None

    async def _expire_challenge(self, cid: str, now: float, member: str) -> Result | None:
        version, doc = await self._load_challenge(cid)
        if doc is None:
            await self.store.commit(Commit().zrem(keys.TIMERS, member))
            return None
        place = Place(*doc["place"])
        if now < doc["exp"]:
            await self.store.commit(Commit().zadd(keys.TIMERS, member, doc["exp"]))
            return None
        commit = Commit()
        self._drop_challenge(commit, cid, version, place)
        if not await self.store.commit(commit):
            return None  # accepted or cancelled at the same moment: nothing expired
        challenger = doc["from"]
        return Result(ok=True, messages=[Msg("challenge_expired", {"player": challenger[2], "challenge_id": cid})],
                      to_notify=[PlayerRef(*challenger)], place=place)

    async def _game_timer(self, gid: str, now: float, member: str) -> Result | None:
        loaded, _ = await self._load(gid)
        s, version = loaded.session, loaded.version
        if s is None:
            await self.store.commit(Commit().zrem(keys.TIMERS, member))
            return None
        due = self.next_timer(s)
        if due is None or now < due:
            commit = Commit().expect(keys.game(gid), version)
            commit.zadd(keys.TIMERS, member, due) if due is not None else commit.zrem(keys.TIMERS, member)
            await self.store.commit(commit)
            return None
        mover = s.game.turn
        change = Change(kind="timer")
        if now >= s.deadline:
            if s.ai_level is not None:  # nobody to claim for the AI: the absent human resigns
                change = await self.claim_change(s, mover)
            else:
                s.expired = True
                change.messages.append(Msg("deadline_passed", {"player": s.players[mover].name,
                                                               "waiting": s.players[mover ^ 1].name}))
                change.notify.append(s.players[mover ^ 1])
        else:
            while s.reminded < len(self.reminder_fractions) and \
                    now >= s.turn_start + self.reminder_fractions[s.reminded] * s.deadline_secs:
                s.reminded += 1
            left = s.deadline - now
            args = {"player": s.players[mover].name, "hours": int(left // 3600), "minutes": int(left % 3600 // 60)}
            change.messages.append(Msg("turn_reminder", args))
            change.notify.append(s.players[mover])
        result = self.view_result(s, version + 1, change)
        if await self.store.commit(self.session_commit(s, version, change)):
            return result
        return None  # a move got there first; the timer was reset by it

    async def view_of(self, game_id: str) -> Result:
        """The current view of a game by id, for redrawing after an event (no actor, no buttons checked)."""
        loaded, _ = await self._load(game_id, take=False)
        if loaded.session is None:
            return loaded.error or Result.error("no_game")
        return self.view_only(loaded.session, loaded.version)

    async def platform_events(self, platform: str) -> AsyncIterator[dict[str, Any]]:
        """Every game event of a platform (all its channels), from when iteration starts."""
        stream = await self.subscribe_events("", platform=platform)
        async for event in stream:
            yield event

    async def events(self, place_or_game: Place | str, platform: str | None = None) -> AsyncIterator[dict[str, Any]]:
        """Game events (game_id, version, kind, place) for a chat channel, one game, or (``platform=``)
        every channel of a platform; subscribes when iteration starts:
        ``async for event in service.events(place): ...``."""
        stream = await self.subscribe_events(place_or_game, platform)
        async for event in stream:
            yield event

    async def subscribe_events(
        self, place_or_game: Place | str, platform: str | None = None
    ) -> AsyncIterator[dict[str, Any]]:
        """Like :meth:`events`, but subscribed already when this returns (nothing published after is missed).

        ``subscribe_events("", platform="discord")`` follows every channel of a platform (one connection
        for a whole frontend instance).
        """
        pattern = platform is not None
        if platform is not None:
            channel = keys.place_events(platform, "*")
        elif isinstance(place_or_game, Place):
            channel = keys.place_events(place_or_game.platform, place_or_game.channel_id)
        else:
            channel = keys.game_events(place_or_game)
        messages = await self.store.subscribe(channel, pattern=pattern)

        async def decoded() -> AsyncIterator[dict[str, Any]]:
            async for raw in messages:
                try:
                    event = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(event, dict):
                    yield event

        return decoded()
