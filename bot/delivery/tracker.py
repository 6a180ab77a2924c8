"""The board tracker: which version of a game's board is shown where (in the store, so every instance
agrees), and :meth:`BoardTracker.converge`, which brings the shown board up to the stored version.

One drawer per board at a time (a short lease renewed while held, ``lease.py``: a dead drawer's lease is free
within seconds, a live one keeps it through any platform call, and the shown version is written under it);
never an older version over a newer one (the shown version only grows); versions piled up behind a rate limit
are coalesced (each round draws the newest stored version); 429/5xx/timeouts are retried with backoff; a board
message that is gone is posted afresh. Frontends only supply the platform calls (:class:`BoardSurface`).
A surface that keeps a per-place budget (:class:`PacedSurface`, ``budgets.py``) is waited on *before* the
newest version is chosen, so the versions that pile up while the place has no room collapse into one edit of
the newest.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bot.delivery.replies import Reply
from bot.service import Place, keys
from bot.service.models import Msg
from bot.storage.base import Commit, Store, split_versioned

from .lease import Lease, hold

log = logging.getLogger(__name__)
REF_TTL = 60 * 60 * 24 * 30
BUSY_PAUSE = 0.05  # seconds between looks while another drawer holds a board
SLOW_WAIT = 1.0  # a wait for another drawer's board longer than this is logged (INFO): crashes and stalls
BACKOFF = (0.5, 8.0)  # first and longest pause between attempts after a transient failure
PACE_WAIT = 10.0  # longest wait for the place's budget before the board is left to the outbox (LATER)
SEEN_MAX = 20_000  # games whose last shown version an instance remembers (see BoardTracker._saw)
TAKE_TRIES = 3  # lease takings whose checked board or game had moved on, before giving up as BUSY


def shown_of(raw: bytes | None) -> tuple[int, str | None]:
    """``(version shown, ref)`` from a board's shown value; ``(0, None)`` when absent or unreadable."""
    if not raw:
        return 0, None
    try:
        version, ref = split_versioned(raw)
    except ValueError:
        return 0, None
    return version, ref.decode() or None


class RetryLater(Exception):
    """The platform refused for now (429, 5xx, timeout, dropped connection): try again after a pause."""

    def __init__(self, retry_after: float | None = None) -> None:
        super().__init__(f"retry after {retry_after}")
        self.retry_after = retry_after


class Undeliverable(Exception):
    """The platform will never take it (no access to the chat): give up on this board."""


class BoardSurface(Protocol):
    """The platform calls a frontend supplies: edit a board message, post a new one."""

    async def edit_board(self, ref: str, reply: Reply) -> bool:
        """Edit the message ``ref`` to show ``reply``; False when the message is gone (post afresh)."""

    async def post_board(self, place: Place, reply: Reply) -> str:
        """Post ``reply`` as a new board message in ``place``; its ref (``channel:message``)."""


@runtime_checkable
class PacedSurface(Protocol):
    """A surface that keeps each place's message budget (``bot/delivery/budgets.py``)."""

    async def pace(self, place: Place, ref: str | None, *, urgent: bool) -> None:
        """Wait for room in the budget of the place of ``ref`` (else of ``place``); ``urgent``: a board."""


class Outcome(enum.Enum):
    """How a convergence attempt ended."""

    SHOWN = "shown"  # this call edited or posted the board
    CURRENT = "current"  # the board already showed the stored version: nothing to do
    BUSY = "busy"  # another drawer holds the board: it converges it (or the outbox retries)
    LATER = "later"  # the platform kept refusing within the budget: retried later
    GONE = "gone"  # no such game, or the board cannot be shown on this platform


First = Callable[[Reply], Awaitable[str]]  # show a board that is not shown yet; its ref
Render = Callable[[str, int | None, Sequence[Msg]], Awaitable[tuple[Place, Reply] | None]]


@dataclass(frozen=True)
class State:
    """A board as one read finds it: the version shown (0: none) and where, the stored game version (None:
    no such game), and the token of its lease (0: free; read only when asked)."""

    shown: int
    ref: str | None
    stored: int | None
    holder: int = 0


def version_of(raw: bytes | None) -> int | None:
    """The version of a versioned value (or of its head, see the ``head`` read); None when absent or damaged."""
    try:
        return split_versioned(raw)[0] if raw else None
    except ValueError:
        return None


@dataclass(frozen=True)
class Request:
    """What one convergence was asked (see :meth:`BoardTracker.converge`)."""

    hint: Reply | None
    place: Place | None
    messages: tuple[Msg, ...]
    for_version: int | None
    fresh: bool
    first: First | None
    first_ref: str | None


class BoardTracker:
    """Converges each game's board message to the stored game version, shared by all instances."""

    def __init__(self, store: Store, render: Render, surface: BoardSurface, *,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.store = store
        self.render = render  # (game id, version the messages are for, messages) -> the board at the stored version
        self.surface = surface
        self.sleep = sleep
        self.edits = 0  # platform calls made (edits + posts), for tests and the benchmark
        self.pace = surface.pace if isinstance(surface, PacedSurface) else None
        self._seen: dict[str, int] = {}  # game -> a version its board was seen showing here (shown only grows)

    async def shown(self, game_id: str) -> tuple[int, str | None]:
        """``(version shown, ref)`` of a game's board; ``(0, None)`` when none was shown."""
        return shown_of((await self.store.read([("get", keys.board_shown(game_id))]))[0])

    async def states(self, game_ids: Sequence[str]) -> list[State]:
        """:meth:`state` of many games in one round trip (a repair's scan)."""
        reads = [r for g in game_ids for r in (("get", keys.board_shown(g)), ("head", keys.game(g)))]
        raw = await self.store.read(reads) if reads else []
        return [State(*shown_of(raw[i]), version_of(raw[i + 1])) for i in range(0, len(raw), 2)]

    async def state(self, game_id: str, *, lease: bool = False) -> State:
        """The board's shown version and ref and the game's stored version (``lease``: and who holds the board),
        in one round trip; the game is read by its head only (its version, not the session)."""
        reads: list[tuple[str, str]] = [("get", keys.board_shown(game_id)), ("head", keys.game(game_id))]
        if lease:
            reads.append(("head", keys.board_lease(game_id)))
        raw = await self.store.read(reads)
        shown, ref = shown_of(raw[0])
        return State(shown, ref, version_of(raw[1]), (version_of(raw[2]) or 0) if lease else 0)

    async def converge(
        self, game_id: str, *, hint: Reply | None = None, place: Place | None = None, messages: Sequence[Msg] = (),
        for_version: int | None = None, fresh: bool = False, budget: float = 10.0, first: First | None = None,
        first_ref: str | None = None,
    ) -> Outcome:
        """Bring the game's board up to the stored version (``fresh``: post it anew even if current).
        ``hint``: the board already drawn for ``place`` (used while it is the newest: no second drawing);
        ``messages`` say what happened at ``for_version``; ``first``: how to show it when it is not shown
        yet, or ``fresh``, or shown at ``first_ref``, instead of the surface's calls (e.g. as the answer to
        an interaction, or by turning a challenge into the board). Transient platform failures are retried
        for at most ``budget`` s."""
        request = Request(hint, place, tuple(messages), for_version, fresh, first, first_ref)
        return await self._take(game_id, request, budget, await self.state(game_id))

    async def _take(self, game_id: str, request: Request, budget: float, state: State) -> Outcome:
        """Take the board's lease, checking in the same commit that the board and the game are still as
        ``state`` read them (so the holder draws without reading them again), then converge under it. BUSY when
        another drawer holds the board; a board or game that moved on meanwhile is read again (a few times)."""
        for _ in range(TAKE_TRIES):
            if state.stored is None:
                return Outcome.GONE
            if not request.fresh and state.stored <= state.shown:
                return Outcome.CURRENT
            current = ((keys.board_shown(game_id), state.shown), (keys.game(game_id), state.stored))
            async with hold(self.store, keys.board_lease(game_id), expect=current) as lease:
                if lease is not None:
                    return await self._converge(game_id, request, budget, lease, state)
            state = await self.state(game_id, lease=True)
            if state.holder:
                return Outcome.BUSY
        return Outcome.BUSY  # the values keep moving (or one is damaged): like a busy board, tried again later

    async def show(
        self, game_id: str, version: int, *, hint: Reply | None = None, place: Place | None = None,
        messages: Sequence[Msg] = (), fresh: bool = False, budget: float = 10.0, wait: float = 10.0,
        first: First | None = None, first_ref: str | None = None,
    ) -> Outcome:
        """Make sure the board shows at least ``version``: converge, or, while another drawer holds the
        board, wait (at most ``wait`` s) until it shows that version. BUSY only when that wait ran out."""
        if not fresh and self._seen.get(game_id, 0) >= version:
            return Outcome.CURRENT  # this instance showed it (its handler drew it): not even a read
        loop = asyncio.get_running_loop()
        until = loop.time() + wait
        request = Request(hint, place, tuple(messages), version, fresh, first, first_ref)
        state = await self.state(game_id)
        if not fresh and state.shown >= version:
            self._saw(game_id, state.shown)
            return Outcome.CURRENT  # already shown (by the handler, or another instance): no lease, no drawing
        started = loop.time()
        while True:
            outcome = await self._take(game_id, request, budget, state)
            if outcome is not Outcome.BUSY:
                if loop.time() - started > SLOW_WAIT:  # a crashed or stalled drawer held it: say how long
                    log.info("the board of %s was held by another drawer for %.1f s; then %s", game_id,
                             loop.time() - started, outcome.name)
                return outcome
            state = await self.state(game_id)  # also what the next try checks its lease taking against
            if not fresh and state.shown >= version:
                return Outcome.CURRENT  # the other drawer showed it (or a newer one)
            if loop.time() > until:
                return Outcome.BUSY
            await asyncio.sleep(BUSY_PAUSE)

    async def stored(self, game_id: str) -> int | None:
        """The stored version of a game (its value's prefix, nothing decoded); None when there is none."""
        return version_of((await self.store.read([("head", keys.game(game_id))]))[0])

    async def _newest(self, game_id: str, request: Request, stored: int) -> tuple[Place, Reply, int] | None:
        """The board at the stored version: the hint when it is that version, else drawn afresh."""
        hint, place = request.hint, request.place
        if stored is not None and hint is not None and place is not None and hint.version == stored:
            return place, hint, stored
        drawn = await self.render(game_id, request.for_version, request.messages)
        if drawn is None or drawn[1].version is None:
            return None
        return drawn[0], drawn[1], drawn[1].version

    async def _converge(self, game_id: str, request: Request, budget: float, lease: Lease,
                        known: State | None) -> Outcome:
        """Draw the newest version until the board shows the stored one, under ``lease``; ``known``: the state
        the lease was taken on (checked by its commit), so the first round reads nothing."""
        deadline = time.monotonic() + budget
        pause = BACKOFF[0]
        outcome = Outcome.CURRENT
        fresh, first = request.fresh, request.first
        paced: tuple[Place, Reply, int] | None = None  # drawn, the budget waited for: drawn unless newer came
        while True:
            state, known = known or await self.state(game_id), None
            shown, ref, stored = state.shown, state.ref, state.stored
            if stored is None:
                return Outcome.GONE
            if not fresh and stored <= shown:
                return outcome
            newest = paced if paced is not None and paced[2] == stored else await self._newest(game_id, request, stored)
            if newest is None:
                return Outcome.GONE
            place, reply, version = newest
            if version <= shown and not fresh:
                return outcome
            if self.pace is not None and paced is None:
                try:  # then look again: versions stored meanwhile collapse into this one edit
                    await asyncio.wait_for(self.pace(place, ref, urgent=True), max(budget, PACE_WAIT))
                except TimeoutError:
                    return Outcome.LATER
                paced = newest
                continue
            paced = None
            if lease.lost:  # another drawer has the board now (this one stalled past the lease): never draw twice
                return Outcome.BUSY
            try:
                new_ref = await self._draw(place, reply, ref, fresh, first, request.first_ref)
                first = None  # used once
            except RetryLater as exc:
                wait = max(exc.retry_after or 0.0, pause)
                if time.monotonic() + wait > deadline:
                    return Outcome.LATER
                pause = min(pause * 2, BACKOFF[1])
                await self.sleep(wait)
                continue
            except Undeliverable:
                log.info("the board of %s cannot be shown", game_id)
                return Outcome.GONE
            except Exception:  # an unexpected failure of the platform call: retried like a refusal
                log.exception("drawing the board of %s failed", game_id)
                if time.monotonic() + pause > deadline:
                    return Outcome.LATER
                await self.sleep(pause)
                pause = min(pause * 2, BACKOFF[1])
                continue
            last = self._record(game_id, lease, shown, ref, version, new_ref)
            if await self.store.commit(lease.release_in(last.expect(keys.game(game_id), version))):
                lease.released = True  # the game is still at the version shown: done, the lease released with it
                self._saw(game_id, version)
                return Outcome.SHOWN
            # a newer version came meanwhile (or the lease was lost): record this one, then draw the newer
            if not await self.store.commit(self._record(game_id, lease, shown, ref, version, new_ref)):
                return Outcome.BUSY  # the lease was lost meanwhile: the new drawer records it
            outcome, fresh, pause = Outcome.SHOWN, False, BACKOFF[0]

    def _saw(self, game_id: str, version: int) -> None:
        """Remember that the board of ``game_id`` showed ``version`` (the store's record only grows, so an outbox
        entry for it or an older version is current without a read); the oldest half forgotten past SEEN_MAX."""
        self._seen.pop(game_id, None)
        self._seen[game_id] = version
        if len(self._seen) > SEEN_MAX:
            for old in list(self._seen)[: SEEN_MAX // 2]:
                del self._seen[old]

    @staticmethod
    def _record(game_id: str, lease: Lease, shown: int, ref: str | None, version: int, new_ref: str) -> Commit:
        """The commit that records ``version`` shown at ``new_ref`` (fenced by the lease, over ``shown``)."""
        commit = lease.fence(Commit().expect(keys.board_shown(game_id), shown))
        commit.put_versioned(keys.board_shown(game_id), version, new_ref.encode())
        if new_ref != ref:  # where the board is, for replies to it and links (see BotCore.board_message)
            commit.put(keys.board_ref(game_id), new_ref.encode(), REF_TTL)
            commit.put(keys.board_game(new_ref), game_id.encode(), REF_TTL)
        return commit

    async def _draw(self, place: Place, reply: Reply, ref: str | None, fresh: bool, first: First | None,
                    first_ref: str | None) -> str:
        """One platform call (two when the message is gone): the ref now showing ``reply``."""
        self.edits += 1
        if first is not None and (ref is None or fresh or ref == first_ref):
            return await first(reply)
        if ref is not None and not fresh and await self.surface.edit_board(ref, reply):
            return ref
        if ref is not None and not fresh:
            self.edits += 1
        return await self.surface.post_board(place, reply)
