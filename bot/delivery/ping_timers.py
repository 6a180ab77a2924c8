"""When a turn ping is due: the player to move is pinged only once he has been idle for the place's
``ping_after`` time, so a fast game sends no pings and a slow one one per turn.

Each game waiting for a ping has the member ``p:<game>:<platform>`` in its home's ping timer set
(:func:`bot.service.keys.ping_timers`, score = when the ping is due). Due members are taken with the store's
timer claim (:meth:`Store.claim`, exactly one caller while due, a lease that runs out when the claimer dies),
like the service's own timers. The instance that arms a timer also wakes itself at that time (a local task),
and every instance sweeps all homes now and then (:meth:`PingTimers.sweep`) for timers whose instance is gone.
Firing only makes the :class:`~bot.delivery.pings.Pinger` look again: whether to ping is decided there, by the
turn and the time it started, so a timer that races a move pings nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.service import keys
from bot.storage.base import Commit, Store

log = logging.getLogger(__name__)
CLAIM_LEASE = 5.0  # seconds a claimed ping timer is left to its claimer before another instance takes it
BATCH = 100

Fire = Callable[[str], Awaitable[object]]  # game id -> look again (and ping when due)


def member_of(game_id: str, platform: str) -> str:
    """The ping timer member of a game on a platform."""
    return keys.timer("p", game_id, platform)


class PingTimers:
    """Arms, disarms and fires the ping timers of one platform's games."""

    def __init__(self, store: Store, platform: str, fire: Fire, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.platform = platform
        self.fire = fire
        self.clock = clock
        self.fired = 0  # timers this instance claimed and fired (tests, the benchmark)
        self._wakes: dict[str, asyncio.Task[None]] = {}

    async def arm(self, game_id: str, due: float) -> None:
        """The game's turn ping is due at ``due`` (wall-clock time): store it, and wake here then."""
        member = member_of(game_id, self.platform)
        await self.store.commit(Commit().zadd(keys.ping_timers(game_id), member, due))
        self._wake_at(game_id, due)

    async def disarm(self, game_id: str) -> None:
        """No ping is waiting for the game any more (sent, or nobody to ping)."""
        self._cancel(game_id)
        member = member_of(game_id, self.platform)
        await self.store.commit(Commit().zrem(keys.ping_timers(game_id), member))

    async def take(self, game_id: str) -> bool:
        """Claim the game's timer if it is due (True for exactly one caller), then fire it."""
        zset, member = keys.ping_timers(game_id), member_of(game_id, self.platform)
        if not await self.store.claim(zset, member, self.clock(), CLAIM_LEASE):
            return False
        self.fired += 1
        await self.fire(game_id)
        return True

    async def sweep(self) -> int:
        """Fire every due ping timer of this platform that this instance claims (timers armed by an instance
        that is gone); the number fired."""
        fired = 0
        now = self.clock()
        suffix = f":{self.platform}"
        homes = list(keys.ALL_PING_TIMERS)
        for due in await self.store.due_many(homes, now, BATCH):  # one round trip (a damaged set is logged, skipped)
            for member in due:
                kind, _, rest = member.partition(":")
                game_id, _, platform = rest.partition(":")
                if kind != "p" or platform != suffix[1:]:
                    continue
                try:
                    fired += await self.take(game_id)
                except Exception:  # one game's failure must not stop the others; its claim runs out
                    log.exception("the ping timer of %s failed", game_id)
        return fired

    def close(self) -> None:
        """Stop the local wake-ups (the timers stay stored: any instance's sweep fires them)."""
        for task in self._wakes.values():
            task.cancel()
        self._wakes.clear()

    def _wake_at(self, game_id: str, due: float) -> None:
        """Wake this instance at ``due`` to take the game's timer (replacing an earlier wake-up)."""
        self._cancel(game_id)
        try:
            task = asyncio.get_running_loop().create_task(self._wake(game_id, due))
        except RuntimeError:  # no loop (never in the bot): the sweep fires it
            return
        self._wakes[game_id] = task
        task.add_done_callback(lambda done: self._forget(game_id, done))

    async def _wake(self, game_id: str, due: float) -> None:
        """Sleep until ``due``, then take the timer (another instance may have taken it: then nothing)."""
        await asyncio.sleep(max(0.0, due - self.clock()))
        try:
            await self.take(game_id)
        except Exception:  # left to the sweep
            log.warning("the ping timer of %s is left to the sweep", game_id, exc_info=True)

    def _cancel(self, game_id: str) -> None:
        """Drop the game's local wake-up (not the one running this code)."""
        task = self._wakes.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _forget(self, game_id: str, done: asyncio.Task[None]) -> None:
        """A wake-up ended: forget it (if it is still the game's) and consume its outcome."""
        if self._wakes.get(game_id) is done:
            del self._wakes[game_id]
        with contextlib.suppress(asyncio.CancelledError):
            done.exception()
