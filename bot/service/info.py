"""Leaderboards, player stats, kept records and the ``.mat`` export."""

from __future__ import annotations

import json
from typing import Any

from bot.storage.base import split_versioned

from . import keys
from .core import ServiceCore
from .models import Msg, Place, PlayerRef, Result
from .ratings import Rating
from .records import export_mat, make_record, unpack

MAX_TOP = 50


def _shown(data: dict[str, Any]) -> str:
    return Rating(data["r"], data["rd"], data["vol"]).shown()


class InfoMixin(ServiceCore):
    """top / stats / export / record."""

    async def top(self, place: Place, n: int = 10, global_: bool = False) -> Result:
        """The best ``n`` players of this place's board (or the platform's global board)."""
        n = max(1, min(int(n), MAX_TOP))
        scope = keys.board_scope(place.platform, None if global_ else place.scope_id)
        (rows,) = await self.store.read([("ztop", keys.ratings(scope), n)])
        docs = await self.store.read([("get", keys.player_stats(scope, uid)) for uid, _ in rows]) if rows else []
        messages = [Msg("top_header_global" if global_ else "top_header", {"count": len(rows)})]
        if not rows:
            messages = [Msg("top_empty", {})]
        for rank, ((uid, _score), raw) in enumerate(zip(rows, docs, strict=True), 1):
            data = _load_stats(raw)
            if data is None:
                continue
            messages.append(Msg("top_row", {"rank": rank, "name": data.get("name", uid), "rating": _shown(data),
                                            "wins": data["w"], "losses": data["l"]}))
        return Result(ok=True, messages=messages, place=place)

    async def stats(self, who: PlayerRef, place: Place) -> Result:
        """A player's rating, rank and record on this place's board and on the global one."""
        messages = []
        scopes = [keys.board_scope(place.platform, place.scope_id), keys.board_scope(place.platform, None)]
        reads = []
        for scope in scopes:
            reads += [("get", keys.player_stats(scope, who.user_id)), ("zrank", keys.ratings(scope), who.user_id),
                      ("zcard", keys.ratings(scope))]
        got = await self.store.read(reads)
        for global_ in (False, True):
            raw, rank, count = got[3 * global_: 3 * global_ + 3]
            data = _load_stats(raw)
            if data is None:
                messages.append(Msg("stats_none_global" if global_ else "stats_none", {"player": who.name}))
                continue
            messages.append(Msg("stats_global" if global_ else "stats", {
                "player": who.name, "rating": _shown(data), "rd": round(data["rd"]),
                "rank": (rank + 1) if rank is not None else "-", "of": count, "games": data["g"],
                "wins": data["w"], "losses": data["l"], "points": data["pts"], "mars": data["mars"],
                "streak": data["st"], "best": data["best"],
            }))
        return Result(ok=True, messages=messages, place=place)

    async def _records(self, gid: str) -> tuple[list[dict[str, Any]], Result | None]:
        """Every game of a match: the kept records, then the game still being played (seed hidden)."""
        loaded, _ = await self._load(gid, take=False)
        s = loaded.session
        if s is None:
            return [], loaded.error or Result.error("no_game")
        done = await self.store.read([("get", keys.game_record(gid, n)) for n in range(1, s.game_no + 1)])
        records = []
        for raw in done:
            if raw is None:
                continue
            try:
                records.append(unpack(raw))
            except ValueError:
                return [], Result.error("corrupt_game", game_id=gid)
        if s.status == "play" and len(records) < s.game_no:
            records.append(make_record(s, s.game, s.game_no, list(s.score), self.clock()))
        return records, None

    async def export(self, actor: PlayerRef, place: Place, game_id: str | None = None) -> Result:
        """The actor's match here (running or last finished) as ``.mat``-like text in ``Msg('export')``."""
        gid = game_id
        if gid is None:
            running, last = await self.store.read([("hget", keys.channel_games(place), actor.user_id),
                                                    ("hget", keys.channel_last(place), actor.user_id)])
            gid = running or last
        if gid is None:
            return Result.error("no_game_here")
        records, err = await self._records(gid)
        if err is not None:
            return err
        text = export_mat(records)
        return Result(ok=True, messages=[Msg("export", {"text": text, "filename": f"fevga-{gid}.mat"})],
                      game_id=gid, place=place)

    async def record(self, game_id: str) -> Result:
        """The full record of a match (``Msg('record', {'record': {...}})``): every game's rolls, plays,
        times, and each finished game's revealed dice seed."""
        records, err = await self._records(game_id)
        if err is not None:
            return err
        return Result(ok=True, messages=[Msg("record", {"record": {"game_id": game_id, "games": records}})],
                      game_id=game_id)


def _load_stats(raw: bytes | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        data = json.loads(split_versioned(raw)[1])
    except ValueError:
        return None
    needed = ("r", "rd", "vol", "w", "l", "pts", "mars", "st", "best", "g")
    if not isinstance(data, dict) or not all(isinstance(data.get(k), (int, float)) for k in needed):
        return None
    return data
