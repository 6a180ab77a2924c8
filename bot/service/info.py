"""Leaderboards, player stats, kept records and the ``.mat`` export."""

from __future__ import annotations

from typing import Any

from bot.storage.base import Store, split_versioned
from fevga import SerializationError
from fevga.analysis import Report
from fevga.match import MATCH_KINDS, MAX_LENGTH

from . import fairness, keys, rates
from .config import Clock
from .models import Msg, Place, PlayerRef, Result
from .ratings import Rating
from .reads import Handle, Reads, read_one
from .record_codec import unpack
from .records import export_mat, make_record
from .sessions import Sessions
from .stats_docs import parse_stats

MAX_TOP = 50


def _shown(data: dict[str, Any]) -> dict[str, Any]:
    """The rating as shown: its rounded value, and ``prov`` while it is provisional (the catalogue marks it
    and explains the mark in a ``rating_legend`` line)."""
    rating = Rating(data["r"], data["rd"], data["vol"])
    return {"rating": round(rating.rating), "prov": rating.provisional}


class Info:
    """top / stats / export / record: read-only, over the leaderboards, stats documents and game records."""

    def __init__(self, store: Store, clock: Clock, sessions: Sessions) -> None:
        self.store = store
        self.clock = clock
        self.sessions = sessions

    async def top(self, place: Place, n: int = 10, global_: bool = False, kind: str | None = None) -> Result:
        """The best ``n`` players of this place's board (or the platform's global board) of ``kind`` (None:
        the place's ``default_game``)."""
        asked, n = int(n), max(1, min(int(n), MAX_TOP))
        if kind is None:
            chosen = await read_one(self.store, lambda r: r.hget(keys.place_settings(place), "default_game"))
            kind = chosen if chosen in MATCH_KINDS else "fevga"
        if kind not in MATCH_KINDS:
            return Result.error("bad_match_kind_here", games=", ".join(MATCH_KINDS))
        scope = keys.kind_board(keys.board_scope(place.platform, None if global_ else place.scope_id), kind)
        rows = await read_one(self.store, lambda r: r.ztop(keys.ratings(scope), n))
        reads = Reads()
        docs = [reads.get(keys.player_stats(scope, uid)) for uid, _ in rows]
        await reads.run(self.store)
        messages = [Msg("top_header_global" if global_ else "top_header", {"count": len(rows)})]
        if not rows:  # which game's board is empty, and how to see the others
            others = ", ".join(f"top {other}" for other in MATCH_KINDS if other != kind)
            messages = [Msg("top_empty", {"kind": kind}), Msg("top_other_boards", {"others": others})]
        for rank, ((uid, _score), raw) in enumerate(zip(rows, docs, strict=True), 1):
            data = _load_stats(raw.value)
            if data is None:
                continue
            messages.append(Msg("top_row", {"rank": rank, "name": data.get("name", uid), **_shown(data),
                                            "wins": data["w"], "losses": data["l"]}))
        if any(m.args.get("prov") for m in messages):
            messages.append(Msg("rating_legend", {}))
        if asked > MAX_TOP:
            messages.append(Msg("top_max", {"max": MAX_TOP}))
        if kind != "fevga" and rows:  # which game's board this is (Fevga's reads as before; an empty one says it)
            messages.insert(0, Msg("top_of_game", {"kind": kind}))
        return Result(ok=True, messages=messages, place=place)

    async def stats(self, who: PlayerRef, place: Place) -> Result:
        """A player's rating, rank and record on this place's board and on the global one."""
        messages = []
        scopes = [keys.kind_board(keys.board_scope(place.platform, where), kind)
                  for kind in MATCH_KINDS for where in (place.scope_id, None)]
        reads = Reads()
        boards = [(reads.get(keys.player_stats(scope, who.user_id)), reads.zrank(keys.ratings(scope), who.user_id),
                   reads.zcard(keys.ratings(scope))) for scope in scopes]
        analysed = reads.get(keys.player_rates(who.platform, who.user_id))
        short = reads.get(keys.player_short(who.platform, who.user_id))
        await reads.run(self.store)
        loaded = [(kind, global_, _load_stats(doc.value), ranked.value, counted.value)
                  for (kind, global_), (doc, ranked, counted)
                  in zip(((k, g) for k in MATCH_KINDS for g in (False, True)), boards, strict=True)]
        played = [kind for kind in MATCH_KINDS if any(k == kind and data for k, _, data, _, _ in loaded)]
        shown_kind = "fevga" if played in ([], ["fevga"]) else ""  # one game played (or none): no game headers
        for kind, global_, data, rank, count in loaded:
            if kind not in played and (played or kind != "fevga"):  # a game he has not played says nothing
                continue
            if kind != shown_kind:
                messages.append(Msg("stats_of_game", {"kind": kind, "player": who.name}))
                shown_kind = kind
            if data is None:
                nowhere = not any(d for k, _, d, _, _ in loaded if k == kind)  # "none here" and "none" say it twice
                if global_ or not nowhere:
                    messages.append(Msg("stats_none_global" if global_ else "stats_none", {"player": who.name}))
                continue
            messages.append(Msg("stats_global" if global_ else "stats", {
                "player": who.name, **_shown(data), "rd": round(data["rd"]),
                "rank": (rank + 1) if rank is not None else "-", "of": count, "games": data["g"],
                "wins": data["w"], "losses": data["l"], "points": data["pts"], "mars": data["mars"],
                "streak": data["st"], "best": data["best"], "lost": -data["st"],  # a losing streak is negative
                "streak_kind": "won" if data["st"] > 0 else "lost" if data["st"] < 0 else "none",
            }))
        for opponent, count in fairness.flagged(_short_entries(short.value), self.clock()):
            messages.append(Msg("stats_short_flag", {"player": who.name, "opponent": opponent, "count": count,
                                                     "rated": min(count, fairness.SHORT_LIMIT),  # the rest: not
                                                     "seconds": fairness.SHORT_WINDOW,
                                                     "plies": fairness.SHORT_PLIES}))
        if any(m.args.get("prov") for m in messages):
            messages.append(Msg("rating_legend", {}))
        mean = rates.average(rates.parse(analysed.value))
        if mean is not None:  # the rolling error rate of his last analysed games (any opponent, AI too)
            messages.append(Msg("stats_analysis", {"player": who.name, "rate": mean[0], "games": mean[1]}))
        return Result(ok=True, messages=messages, place=place)

    async def records(self, gid: str) -> tuple[list[dict[str, Any]], Result | None]:
        """Every game of a match: the kept records, then the game still being played (seed hidden)."""
        loaded = await self.sessions.load(gid, take=False)
        s = loaded.session
        if s is None and loaded.error is not None and loaded.error.error_key != "no_game":
            return [], loaded.error
        games = s.game_no if s is not None else 2 * MAX_LENGTH  # a finished match's session expires first
        reads = Reads()
        done: list[Handle[bytes | None]] = [reads.get(keys.game_record(gid, n)) for n in range(1, games + 1)]
        await reads.run(self.store)
        records = []
        for handle in done:
            raw = handle.value
            if raw is None:
                continue
            try:
                records.append(unpack(raw))
            except ValueError:
                return [], Result.error("corrupt_game", game_id=gid)
        if s is None and not records:
            return [], loaded.error or Result.error("no_game")
        if s is not None and s.status == "play" and len(records) < s.game_no:
            records.append(make_record(s, s.game, s.game_no, list(s.score), self.clock()))
        return records, None

    async def export(self, actor: PlayerRef, place: Place, game_id: str | None = None) -> Result:
        """The actor's match here (running or last finished) as ``.mat``-like text in ``Msg('export')``."""
        gid = game_id
        if gid is None:
            reads = Reads()
            running = reads.hget(keys.channel_games(place), actor.user_id)
            last = reads.hget(keys.channel_last(place), actor.user_id)
            await reads.run(self.store)
            gid = running.value or last.value
        if gid is None:
            return Result.error("no_game_here")
        records, err = await self.records(gid)
        if err is not None:
            return err
        text = export_mat(records, await self._reports(gid, records))
        return Result(ok=True, messages=[Msg("export", {"text": text, "filename": f"fevga-{gid}.mat"})],
                      game_id=gid, place=place)

    async def _reports(self, gid: str, records: list[dict[str, Any]]) -> dict[int, Report]:
        """The stored analyses of a match's games (game number -> report); unreadable ones are left out."""
        numbers = [int(r["game_no"]) for r in records]
        reads = Reads()
        found = [reads.get(keys.game_analysis(gid, n)) for n in numbers]
        await reads.run(self.store)
        out: dict[int, Report] = {}
        for n, handle in zip(numbers, found, strict=True):
            if handle.value is not None:
                try:
                    out[n] = Report.decode(handle.value)
                except SerializationError:
                    continue
        return out

    async def record(self, game_id: str) -> Result:
        """The full record of a match (``Msg('record', {'record': {...}})``): every game's rolls, plays,
        times, and each finished game's revealed dice seed."""
        records, err = await self.records(game_id)
        if err is not None:
            return err
        return Result(ok=True, messages=[Msg("record", {"record": {"game_id": game_id, "games": records}})],
                      game_id=game_id)


def _short_entries(raw: bytes | None) -> list[list[Any]]:
    """A player's stored short-match list (see ``fairness``); unreadable: empty."""
    if raw is None:
        return []
    try:
        return fairness.parse_short(split_versioned(raw)[1])
    except ValueError:
        return []


def _load_stats(raw: bytes | None) -> dict[str, Any] | None:
    """A stored stats document, or None when missing or unreadable (that player is then skipped)."""
    if raw is None:
        return None
    try:
        data = parse_stats(raw)[1]
    except (ValueError, TypeError):
        return None
    needed = ("r", "rd", "vol", "w", "l", "pts", "mars", "st", "best", "g")
    if not all(isinstance(data.get(k), int | float) for k in needed):
        return None
    return data
