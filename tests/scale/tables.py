"""Synthetic tables for the scale tests: two players in a channel playing 1-point rated matches through the
service's public API, like chat commands would (each command with an idempotency key, retried with the same
key after a transient failure as a chat platform re-delivers an update), recording every acknowledged move."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import IO, Any

from bot.service import GameService, GameView, Place, PlayerRef, Result
from tests.botkit import a_legal_play_text

PLATFORM = "discord"
SCOPE = "scale"
# Failures a platform's re-delivery (same update, same idempotency key) resolves: the store was down or the
# answer of a commit was lost.
TRANSIENT = frozenset({"store_unavailable", "outcome_unknown", "error"})
RETRY_BUDGET = 60.0  # seconds one command may keep failing before the table gives up (the test then fails)


def seat(run: str, table: int, match: int = 0) -> tuple[Place, PlayerRef, PlayerRef]:
    """Table ``table``'s channel and the two players of its ``match``-th match (ids unique to the run; a new
    pair for each match, so fair ratings' rule on repeated short matches between two players never applies
    and every match is rated)."""
    place = Place(PLATFORM, SCOPE, f"{run}-t{table}")
    a, b = f"a{table}m{match}", f"b{table}m{match}"
    return place, PlayerRef(PLATFORM, f"{run}{a}", a), PlayerRef(PLATFORM, f"{run}{b}", b)


@dataclass
class Journal:
    """One JSON object per line, flushed at once, so a reader sees every acknowledged command."""

    out: IO[str]
    failures: int = 0
    acks: int = 0

    def write(self, **entry: Any) -> None:
        """One entry, written and flushed at once."""
        self.out.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self.out.flush()

    def failed(self, op: str, error: str | None, began: float) -> None:
        """A failed attempt (wall-clock start and end, so windows line up across processes)."""
        self.failures += 1
        self.write(fail=op, err=error, t0=began, t=time.time())


@dataclass
class Table:
    """One channel's two players; ``play_matches`` plays ``matches`` matches one after the other."""

    service: GameService
    journal: Journal
    run: str
    table: int
    max_plies: int = 40  # after this many plies the player to move resigns (short games, a steady load)
    rng: random.Random = field(default_factory=random.Random)
    pace: float = 0.0  # seconds between two commands of this table
    match_no: int = 0  # the match being played (its players: see seat)
    _serial: int = 0

    def _idem(self) -> str:
        """A fresh idempotency key, unique to the run and the table (as a platform's update id)."""
        self._serial += 1
        return f"{self.run}:{self.table}:{self._serial}"

    async def _until_ok(self, op: str, call: Callable[[str], Awaitable[Result]]) -> Result:
        """Run ``call(idem)``; after a transient failure retry it with the same key (backing off) until it
        answers; ``not_applied`` (the lost commit was fenced off) is returned for the caller to redo."""
        idem, delay, first = self._idem(), 0.02, time.monotonic()
        began_failing: float | None = None
        while True:
            began = time.time()
            result = await call(idem)
            if result.ok or result.error_key not in TRANSIENT:
                if began_failing is not None:  # how long this one command kept failing
                    self.journal.write(recovered=op, after=round(time.time() - began_failing, 3), t=time.time())
                return result
            began_failing = began if began_failing is None else began_failing
            self.journal.failed(op, result.error_key, began)
            if time.monotonic() - first > RETRY_BUDGET:
                raise RuntimeError(f"table {self.table}: {op} kept failing ({result.error_key})")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.5)

    async def _start(self) -> GameView:
        """A challenge and its acceptance; the new game's view."""
        place, a, b = seat(self.run, self.table, self.match_no)
        first = time.monotonic()
        while True:
            if time.monotonic() - first > RETRY_BUDGET:
                raise RuntimeError(f"table {self.table}: no new match could start for {RETRY_BUDGET:.0f} s")
            made = await self._until_ok("challenge", lambda k: self.service.challenge(a, place, b, 1, idem=k))
            if not made.ok and made.error_key != "not_applied":
                # e.g. a challenge (or game) of ours is already there: take it over by accepting below
                self.journal.write(note="challenge", err=made.error_key, table=self.table)
            accepted = await self._until_ok("accept", lambda k: self.service.accept(b, place, idem=k))
            if accepted.ok and accepted.view is not None:
                self.journal.write(start=accepted.view.game_id, v=accepted.view.version, table=self.table)
                return accepted.view
            self.journal.write(note="accept", err=accepted.error_key, table=self.table)
            await asyncio.sleep(0.2)

    async def _refresh(self, game_id: str) -> GameView:
        """The game as stored now (after a fenced-off command)."""
        place, a, _ = seat(self.run, self.table, self.match_no)
        result = await self._until_ok("board", lambda _k: self.service.board(a, place, game_id=game_id))
        if result.view is None:
            raise RuntimeError(f"table {self.table}: board of {game_id} failed: {result.error_key}")
        return result.view

    async def play_match(self) -> str:
        """One 1-point match from challenge to its end; returns its game id."""
        self.match_no += 1
        place, _, _ = seat(self.run, self.table, self.match_no)
        view = await self._start()
        gid, plies, acked = view.game_id, 0, 0
        while view.status == "play":
            if self.pace:
                await asyncio.sleep(self.pace)
            mover = view.players[view.turn]
            asked = time.time()
            if plies >= self.max_plies:
                result = await self._until_ok("resign", lambda k, m=mover, v=view: self.service.resign(
                    m, place, game_id=gid, idem=k, version=v.version))
                kind, text = "resign", ""
            else:
                text = a_legal_play_text(view, self.rng)
                result = await self._until_ok("move", lambda k, m=mover, t=text: self.service.move(
                    m, place, t, game_id=gid, idem=k))
                kind = "move"
            if result.ok and result.view is not None:
                view = result.view
                self.journal.acks += 1
                done_at = time.time()  # d: from the first attempt to the answer, re-deliveries included
                self.journal.write(ack=gid, kind=kind, k=acked, play=text, v=view.version, t=done_at,
                                   d=round(done_at - asked, 3))
                acked += 1
                plies += 1
                continue
            self.journal.write(note=kind, game=gid, err=result.error_key)
            view = await self._refresh(gid)
        self.journal.write(done=gid, status=view.status, winner=view.match_winner, v=view.version)
        return gid

    async def play_matches(self, matches: int) -> list[str]:
        """``matches`` matches in a row."""
        return [await self.play_match() for _ in range(matches)]
