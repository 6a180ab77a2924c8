"""The session repository: load or locate a player's game (with the idempotency record, in one round trip),
decode it (or reuse this instance's cached copy), and commit a changed session atomically with retries."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.storage import durability
from bot.storage.base import Commit, DamagedValue, Store, split_versioned
from fevga import FevgaError

from . import keys
from .appliers import Appliers
from .commits import Change, error_result, session_commit
from .config import Clock, Options
from .models import Msg, Place, PlayerRef, Result
from .once import Record, commit_once, decode_record, mark, scoped_key
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
        self.appliers = Appliers(store)

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
            return Loaded(error=corrupt_game(gid))

    async def load(self, gid: str, take: bool = True) -> Loaded:
        """A game by id (no access check: timers, records, redraws)."""
        raw = await read_one(self.store, lambda r: r.get(keys.game(gid)))
        return self.decode(gid, raw, take)

    async def retried(self, actor: PlayerRef, idem: str | None, place: Place | None) -> Result | None:
        """The first answer of a command with idempotency key ``idem`` given in ``place`` (no round trip
        without one)."""
        raw = await read_one(self.store, lambda r: r.idem(actor.platform, idem, place)) if idem else None
        return None if raw is None else await self.replay(raw)

    async def replay(self, raw: bytes | Record) -> Result:
        """Answer again from a stored record: its messages, and the game's view and buttons as they are now."""
        try:
            rec = raw if isinstance(raw, Record) else decode_record(raw)
        except DamagedValue as exc:
            log.error("damaged idempotency record: %s", exc)
            return Result.error("store_damaged")
        if not rec.applied:
            return Result.error("not_applied")
        if not rec.ok or rec.game_id is None:
            return Result(ok=rec.ok, messages=rec.messages, actions=rec.actions, to_notify=rec.notify,
                          error_key=rec.error_key, place=rec.place)
        loaded = await self.load(rec.game_id, take=False)
        if loaded.session is None:
            return Result(ok=True, messages=rec.messages, to_notify=rec.notify, game_id=rec.game_id)
        s = loaded.session
        commitment = getattr(s.game.dice_source, "commitment", "")
        messages = [Msg(m.key, {**m.args, "commitment": commitment}) if m.key == "game_started" else m
                    for m in rec.messages]
        return self.result(s, loaded.version, messages, rec.notify)

    async def locate(
        self, actor: PlayerRef, place: Place, game_id: str | None, idem: str | None, take: bool = True
    ) -> Loaded:
        """The actor's game: ``game_id`` if given, else his running game in this channel (one round trip
        either way: the index lookup, the session it points to and the idempotency record are read together)."""
        reads = Reads()
        here = keys.channel_games(place)
        game = reads.game(game_id) if game_id is not None else reads.game_via(here, actor.user_id)
        cached = reads.idem(actor.platform, idem, place)
        await reads.run(self.store)
        if cached.value is not None:
            return Loaded(cached=await self.replay(cached.value))
        found, raw = game.value
        if found is not None and raw is None and keys.game(found) != keys.games_prefix(here) + found:
            # a game whose id names another home than its channel's (started before homes): read it there
            raw = await read_one(self.store, lambda r: r.get(keys.game(found)))
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
        told = [p for n, p in enumerate(notify or []) if not any(p.same(q) for q in (notify or [])[:n])]  # once each
        return Result(ok=True, messages=messages or [], view=view, actions=actions_for(s, view, self.clock()),
                      to_notify=told, game_id=s.id, place=s.place)

    async def commit_once(self, commit: Commit, actor: PlayerRef | None, idem: str | None,
                          result: Result, place: Place | None) -> Result | None:
        """Commit once under the command's idempotency key; the answer to give (``result`` when applied,
        the first answer when another instance applied it, ``not_applied`` when a lost commit was fenced
        off) or None when a check failed (the caller reloads and retries)."""
        if actor is None:
            return ended_here(result, commit) if await self.store.commit(commit) else None
        key, shared = scoped_key(actor, idem, place)
        durability.take_lagged()  # forget an earlier commit's mark: only this one counts
        outcome = await commit_once(self.store, mark(commit, key, shared, result, self.options.idem_ttl), key)
        if outcome is True:
            ended_here(result, commit)
            if durability.take_lagged():  # saved, but no replica confirmed it in time (REDIS_WAIT_MS)
                result.messages.append(Msg("saved_delayed", {}))
            return result
        if outcome is False:
            return await self.retried(actor, idem, place) if shared else None
        if outcome.applied and not shared:
            return result
        return await self.replay(outcome)

    async def save(self, s: Session, version: int, change: Change, result: Result, actor: PlayerRef | None = None,
                   idem: str | None = None) -> Result | None:
        """Commit ``s`` (read at ``version``; 0 = new) with the change's extras and the idempotency record:
        the answer to give (see :meth:`commit_once`), or None when another write got there first."""
        commit = session_commit(s, version, change, self.options.reminder_fractions)
        answer = await self.commit_once(commit, actor, idem, result, s.place)
        if answer is result:
            self.keep(s, version + 1)
        if answer is not None and (change.rated or change.indexed):  # the saga's next step, now
            try:
                await self.appliers.finish(s.id)
            except Exception:  # the game's commit stands; a timer tick's sweep applies them (once)
                log.exception("applying the pending writes of %s failed; left pending", s.id)
        return answer

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
                if s.status != "play":  # a second press after the match ended (e.g. "Yes, resign" twice)
                    return Result.error("game_over", game_id=s.id)
                if version < s.game_version:  # a button of an earlier game of this match
                    return Result.error("stale_earlier_game", game_id=s.id, game_no=s.game_no)
                gone = version < s.turn_version
                return Result.error("turn_already_played" if gone else "stale_action", game_id=s.id)
            try:
                change = await apply(s, current, seat)
            except FevgaError as exc:
                return error_result(exc)
            if isinstance(change, Result):
                return change
            if s.plies != seen or s.status != "play":
                s.turn_version = current + 1
            if s.game_no != seen[0]:  # this change started the match's next game
                s.game_version = current + 1
            result = self.result(s, current + 1, change.messages, change.notify)
            answer = await self.save(s, current, change, result, actor, idem)
            if answer is not None:
                return answer
        return Result.error("busy_try_again")


def ended_here(result: Result, commit: Commit) -> Result:
    """Note on ``result`` the challenges its applied ``commit`` ended (their outbox entries)."""
    result.challenge_ends.extend(op[2] for op in commit.ops if op[0] == "xadd" and op[2].get("k") == "challenge")
    return result


def corrupt_game(gid: str) -> Result:
    """The answer about a game whose stored value is damaged (it can still be aborted by its players)."""
    return Result(ok=False, messages=[Msg("corrupt_game", {"game_id": gid})], game_id=gid, error_key="corrupt_game")


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
