"""The outbox consumer: every game commit and timer effect wrote an entry to its platform's stream in the
same atomic commit; each entry is handled by exactly one instance of the consumer group (one group per
platform and bot; consumer = instance id) and acked only once delivered. A live consumer touches the entries
it has in hand every second, so entries idle for a few seconds belong to a dead instance: they are reclaimed
within seconds (with the short board and ping leases, ``lease.py``, a crash is taken over in seconds); a periodic
repair converges every live game whose board is behind, and retries soon the boards it found busy.

Board entries converge the game's board through the :class:`BoardTracker` (so the instance that handled the
command and drew the board already finds it current: exactly one edit per change). Notice entries (timer
reminders, deadlines, expired challenges) are handed to the frontend's :class:`NoticeSink`. Challenge entries
(a challenge ended) edit the challenge's message through :class:`~bot.delivery.challenges.ChallengeEnds`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.delivery.replies import Notice
from bot.service import keys
from bot.service.models import Msg, Result
from bot.service.result_codec import decode_result
from bot.storage.base import Entry, Store

from .acks import Acker
from .challenges import ChallengeEnds
from .pings import Pinger
from .tracker import BoardTracker, Outcome, RetryLater

log = logging.getLogger(__name__)
RECLAIM_IDLE_MS = 3_000  # an entry not touched this long: its instance is gone (live ones touch every second)
START_IDLE_MS = 3_000  # at start-up: entries of the instance this one replaces (kill -9, rollout)
TOUCH_SECONDS = 1.0  # how often a live consumer marks the entries it has in hand (see Store.touch)
UPKEEP_SECONDS = 1.0  # reclaim, and retry the boards a repair found busy
FAILING_SAID_EVERY = 60.0  # seconds between the lines saying the outbox still cannot be read
GRACE_SECONDS = 3.0  # a new entry is left this long to the instance whose command made it (it draws first)
LATE_SECONDS = 10.0  # a board entry delivered this late also pings the player to move
RETRY_PAUSE = (0.5, 8.0)  # first and longest pause before an undelivered entry is tried again
REPAIR_SECONDS = 60.0
GATHER_SECONDS = 0.025  # after a read that was not full, entries are left to gather this long before the next one
READ_COUNT = 20  # entries one read takes at most
REPAIR_BATCH = 50  # live games whose boards a repair reads in one round trip (a short pause of the loop each)


def age_seconds(entry_id: str) -> float:
    """How old a stream entry is (its id starts with its creation time in ms); 0 when unreadable."""
    try:
        return time.time() - int(entry_id.partition("-")[0]) / 1000
    except ValueError:
        return 0.0


class NoticeSink(Protocol):
    """Where notices go: the frontend posts them (and pings / sends direct messages)."""

    async def deliver_notice(self, notice: Notice) -> None:
        """Post one notice; raise ``RetryLater`` to have it delivered again later."""


Presenter = Callable[[Result], Awaitable[list[Notice]]]


class OutboxConsumer:
    """Consumes one platform's outbox for one bot identity; ``run`` until ``stop`` is set."""

    def __init__(self, store: Store, platform: str, group: str, consumer: str, tracker: BoardTracker,
                 sink: NoticeSink, present: Presenter, *,
                 live_games: Callable[[], Awaitable[list[str]]] | None = None,
                 turn_notice: Callable[[str], Awaitable[Notice | None]] | None = None,
                 challenges: ChallengeEnds | None = None, pinger: Pinger | None = None) -> None:
        self.store = store
        self.streams = keys.outboxes(platform)  # one stream per home (slot), all read here
        self.platform = platform
        self.group = group
        self.consumer = consumer
        self.tracker = tracker
        self.sink = sink
        self.present = present
        self.live_games = live_games
        self.turn_notice = turn_notice  # told to the player to move when a board catches up late
        self.challenges = challenges  # edits a challenge's message when it ends (bot/delivery/challenges.py)
        self.pinger = pinger  # turn pings and game ends, once each, after the board
        self.grace = GRACE_SECONDS
        self.stopping = asyncio.Event()
        self.handled = 0  # entries acked by this consumer
        self._tasks: set[asyncio.Task[None]] = set()
        self._in_hand: dict[str, set[str]] = {}  # stream -> ids of entries being handled here (touched)
        self._busy: set[str] = set()  # games a repair found busy (another drawer, maybe dead): retried soon
        self._sweep: deque[str] = deque()  # live games the periodic repair has yet to look at in this pass
        self._next_pass = 0.0  # when the periodic repair lists the live games again (loop time)
        self._slice = 1  # live games looked at per upkeep in this pass
        self._ready = False
        self._stop: asyncio.Future[None] | None = None  # see _stopped
        self.acker = Acker(store, group)

    async def start(self) -> None:
        """Create the consumer group (from the stream's first entry) if needed."""
        if not self._ready:
            for stream in self.streams:
                await self.store.ensure_group(stream, self.group)
            self._ready = True

    # ---- one entry -----------------------------------------------------------------------------
    async def handle(self, entry: Entry, *, budget: float = 10.0) -> bool:
        """Deliver one entry; True when it is done (to be acked): delivered, already shown, or moot. A board
        that catches up late (after a crash, a restart or an outage) also tells the player to move."""
        entry_id, fields = entry
        kind = fields.get("k", b"").decode()
        if kind == "board":
            late = age_seconds(entry_id) > LATE_SECONDS
            outcome = await self._board(fields, budget)
            if outcome in (Outcome.LATER, Outcome.BUSY):
                return False
            game_id = fields.get("game", b"").decode()
            if late and outcome is Outcome.SHOWN:
                await self._tell_mover(game_id)
            return await self._ping(game_id, fields.get("v", b"0"), budget)
        if kind == "notice":
            result = decode_result(fields.get("result"))
            if result is None:
                return True  # unreadable: nothing can ever deliver it
            if result.game_id and result.view is not None:  # the board first, so the notice's link shows it
                await self.tracker.show(result.game_id, result.view.version, messages=result.messages,
                                        budget=budget, wait=budget)
            for notice in await self.present(result):
                await self.sink.deliver_notice(notice)
            return True
        if kind == "challenge":
            return self.challenges is None or await self.challenges.handle(fields, age_seconds(entry_id))
        return True  # an unknown kind (a newer version's entry): not ours to deliver

    async def _ping(self, game_id: str, raw_version: bytes, budget: float) -> bool:
        """Ping the player to move (and announce a game end) for this entry, once; False to retry."""
        if self.pinger is None or not game_id:
            return True
        try:
            version = int(raw_version)
        except ValueError:
            return True
        return await self.pinger.ping(game_id, version, wait=budget) not in (Outcome.LATER, Outcome.BUSY)

    async def _tell_mover(self, game_id: str) -> None:
        """Ping the player to move: the board they are waiting for changed while nobody could show it."""
        if self.turn_notice is None:
            return
        notice = await self.turn_notice(game_id)
        if notice is not None:
            await self.sink.deliver_notice(notice)

    async def _board(self, fields: dict[str, bytes], budget: float) -> Outcome:
        game_id = fields.get("game", b"").decode()
        try:
            version = int(fields.get("v", b"0"))
            messages = [Msg(str(k), dict(a)) for k, a in json.loads(fields.get("msgs", b"[]"))]
        except (ValueError, TypeError):
            version, messages = 0, []
        return await self.tracker.show(game_id, version, messages=messages, budget=budget, wait=budget)

    async def _handle_and_ack(self, stream: str, entry: Entry, *, persist: bool = False) -> None:
        """Handle, then ack. ``persist``: keep retrying (with backoff) until delivered or stopping; an entry
        left unacked stays pending and is reclaimed after a restart."""
        in_hand = self._in_hand.setdefault(stream, set())
        in_hand.add(entry[0])
        try:
            await self._deliver(stream, entry, persist)
        finally:
            in_hand.discard(entry[0])

    async def _deliver(self, stream: str, entry: Entry, persist: bool) -> None:
        pause = RETRY_PAUSE[0]
        if persist and entry[1].get("k") in (b"board", b"challenge") and entry[1].get("kind") != b"timer":
            await self._grace(entry[0])  # a timer's change has no handler to draw it first
        while True:
            try:
                done = await self.handle(entry)
            except RetryLater as exc:
                done, pause = False, max(pause, exc.retry_after or 0.0)
            except Exception:
                log.exception("delivering outbox entry %s failed", entry[0])
                done = False
            if done:
                try:  # a live consumer's entries: acked together with the others delivered within a few ms
                    if persist:
                        await self.acker.ack(stream, entry[0])
                    else:
                        await self.store.ack(stream, self.group, entry[0])
                except Exception as exc:  # delivered; left pending, a reclaim finds the board current
                    log.warning("acking outbox entry %s failed (%s); it stays pending", entry[0], exc)
                    return
                self.handled += 1
                return
            if not persist or self.stopping.is_set():
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), pause)
            pause = min(pause * 2, RETRY_PAUSE[1])

    async def _grace(self, entry_id: str) -> None:
        """Wait until the entry is ``grace`` seconds old (its id is its creation time in ms): the handler of
        the command usually draws the board meanwhile, and this entry then finds it current."""
        wait = min(self.grace, self.grace - age_seconds(entry_id))
        if wait > 0 and not self.stopping.is_set():
            await asyncio.wait((self._stopped(),), timeout=wait)  # no task of its own per entry waiting

    def _stopped(self) -> asyncio.Future[None]:
        """A future done once :meth:`stop` is called, shared by every entry in its grace period."""
        loop = asyncio.get_running_loop()
        if self._stop is None or self._stop.done() or self._stop.get_loop() is not loop:
            self._stop = loop.create_future()
        return self._stop

    # ---- loops ---------------------------------------------------------------------------------
    async def drain(self, count: int = 100) -> int:
        """Handle what is waiting now (new entries, then this consumer's own stale ones); the number acked."""
        await self.start()
        before = self.handled
        for stream, entry in await self.store.consume_many(self.streams, self.group, self.consumer, count, 0):
            await self._handle_and_ack(stream, entry)
        return self.handled - before

    async def reclaim(self, min_idle_ms: int = RECLAIM_IDLE_MS) -> int:
        """Take over and handle entries another (dead) consumer left pending; the number acked."""
        await self.start()
        before = self.handled
        for stream, entry in await self.store.reclaim_many(self.streams, self.group, self.consumer, min_idle_ms, 100):
            started, handled = time.monotonic(), self.handled
            await self._handle_and_ack(stream, entry)
            log.info("took over outbox entry %s (%s, %.1f s old): %s in %.2f s", entry[0],
                     entry[1].get("k", b"?").decode(errors="replace"), age_seconds(entry[0]),
                     "delivered" if self.handled > handled else "left pending", time.monotonic() - started)
        return self.handled - before

    async def touch(self) -> None:
        """Mark the entries in hand as alive (so no other instance reclaims them while this one works on them)."""
        in_hand = {stream: list(ids) for stream, ids in self._in_hand.items() if ids}
        if in_hand:  # every stream in one round trip
            await self.store.touch_many(self.group, self.consumer, in_hand)

    async def _heartbeat(self) -> None:
        """Touch the entries in hand every second, until stopped and the deliveries in flight are over."""
        while True:
            if not self.stopping.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), TOUCH_SECONDS)  # a stop ends the wait at once
            if self.stopping.is_set():
                if not any(self._in_hand.values()):
                    return
                await asyncio.sleep(TOUCH_SECONDS)  # stopping: the deliveries in flight stay touched until done
            try:
                await self.touch()
            except Exception as exc:  # the store is away: the next beat tries again
                log.warning("touching the outbox entries in hand failed (%s)", exc)

    async def repair(self, games: list[str] | None = None) -> int:
        """Converge every live game (or ``games``) whose board is behind (after a crash, a rollout, an outage) and
        tell the player to move (a ping that was not sent is sent); a game whose board was never shown is left to
        its outbox entry. A board another drawer holds is retried at the next upkeep (its holder may be dead)."""
        if games is None:
            if self.live_games is None:
                return 0
            games = await self.live_games()
        fixed = 0
        for start in range(0, len(games), REPAIR_BATCH):
            fixed += await self._repair_batch(games[start : start + REPAIR_BATCH])
        return fixed

    async def _repair_slice(self, now: float) -> int:
        """The periodic repair spread over its period: the live games are listed every ``REPAIR_SECONDS`` and a
        share of them repaired at each upkeep, so that 10,000 live games never stop the loop for a scan of all."""
        if not self._sweep:
            if now < self._next_pass or self.live_games is None:
                return 0
            self._sweep = deque(await self.live_games())
            self._next_pass = now + REPAIR_SECONDS
            self._slice = max(1, math.ceil(len(self._sweep) * UPKEEP_SECONDS / REPAIR_SECONDS))
        return await self.repair([self._sweep.popleft() for _ in range(min(self._slice, len(self._sweep)))])

    async def _repair_batch(self, games: list[str]) -> int:
        """:meth:`repair` of a few games: their boards and versions read in one round trip; the boards fixed."""
        try:
            states = await self.tracker.states(games)
        except Exception:
            log.exception("reading the boards of %d games to repair failed", len(games))
            return 0
        fixed = 0
        for game_id, state in zip(games, states, strict=True):
            self._busy.discard(game_id)
            shown, stored = state.shown, state.stored
            try:
                if not shown or stored is None:
                    continue
                if stored <= shown:  # the board is current; a ping lost with its instance is sent now
                    await self._ping(game_id, str(stored).encode(), 2.0)
                    continue
                outcome = await self.tracker.converge(game_id, budget=2.0)
                if outcome is Outcome.BUSY:
                    self._busy.add(game_id)
                if outcome is Outcome.SHOWN:
                    fixed += 1
                    log.info("repaired the board of %s: v%d shown, it showed v%d", game_id, stored, shown)
                    await self._tell_mover(game_id)
                    await self._ping(game_id, str(stored).encode(), 2.0)
            except Exception:
                log.exception("repairing the board of %s failed", game_id)
        return fixed

    async def run(self, *, block_ms: int = 1000, reclaim_idle_ms: int = RECLAIM_IDLE_MS) -> None:
        """Consume until :meth:`stop`: new entries as they come (each in its own task, so one slow board
        does not hold the others), dead consumers' entries and a repair now and then."""
        await self.start()
        heartbeat = asyncio.create_task(self._heartbeat(), name=f"outbox-heartbeat:{self.platform}")
        self._tasks.add(heartbeat)
        heartbeat.add_done_callback(self._tasks.discard)
        try:
            await self._consume(block_ms, reclaim_idle_ms)
        finally:
            if not self.stopping.is_set():  # cancelled without stop(): no heartbeat left behind
                heartbeat.cancel()

    async def _consume(self, block_ms: int, reclaim_idle_ms: int) -> None:
        """The loop of :meth:`run`: reclaim and retry busy boards every upkeep, repair, read new entries."""
        loop = asyncio.get_running_loop()
        next_upkeep, repaired = loop.time(), False
        idle_ms = START_IDLE_MS
        failing: float | None = None  # since when reading fails (the store down): said once, then each minute
        said = 0.0
        while not self.stopping.is_set():
            try:
                if loop.time() >= next_upkeep:
                    await self.reclaim(idle_ms)
                    if self._busy:
                        await self.repair(sorted(self._busy))
                    if self.pinger is not None:  # ping timers whose instance is gone (bot/delivery/ping_timers.py)
                        await self.pinger.sweep(self.platform)
                    idle_ms, next_upkeep = reclaim_idle_ms, loop.time() + UPKEEP_SECONDS
                    if repaired:  # then a slice of the live games each upkeep: never a burst over all of them
                        await self._repair_slice(loop.time())
                if not repaired:  # at start, every live game at once (after a crash or a rollout)
                    await self.repair()
                    repaired, self._next_pass = True, loop.time() + REPAIR_SECONDS
                entries = await self.store.consume_many(self.streams, self.group, self.consumer, READ_COUNT,
                                                        block_ms)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                now = loop.time()
                if failing is None:  # the first failure with its traceback; then one line a minute, no flood
                    log.exception("reading the %s outbox failed", self.platform)
                    failing, said = now, now
                elif now - said >= FAILING_SAID_EVERY:
                    log.error("reading the %s outbox still fails after %.0f s: %s", self.platform, now - failing,
                              exc.__class__.__name__)
                    said = now
                await asyncio.sleep(1.0)
                continue
            if failing is not None:
                log.warning("reading the %s outbox works again after %.0f s", self.platform, loop.time() - failing)
                failing = None
            for stream, entry in entries:
                task = asyncio.create_task(self._handle_and_ack(stream, entry, persist=True))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            if entries and len(entries) < READ_COUNT and not self.stopping.is_set():
                # Entries come one a move under load; a read over every home stream each time costs the loop and
                # Redis more than the entry (each waits GRACE_SECONDS for its own instance anyway): gather a few.
                await asyncio.wait((self._stopped(),), timeout=GATHER_SECONDS)  # no task per wait; a stop ends it

    async def stop(self, timeout: float = 10.0) -> None:
        """Stop reading; let deliveries in flight finish (bounded); unfinished ones stay pending."""
        self.stopping.set()
        if self._stop is not None and not self._stop.done():
            self._stop.set_result(None)  # the entries in their grace period go on at once
        if self.pinger is not None:
            self.pinger.close()
        if self._tasks:
            _, late = await asyncio.wait(set(self._tasks), timeout=timeout)
            for task in late:
                task.cancel()
