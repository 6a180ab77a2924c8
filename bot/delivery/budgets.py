"""Each place's message budget, shared by board edits, pings and notices, with boards first.

Telegram lets a bot make about 20 calls a minute in a group (edits count), Discord 5 per 5 s in a channel.
A :class:`PlaceBudgets` keeps one ``aiolimiter.AsyncLimiter`` per place: a burst of ``BURST`` calls (a board
and its ping go out together), then calls spaced so that no window of the platform's length ever holds more
than ``limit`` calls, however the platform counts them. Board edits (``urgent``) wait in the limiter itself;
pings and notices go only when no board is waiting and the place has room, so a turn ping never delays a
board. The budget is kept per process: two instances serving one place may together go over it, and the
platform's 429 (``RetryLater``) is then handled as any refusal (docs/frontends.md, "Budgets").
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass

from aiolimiter import AsyncLimiter

BURST = 2  # calls that may go at once (where the limit allows more than 2): a board edit and its turn ping
MARGIN = 1.02  # calls are spaced 2 % wider than the platform's rate (clock drift, the platform's rounding)
PLACES_KEPT = 10_000  # limiters kept (least recently used places are dropped: a fresh one starts empty)


@dataclass
class Lane:
    """One place's limiter and how many boards are waiting for it."""

    limiter: AsyncLimiter
    urgent: int = 0
    calls: int = 0  # calls let through (tests, the benchmark)


class PlaceBudgets:
    """At most ``limit`` calls per ``window`` seconds per place, boards before pings and notices."""

    def __init__(self, limit: float, window: float) -> None:
        if limit <= 0 or window <= 0:
            raise ValueError("a budget needs a positive limit and window")
        self.limit = limit
        self.window = window
        self.burst = BURST if limit > BURST else 1
        self.spacing = window / (limit - self.burst + 1) * MARGIN  # between calls once the burst is spent
        self._lanes: OrderedDict[str, Lane] = OrderedDict()

    def lane(self, place: str) -> Lane:
        """The place's lane (made on first use; the least recently used are dropped past PLACES_KEPT)."""
        lane = self._lanes.get(place)
        if lane is None:
            lane = self._lanes[place] = Lane(AsyncLimiter(self.burst, self.spacing * self.burst))
            while len(self._lanes) > PLACES_KEPT:
                self._lanes.popitem(last=False)
        self._lanes.move_to_end(place)
        return lane

    async def take(self, place: str, *, urgent: bool) -> None:
        """Wait for the place's next free slot. ``urgent`` (a board): in the limiter's own queue; otherwise
        (a ping, a notice) only once no board is waiting and a slot is free."""
        lane = self.lane(place)
        if urgent:
            lane.urgent += 1
            try:
                await lane.limiter.acquire()
            finally:
                lane.urgent -= 1
        else:
            pause = max(min(self.spacing / 4, 0.25), 0.005)
            while lane.urgent or not lane.limiter.has_capacity():
                await asyncio.sleep(pause)
            await lane.limiter.acquire()  # free now: returns at once, no board can step in between
        lane.calls += 1

    def calls(self, place: str) -> int:
        """Calls let through for ``place`` so far."""
        lane = self._lanes.get(place)
        return lane.calls if lane is not None else 0
