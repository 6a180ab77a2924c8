"""Turn pings and game-end messages, delivered exactly once across instances, like board edits.

Per game the store keeps ``keys.ping_state`` (in the game's home) = the game version last looked at (it only grows), the
turn last pinged, the number of games announced as over and where the last ping message is (to delete it
when the next one goes out). :meth:`Pinger.ping` (the handler after drawing its board, the outbox consumer
after each board entry, the repair) takes a lease, asks the core for the :class:`PingPlan` of the stored
version, sends what was not sent yet and records it (fenced by the lease), so a second caller finds it done.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Protocol

from bot.replies import Reply
from bot.service import Place, PlayerRef, keys
from bot.storage.base import Commit, Store, split_versioned

from .lease import Lease, hold
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


@dataclass(frozen=True)
class PingState:
    """What was already sent for a game (stored under ``keys.ping_state``)."""

    version: int = 0
    turn: str | None = None
    ended: int = -1  # -1: never looked at (the first look records the games already over, quietly)
    ref: str | None = None  # the last ping message, deleted when the next one is posted

    def blob(self) -> bytes:
        return json.dumps({"turn": self.turn, "ended": self.ended, "ref": self.ref}).encode()


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

    def __init__(self, store: Store, plan: Planner, surface: PingSurface) -> None:
        self.store = store
        self.plan = plan  # game id -> what should have been said at its stored version
        self.surface = surface
        self.sent = 0  # messages posted (pings, ends, direct), for tests

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
            return PingState(version, data.get("turn"), int(data.get("ended", -1)), data.get("ref"))
        except (ValueError, TypeError, AttributeError):
            log.error("damaged ping state of %s", game_id)
            return PingState()

    async def ping(self, game_id: str, version: int, *, wait: float = 10.0) -> Outcome:
        """Make sure what the game's version ``version`` (or a newer one) calls for was sent. CURRENT when
        it was already; BUSY when another instance holds the game that long; LATER on a refusal."""
        loop = asyncio.get_running_loop()
        until = loop.time() + wait
        while True:
            if (await self.state(game_id)).version >= version:
                return Outcome.CURRENT
            async with hold(self.store, keys.ping_lease(game_id)) as lease:
                if lease is not None:
                    try:
                        return await self._ping(game_id, lease)
                    except LeaseLost:
                        return Outcome.BUSY
            if loop.time() > until:
                return Outcome.BUSY
            await asyncio.sleep(BUSY_PAUSE)

    async def _ping(self, game_id: str, lease: Lease) -> Outcome:
        state = await self.state(game_id)
        plan = await self.plan(game_id)
        if plan is None:
            return Outcome.GONE
        if plan.version <= state.version:
            return Outcome.CURRENT
        board = await self._board_ref(game_id)
        sent = state
        try:
            if state.ended < 0:  # first look: games already over were told by the board itself
                sent = replace(sent, ended=plan.finished if plan.turn is not None else plan.finished - 1)
            if plan.finished > sent.ended:
                if plan.end is not None:
                    self._still_held(lease)
                    await self._retire(sent.ref)
                    await self.surface.post_ping(plan.place, plan.end, board)
                    self.sent += 1
                sent = await self._save(lease, game_id, state, replace(sent, ended=plan.finished, ref=None))
                state = sent
            if plan.turn is not None and plan.turn != sent.turn:
                await self._retire(sent.ref)
                ref = None
                if plan.ping is not None:
                    self._still_held(lease)
                    ref = await self.surface.post_ping(plan.place, plan.ping, board)
                    self.sent += 1
                sent = await self._save(lease, game_id, state, replace(sent, turn=plan.turn, ref=ref))
                state = sent
                if plan.direct is not None and plan.mover is not None:
                    await self.surface.direct_ping(plan.mover, plan.direct, board)
                    self.sent += 1
        except RetryLater:
            return Outcome.LATER  # what was sent is saved; the outbox consumer tries the rest again
        except Undeliverable as exc:
            log.info("pings of %s cannot be delivered (%s)", game_id, exc)
        await self._save(lease, game_id, state, replace(sent, version=plan.version))
        return Outcome.SHOWN

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
