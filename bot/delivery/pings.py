"""Turn pings and game-end messages, delivered exactly once across instances, like board edits.

Per game the store keeps ``keys.ping_state`` (in the game's home) = the game version last looked at (it only grows), the
turn last pinged, the number of games announced as over and where the last ping message is (to delete it
when the next one goes out). :meth:`Pinger.ping` (the handler after drawing its board, the outbox consumer
after each board entry, the repair) takes a lease, asks the core for the :class:`PingPlan` of the stored
version, sends what was not sent yet and records it (fenced by the lease), so a second caller finds it done.

A turn ping waits until the player to move has been idle for the plan's ``after`` seconds (the place's
``ping_after``): the turn is *armed* (noted with the time it was first seen) and a ping timer is set
(``ping_timers.py``); when it fires the Pinger looks again and pings only if that turn is still to be played.
A move changes the turn, so its ping is never sent. Game-end messages are news, sent at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Protocol

from bot.delivery.replies import Reply
from bot.service import Place, PlayerRef, keys
from bot.storage.base import Commit, Store, split_versioned

from .lease import Lease, hold
from .ping_timers import PingTimers
from .tracker import Outcome, RetryLater, Undeliverable

log = logging.getLogger(__name__)
STATE_TTL = 60 * 60 * 24 * 30
BUSY_PAUSE = 0.05


class LeaseLost(Exception):
    """The ping lease ran out under this instance (the store stalled): the new holder carries on."""


@dataclass(frozen=True)
class PingPlan:
    """What the players of a game should have been told at its stored ``version``."""

    version: int
    place: Place
    turn: str | None = None  # the turn now (game, seat, position, dice); None when nobody is to be pinged
    ping: Reply | None = None  # the message pinging the player to move (``mention``: him only)
    direct: Reply | None = None  # the same, privately (the player's ``ping_dm`` setting)
    mover: PlayerRef | None = None
    finished: int = 0  # how many games of this match are over (or aborted)
    end: Reply | None = None  # the new message saying a game is over
    after: float = 0.0  # seconds the player to move must be idle before he is pinged (the place's ping_after)


@dataclass(frozen=True)
class PingState:
    """What was already sent for a game (stored under ``keys.ping_state``)."""

    version: int = 0
    turn: str | None = None
    ended: int = -1  # -1: never looked at (the first look records the games already over, quietly)
    ref: str | None = None  # the last ping message, deleted when the next one is posted
    armed: str | None = None  # the turn waiting for its ping (its player has not been idle long enough yet)
    since: float = 0.0  # when the armed turn was first seen (wall clock)

    def blob(self) -> bytes:
        return json.dumps({"turn": self.turn, "ended": self.ended, "ref": self.ref, "armed": self.armed,
                           "since": self.since}).encode()


class PingSurface(Protocol):
    """The platform calls pings need (each raises ``RetryLater`` / ``Undeliverable`` on a refusal)."""

    async def post_ping(self, place: Place, reply: Reply, board_ref: str | None) -> str | None:
        """Post ``reply`` in ``place`` (pinging ``reply.mention`` only; near the board at ``board_ref``);
        its ref, or None when it cannot be deleted later."""

    async def delete_ping(self, ref: str) -> None:
        """Delete an earlier ping message (best effort)."""

    async def direct_ping(self, player: PlayerRef, reply: Reply, board_ref: str | None) -> None:
        """Send ``reply`` privately to ``player`` (best effort: closed DMs are not an error)."""


Planner = Callable[[str], Awaitable[PingPlan | None]]


class Pinger:
    """Sends each game's turn pings and game-end messages once, whichever instance gets there first."""

    def __init__(self, store: Store, plan: Planner, surface: PingSurface, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.plan = plan  # game id -> what should have been said at its stored version
        self.surface = surface
        self.clock = clock
        self.sent = 0  # messages posted (pings, ends, direct), for tests
        self.pinged = 0  # turn pings posted in a place, for tests and the benchmark
        self._timers: dict[str, PingTimers] = {}

    def timers(self, platform: str) -> PingTimers:
        """The ping timers of ``platform``'s games (made on first use)."""
        if platform not in self._timers:
            self._timers[platform] = PingTimers(self.store, platform, self.look, clock=self.clock)
        return self._timers[platform]

    async def sweep(self, platform: str) -> int:
        """Fire the due ping timers of ``platform`` (those of an instance that is gone); the number fired."""
        return await self.timers(platform).sweep()

    def close(self) -> None:
        """Stop this instance's local wake-ups (the timers stay stored for any instance's sweep)."""
        for timers in self._timers.values():
            timers.close()

    async def look(self, game_id: str, *, wait: float = 10.0) -> Outcome:
        """A ping timer fired: send the turn ping if its player has been idle long enough (once)."""
        return await self.ping(game_id, 0, wait=wait, look=True)

    async def state(self, game_id: str) -> PingState:
        """What was sent so far for the game."""
        state_keys = [keys.ping_state(game_id), keys.legacy_ping_state(game_id)]
        raw, legacy = await self.store.read([("get", key) for key in state_keys])
        raw = raw or legacy
        if not raw:
            return PingState()
        try:
            version, blob = split_versioned(raw)
            data = json.loads(blob)
            return PingState(version, data.get("turn"), int(data.get("ended", -1)), data.get("ref"),
                             data.get("armed"), float(data.get("since", 0.0)))
        except (ValueError, TypeError, AttributeError):
            log.error("damaged ping state of %s", game_id)
            return PingState()

    async def ping(self, game_id: str, version: int, *, wait: float = 10.0, look: bool = False) -> Outcome:
        """Make sure what the game's version ``version`` (or a newer one) calls for was sent (``look``: look
        again even so: a ping timer fired). CURRENT when it was already; BUSY when another instance holds the
        game that long; LATER on a refusal."""
        loop = asyncio.get_running_loop()
        until = loop.time() + wait
        while True:
            if not look and (await self.state(game_id)).version >= version:
                return Outcome.CURRENT
            async with hold(self.store, keys.ping_lease(game_id)) as lease:
                if lease is not None:
                    try:
                        return await self._ping(game_id, lease, look)
                    except LeaseLost:
                        return Outcome.BUSY
            if loop.time() > until:
                return Outcome.BUSY
            await asyncio.sleep(BUSY_PAUSE)

    async def _ping(self, game_id: str, lease: Lease, look: bool = False) -> Outcome:
        state = await self.state(game_id)
        plan = await self.plan(game_id)
        if plan is None:
            return Outcome.GONE
        if plan.version <= state.version and not (look and state.armed is not None):
            if look:  # a timer with nothing armed (its ping went out): it is not needed any more
                await self.timers(plan.place.platform).disarm(game_id)
            return Outcome.CURRENT
        board = await self._board_ref(game_id)
        sent = state
        try:
            if state.ended < 0:  # first look: games already over were told by the board itself
                sent = replace(sent, ended=plan.finished if plan.turn is not None else plan.finished - 1)
            if plan.finished > sent.ended:  # a game ended: its last turn ping goes, told or not (a leaver's
                self._still_held(lease)  # match is told by its notice, with no end line here)
                await self._retire(sent.ref)
                if plan.end is not None:
                    await self.surface.post_ping(plan.place, plan.end, board)
                    self.sent += 1
                sent = await self._save(lease, game_id, state, replace(sent, ended=plan.finished, ref=None))
                state = sent
            armed = sent.armed is not None
            if plan.turn is not None and plan.turn != sent.turn:
                sent = await self._arm(lease, game_id, plan, state, sent)
                state = sent
            else:  # the game ended, or this turn was pinged already
                sent = replace(sent, armed=None)
            if plan.turn is not None and plan.turn != sent.turn and sent.armed is None:
                await self._retire(sent.ref)
                ref = None
                if plan.ping is not None:
                    self._still_held(lease)
                    ref = await self.surface.post_ping(plan.place, plan.ping, board)
                    self.sent += 1
                    self.pinged += 1
                sent = await self._save(lease, game_id, state, replace(sent, turn=plan.turn, ref=ref))
                state = sent
                if plan.direct is not None and plan.mover is not None:
                    await self.surface.direct_ping(plan.mover, plan.direct, board)
                    self.sent += 1
            if armed and sent.armed is None:  # sent (or moot): its timer goes only now, so a refusal keeps it
                await self.timers(plan.place.platform).disarm(game_id)
        except RetryLater:
            return Outcome.LATER  # what was sent is saved; the outbox consumer tries the rest again
        except Undeliverable as exc:
            log.info("pings of %s cannot be delivered (%s)", game_id, exc)
        await self._save(lease, game_id, state, replace(sent, version=plan.version))
        return Outcome.SHOWN

    async def _arm(self, lease: Lease, game_id: str, plan: PingPlan, state: PingState, sent: PingState) -> PingState:
        """A turn not pinged yet: armed (it waits for its player to be idle ``plan.after`` s, its ping timer
        set), or, once he has been idle that long (or nothing is to be sent), returned unarmed: send it now."""
        now = self.clock()
        armed = sent if sent.armed == plan.turn else replace(sent, armed=plan.turn, since=now)
        due = armed.since + plan.after
        timers = self.timers(plan.place.platform)
        if now < due and (plan.ping is not None or plan.direct is not None):
            if sent.armed != plan.turn:  # first seen: set its timer (a fired look re-sets it below)
                armed = await self._save(lease, game_id, state, armed)
            await timers.arm(game_id, due)
            return armed
        return replace(armed, armed=None)

    @staticmethod
    def _still_held(lease: Lease) -> None:
        """Raise :class:`LeaseLost` before a message is sent when the lease is no longer ours (never sent twice)."""
        if lease.lost:
            raise LeaseLost(lease.key)

    async def _retire(self, ref: str | None) -> None:
        """Delete the previous ping (best effort: a message already gone is fine)."""
        if ref:
            try:
                await self.surface.delete_ping(ref)
            except (RetryLater, Undeliverable) as exc:
                log.info("an old ping %s stays (%s)", ref, exc)

    async def _save(self, lease: Lease, game_id: str, old: PingState, new: PingState) -> PingState:
        """Record progress (only while the lease is ours, else :class:`LeaseLost`; the version only grows)."""
        key = keys.ping_state(game_id)
        version = max(old.version, new.version)
        if not await self.store.commit(lease.fence(Commit()).put_versioned(key, version, new.blob(), STATE_TTL)):
            raise LeaseLost(game_id)
        return replace(new, version=version)

    async def _board_ref(self, game_id: str) -> str | None:
        raw = (await self.store.read([("get", keys.board_shown(game_id))]))[0]
        if not raw:
            return None
        try:
            return split_versioned(raw)[1].decode() or None
        except (ValueError, UnicodeError):
            return None
