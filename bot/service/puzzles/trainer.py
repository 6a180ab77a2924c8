"""Puzzles on demand: ``puzzle`` gives a player a puzzle near his puzzle rating, ``puzzle <play>`` judges his
answer and rates it (Glicko-2, apart from game ratings), ``top puzzles`` ranks the platform's solvers.

Only a player's first answer to a puzzle moves his rating: the answer's commit takes the puzzle's field in his
``answered`` hash (``field_free``) together with his rating document, so a second answer, or two at once,
can never count twice (docs/puzzles.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bot.service.commits import error_result
from bot.service.config import Clock
from bot.service.models import Msg, Place, PlayerRef, Result
from bot.service.ratings import Rating, update
from bot.service.reads import Reads, read_one
from bot.storage.base import Commit, DamagedValue, Store, split_versioned
from fevga import FevgaError
from fevga.puzzles import Puzzle, Verdict, check

from . import keys
from .bank import Bank
from .steps import step_actions

KEEP = 400 * 86400
MAX_TOP = 50


@dataclass
class Solver:
    """A player's puzzle record: rating, tallies, streaks, the puzzle he was given last (``current``) and the game
    whose puzzles he asked for (``game``; empty: every game's)."""

    rating: Rating = field(default_factory=Rating)
    solved: int = 0
    answered: int = 0
    streak: int = 0
    best: int = 0
    current: str = ""
    game: str = ""

    def encode(self) -> bytes:
        """Compact JSON."""
        r = self.rating
        return json.dumps({"r": round(r.rating, 2), "d": round(r.rd, 2), "v": round(r.vol, 6), "s": self.solved,
                           "n": self.answered, "k": self.streak, "b": self.best, "c": self.current, "g": self.game},
                          separators=(",", ":")).encode()

    @classmethod
    def decode(cls, blob: bytes) -> Solver:
        """Read :meth:`encode` back; DamagedValue when unreadable (the guard answers ``store_damaged`` and his
        record is never overwritten with a fresh one)."""
        try:
            d = json.loads(blob)
            return cls(Rating(float(d["r"]), float(d["d"]), float(d["v"])), int(d["s"]), int(d["n"]), int(d["k"]),
                       int(d["b"]), str(d.get("c", "")), str(d.get("g", "")))
        except (ValueError, TypeError, KeyError) as exc:
            raise DamagedValue(f"puzzle record is corrupt: {exc}") from None


def puzzle_args(puzzle: Puzzle, pid: str, rating: Rating | None = None) -> dict[str, Any]:
    """What a frontend needs to show a puzzle (``Msg('puzzle')``): position, roll, game, themes, its id."""
    return {"id": pid, "position": puzzle.position, "dice": f"{puzzle.dice[0]}-{puzzle.dice[1]}",
            "game": puzzle.game, "themes": list(puzzle.themes),
            "rating": round(rating.rating) if rating is not None else round(puzzle.rating)}


def verdict_args(puzzle: Puzzle, pid: str, v: Verdict) -> dict[str, Any]:
    """What a frontend needs to show a judged answer (``Msg('puzzle_verdict')``), the picture included."""
    return {"id": pid, "position": puzzle.position, "dice": f"{puzzle.dice[0]}-{puzzle.dice[1]}",
            "correct": v.correct, "played": v.played, "best": v.best, "loss": f"{v.loss:.3f}",
            "played_equity": v.played_equity, "best_equity": v.best_equity}


class Trainer:
    """On-demand puzzles and their ratings."""

    def __init__(self, store: Store, clock: Clock, bank: Bank) -> None:
        self.store = store
        self.clock = clock
        self.bank = bank

    async def solver(self, who: PlayerRef) -> tuple[int, Solver]:
        """A player's puzzle record and its version (0: none yet)."""
        raw = await read_one(self.store, lambda r: r.get(keys.player(who.platform, who.user_id)))
        if raw is None:
            return 0, Solver()
        version, blob = split_versioned(raw)
        return version, Solver.decode(blob)

    async def give(self, actor: PlayerRef, place: Place, game: str | None = None) -> Result:
        """The actor's puzzle: the one he was given and has not answered, else a new one near his rating. ``game``
        (fevga, portes, plakoto; ``tavli``: every game) chooses whose puzzles he gets from now on; a puzzle he
        holds of another game is set aside for one of that game."""
        reads = Reads()
        done = reads.hgetall(keys.answered(actor.platform, actor.user_id))
        await reads.run(self.store)
        version, me = await self.solver(actor)
        wanted = me.game if game is None else "" if game == "tavli" else game  # "": every game's
        changed, me.game = wanted != me.game, wanted
        pid = me.current if me.current and me.current not in done.value else None
        found = await self.bank.get(pid) if pid is not None else None
        fresh = found is None or bool(me.game and found[0].game != me.game)  # none, gone, or not of his game
        if fresh:
            pid = await self.bank.pick(me.rating.rating, done.value, game=me.game or None)
            if pid is None:
                if me.game:
                    return Result.error("puzzle_none_left_game", game=me.game, solved=me.solved)
                return Result.error("puzzle_none_left", solved=me.solved)
            me.current = pid
            found = await self.bank.get(pid)
        if found is None or pid is None:
            return Result.error("puzzle_missing")
        if fresh or changed:
            commit = Commit().expect(keys.player(actor.platform, actor.user_id), version)
            commit.put_versioned(keys.player(actor.platform, actor.user_id), version + 1, me.encode(), KEEP)
            if not await self.store.commit(commit):
                return Result.error("puzzle_busy")
        puzzle, rating = found
        args = {**puzzle_args(puzzle, pid, rating), "player_rating": round(me.rating.rating)}
        return Result(ok=True, messages=[Msg("puzzle", args)], actions=step_actions(puzzle, pid, actor.user_id),
                      place=place)

    async def asked(self, actor: PlayerRef, pid: str) -> str | None:
        """``pid`` when it is the actor's puzzle now or one he has answered (its buttons still judge), else None."""
        reads = Reads()
        done = reads.hget(keys.answered(actor.platform, actor.user_id), pid)
        await reads.run(self.store)
        if done.value is not None:
            return pid
        return pid if (await self.solver(actor))[1].current == pid else None

    async def answer(self, actor: PlayerRef, place: Place, text: str, pid: str | None = None) -> Result:
        """Judge the actor's answer to his current puzzle (or to ``pid``: the daily one) and rate a first answer."""
        if pid is None:
            _version, me = await self.solver(actor)
            pid = me.current or None
        if pid is None:
            return Result.error("puzzle_none_given")
        judged = await judge(self.bank, pid, text)
        if isinstance(judged, Result):
            return judged
        puzzle, verdict = judged
        return Result(ok=True, messages=await self.judged(actor, puzzle, pid, verdict), place=place)

    async def judged(self, actor: PlayerRef, puzzle: Puzzle, pid: str, verdict: Verdict) -> list[Msg]:
        """The verdict and, for a first answer, the rating change it made (else that it was answered before)."""
        messages = [Msg("puzzle_verdict", verdict_args(puzzle, pid, verdict))]
        rated = await self.rate(actor, pid, verdict.correct)
        if rated is None:
            return [*messages, Msg("puzzle_answered_before", {})]
        before, after = rated
        return [*messages, Msg("puzzle_rating", {"rating": round(after.rating.rating),
                                                  "delta": round(after.rating.rating - before.rating),
                                                  "streak": after.streak, "best": after.best})]

    async def rate(self, actor: PlayerRef, pid: str, solved: bool) -> tuple[Rating, Solver] | None:
        """Rate a first answer (player and puzzle); None when he had answered this puzzle before."""
        done_key = keys.answered(actor.platform, actor.user_id)
        for _ in range(8):
            version, me = await self.solver(actor)
            found = await self.bank.get(pid)
            if found is None:
                return None
            _puzzle, p_rating = found
            before = me.rating
            me.rating = update(before, [(p_rating, 1.0 if solved else 0.0)])
            me.answered += 1
            me.solved += int(solved)
            me.streak = me.streak + 1 if solved else 0
            me.best = max(me.best, me.streak)
            if me.current == pid:
                me.current = ""
            commit = Commit().expect(keys.player(actor.platform, actor.user_id), version).field_free(done_key, pid)
            commit.put_versioned(keys.player(actor.platform, actor.user_id), version + 1, me.encode(), KEEP)
            commit.hset(done_key, pid, "1" if solved else "0")
            if await self.store.commit(commit):
                await self._publish(actor, me)
                await self.bank.rate(pid, update(p_rating, [(before, 0.0 if solved else 1.0)]))
                return before, me
            if await read_one(self.store, lambda r: r.hget(done_key, pid)) is not None:
                return None  # answered before (or at this very moment, by another command)
        return None

    async def _publish(self, actor: PlayerRef, me: Solver) -> None:
        """The player's row on ``top puzzles`` (its own slot: written after his record)."""
        row = f"{actor.name.replace('|', '/')[:64]}|{me.streak}|{me.best}|{me.solved}|{me.answered}"
        commit = Commit().zadd(keys.board(actor.platform), actor.user_id, round(me.rating.rating, 2))
        await self.store.commit(commit.hset(keys.board_names(actor.platform), actor.user_id, row))

    async def top(self, place: Place, n: int = 10) -> Result:
        """The platform's best puzzle solvers: rating, streak, best streak, solved of answered."""
        n = max(1, min(int(n), MAX_TOP))
        reads = Reads()
        rows = reads.ztop(keys.board(place.platform), n)
        names = reads.hgetall(keys.board_names(place.platform))
        await reads.run(self.store)
        if not rows.value:
            return Result(ok=True, messages=[Msg("puzzle_top_empty", {})], place=place)
        messages = [Msg("puzzle_top_header", {"count": len(rows.value)})]
        for rank, (uid, score) in enumerate(rows.value, 1):
            parts = (names.value.get(uid) or f"{uid}|0|0|0|0").split("|")
            name, streak, best, solved, answered = (parts + ["0"] * 5)[:5]
            messages.append(Msg("puzzle_top_row", {"rank": rank, "name": name, "rating": round(score),
                                                   "streak": streak, "best": best, "solved": solved,
                                                   "answered": answered}))
        return Result(ok=True, messages=messages, place=place)


async def judge(bank: Bank, pid: str, text: str) -> tuple[Puzzle, Verdict] | Result:
    """Puzzle ``pid`` and the verdict on the play ``text``, or the error to answer (no such puzzle, a bad play)."""
    found = await bank.get(pid)
    if found is None:
        return Result.error("puzzle_missing")
    try:
        return found[0], check(found[0], text)
    except FevgaError as exc:
        return error_result(exc)
