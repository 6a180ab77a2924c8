"""The end of a rated match as a saga: the game's commit records *pending ratings* in its own home (one
slot), then the ratings are applied to each leaderboard (other slots), each exactly once.

States of a finished rated match (see docs/service.md): ``pending`` (the game's commit wrote the match
result and a field ``<game>:rate`` in its home's ``sagas`` hash), then per leaderboard scope ``applied``
(a marker ``fevga:{r:<scope>}:done:<game>`` committed atomically with that board's rating documents and
zset, so applying twice is impossible), then ``done`` (the pending field is dropped). The instance that
committed the match end applies at once; if it dies, any instance's :meth:`Appliers.sweep` (every timer
tick) finishes it. Ratings are recomputed from the documents as they are when applied, so two matches of
one player ending together both count. The rating math stays in ratings.py / flow.py.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from bot.storage.base import Commit, Store

from . import keys
from .flow import apply_stats
from .once import robust_commit
from .ratings import Rating, rate_game
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
        """Apply the pending ratings of ``gid`` now (the committing instance, right after its commit)."""
        key = keys.sagas(keys.id_bucket(gid))
        raw = (await self.store.read([("hget", key, pending_field(gid))]))[0]
        if raw is not None:
            await self._apply(key, pending_field(gid), raw)

    async def sweep(self, older_than: float = 10.0) -> int:
        """Finish every match whose ratings are pending for over ``older_than`` s (its committer died);
        the number finished. Safe from several instances at once."""
        hashes = [keys.sagas(b) for b in range(keys.BUCKETS)]
        done = 0
        for key, fields in zip(hashes, await self.store.read([("hgetall", k) for k in hashes]), strict=True):
            for name, raw in fields.items():
                try:
                    created = float(json.loads(raw).get("t", 0))
                except (ValueError, TypeError, AttributeError):
                    created = 0.0
                if time.time() - created >= older_than:
                    await self._apply(key, name, raw)
                    done += 1
        return done

    async def _apply(self, key: str, name: str, raw: str) -> None:
        """Apply one pending match to each of its boards (each once), then drop the pending field."""
        try:
            match = json.loads(raw)
            scopes = [keys.board_scope(match["p"], match["s"]), keys.board_scope(match["p"], None)]
        except (ValueError, TypeError, KeyError) as exc:
            log.error("unreadable pending ratings %s %s (%s); dropped", key, name, exc)
        else:
            for scope in scopes:
                await self._apply_board(scope, match)
        await self.store.commit(Commit().hdel(key, name))

    async def _apply_board(self, scope: str, match: dict[str, Any]) -> None:
        """One board: marker + both players' documents + the zset, in one commit of the board's slot."""
        gid, players, w = str(match["g"]), match["pl"], int(match["w"])
        marker = keys.rated_marker(scope, gid)
        for _ in range(ATTEMPTS):
            if (await self.store.read([("get", marker)]))[0] is not None:
                return  # applied before (by us or another instance)
            found = await read_stats(self.store, [(scope, players[seat][0]) for seat in (0, 1)])
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
            if await robust_commit(self.store, commit):
                self.applied += 1
                return
        log.error("ratings of %s on %s not applied after %d attempts; left pending", gid, scope, ATTEMPTS)
        raise RuntimeError("ratings left pending")
