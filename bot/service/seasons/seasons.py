"""Seasons of a place's leaderboards: the running table (``top season``), the archive of a past one
(``top season 2026-11``) and the close at a month's end, posted and archived exactly once.

A season ranks the players with at least :data:`~.keys.MIN_MATCHES` rated matches in it by their rating at
its end (their rating after their last match of the month); ratings never reset. The close is a due entry
claimed once (the timers' lease), then ONE commit in the board's seasons home that creates the archive
(only if absent), writes the post to the outbox and drops the due entry: two instances, or a crash and a
restart, post it once.
"""

from __future__ import annotations

import json
import logging

from bot.service import keys as service_keys
from bot.service.config import Clock
from bot.service.models import Msg, Place, Result
from bot.service.reads import read_one
from bot.service.result_codec import encode_result
from bot.storage.base import Commit, Store, split_versioned
from fevga.match import MATCH_KINDS

from . import keys

log = logging.getLogger(__name__)
LEASE = 60.0
"""Seconds a claimed season close is left to its claimer before another instance may try."""
SETTING = "season"
"""The place setting: ``monthly`` (the default) or ``off``."""
LOOK = 30.0
"""Seconds between an instance's looks at the seasons' due sets (a season closes at most this late)."""


def ranked(fields: dict[str, str]) -> tuple[list[dict[str, object]], int]:
    """The qualifying players of a season's tallies, best first (rating, then more matches, then id), and
    how many played without reaching the threshold."""
    rows, short = [], 0
    for uid, raw in fields.items():
        matches, wins, rating, name = keys.parse_tally(raw)
        if matches < keys.MIN_MATCHES:
            short += 1 if matches > 0 else 0
            continue
        rows.append({"id": uid, "name": name or uid, "rating": round(rating), "matches": matches, "wins": wins,
                     "exact": rating})
    rows.sort(key=lambda r: (-float(str(r["exact"])), -int(str(r["matches"])), str(r["id"])))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
        del row["exact"]
    return rows, short


def table_msgs(month: str, kind: str, rows: list[dict[str, object]], short: int, final: bool) -> list[Msg]:
    """A season's table as messages: a header, one row per player (drawn as a picture too), and a note on
    the threshold."""
    header = "season_table_final" if final else "season_table_header"
    out = [Msg(header, {"month": month, "kind": kind, "min": keys.MIN_MATCHES})]
    out += [Msg("season_table_row", {k: row[k] for k in ("rank", "name", "rating", "matches", "wins")})
            for row in rows]
    if not rows:
        out.append(Msg("season_table_empty", {"min": keys.MIN_MATCHES}))
    if short:
        out.append(Msg("season_short", {"count": short, "min": keys.MIN_MATCHES}))
    return out


class Seasons:
    """Season tables and their exactly-once close (same store and clock as the service)."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self._next_look = 0.0

    async def _kind(self, place: Place, kind: str | None) -> str:
        """The board's kind: the one asked for, else the place's ``default_game``."""
        if kind is None:
            chosen = await read_one(self.store, lambda r: r.hget(service_keys.place_settings(place), "default_game"))
            kind = chosen if chosen in MATCH_KINDS else "fevga"
        return kind

    async def enabled(self, platform: str, scope_id: str) -> bool:
        """Whether the place keeps seasons (its ``season`` setting is not ``off``)."""
        where = service_keys.place_settings(Place(platform, scope_id, scope_id))
        return await read_one(self.store, lambda r: r.hget(where, SETTING)) != "off"

    async def show(self, place: Place, month: str | None = None, kind: str | None = None) -> Result:
        """``top season``: the running season's table; with ``month``, that season's archive."""
        kind = await self._kind(place, kind)
        if kind not in MATCH_KINDS:
            return Result.error("bad_match_kind_here", games=", ".join(MATCH_KINDS))
        if month == "last":  # ``top season last``: the month before the running one
            month = keys.month_before(keys.month_of(self.clock()))
        if month is not None and not keys.valid_month(month):
            return Result.error("season_bad_month", month=month[:20])
        if not await self.enabled(place.platform, place.scope_id):
            return Result.error("season_off")
        board = service_keys.kind_board(service_keys.board_scope(place.platform, place.scope_id), kind)
        running = keys.month_of(self.clock())
        if month is None or month == running:
            fields = await read_one(self.store, lambda r: r.hgetall(keys.tallies(board, running)))
            rows, short = ranked(fields)
            return Result(ok=True, place=place, messages=table_msgs(running, kind, rows[:keys.TOP], short, False))
        raw = await read_one(self.store, lambda r: r.get(keys.archive(board, month)))
        if raw is None:
            return Result.error("season_no_archive", month=month)
        _version, blob = split_versioned(raw)
        kept = json.loads(blob)
        return Result(ok=True, place=place, messages=table_msgs(month, kind, kept["rows"], int(kept["short"]), True))

    async def tick(self, platform: str | None = None, limit: int = 20) -> list[Result]:
        """Close the seasons whose month has ended (only ``platform``'s when given): each claimed once, then
        archived and posted in one commit. A failing one is logged and left for its lease to run out."""
        out: list[Result] = []
        now = self.clock()
        if now < self._next_look:  # a season ends once a month: its 64 due sets need no look every tick
            return out
        self._next_look = now + LOOK
        homes = [keys.due(bucket) for bucket in range(service_keys.BUCKETS)]
        for bucket, due in enumerate(await self.store.due_many(homes, now, limit)):  # one round trip
            for member in due:
                parsed = keys.parse_member(member)
                if parsed is not None and platform is not None and parsed[1] != platform:
                    continue
                if not await self.store.claim(keys.due(bucket), member, now, LEASE):
                    continue
                try:
                    closed = await self._close(bucket, member, parsed)
                except Exception:  # one damaged season must not stop the others (or the game timers)
                    log.exception("season %s could not close", member)
                    continue
                if closed is not None:
                    out.append(closed)
        return out

    async def _close(self, bucket: int, member: str, parsed: tuple[str, str, str, str] | None) -> Result | None:
        """Archive and post one ended season (None: nothing to post: done before, seasons off, nobody ranked)."""
        due = keys.due(bucket)
        if parsed is None:
            await self.store.commit(Commit().zrem(due, member))
            return None
        month, platform, scope_id, kind = parsed
        board = service_keys.kind_board(service_keys.board_scope(platform, scope_id), kind)
        archive = keys.archive(board, month)
        found, fields, channel = await self.store.read([
            ("get", archive), ("hgetall", keys.tallies(board, month)), ("hget", keys.channels(bucket), board)])
        if found is not None or not await self.enabled(platform, scope_id):
            await self.store.commit(Commit().zrem(due, member))  # closed before (a late match), or seasons off
            return None
        rows, short = ranked(fields)
        rows = rows[:keys.TOP]
        place = Place(platform, scope_id, str(channel or scope_id))
        result = Result(ok=True, place=place, messages=table_msgs(month, kind, rows, short, True))
        blob = json.dumps({"month": month, "kind": kind, "rows": rows, "short": short}, ensure_ascii=False,
                          separators=(",", ":")).encode()
        commit = Commit().expect(archive, 0).put_versioned(archive, 1, blob, keys.KEEP).zrem(due, member)
        if rows:  # a season nobody finished is archived quietly
            commit.xadd(service_keys.outbox(platform, bucket), {"k": "notice", "result": encode_result(result)})
        if not await self.store.commit(commit):
            return None  # another instance closed it first
        return result if rows else None
