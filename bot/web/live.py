"""Live updates for the page: one reader per instance fans every game change out to the watchers of that
game (Server-Sent Events), never one Redis call per watcher.

The reader follows the commits' game events (``fevga:ev:g:*``, published by the same atomic commit that
writes the version and the outbox entry); a pub/sub message can be lost (a Redis reconnect), so every few
seconds one batched read compares the stored versions of all watched games with what was sent. A game's
new version is loaded once (:class:`Snapshots`) and each watcher is woken; a watcher only keeps "the newest
is newer than what I sent", so a slow client never queues states. Limits: watchers per IP and in all, and
a watcher idle (no new version) for ``idle_seconds`` is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from bot.service import keys
from bot.storage.base import Store, split_versioned

from .snapshots import Snapshot, Snapshots

log = logging.getLogger(__name__)
PER_IP = 16  # SSE connections one address may hold
TOTAL = 20_000  # SSE connections one instance holds
IDLE_SECONDS = 900.0  # a watcher with nothing new for this long is closed (the page reconnects on focus)
RECHECK_SECONDS = 5.0  # the batched version check that covers lost pub/sub messages
EVENTS_PATTERN = keys.game_events("*")


def stored_version(raw: bytes) -> int:
    """The version prefix of a stored session (0 when unreadable: the snapshot loader then reports it)."""
    try:
        return split_versioned(raw)[0]
    except ValueError:
        return 0


class TooManyWatchers(Exception):
    """The per-IP or the instance's cap of live connections is reached."""


@dataclass(eq=False)
class Watcher:
    """One SSE connection: what it was sent last; ``wake`` is set when its game has something newer."""

    game_id: str
    ip: str
    lang: str | None
    seat: int | None
    sent: int
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    last_change: float = field(default_factory=time.monotonic)
    closed: bool = False
    idle: bool = False  # closed for idleness (the page waits for the user before reconnecting)


class LiveHub:
    """The instance's one reader of game events and the watchers it feeds."""

    def __init__(self, store: Store, snapshots: Snapshots, *, per_ip: int = PER_IP, total: int = TOTAL,
                 idle_seconds: float = IDLE_SECONDS, recheck_seconds: float = RECHECK_SECONDS) -> None:
        self.store = store
        self.snapshots = snapshots
        self.per_ip = per_ip
        self.total = total
        self.idle_seconds = idle_seconds
        self.recheck_seconds = recheck_seconds
        self.games: dict[str, set[Watcher]] = defaultdict(set)
        self.by_ip: dict[str, int] = defaultdict(int)
        self.count = 0
        self.latest: dict[str, Snapshot] = {}
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self.ready = asyncio.Event()  # subscribed: nothing published from now on is missed
        self.stopped = False

    # --- lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Subscribe to the game events, then run the reader and the periodic check."""
        messages = await self.store.subscribe(EVENTS_PATTERN, pattern=True)
        self.ready.set()
        self._tasks = [asyncio.create_task(self._read(messages)), asyncio.create_task(self._recheck())]

    async def stop(self) -> None:
        """Stop reading and wake every watcher so its connection ends."""
        self.stopped = True
        tasks = [*self._tasks, *self._refreshing.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for watchers in self.games.values():
            for w in watchers:
                w.closed, w.idle = True, False  # not idle: the page reconnects (to another instance)
                w.wake.set()

    # --- watchers ---------------------------------------------------------------------------
    def watch(self, game_id: str, ip: str, sent: int, lang: str | None, seat: int | None) -> Watcher:
        """Register a connection; :class:`TooManyWatchers` past the caps."""
        if self.count >= self.total or self.by_ip[ip] >= self.per_ip:
            raise TooManyWatchers
        w = Watcher(game_id, ip, lang, seat, sent)
        self.games[game_id].add(w)
        self.by_ip[ip] += 1
        self.count += 1
        return w

    def unwatch(self, w: Watcher) -> None:
        """Forget a connection (idempotent)."""
        watchers = self.games.get(w.game_id)
        if watchers is None or w not in watchers:
            return
        watchers.discard(w)
        if not watchers:
            del self.games[w.game_id]
            self.latest.pop(w.game_id, None)
        self.by_ip[w.ip] -= 1
        if self.by_ip[w.ip] <= 0:
            del self.by_ip[w.ip]
        self.count -= 1

    def offer(self, snap: Snapshot) -> None:
        """A snapshot read by anyone (a page load, a play): wake the watchers it is news to."""
        gid = snap.session.id
        watchers = self.games.get(gid)
        if not watchers:
            return
        known = self.latest.get(gid)
        if known is None or snap.version > known.version or snap is not known:
            self.latest[gid] = snap
        for w in watchers:
            if snap.version > w.sent:
                w.wake.set()

    # --- the reader -------------------------------------------------------------------------
    async def _read(self, messages: AsyncIterator[bytes]) -> None:
        """Each game event: refresh that game if anyone watches it."""
        async for raw in messages:
            try:
                event = json.loads(raw)
                gid, version = str(event["game_id"]), int(event["version"])
            except (ValueError, KeyError, TypeError):
                continue
            if gid in self.games:
                known = self.latest.get(gid)
                if known is None or version > known.version:
                    self.refresh(gid)

    def refresh(self, gid: str) -> None:
        """Load the game's newest version (one load at a time per game; a change meanwhile loads again)."""
        if self.stopped:
            return
        if gid in self._refreshing:
            self._again.add(gid)
            return
        task = asyncio.create_task(self._refresh(gid))
        self._refreshing[gid] = task

    async def _refresh(self, gid: str) -> None:
        try:
            while True:
                self._again.discard(gid)
                try:
                    snap = await self.snapshots.current(gid)
                except Exception:  # the store is away: the periodic check tries again
                    log.warning("live refresh of %s failed", gid, exc_info=True)
                    snap = None
                if snap is not None:
                    self.offer(snap)
                if gid not in self._again:
                    break
        finally:
            self._refreshing.pop(gid, None)

    async def _recheck(self) -> None:
        """Every few seconds: the stored values of all watched games in one read; refresh those behind.
        Also closes watchers that have been idle too long."""
        while True:
            await asyncio.sleep(self.recheck_seconds)
            try:
                gids = list(self.games)
                for start in range(0, len(gids), 500):
                    chunk = gids[start:start + 500]
                    for gid, raw in (await self.snapshots.versions(chunk)).items():
                        known = self.latest.get(gid)
                        if raw is None or (known is not None and stored_version(raw) <= known.version):
                            continue  # nothing new: no decode
                        snap = await self.snapshots.from_raw(gid, raw)
                        if snap is not None:
                            self.offer(snap)
                self._close_idle()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("live recheck failed", exc_info=True)

    def _close_idle(self) -> None:
        now = time.monotonic()
        for watchers in list(self.games.values()):
            for w in list(watchers):
                if now - w.last_change > self.idle_seconds:
                    w.closed = w.idle = True
                    w.wake.set()

    async def wait(self, w: Watcher, timeout: float) -> Snapshot | None:
        """Wait (up to ``timeout``) for something newer than what ``w`` was sent; None on timeout/close."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(w.wake.wait(), timeout)
        w.wake.clear()
        if not w.closed and time.monotonic() - w.last_change > self.idle_seconds:
            w.closed = w.idle = True
        if w.closed:
            return None
        snap = self.latest.get(w.game_id)
        if snap is not None and snap.version > w.sent:
            w.last_change = time.monotonic()
            return snap
        return None
