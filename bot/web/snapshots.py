"""Game snapshots for the web: the stored session at its version, decoded and turned into the page's base
state once per version (an LRU of recent games), however many requests and watchers ask."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.service import keys
from bot.service.models import Place
from bot.service.session import CorruptSession, Session, decode
from bot.storage.base import DamagedValue, Store, split_versioned
from fevga import SerializationError
from fevga.analysis import Report

from . import state

log = logging.getLogger(__name__)
CACHE_GAMES = 256  # recent games kept decoded (~50-100 KB each with their state); watched ones stay in the hub
ANALYSIS_RECHECK = 5.0  # seconds between looks for the analysis of a finished game


@dataclass
class Snapshot:
    """One game at one stored version: the session, its base state, its place's language, encoded views."""

    version: int
    session: Session
    base: dict[str, Any]
    place_lang: str
    encoded: dict[tuple[str, int | None], str] = field(default_factory=dict)
    analysis_checked: float = field(default_factory=time.monotonic)

    @property
    def place(self) -> Place:
        return self.session.place

    def seat_of(self, platform: str, user_id: str) -> int | None:
        for seat, ref in enumerate(self.session.players):
            if ref.platform == platform and ref.user_id == user_id:
                return seat
        return None

    def view(self, lang: str, seat: int | None) -> dict[str, Any]:
        return state.for_viewer(self.base, lang, seat)

    def json(self, lang: str, seat: int | None) -> str:
        """The encoded state for one (language, seat): built once per snapshot."""
        key = (lang, seat)
        text = self.encoded.get(key)
        if text is None:
            text = self.encoded[key] = state.encode(self.view(lang, seat))
        return text


Language = Callable[[Place], Awaitable[str]]


class Snapshots:
    """``current(gid)``: one store round trip (the session; the analysis too once the game is over), decoded
    and built only when the version moved. ``versions(gids)``: stored versions of many games in one round trip."""

    def __init__(self, store: Store, language: Language, size: int = CACHE_GAMES) -> None:
        self.store = store
        self.language = language
        self.size = size
        self._cache: OrderedDict[str, Snapshot] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}
        self.builds = 0  # snapshots built (tests and benchmarks check sharing)

    def cached(self, gid: str) -> Snapshot | None:
        return self._cache.get(gid)

    async def current(self, gid: str) -> Snapshot | None:
        """The game as stored now (None: no such game, or it cannot be read)."""
        raw = (await self.store.read([("get", keys.game(gid))]))[0]
        return await self.from_raw(gid, raw)

    async def from_raw(self, gid: str, raw: bytes | None) -> Snapshot | None:
        """The snapshot of a stored value just read (the cached one when its version is the same)."""
        if raw is None:
            return None
        try:
            version, blob = split_versioned(raw)
        except DamagedValue:
            log.error("damaged game %s", gid)
            return None
        kept = self._cache.get(gid)
        if kept is not None and kept.version >= version:
            return await self._with_analysis(kept)
        lock = self._locks.setdefault(gid, asyncio.Lock())
        async with lock:  # one build per version, however many ask at once
            kept = self._cache.get(gid)
            if kept is not None and kept.version >= version:
                return kept
            try:
                session = decode(blob)
            except CorruptSession as exc:
                log.error("corrupt game %s: %s", gid, exc)
                return None
            snap = await self._build(session, version)
            self._cache[gid] = snap
            self._cache.move_to_end(gid)
            while len(self._cache) > self.size:
                old, _ = self._cache.popitem(last=False)
                self._locks.pop(old, None)
            return snap

    async def _build(self, session: Session, version: int) -> Snapshot:
        analysis = await self._analysis(session) if session.game.is_over() or session.status != "play" else None
        lang = await self.language(session.place)
        self.builds += 1
        return Snapshot(version, session, state.base_state(session, version, analysis), lang)

    async def _with_analysis(self, snap: Snapshot) -> Snapshot:
        """A finished game's analysis is computed after its last version: look again (at most every few
        seconds) and, once it is there, replace the snapshot (same version, analysis added)."""
        if not snap.base["over"] or snap.base["analysis"] is not None:
            return snap
        now = time.monotonic()
        if now - snap.analysis_checked < ANALYSIS_RECHECK:
            return snap
        snap.analysis_checked = now
        analysis = await self._analysis(snap.session)
        if analysis is None:
            return snap
        fresh = Snapshot(snap.version, snap.session, {**snap.base, "analysis": analysis}, snap.place_lang)
        if self._cache.get(snap.session.id) is snap:
            self._cache[snap.session.id] = fresh
        return fresh

    async def _analysis(self, session: Session) -> dict[str, Any] | None:
        """The stored analysis of the game shown, once it exists (computed by the chats' ``analyze``)."""
        raw = (await self.store.read([("get", keys.game_analysis(session.id, session.game_no))]))[0]
        if raw is None:
            return None
        try:
            return Report.decode(raw).to_dict()
        except SerializationError:
            return None

    async def versions(self, gids: Sequence[str]) -> dict[str, bytes | None]:
        """The stored values of many games in one round trip (for the live hub's periodic check)."""
        values = await self.store.read([("get", keys.game(g)) for g in gids]) if gids else []
        return dict(zip(gids, values, strict=True))
