"""How a match moves on after a play: forced passes, AI turns, auto-played single plays, game ends,
the next game of a match (the previous winner starts), claims on timeout, and ratings when a rated
match ends. Used by turns, game starts, settings (auto-play) and timers."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from bot.storage.base import DamagedKey, Store, split_versioned
from fevga import FairDice, Game, TurnRecord, format_play
from fevga.ai.stakes import MatchScore

from . import fairness, keys
from .ai import AiPlayer, ai_choose
from .commits import Change
from .config import Clock
from .models import Msg
from .ratings import Rating
from .reads import Reads
from .record_codec import pack
from .records import make_record
from .session import Session

log = logging.getLogger(__name__)
MAX_CHAIN = 2000  # AI / auto-play turns in a row (a guard; a game is a few hundred turns at most)


class MatchFlow:
    """The match flow shared by moves, confirms, game starts, resignations, settings and timers."""

    def __init__(self, store: Store, clock: Clock, ai: AiPlayer) -> None:
        self.store = store
        self.clock = clock
        self.ai = ai

    def note_passes(self, s: Session, added: list[TurnRecord], change: Change) -> None:
        """A message for each forced pass among the turns the engine just added."""
        for record in added:
            if record.is_pass:
                change.messages.append(Msg("forced_pass", {"player": s.players[record.player].name,
                                                           "dice": f"{record.dice[0]}-{record.dice[1]}"}))

    async def advance(self, s: Session, change: Change) -> None:
        """After a play: end the game if it is over, then play AI / auto turns until a human must move."""
        now = self.clock()
        for _ in range(MAX_CHAIN):
            if s.status != "play":
                break
            if s.game.is_over():
                self.game_over(s, change)
                if s.status != "play":
                    break
                continue
            mover = s.game.turn
            dice = s.game.dice
            assert dice is not None
            if s.is_ai(mover):
                score = MatchScore(s.length, s.score[mover], s.score[1 - mover], s.kind, s.game_no)
                play = await ai_choose(self.ai, s.game.position, dice, s.game.rules, s.ai_level or "medium", score)
                added = s.game.play(play, at=now)
                change.messages.append(Msg("ai_played", {"player": s.players[mover].name,
                                                         "dice": f"{dice[0]}-{dice[1]}", "play": format_play(play)}))
                self.note_passes(s, added[1:], change)
                continue
            legal = s.game.legal_plays()
            if s.autoplay[mover] and len(legal) == 1:
                added = s.game.play(legal[0], at=now)
                change.messages.append(Msg("auto_played", {"player": s.players[mover].name,
                                                           "dice": f"{dice[0]}-{dice[1]}",
                                                           "play": format_play(legal[0])}))
                self.note_passes(s, added[1:], change)
                continue
            break
        s.turn_start = round(now, 3)
        s.reminded = 0
        s.expired = False
        s.pending = []
        if s.status == "play" and not s.is_ai(s.game.turn):
            change.notify.append(s.players[s.game.turn])

    def game_over(self, s: Session, change: Change, whole_match: bool = False, end: str = "won") -> None:
        """Score the finished game, keep its record, then end the match or start its next game."""
        outcome = s.game.outcome
        assert outcome is not None
        now = self.clock()
        before = list(s.score)
        s.previous_drawn = outcome.winner is None  # the group's next-game line names a draw
        if outcome.winner is None:  # a drawn Plakoto game (both mothers pinned): no points, the next game
            change.messages.append(Msg("game_drawn", {"score": f"{s.score[0]}-{s.score[1]}", "game_no": s.game_no}))
            record = make_record(s, s.game, s.game_no, before, now)
            change.extra.put(keys.game_record(s.id, s.game_no), pack(record), keys.RECORD_KEEP)
            self._next_game(s, change, None, now)
            return
        s.score[outcome.winner] += outcome.points
        mars = outcome.mars and not outcome.resigned  # a pinned mother is no mars; a resignation's points are said
        if mars:
            s.mars_wins[outcome.winner] += 1
        winner = s.players[outcome.winner]
        key = "game_won_mother" if outcome.by_mother else "game_won_mars" if mars else "game_won"
        change.messages.append(Msg(key, {"player": winner.name, "points": outcome.points,
                                         "score": f"{s.score[0]}-{s.score[1]}", "game_no": s.game_no}))
        if whole_match or s.score[outcome.winner] >= s.length:
            s.status = "done"
            s.winner = outcome.winner
            s.end = end
            change.finished = True
            change.kind = "match_over"
            early = s.score[outcome.winner] < s.length  # the match resigned or claimed before its length
            change.messages.append(Msg("match_won_early" if early else "match_won", {
                "player": winner.name, "score": f"{s.score[0]}-{s.score[1]}", "length": s.length}))
        record = make_record(s, s.game, s.game_no, before, now)
        change.extra.put(keys.game_record(s.id, s.game_no), pack(record), keys.RECORD_KEEP)
        if s.status == "play":
            self._next_game(s, change, outcome.winner, now)

    def _next_game(self, s: Session, change: Change, first: int | None, now: float) -> None:
        """Start the match's next game (of its kind, or the next of the tavli rotation): ``first`` starts,
        after a draw (None) the opening roll decides."""
        s.plies_before += sum(1 for r in s.game.history if not r.is_pass)
        s.game_no += 1
        s.game = Game.new(s.rules_of(s.game_no), FairDice(), first=first, at=now)
        change.kind = "next_game"
        starter = s.players[s.game.turn].name
        key = "next_game" if first is not None else "next_game_after_draw"
        game = "fevga" if s.kind != "tavli" else f"tavli_{s.game_name}" if s.game_name == "fevga" else s.game_name
        # only a rotation names each game's kind, Fevga too ("match_of_tavli_fevga")
        change.messages.append(Msg(key, {"game_no": s.game_no, "player": starter, "game": game}))
        self.note_passes(s, s.game.history, change)

    def abort(self, s: Session, change: Change, msg: Msg) -> None:
        """Call the match off (no result, no rating change): its record is kept as aborted."""
        s.status = "aborted"
        s.end = "aborted"
        change.kind = "aborted"
        change.finished = True
        record = make_record(s, s.game, s.game_no, list(s.score), self.clock())
        change.extra.put(keys.game_record(s.id, s.game_no), pack(record), keys.RECORD_KEEP)
        change.messages.append(msg)

    async def claim(self, s: Session, late: int) -> Change:
        """The late player loses the match on time: the game scores a single point (never a mars). Before both
        players have moved, a match between two people is aborted instead (nothing to win yet)."""
        change = Change(kind="claimed")
        if not fairness.both_moved(s) and len(s.human_seats()) == 2:
            self.abort(s, change, Msg("claim_aborted", {"player": s.players[late ^ 1].name,
                                                        "late": s.players[late].name}))
            return change
        s.game.lose_on_time(late)
        change.messages.append(Msg("claimed", {"player": s.players[late ^ 1].name, "late": s.players[late].name}))
        self.game_over(s, change, whole_match=True, end="claimed")
        await self.advance(s, change)
        await self.rate(s, change)
        return change

    async def rate(self, s: Session, change: Change) -> None:
        """When a match between two people ended: decide whether it is rated (``fairness.verdict``), note a
        short match, then record its Glicko-2 and stats as pending (applied right after the commit)."""
        if s.status != "done" or s.winner is None or len(s.human_seats()) != 2 or s.ai_level is not None:
            return
        now = self.clock()
        shorts = await self._short_lists(s)
        before = fairness.count_recent(shorts[0][1], s.players[1].user_id, now) if shorts else 0
        verdict = fairness.verdict(s, before)
        if verdict.short and verdict.reason in (None, "repeated") and shorts:  # noted in each player's slot
            pending = {"t": round(time.time(), 3), "at": round(now, 3),
                       "pl": [[s.players[seat].platform, s.players[seat].user_id, s.players[seat ^ 1].user_id,
                               s.players[seat ^ 1].name] for seat in (0, 1)]}
            change.extra.hset(keys.sagas(keys.id_bucket(s.id)), f"{s.id}:short",
                              json.dumps(pending, separators=(",", ":")))
            change.indexed = True
        if not verdict.rated:
            if verdict.reason == "repeated":
                change.messages.append(Msg("match_unrated_repeated", {"count": before + 1,
                                                                      "limit": fairness.SHORT_LIMIT}))
            return
        self._record_pending_ratings(s, change, now)

    async def _short_lists(self, s: Session) -> list[tuple[int, list[list[Any]]]]:
        """Both players' recent short matches with their stored versions (-1: unreadable, replaced); empty when
        a key has the wrong type (logged; nothing is flagged then, the match end is never blocked)."""
        reads = Reads()
        handles = [reads.get(keys.player_short(p.platform, p.user_id)) for p in s.players]
        try:
            await reads.run(self.store)
        except DamagedKey as exc:
            log.error("short-match list %s has the wrong type; not counted", exc.key)
            return []
        out: list[tuple[int, list[list[Any]]]] = []
        for handle in handles:
            raw = handle.value
            if raw is None:
                out.append((0, []))
                continue
            try:
                version, blob = split_versioned(raw)
                out.append((version, fairness.parse_short(blob)))
            except ValueError:
                out.append((-1, []))
        return out

    @staticmethod
    def _record_pending_ratings(s: Session, change: Change, now: float) -> None:
        """Glicko-2 and stats for both players on the place's board and the platform's global board: recorded
        as pending in the game's own commit, applied right after it (bot/service/appliers.py). ``at`` (the
        service's clock) and ``c`` (the channel) place the match in a season and say where its post goes."""
        match = {"g": s.id, "p": s.place.platform, "s": s.place.scope_id, "w": s.winner, "t": round(time.time(), 3),
                 "at": round(now, 3), "c": s.place.channel_id,
                 "pl": [[s.players[seat].user_id, s.players[seat].name] for seat in (0, 1)],
                 "sc": list(s.score), "m": list(s.mars_wins)}
        if s.kind != "fevga":  # the board of the match's kind: a tavli match rates tavli only
            match["k"] = s.kind
        change.extra.hset(keys.sagas(keys.id_bucket(s.id)), f"{s.id}:rate", json.dumps(match, separators=(",", ":")))
        change.rated = True


def apply_stats(data: dict[str, Any], rating: Rating, won: bool, points: int, mars: int, name: str) -> None:
    """Fold one finished match into a player's stats (streak > 0 wins in a row, < 0 losses in a row)."""
    data.update({"r": rating.rating, "rd": rating.rd, "vol": rating.vol})
    data["g"] += 1
    data["w" if won else "l"] += 1
    data["pts"] += points
    data["mars"] += mars
    streak = data["st"]
    data["st"] = (streak + 1 if streak > 0 else 1) if won else (streak - 1 if streak < 0 else -1)
    data["best"] = max(data["best"], data["st"])
    data["name"] = name
