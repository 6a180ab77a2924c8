"""The end of a rated match as a saga: the game's commit records *pending ratings* in its own home (one
slot), then the ratings are applied to each leaderboard (other slots), each exactly once.

States of a finished rated match (see docs/service.md): ``pending`` (the game's commit wrote the match
result and a field ``<game>:rate`` in its home's ``sagas`` hash), then per leaderboard scope ``applied``
(a marker ``fevga:{r:<scope>}:done:<game>`` committed atomically with that board's rating documents and
zset, so applying twice is impossible), then ``done`` (the pending field is dropped). The instance that
committed the match end applies at once; if it dies, any instance's :meth:`Appliers.sweep` (every timer
tick) finishes it. Ratings are recomputed from the documents as they are when applied, so two matches of
one player ending together both count. The rating math stays in ratings.py / flow.py.

The same pending hash carries the writes a match makes to its players' own slots: the running-games index
(``<game>:games:<version>``: HSET or HDEL of one field, harmless to repeat; ``mygames`` drops entries of
finished games) and the list of recent short matches (``<game>:short``: an entry stamped with the match's
end, added only if that stamp is not there yet).
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from bot.storage.base import Commit, Store, split_versioned

from . import fairness, keys
from .flow import apply_stats
from .once import robust_commit
from .ratings import Rating, rate_game
from .seasons import keys as seasons
from .stats_docs import WRONG_TYPE, read_stats

log = logging.getLogger(__name__)
ATTEMPTS = 20  # a board's documents moved on meanwhile (another match): read again and recompute


def pending_field(gid: str) -> str:
    """The field of a match's pending ratings in its home's sagas hash."""
    return f"{gid}:rate"


class Appliers:
    """Apply pending match ratings (the saga's second step), idempotently, from any instance."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.applied = 0  # leaderboard updates this instance applied

    async def finish(self, gid: str) -> None:
        """Apply what ``gid``'s commit left pending (ratings, index writes) now: the committing instance,
        right after its commit."""
        key = keys.sagas(keys.id_bucket(gid))
        fields = (await self.store.read([("hgetall", key)]))[0]
        mine = [(name, raw) for name, raw in fields.items() if name.startswith(f"{gid}:")]
        await self._dispatch_all(key, mine)

    async def _dispatch_all(self, key: str, fields: list[tuple[str, str]]) -> None:
        """Apply pending fields, ratings first (what players see on the boards); each on its own, so one that
        fails (left pending for a later sweep) does not hold up the others. Raises the first failure."""
        first: Exception | None = None
        for name, raw in sorted(fields, key=lambda f: not f[0].endswith(":rate")):
            try:
                await self._dispatch(key, name, raw)
            except Exception as exc:  # kept pending; the caller logs the first one
                first = first or exc
        if first is not None:
            raise first

    async def sweep(self, older_than: float = 10.0) -> int:
        """Finish every match whose ratings are pending for over ``older_than`` s (its committer died);
        the number finished. Safe from several instances at once."""
        hashes = [keys.sagas(b) for b in range(keys.BUCKETS)]
        done = 0
        failed: Exception | None = None
        for key, fields in zip(hashes, await self.store.read([("hgetall", k) for k in hashes]), strict=True):
            due = []
            for name, raw in fields.items():
                try:
                    created = float(json.loads(raw).get("t", 0))
                except (ValueError, TypeError, AttributeError):
                    created = 0.0
                if time.time() - created >= older_than:
                    due.append((name, raw))
            try:
                await self._dispatch_all(key, due)
            except Exception as exc:  # the other homes still get their turn
                failed = failed or exc
            done += len(due)
        if failed is not None:
            raise failed
        return done

    async def _dispatch(self, key: str, name: str, raw: str) -> None:
        """Apply one pending field by its kind: a match's ratings or running-games index writes."""
        if ":games:" in name:
            await self._apply_index(key, name, raw)
        elif name.endswith(":short"):
            await self._apply_short(key, name, raw)
        else:
            await self._apply(key, name, raw)

    async def _apply_short(self, key: str, name: str, raw: str) -> None:
        """Add a short match to both players' lists (each in its slot, each once), then drop the field."""
        try:
            data = json.loads(raw)
            at = float(data["at"])
            players = [(str(p[0]), str(p[1]), str(p[2]), str(p[3])) for p in data["pl"]]
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            log.error("unreadable pending short match %s %s (%s); dropped", key, name, exc)
            players, at = [], 0.0
        for platform, uid, other_id, other_name in players:
            await self._add_short(keys.player_short(platform, uid), other_id, other_name, at)
        await self.store.commit(Commit().hdel(key, name))

    async def _add_short(self, short: str, other_id: str, other_name: str, at: float) -> None:
        """One player's list: read, add unless this match (opponent and end stamp) is in it, compare-and-set."""
        for _ in range(ATTEMPTS):
            raw = (await self.store.read([("get", short)]))[0]
            try:
                version, blob = split_versioned(raw) if raw is not None else (0, b"")
            except ValueError:
                version, blob = -1, b""
            entries = fairness.parse_short(blob)
            if any(e[0] == other_id and e[2] == round(at, 3) for e in entries):
                return  # added before (a retry, or another instance's sweep)
            commit = Commit()
            if version >= 0:
                commit.expect(short, version)  # 0: still absent
            else:  # unreadable: replaced whole
                commit.delete(short)
            commit.put_versioned(short, max(version, 0) + 1, fairness.add_short(entries, other_id, other_name, at),
                                 int(fairness.SHORT_WINDOW))
            if await robust_commit(self.store, commit):
                return
        log.error("short match not noted in %s after %d attempts", short, ATTEMPTS)

    async def _apply_index(self, key: str, name: str, raw: str) -> None:
        """Apply pending index writes (each alone: every player's index is in a slot of its own), then drop
        the pending field. Unreadable or damaged ones are logged and dropped: mygames repairs its index."""
        try:
            ops = [(str(op[0]), str(op[1]), str(op[2]), str(op[3]) if len(op) > 3 else "")
                   for op in json.loads(raw)["ops"]]
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            log.error("unreadable pending index writes %s %s (%s); dropped", key, name, exc)
            ops = []
        for verb, index, game, entry in ops:
            commit = Commit().hset(index, game, entry) if verb == "hset" else Commit().hdel(index, game)
            if not await robust_commit(self.store, commit):
                log.warning("index write %s %s skipped (the key is damaged; mygames resets it)", verb, index)
        await self.store.commit(Commit().hdel(key, name))

    async def _apply(self, key: str, name: str, raw: str) -> None:
        """Apply one pending match to each of its boards (each once), then drop the pending field."""
        try:
            match = json.loads(raw)
            kind = str(match.get("k", "fevga"))  # absent: a Fevga match (pending before tavli too)
            scopes = [keys.kind_board(keys.board_scope(match["p"], match["s"]), kind),
                      keys.kind_board(keys.board_scope(match["p"], None), kind)]
        except (ValueError, TypeError, KeyError) as exc:
            log.error("unreadable pending ratings %s %s (%s); dropped", key, name, exc)
        else:
            for scope in scopes:
                await self._apply_board(scope, match, season=scope is scopes[0])
        await self.store.commit(Commit().hdel(key, name))

    async def _apply_board(self, scope: str, match: dict[str, Any], season: bool = False) -> None:
        """One board: marker + both players' documents + the zset (+ on a place's board, both players' season
        tallies, guarded by their documents' versions), in one commit of the board's slot."""
        gid, players, w = str(match["g"]), match["pl"], int(match["w"])
        marker = keys.rated_marker(scope, gid)
        month = seasons.month_of(float(match.get("at", match.get("t", time.time()))))
        tallies = seasons.tallies(scope, month) if season else None
        if tallies is not None:
            await self._register_season(scope, month, match)
        for _ in range(ATTEMPTS):
            if (await self.store.read([("get", marker)]))[0] is not None:
                return  # applied before (by us or another instance)
            found = await read_stats(self.store, [(scope, players[seat][0]) for seat in (0, 1)])
            before = await self.store.read([("hget", tallies, players[seat][0]) for seat in (0, 1)]) if tallies else []
            (vw, dw), (vl, dl) = found[(scope, players[w][0])], found[(scope, players[w ^ 1][0])]
            new_w, new_l = rate_game(Rating(dw["r"], dw["rd"], dw["vol"]), Rating(dl["r"], dl["rd"], dl["vol"]))
            commit = Commit().expect(marker, 0).put(marker, b"1", keys.STATS_KEEP)
            for seat, version, data, rating, won in ((w, vw, dw, new_w, True), (w ^ 1, vl, dl, new_l, False)):
                apply_stats(data, rating, won, match["sc"][seat], match["m"][seat], players[seat][1])
                doc = keys.player_stats(scope, players[seat][0])
                if version != WRONG_TYPE:
                    commit.expect(doc, version)
                if version < 0 or data.pop("_damaged", False):  # a damaged document is replaced whole
                    commit.delete(doc)
                    version = max(version, 0)
                commit.put_versioned(doc, version + 1, json.dumps(data, separators=(",", ":")).encode(),
                                     keys.STATS_KEEP)
                commit.zadd(keys.ratings(scope), players[seat][0], round(rating.rating, 3))
                if tallies is not None:
                    commit.hset(tallies, players[seat][0], seasons.tally(before[seat], rating.rating, won,
                                                                         players[seat][1]))
                commit.zadd(keys.rating_history(scope, players[seat][0]),
                            f"{gid}:{rating.rating:.1f}:{rating.rd:.1f}", round(time.time(), 3))
            if await robust_commit(self.store, commit):
                self.applied += 1
                return
        log.error("ratings of %s on %s not applied after %d attempts; left pending", gid, scope, ATTEMPTS)
        raise RuntimeError("ratings left pending")

    async def _register_season(self, board: str, month: str, match: dict[str, Any]) -> None:
        """Put the board's season on its home's due set (to close at the month's end) with the channel to post
        in: harmless to repeat; closing checks the archive, so a late repeat never posts twice."""
        bucket = seasons.home_of(board)
        member = seasons.due_member(month, str(match["p"]), str(match["s"]), str(match.get("k", "fevga")))
        commit = Commit().zadd(seasons.due(bucket), member, seasons.month_end(month))
        if match.get("c"):
            commit.hset(seasons.channels(bucket), board, str(match["c"]))
        await robust_commit(self.store, commit)
