"""The session repository: load or locate a player's game (with the idempotency record, in one round trip),
decode it (or reuse this instance's cached copy), and commit a changed session atomically with retries."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.storage.base import Commit, Store, split_versioned
from fevga import FevgaError

from . import keys
from .commits import Change, error_result, remember, session_commit
from .config import Clock, Options
from .models import Msg, Place, PlayerRef, Result
from .reads import Reads, read_one
from .session import CorruptSession, Session, decode
from .views import actions_for, build_view

log = logging.getLogger(__name__)

# A game command's change: (session, its stored version, the actor's seat) -> a Change to commit, or a Result
Apply = Callable[[Session, int, int], Awaitable[Change | Result]]


@dataclass
class Loaded:
    """A session read for a command, or why there is none, or the stored first result of a retry."""

    version: int = 0
    session: Session | None = None
    cached: Result | None = None
    error: Result | None = None


class Sessions:
    """Every read and write of game sessions; keeps the sessions this instance committed last."""

    def __init__(self, store: Store, clock: Clock, options: Options) -> None:
        self.store = store
        self.clock = clock
        self.options = options
        # Sessions this instance committed last, by game id: (version, session). A command takes the entry
        # (so two local commands never share one object) and only uses it if the stored version still
        # matches, skipping the decode; any other instance's write changes the version and misses.
        self._cache: OrderedDict[str, tuple[int, Session]] = OrderedDict()

    # --- reading -----------------------------------------------------------------------------
    def decode(self, gid: str, raw: bytes | None, take: bool = True) -> Loaded:
        """Decode a stored session. ``take``: the caller will change it (the cached object is handed over);
        read-only callers peek at the cache instead."""
        if raw is None:
            return Loaded(error=Result.error("no_game"))
        try:
            version, blob = split_versioned(raw)
            kept = self._cache.pop(gid, None) if take else self._cache.get(gid)
            if kept is not None and kept[0] == version:
                return Loaded(version, kept[1])
            return Loaded(version, decode(blob))
        except (CorruptSession, ValueError) as exc:
            log.error("corrupt game %s: %s", gid, exc)
            return Loaded(error=Result(ok=False, messages=[Msg("corrupt_game", {"game_id": gid})],
                                       game_id=gid, error_key="corrupt_game"))

    async def load(self, gid: str, take: bool = True) -> Loaded:
        """A game by id (no access check: timers, records, redraws)."""
        raw = await read_one(self.store, lambda r: r.get(keys.game(gid)))
        return self.decode(gid, raw, take)

    async def retried(self, actor: PlayerRef, idem: str | None) -> Result | None:
        """The stored first result of a command with idempotency key ``idem`` (no round trip without one)."""
        return await read_one(self.store, lambda r: r.idem(actor.platform, idem)) if idem else None

    async def locate(
        self, actor: PlayerRef, place: Place, game_id: str | None, idem: str | None, take: bool = True
    ) -> Loaded:
        """The actor's game: ``game_id`` if given, else his running game in this channel (one round trip
        either way: the index lookup, the session it points to and the idempotency record are read together)."""
        reads = Reads()
        here = keys.channel_games(place)
        game = reads.game(game_id) if game_id is not None else reads.game_via(here, actor.user_id)
        cached = reads.idem(actor.platform, idem)
        await reads.run(self.store)
        if cached.value is not None:
            return Loaded(cached=cached.value)
        found, raw = game.value
        loaded = self.decode(found, raw, take) if found is not None else Loaded(error=Result.error("no_game_here"))
        return _check_access(loaded, actor, place)

    # --- writing -----------------------------------------------------------------------------
    def keep(self, s: Session, version: int) -> None:
        """Remember a session just committed at ``version`` for this instance's next command on it."""
        if self.options.session_cache_size <= 0:
            return
        self._cache[s.id] = (version, s)
        self._cache.move_to_end(s.id)
        while len(self._cache) > self.options.session_cache_size:
            self._cache.popitem(last=False)

    def result(self, s: Session, version: int, messages: list[Msg] | None = None,
               notify: list[PlayerRef] | None = None) -> Result:
        """The session at ``version`` as a command's answer: its view, its buttons now, the messages."""
        view = build_view(s, version)
        return Result(ok=True, messages=messages or [], view=view, actions=actions_for(s, view, self.clock()),
                      to_notify=notify or [], game_id=s.id, place=s.place)

    def remember(self, commit: Commit, actor: PlayerRef, idem: str | None, result: Result) -> Commit:
        """Add the command's result under its idempotency key (kept ``idem_ttl``) to ``commit``."""
        return remember(commit, actor, idem, result, self.options.idem_ttl)

    async def save(self, s: Session, version: int, change: Change, result: Result, actor: PlayerRef | None = None,
                   idem: str | None = None) -> bool:
        """Commit ``s`` (read at ``version``; 0 = new) with the change's extras and the idempotency record;
        False when another write got there first."""
        commit = session_commit(s, version, change, self.options.reminder_fractions)
        if actor is not None:
            self.remember(commit, actor, idem, result)
        if not await self.store.commit(commit):
            return False
        self.keep(s, version + 1)
        return True

    async def update(self, actor: PlayerRef, place: Place, game_id: str | None, idem: str | None, apply: Apply,
                     version: int | None = None) -> Result:
        """Load the actor's game, apply a change, commit it; retry on a lost race, idempotent on ``idem``.

        Of two commands racing for one turn exactly one commits; the other finds the turn gone and gets
        ``turn_already_played``. A button's ``version`` must still be current.
        """
        seen: tuple[int, int] | None = None
        for _ in range(self.options.max_retries):
            loaded = await self.locate(actor, place, game_id, idem)
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
            result = self.result(s, current + 1, change.messages, change.notify)
            if await self.save(s, current, change, result, actor, idem):
                return result
        return Result.error("busy_try_again")


def _check_access(loaded: Loaded, actor: PlayerRef, place: Place) -> Loaded:
    """Only the game's players, and only in the game's own channel."""
    s = loaded.session
    if s is None:
        return loaded
    if s.seat_of(actor) is None:
        return Loaded(error=Result.error("not_in_game", game_id=s.id))
    if s.place.platform != place.platform or s.place.channel_id != place.channel_id:
        return Loaded(error=Result.error("wrong_place", game_id=s.id))
    return loaded
