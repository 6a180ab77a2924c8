"""The puzzle bank in the store: every puzzle once (by its id) with its own Glicko-2 rating; filled from the
package's seed file on first use, and by the puzzles found in analysed games."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable

from bot.service.ratings import Rating
from bot.service.reads import Reads, read_one
from bot.storage.base import Commit, Store
from fevga.errors import SerializationError
from fevga.puzzles import Puzzle, load_retired, load_seed, stored_game

from . import keys

log = logging.getLogger(__name__)
MAX_BANK = 5000  # puzzles kept (read whole when one is picked: a hash of this size is read in a few ms)
NEAR = 5  # a new puzzle is drawn among this many nearest in rating


def rating_text(r: Rating) -> str:
    """A rating as stored: ``rating:RD:volatility``."""
    return f"{r.rating:.1f}:{r.rd:.1f}:{r.vol:.6f}"


def parse_rating(text: str | None, default: float) -> Rating:
    """A stored rating (a fresh one at ``default`` when missing or unreadable)."""
    try:
        r, rd, vol = (float(x) for x in str(text).split(":"))
        return Rating(r, rd, vol)
    except (TypeError, ValueError):
        return Rating(default)


class Bank:
    """Read, add, pick and rate puzzles."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._seeded = False

    async def ensure_seeded(self) -> None:
        """Copy the shipped seed puzzles into the bank once, and again when the shipped files change (new
        puzzles added, retired ones dropped: a new network may no longer confirm a puzzle's answer)."""
        if self._seeded:
            return
        seed, retired = load_seed(), load_retired()
        marker = f"{len(seed)}:{len(retired)}".encode()
        done = await read_one(self.store, lambda r: r.get(keys.SEEDED))
        if done != marker:
            await self.add(p for p in seed if p.id not in retired)
            await self.retire(retired)
            await self.store.commit(Commit().put(keys.SEEDED, marker))
        self._seeded = True

    async def retire(self, ids: Iterable[str]) -> int:
        """Take these puzzles out of the bank (those it holds); how many were there."""
        ratings = await read_one(self.store, lambda r: r.hgetall(keys.BANK_RATINGS))
        there = sorted(pid for pid in set(ids) if pid in ratings)
        if not there:
            return 0
        commit = Commit()
        for pid in there:
            commit.hdel(keys.BANK, pid)
            commit.hdel(keys.BANK_RATINGS, pid)
        await self.store.commit(commit)
        log.info("retired %d puzzles from the bank: %s", len(there), ", ".join(there))
        return len(there)

    async def add(self, puzzles: Iterable[Puzzle]) -> int:
        """Add puzzles not yet in the bank (each keeps its rating if it is there); how many were new."""
        wanted = list(puzzles)
        if not wanted:
            return 0
        ratings = await read_one(self.store, lambda r: r.hgetall(keys.BANK_RATINGS))
        fresh = [p for p in {p.id: p for p in wanted}.values() if p.id not in ratings]
        fresh = fresh[: max(0, MAX_BANK - len(ratings))]
        if not fresh:
            return 0
        commit = Commit()
        for p in fresh:
            commit.hset(keys.BANK, p.id, p.encode())
            commit.hset(keys.BANK_RATINGS, p.id, rating_text(Rating(p.rating)))
        await self.store.commit(commit)
        return len(fresh)

    async def get(self, pid: str) -> tuple[Puzzle, Rating] | None:
        """A puzzle and its rating (None when unknown or damaged, logged)."""
        reads = Reads()
        raw = reads.hget(keys.BANK, pid)
        rating = reads.hget(keys.BANK_RATINGS, pid)
        await reads.run(self.store)
        if raw.value is None:
            return None
        try:
            puzzle = Puzzle.decode(raw.value)
        except SerializationError:
            log.error("stored puzzle %s is damaged", pid)
            return None
        return puzzle, parse_rating(rating.value, puzzle.rating)

    async def _ratings(self, game: str | None) -> dict[str, str]:
        """Puzzle id -> stored rating, of the puzzles of ``game`` (None: every game's), in one read."""
        reads = Reads()
        ratings = reads.hgetall(keys.BANK_RATINGS)
        stored = reads.hgetall(keys.BANK) if game is not None else None
        await reads.run(self.store)
        if stored is None:
            return ratings.value
        return {pid: text for pid, text in ratings.value.items()
                if pid in stored.value and stored_game(stored.value[pid]) == game}

    async def pick(self, near: float, exclude: Iterable[str] = (), rng: random.Random | None = None,
                   game: str | None = None) -> str | None:
        """The id of a puzzle (of ``game``; None: any) near the rating ``near`` that is not in ``exclude`` (None
        when none is left)."""
        await self.ensure_seeded()
        ratings = await self._ratings(game)
        skip = set(exclude)
        left = sorted((abs(parse_rating(text, 1500).rating - near), pid) for pid, text in ratings.items()
                      if pid not in skip)
        if not left:
            return None
        return (rng or random).choice(left[:NEAR])[1]

    async def rate(self, pid: str, rating: Rating) -> None:
        """Store a puzzle's new rating (last writer wins: two answers at the same instant move it once)."""
        await self.store.commit(Commit().hset(keys.BANK_RATINGS, pid, rating_text(rating)))

    async def ids(self, game: str | None = None) -> list[str]:
        """Every puzzle id (of ``game``; None: of every game), sorted (the daily puzzle is drawn from these)."""
        await self.ensure_seeded()
        return sorted(await self._ratings(game))
