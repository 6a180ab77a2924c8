"""The service's common machinery: loading a player's game, committing a changed session atomically
(version check, idempotency record, timer, events in one script), and turning errors into Results."""

from __future__ import annotations

import json
import logging
import secrets
import time
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.storage.base import Commit, Read, Store, split_versioned
from fevga import FevgaError

from . import keys
from .ai import AiPlayer, default_ai
from .models import Action, GameView, Msg, Place, PlayerRef, Result
from .session import CorruptSession, Session, decode, encode
from .views import actions_for, build_view

log = logging.getLogger(__name__)

Clock = Callable[[], float]


@dataclass
class Change:
    """What a command did to a session, before it is committed."""

    messages: list[Msg] = field(default_factory=list)
    notify: list[PlayerRef] = field(default_factory=list)
    kind: str = "update"
    extra: Commit = field(default_factory=Commit)  # more checks and writes in the same atomic commit
    finished: bool = False  # the match ended (or was aborted): free the channel index


@dataclass
class Loaded:
    """A session read for a command, or why there is none, or the stored first result of a retry."""

    version: int = 0
    session: Session | None = None
    cached: Result | None = None
    error: Result | None = None


def error_result(exc: FevgaError) -> Result:
    """An engine error as a Result (its key and arguments, never a traceback)."""
    return Result(ok=False, messages=[Msg(exc.key, dict(exc.args_map))], error_key=exc.key)


def new_id() -> str:
    """A short random id (8 url-safe characters): fits in button payloads."""
    return secrets.token_urlsafe(6)


class ServiceCore:
    """State and helpers shared by every group of commands."""

    def __init__(
        self,
        store: Store,
        clock: Clock = time.time,
        ai: AiPlayer | None = None,
        challenge_ttl: float = 600,
        turn_deadline: float = 86400,
        quick_deadline: float = 600,
        reminder_fractions: tuple[float, ...] = (0.5, 0.9),
        idem_ttl: int = 3600,
        timer_lease: float = 60,
        max_retries: int = 8,
        session_cache_size: int = 2000,
    ) -> None:
        self.store = store
        self.clock = clock
        self.ai: AiPlayer = ai if ai is not None else default_ai()
        self.challenge_ttl = challenge_ttl
        self.turn_deadline = turn_deadline
        self.quick_deadline = quick_deadline
        self.reminder_fractions = reminder_fractions
        self.idem_ttl = idem_ttl
        self.timer_lease = timer_lease
        self.max_retries = max_retries
        # Sessions this instance committed last, by game id: (version, session). A command takes the entry
        # (so two local commands never share one object) and only uses it if the stored version still
        # matches, skipping the decode; any other instance's write changes the version and misses.
        self._sessions: OrderedDict[str, tuple[int, Session]] = OrderedDict()
        self.session_cache_size = session_cache_size

    # --- reading -----------------------------------------------------------------------------
    def _decode(self, gid: str, raw: bytes | None, take: bool = True) -> Loaded:
        """Decode a stored session. ``take``: the caller will change it (the cached object is handed over);
        read-only callers peek at the cache instead."""
        if raw is None:
            return Loaded(error=Result.error("no_game"))
        try:
            version, blob = split_versioned(raw)
            kept = self._sessions.pop(gid, None) if take else self._sessions.get(gid)
            if kept is not None and kept[0] == version:
                return Loaded(version, kept[1])
            return Loaded(version, decode(blob))
        except (CorruptSession, ValueError) as exc:
            log.error("corrupt game %s: %s", gid, exc)
            return Loaded(error=Result(ok=False, messages=[Msg("corrupt_game", {"game_id": gid})],
                                       game_id=gid, error_key="corrupt_game"))

    def keep(self, s: Session, version: int) -> None:
        """Remember a session just committed at ``version`` for this instance's next command on it."""
        if self.session_cache_size <= 0:
            return
        self._sessions[s.id] = (version, s)
        self._sessions.move_to_end(s.id)
        while len(self._sessions) > self.session_cache_size:
            self._sessions.popitem(last=False)

    async def _load(self, gid: str, extra: list[Read] | None = None, take: bool = True) -> tuple[Loaded, list[Any]]:
        raw, *rest = await self.store.read([("get", keys.game(gid)), *(extra or [])])
        return self._decode(gid, raw, take), rest

    def _cached(self, raw: bytes | None) -> Result | None:
        if raw is None:
            return None
        try:
            return Result.from_dict(json.loads(zlib.decompress(raw)))
        except (ValueError, KeyError, TypeError, zlib.error):
            return None

    async def _locate(
        self, actor: PlayerRef, place: Place, game_id: str | None, idem: str | None, take: bool = True
    ) -> Loaded:
        """The actor's game: ``game_id`` if given, else his running game in this channel (one round trip
        either way: the index lookup and the session it points to are read together)."""
        idem_read: list[Read] = [("get", keys.idem(actor.platform, idem))] if idem else []
        if game_id is not None:
            loaded, rest = await self._load(game_id, idem_read, take)
        else:
            via = ("via", keys.channel_games(place), actor.user_id, keys.GAME_PREFIX, keys.GAME_SUFFIX)
            (found, raw), *rest = await self.store.read([via, *idem_read])
            loaded = self._decode(found, raw, take) if found is not None else Loaded(error=Result.error("no_game_here"))
        cached = self._cached(rest[0]) if idem else None
        if cached is not None:
            return Loaded(cached=cached)
        return self._check_access(loaded, actor, place)

    def _check_access(self, loaded: Loaded, actor: PlayerRef, place: Place) -> Loaded:
        s = loaded.session
        if s is None:
            return loaded
        if s.seat_of(actor) is None:
            return Loaded(error=Result.error("not_in_game", game_id=s.id))
        if s.place.platform != place.platform or s.place.channel_id != place.channel_id:
            return Loaded(error=Result.error("wrong_place", game_id=s.id))
        return loaded

    # --- writing -----------------------------------------------------------------------------
    def next_timer(self, s: Session) -> float | None:
        """When the session's timer should fire next: a reminder, the deadline, or never."""
        if s.status != "play" or s.is_ai(s.game.turn) or s.expired:
            return None
        if s.reminded < len(self.reminder_fractions):
            return s.turn_start + self.reminder_fractions[s.reminded] * s.deadline_secs
        return s.deadline

    def _event(self, s: Session, version: int, kind: str) -> bytes:
        return json.dumps({"game_id": s.id, "version": version, "kind": kind, "platform": s.place.platform,
                           "scope_id": s.place.scope_id, "channel_id": s.place.channel_id}).encode()

    def session_commit(self, s: Session, version: int, change: Change) -> Commit:
        """Expect ``version``, write ``version + 1``, reset or drop the timer, publish the event."""
        commit = Commit(checks=list(change.extra.checks))
        commit.expect(keys.game(s.id), version)
        commit.put_versioned(keys.game(s.id), version + 1, encode(s))
        member = keys.timer("g", s.id, s.place.platform)
        due = self.next_timer(s)
        if due is None:
            commit.zrem(keys.TIMERS, member)
        else:
            commit.zadd(keys.TIMERS, member, due)
        if change.finished:
            for seat in s.human_seats():
                uid = s.players[seat].user_id
                commit.hdel(keys.channel_games(s.place), uid, only_if=s.id)
                commit.hset(keys.channel_last(s.place), uid, s.id)
        commit.ops.extend(change.extra.ops)
        event = self._event(s, version + 1, change.kind)
        commit.publish(keys.place_events(s.place.platform, s.place.channel_id), event)
        commit.publish(keys.game_events(s.id), event)
        return commit

    def remember(self, commit: Commit, actor: PlayerRef, idem: str | None, result: Result) -> None:
        """Store the command's result under its idempotency key, in the same commit."""
        if idem:
            blob = zlib.compress(json.dumps(result.to_dict(), separators=(",", ":")).encode(), 1)
            commit.put(keys.idem(actor.platform, idem), blob, self.idem_ttl)

    def view_result(self, s: Session, version: int, change: Change, actor_seat: int | None = None) -> Result:
        view = build_view(s, version)
        return Result(ok=True, messages=change.messages, view=view, actions=actions_for(s, view, self.clock()),
                      to_notify=change.notify, game_id=s.id, place=s.place)

    async def game_command(
        self,
        actor: PlayerRef,
        place: Place,
        game_id: str | None,
        idem: str | None,
        apply: Callable[[Session, int, int], Awaitable[Change | Result]],
        version: int | None = None,
    ) -> Result:
        """Load the actor's game, apply a change, commit it; retry on a lost race, idempotent on ``idem``.

        Of two commands racing for one turn exactly one commits; the other finds the turn gone and gets
        ``turn_already_played``. A button's ``version`` must still be current.
        """
        seen: tuple[int, int] | None = None
        for _ in range(self.max_retries):
            loaded = await self._locate(actor, place, game_id, idem)
            if loaded.cached is not None:
                return loaded.cached
            if loaded.error is not None or loaded.session is None:
                return loaded.error or Result.error("no_game")
            s, current = loaded.session, loaded.version
            if seen is None:
                seen = s.plies
            elif s.plies != seen:
                return Result.error("turn_already_played", game_id=s.id)
            seat = s.seat_of(actor)
            assert seat is not None
            if version is not None and version != current:
                gone = version < s.turn_version or s.status != "play"
                return Result.error("turn_already_played" if gone else "stale_action", game_id=s.id)
            try:
                change = await apply(s, current, seat)
            except FevgaError as exc:
                return error_result(exc)
            if isinstance(change, Result):
                return change
            if s.plies != seen or s.status != "play":
                s.turn_version = current + 1
            result = self.view_result(s, current + 1, change, seat)
            commit = self.session_commit(s, current, change)
            self.remember(commit, actor, idem, result)
            if await self.store.commit(commit):
                self.keep(s, current + 1)
                return result
        return Result.error("busy_try_again")

    def action(self, kind: str, gid: str, version: int, **payload: Any) -> Action:
        return Action(kind, gid, version, f"btn_{kind}", payload)

    def view_only(self, s: Session, version: int, messages: list[Msg] | None = None) -> Result:
        view: GameView = build_view(s, version)
        return Result(ok=True, messages=messages or [], view=view, actions=actions_for(s, view, self.clock()),
                      game_id=s.id, place=s.place)

