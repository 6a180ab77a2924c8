"""Post-game analysis for the chats: find the game, analyse it in a worker process, keep the report.

The analysis (``fevga.analysis.analyse``) is pure CPU, so it never runs on the event loop: a
``ProcessPoolExecutor`` does it. Its compact ``Report.encode()`` bytes are stored beside the game's
record (same retention), so asking again costs one read.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import Any

from bot.storage.base import Commit, Store
from fevga import SerializationError
from fevga.ai.stakes import MatchScore
from fevga.analysis import Report, analyse

from . import keys, rates
from .info import Info
from .models import Msg, Place, PlayerRef, Result
from .puzzles.mining import mine_report
from .reads import Reads

log = logging.getLogger(__name__)
RATE_TRIES = 20  # compare-and-set attempts for one rolling-list update (each loser reads again)


def analyse_blob(game: dict[str, Any], ply: int | None, score: MatchScore | None = None) -> bytes:
    """Worker-process entry point: the stored form of one game's analysis (at player 0's match ``score``)."""
    return analyse(game, ply, score=score).encode()


def match_score(record: dict[str, Any], records: Sequence[dict[str, Any]] = ()) -> MatchScore:
    """Player 0's score before the game of ``record``, as the AI and ``hint`` played it. A record does not
    keep the match's kind: a match whose ``records`` hold two games is a tavli one, else of its one game."""
    games = {str(r["game"].get("game", "fevga")) for r in (*records, record)}
    kind = "tavli" if len(games) > 1 else games.pop()
    before = record.get("score_before") or (0, 0)
    return MatchScore(int(record.get("length", 1)), int(before[0]), int(before[1]), kind, int(record["game_no"]))


JUST_POSTED = 120.0  # seconds after an automatic post was claimed during which ``analyze`` may point to it


def _posting(raw: bytes | str | None, now: float, within: float) -> bool:
    """Whether a stored claim is the automatic post's ("auto:<time>") from within ``within`` seconds before
    ``now`` (an ``analyze``'s claim, "asked:<time>", or an old "1" marker: no)."""
    text = raw.decode() if isinstance(raw, bytes) else raw or ""
    who, _, when = text.partition(":")
    try:
        return who == "auto" and 0 <= now - float(when) <= within
    except ValueError:
        return False


class Analyses:
    """``analyze``: the last finished game of a match analysed once, stored, and read back afterwards."""

    def __init__(self, store: Store, info: Info, workers: int = 1, ply: int | None = None) -> None:
        self.store = store
        self.info = info
        self.workers = max(1, int(workers))
        self.ply = ply
        self.runs = 0  # analyses computed by this instance (tests check a second ask computes nothing)
        self._pool: Executor | None = None
        self._running: dict[str, asyncio.Future[Report | None]] = {}
        # puzzles found in a stored analysis go here (GameService: the puzzle bank); only at the hard level's
        # search (ply None, the production setting), so quick test analyses never queue expert searches
        self.found_puzzles: Callable[[list[str]], Awaitable[int]] | None = None
        self._mining: set[asyncio.Task[None]] = set()

    def _executor(self) -> Executor:
        """The worker pool, started on first use (spawned workers: no forked event loop or threads)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (without waiting for an analysis in progress)."""
        for running in self._running.values():
            running.cancel()
        for task in self._mining:
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def _game_ids(self, actor: PlayerRef, place: Place) -> tuple[str | None, str | None]:
        """The actor's running match here and his last ended one (either may be None)."""
        reads = Reads()
        running = reads.hget(keys.channel_games(place), actor.user_id)
        last = reads.hget(keys.channel_last(place), actor.user_id)
        await reads.run(self.store)
        return running.value, last.value

    async def analyze(self, actor: PlayerRef, place: Place, game_id: str | None = None) -> Result:
        """The analysis of the last *finished* game of the actor's match here (or of ``game_id``): his running
        match's when one of its games has ended, else his last match's. A game still being played is refused
        (its analysis would change with every move), and so is a match called off before any game ended."""
        running, last = (game_id, None) if game_id else await self._game_ids(actor, place)
        candidates = list(dict.fromkeys(g for g in (running, last) if g))
        if not candidates:
            return Result.error("analysis_no_game")
        for gid in candidates:
            records, err = await self.info.records(gid)
            if err is not None:
                return err
            finished = [r for r in records if r.get("outcome") is not None]
            if finished:
                break
        else:  # nothing has ended: the running match's first game, or a match called off before any ended
            return Result.error("analysis_running", game_id=running) if running else Result.error("analysis_no_game")
        record = finished[-1]
        here = [str(part) for part in record.get("place", ())] == [place.platform, place.scope_id, place.channel_id]
        if here and not await self._claim_post(gid, int(record["game_no"])):  # the automatic post is being made
            return Result(ok=True, messages=[Msg("analysis_just_posted", {"game_id": gid})], place=place)
        report = await self.report_of(gid, record, records)
        if report is None:
            return Result.error("corrupt_game", game_id=gid)
        names = [str(p[2]) for p in record["players"]]
        args = {"report": report.to_dict(), "names": names, "game_id": gid, "game_no": record["game_no"],
                "game": str(record.get("game", {}).get("game", "fevga"))}  # Portes and Plakoto are named
        return Result(ok=True, messages=[Msg("analysis", args)], game_id=gid, place=place)

    async def after_game(self, game_id: str, game_no: int) -> Result:
        """The analysis to post when game ``game_no`` of a match has ended, if the place's ``analysis``
        setting asks for one (``ai``, the default: only in games against the AI). Posted once: the first
        caller (any instance, a retried command) claims it; the others get an empty Result."""
        records, err = await self.info.records(game_id)
        if err is not None:
            return err
        record = next((r for r in records if r.get("game_no") == game_no and r.get("outcome") is not None), None)
        if record is None:
            return Result.error("analysis_no_game")
        place = Place(*(str(part) for part in record["place"]))
        players = record["players"]
        wanted = (await self.store.read([("hget", keys.place_settings(place), "analysis")]))[0] or "ai"
        wanted = wanted.decode() if isinstance(wanted, bytes) else str(wanted)
        if wanted == "off" or (wanted == "ai" and not any(p[0] == "ai" for p in players)):
            return Result(ok=True, place=place)
        if not await self._claim(game_id, game_no, "auto"):  # posted once: by whoever claims it first, or not at
            return Result(ok=True, place=place)  # all when a player's ``analyze`` here had it first
        try:
            report = await self.report_of(game_id, record, records)
        except Exception:  # not posted after all: the claim goes, so that ``analyze`` is not told to wait for it
            await self.store.commit(Commit().delete(self._posted(game_id, game_no)))
            raise
        if report is None:
            return Result.error("corrupt_game", game_id=game_id)
        names = [str(p[2]) for p in players]
        args = {"report": report.to_dict(), "names": names, "game_id": game_id, "game_no": game_no, "summary": True,
                "game": str(record.get("game", {}).get("game", "fevga"))}
        return Result(ok=True, messages=[Msg("analysis", args)], game_id=game_id, place=place)

    @staticmethod
    def _posted(game_id: str, game_no: int) -> str:
        """The key that claims a game's automatic post (its value: when it was claimed)."""
        return f"{keys.game_analysis(game_id, game_no)}:posted"

    async def _claim(self, game_id: str, game_no: int, who: str) -> bool:
        """Claim the post of a game's analysis in its place (once, across instances), noting by whom and when."""
        claimed = f"{who}:{round(self.info.clock(), 3)}".encode()
        key = self._posted(game_id, game_no)
        return bool(await self.store.commit(Commit().expect(key, 0).put(key, claimed, keys.RECORD_KEEP)))

    async def _claim_post(self, game_id: str, game_no: int) -> bool:
        """For ``analyze`` in the game's own place: False while the automatic post is being made there (claimed
        lately, its analysis not stored yet), so it is not posted twice; else True, and the automatic post, if
        it comes later, is not made (the asker has it). Once the post is out, asking shows it again."""
        if await self._claim(game_id, game_no, "asked"):
            return True
        posted, stored = await self.store.read([("get", self._posted(game_id, game_no)),
                                                ("get", keys.game_analysis(game_id, game_no))])
        return stored is not None or not _posting(posted, self.info.clock(), JUST_POSTED)

    async def report_of(self, gid: str, record: dict[str, Any],
                        records: Sequence[dict[str, Any]] = ()) -> Report | None:
        """The stored report of a kept record, analysing (and storing) it first when there is none, at the
        match's score (``records``: the match's games, for its kind)."""
        key = keys.game_analysis(gid, int(record["game_no"]))
        raw = (await self.store.read([("get", key)]))[0]
        if raw is not None:
            try:
                return Report.decode(raw)
            except SerializationError:
                log.warning("stored analysis %s is corrupt; analysing again", key)
        running = self._running.get(key)  # the same game asked for twice at once: analysed once
        if running is None:
            running = asyncio.ensure_future(self._analyse(key, gid, record, match_score(record, records)))
            self._running[key] = running
            running.add_done_callback(lambda done: self._finished(key, done))
        return await asyncio.shield(running)

    def _finished(self, key: str, done: asyncio.Future[Report | None]) -> None:
        """Forget a finished analysis; its failure is logged here too, since its asker may be gone (shut down)."""
        self._running.pop(key, None)
        if not done.cancelled() and (exc := done.exception()) is not None:
            log.warning("analysis %s failed: %r", key, exc)

    async def _analyse(self, key: str, gid: str, record: dict[str, Any], score: MatchScore) -> Report | None:
        """Analyse in a worker process at the match's ``score``, then store the report and note the players'
        error rates."""
        loop = asyncio.get_running_loop()
        self.runs += 1
        try:
            blob = await loop.run_in_executor(self._executor(), analyse_blob, record["game"], self.ply,
                                              score)
            report = Report.decode(blob)
        except SerializationError:
            return None
        except BrokenExecutor:  # a worker died (killed, out of memory): start afresh next time
            log.error("the analysis worker pool broke; it will be restarted")
            self._pool = None
            raise
        await self.store.commit(Commit().put(key, blob, keys.RECORD_KEEP))
        await self._note_rates(gid, record, report)
        if self.found_puzzles is not None and self.ply is None and report.blunders():
            task = asyncio.ensure_future(self._mine(blob))
            self._mining.add(task)
            task.add_done_callback(self._mining.discard)
        return report

    async def _mine(self, blob: bytes) -> None:
        """The puzzles among a stored analysis's blunders, searched in a worker, added to the bank (best effort)."""
        try:
            found = await asyncio.get_running_loop().run_in_executor(self._executor(), mine_report, blob)
            if found and self.found_puzzles is not None:
                await self.found_puzzles(found)
        except asyncio.CancelledError:
            raise
        except Exception:  # an extra: the analysis itself is stored already
            log.exception("looking for puzzles in an analysed game failed")

    async def _note_rates(self, gid: str, record: dict[str, Any], report: Report) -> None:
        """Add this game's error rate to each human player's rolling list (newest last, at most 20)."""
        entry = f"{gid}:{record['game_no']}"
        for seat, player in enumerate(record["players"]):
            platform, user_id = str(player[0]), str(player[1])
            if platform == "ai" or report.players[seat].decisions == 0:
                continue
            await self._add_rate(keys.player_rates(platform, user_id), entry, report.players[seat].error_rate)

    async def _add_rate(self, key: str, entry: str, rate: float) -> None:
        """Add one entry to a rolling list by compare-and-set on its version (one key: one Cluster slot), so
        of two analyses finishing at the same instant neither is lost: the one that loses the race reads again."""
        for _ in range(RATE_TRIES):
            version, old = rates.versioned((await self.store.read([("get", key)]))[0])
            new = rates.added(old, entry, rate)
            if new is None:
                return
            commit = Commit().expect(key, version).put_versioned(key, max(version, 0) + 1, rates.encode(new),
                                                                  rates.RATES_TTL)
            if await self.store.commit(commit):
                return
        log.warning("the error rate of %s was not noted in %s: too many writers at once", entry, key)
