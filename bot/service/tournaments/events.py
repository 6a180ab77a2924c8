"""The tournament service: create, join, leave, start, cancel, remove, standings, history, and the round
engine that closes a round and pairs the next one in ONE compare-and-set commit (docs/tournaments.md).

Every write of an event is a commit on its versioned value (in the place's home) that checks the version
it read: two instances, or one that crashed half-way, can never pair a round twice or skip one. A paired
match is started by a commit that also takes the pair's field in the round's games hash, so each match
starts once; whoever looks next (a command, :meth:`Tournaments.tick`) starts the ones still missing.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from datetime import UTC, datetime

from bot.service import keys
from bot.service.challenges import Challenges
from bot.service.commits import Change, session_commit
from bot.service.config import Clock
from bot.service.game_words import MATCH_KINDS
from bot.service.models import Msg, Place, PlayerRef, Result
from bot.service.reads import read_one
from bot.service.session import Session
from bot.service.sessions import Sessions
from bot.service.settings import Settings, owner_of
from bot.service.timers import notice_entry
from bot.storage.base import Commit, DamagedValue, Store, split_versioned
from fevga.match import MAX_LENGTH

from . import model, notices, waits
from .adjudication import adjudicate, concede, forfeit
from .knockout import bracket_pairs, first_bracket, next_bracket
from .model import Pair, Tournament, due_key, due_member
from .standings import Entrant, standings
from .standings import Result as GameResult
from .swiss import PairingImpossible, swiss_pairing

log = logging.getLogger(__name__)

MAX_ROUNDS = 15
MAX_PLAYERS = 256
POLL = 60.0
"""Seconds between two looks at a running round (its matches may all have ended before the deadline)."""


class Tournaments:
    """Server tournaments on top of the challenge/match machinery (same store, clock and sessions)."""

    def __init__(self, store: Store, clock: Clock, sessions: Sessions, challenges: Challenges,
                 settings: Settings) -> None:  # fmt: skip
        self.store = store
        self.clock = clock
        self.sessions = sessions
        self.challenges = challenges
        self.settings = settings

    # --- reading ----------------------------------------------------------------------------
    async def load(self, tid: str) -> tuple[int, Tournament | None]:
        """The stored event and its version: (0, None) when gone."""
        raw = await read_one(self.store, lambda r: r.get(model.tournament(tid)))
        if raw is None:
            return 0, None
        version, blob = split_versioned(raw)
        try:
            return version, Tournament.decode(blob)
        except (ValueError, KeyError, TypeError) as exc:
            raise DamagedValue(f"tournament {tid} is damaged: {exc}") from exc

    async def current(self, place: Place, which: str = "now") -> tuple[int, Tournament | None]:
        """The open or running event of this channel, if any (``which`` "last": the one played to its end last)."""
        tid = await read_one(self.store, lambda r: r.hget(model.place_events_index(place), which))
        return await self.load(tid) if tid else (0, None)

    # --- admin and player commands ------------------------------------------------------------
    async def create(self, actor: PlayerRef, place: Place, kind: str = "swiss", rounds: int = 5, points: int = 1,
                     deadline_secs: float = 86400, starts_at: float | None = None, rated: bool = True,
                     is_admin: bool = False, game: str | None = None) -> Result:  # fmt: skip
        """An admin opens an event here (one open or running event per channel) whose matches play ``game``
        (fevga, portes, plakoto, tavli; None: the place's ``default_game``)."""
        if not is_admin:
            return Result.error("tournament_admin_only")
        if owner_of(place) is not None:  # a private chat, DM or the terminal: nobody else could join
            return Result.error("tournament_private_terminal" if place.platform == "terminal" else "tournament_private")
        game = game or (await self.settings.place_choice(place))[2]
        if game not in MATCH_KINDS:
            return Result.error("bad_match_kind_here", games=", ".join(MATCH_KINDS))
        if kind not in model.KINDS:
            return Result.error("tournament_bad_kind", kinds=", ".join(model.KINDS))
        if kind == "swiss" and not 1 <= rounds <= MAX_ROUNDS:
            return Result.error("tournament_bad_rounds", max=MAX_ROUNDS)
        if not 1 <= points <= MAX_LENGTH:
            return Result.error("bad_length", max=MAX_LENGTH)
        if not 600 <= deadline_secs <= 14 * 86400:
            return Result.error("tournament_bad_deadline")
        starts = 0.0 if starts_at is None else starts_at  # 0: when the admin says ``tournament start``
        if starts_at is not None and starts_at < self.clock():
            tomorrow = datetime.fromtimestamp(self.clock() + 86400, UTC).strftime("%Y-%m-%dT18:00")
            return Result.error("tournament_start_past", example=tomorrow)  # an example still to come
        index = model.place_events_index(place)
        tid = keys.new_id_in(keys.place_bucket(place))
        t = Tournament(tid, place, kind, rounds if kind == "swiss" else 0, points, deadline_secs, starts, rated,
                       actor.user_id, game=game)  # fmt: skip
        commit = Commit().field_free(index, "now").expect(model.tournament(tid), 0)
        commit.put_versioned(model.tournament(tid), 1, t.encode(), model.KEEP)
        commit.hset(index, "now", tid).hset(index, tid, "open|")
        # on the due set from the start (a player who leaves is found there: gone.py); without a start time,
        # not looked at before the admin starts it
        look = starts if starts > 0 else self.clock() + model.KEEP
        commit.zadd(due_key(keys.place_bucket(place)), due_member(t), look)
        if not await self.store.commit(commit):
            return Result.error("tournament_exists")
        key = "tournament_created_at" if starts > 0 else "tournament_created"
        if t.kind == "knockout":  # its rounds are as many as the entrants make: none to say yet
            key += "_knockout"
        return Result(ok=True, place=place, messages=[Msg(key, t.about(self.clock()))])

    async def join(self, actor: PlayerRef, place: Place) -> Result:
        """A player enters the open event here, with his rating on this place's board of its game as his seed."""
        _version, now = await self.current(place)
        rating = await self._rating(place, actor.user_id, now.game if now is not None else "fevga")

        def edit(t: Tournament) -> Result:
            if t.entrant(actor.user_id) is not None:
                return Result.error("tournament_already_joined")
            if len(t.players) >= MAX_PLAYERS:
                return Result.error("tournament_full", max=MAX_PLAYERS)
            t.players.append(Entrant(actor.user_id, rating, actor.name))
            return Result(ok=True, messages=[Msg("tournament_joined", {"player": actor.name,
                                                                       "count": len(t.players)})])  # fmt: skip

        return await self._edit(place, edit, open_only=True)

    async def leave(self, actor: PlayerRef, place: Place) -> Result:
        """A player leaves the open event here (before it starts)."""

        def edit(t: Tournament) -> Result:
            if t.entrant(actor.user_id) is None:
                return Result.error("tournament_not_joined")
            t.players = [e for e in t.players if e.id != actor.user_id]
            return Result(ok=True, messages=[Msg("tournament_left", {"player": actor.name})])

        return await self._edit(place, edit, open_only=True)

    async def remove(self, actor: PlayerRef, place: Place, who: PlayerRef, is_admin: bool = False) -> Result:
        """The admin takes a player out (before the start: off the list; after: no more pairings)."""
        if not is_admin:
            return Result.error("tournament_admin_only")

        def edit(t: Tournament) -> Result:
            if t.entrant(who.user_id) is None or who.user_id in t.withdrawn:
                return Result.error("tournament_not_in", player=who.name)
            if t.status == "open":
                t.players = [e for e in t.players if e.id != who.user_id]
            else:
                t.withdrawn.append(who.user_id)
            return Result(ok=True, messages=[Msg("tournament_removed", {"player": who.name})])

        return await self._edit(place, edit)

    async def cancel(self, actor: PlayerRef, place: Place, is_admin: bool = False) -> Result:
        """The admin calls the event off (running matches go on as ordinary matches)."""
        if not is_admin:
            return Result.error("tournament_admin_only")

        def edit(t: Tournament) -> Result:
            t.status = "cancelled"
            return Result(ok=True, messages=[Msg("tournament_cancelled", {"id": t.id})])

        return await self._edit(place, edit)

    async def start(self, actor: PlayerRef, place: Place, is_admin: bool = False) -> Result:
        """The admin starts the open event now (else it starts at its time, on a tick)."""
        if not is_admin:
            return Result.error("tournament_admin_only")
        version, t = await self.current(place)
        if t is None:
            return Result.error("tournament_none")
        if t.status != "open":
            return Result.error("tournament_not_open")
        began = await self._begin(t, version, scheduled=False)
        if not began.ok:
            return began
        # the pairings themselves go out through the outbox (round one's notice, written by its commit)
        return Result(ok=True, place=place, messages=[Msg("tournament_started", {"id": t.id, "count": len(t.players)})])

    async def standings(self, place: Place, tid: str | None = None) -> Result:
        """The table of this channel's event (or event ``tid``): a text form for every chat."""
        _version, t = await (self.load(tid) if tid else self.current(place))
        if t is None and tid is None:  # no event now: the one played to its end here last
            _version, t = await self.current(place, "last")
        if t is None:  # an id nobody made (or one long gone) is named, not taken for "no event here"
            return Result.error("tournament_unknown_id", id=tid) if tid else Result.error("tournament_none")
        return Result(ok=True, place=place, messages=self.table_msgs(t))

    async def history(self, place: Place) -> Result:
        """Every event made in this channel, with its state and winner."""
        entries = await read_one(self.store, lambda r: r.hgetall(model.place_events_index(place)))
        messages = []
        for tid, state in sorted(entries.items()):
            if tid in ("now", "last"):
                continue
            status, _sep, winner = state.partition("|")
            key = f"tournaments_row_{status}" if status in ("open", "running", "done", "cancelled") else None
            if key == "tournaments_row_done" and not winner:  # a knockout whose last match both players lost
                key = "tournaments_row_done_no_winner"
            if key is not None:
                messages.append(Msg(key, {"id": tid, "winner": winner}))
        if not messages:
            return Result.error("tournaments_none")
        return Result(ok=True, place=place, messages=[Msg("tournaments_header", {}), *messages])

    async def record_of(self, who: PlayerRef, place: Place) -> Msg | None:
        """``stats``: the events the player finished in this place and how many he won (None: none)."""
        entries = await read_one(self.store, lambda r: r.hgetall(model.player_events(who.platform, who.user_id)))
        here = [value.rpartition("|")[2] for value in entries.values() if value.rpartition("|")[0] == place.scope_id]
        if not here:
            return None
        return Msg("stats_tournaments", {"player": who.name, "events": len(here), "titles": here.count("1")})

    # --- the round engine ----------------------------------------------------------------------
    async def tick(self, platform: str | None = None, limit: int = 20) -> list[Result]:
        """Look at the events whose time has come, in every home (only ``platform``'s when given): start them,
        close rounds, start matches. A failing event is logged and left for the next tick."""
        out: list[Result] = []
        now = self.clock()
        homes = [due_key(bucket) for bucket in range(keys.BUCKETS)]
        for bucket, due in enumerate(await self.store.due_many(homes, now, limit)):  # one round trip a tick
            for member in due:
                tid, _sep, where = member.partition(":")
                if platform is not None and where != platform:
                    continue
                if not await self.store.claim(due_key(bucket), member, now, POLL):
                    continue
                try:
                    out.extend(await self.advance(tid))
                except Exception:  # one damaged event must not stop the others (or the game timers)
                    log.exception("tournament %s could not move on", tid)
        return out

    async def nudge(self, place: Place) -> None:
        """A match ended here: the running event of this channel (if any) is looked at on the next tick,
        not a poll later. Never raises (the move's answer must not depend on it)."""
        try:
            index = model.place_events_index(place)
            tid = await read_one(self.store, lambda r: r.hget(index, "now"))
            if tid:
                member = f"{tid}:{place.platform}"
                await self.store.commit(Commit().zadd(due_key(keys.place_bucket(place)), member, self.clock()))
        except Exception:
            log.exception("nudging the tournament of %s failed", place)

    async def _look_by_deadline(self, t: Tournament) -> None:
        """The tick's claim put the next look a poll (60 s) on; never past the round's deadline, so the round
        closes on time. Only moved earlier (a nudge meanwhile may have made it sooner still: kept)."""
        now = self.clock()
        if now < t.round_ends < now + POLL:
            member, due = due_member(t), due_key(keys.place_bucket(t.place))
            (score,) = await self.store.read([("zscore", due, member)])
            if score is not None and float(score) > t.round_ends:
                await self.store.commit(Commit().zadd(due, member, t.round_ends))

    async def advance(self, tid: str) -> list[Result]:
        """Move event ``tid`` on as far as it can go now; the messages to post (pairings, standings)."""
        out: list[Result] = []
        for _ in range(8):  # a lost compare-and-set: read again (another instance moved it on)
            version, t = await self.load(tid)
            if t is None or t.status in ("done", "cancelled"):
                return out
            if t.status == "open":
                if t.starts_at <= 0 or self.clock() < t.starts_at:
                    return out
                began = await self._begin(t, version, scheduled=True)
                if began.ok:
                    out.append(began)
                    continue
                if began.error_key == "tournament_busy":
                    continue
                return out
            closed = await self._close_round(t, version)
            if closed is None:  # lost the race: look again
                continue
            if not isinstance(closed, Result):  # the round is still being played: its matches all started?
                out.extend(await self._start_matches(t))
                await self._look_by_deadline(t)
                return out
            out.append(closed)
        return out

    async def _begin(self, t: Tournament, version: int, scheduled: bool) -> Result:
        """Round one: pairs from the seeds, committed with the status change; then its matches start. Too few
        players: an admin's start is refused (the event stays open); at its start time the event is called
        off and the channel told, in the same commit (once, whichever instance got there)."""
        if len(t.players) < 2:
            if not scheduled:
                return Result.error("tournament_too_few", count=len(t.players))
            t.status = "cancelled"
            told = Result(ok=True, place=t.place, to_notify=[t.ref(e.id) for e in t.players],
                          messages=[Msg("tournament_too_few_called_off", {"id": t.id, "count": len(t.players)})])
            return told if await self._save(t, version, finished=True, notice=told) else Result.error("tournament_busy")
        t.status = "running"
        if t.kind == "knockout":
            t.slots = first_bracket(t.players)
            t.rounds = max(1, (len(t.slots) - 1).bit_length())
        if not self._pair(t):
            t.status = "cancelled"
            await self._save(t, version, finished=True)
            return Result.error("tournament_too_few")
        told = self._round_result(t, [])
        if not await self._save(t, version, notice=told):
            return Result.error("tournament_busy")
        await self._start_matches(t)
        return told

    def _pair(self, t: Tournament) -> bool:
        """Pairs round ``t.round + 1`` into ``t.pairs`` (False: no pairing is possible: the event ends)."""
        if t.kind == "knockout":
            if len(t.slots) < 2:
                return False  # the final was played
            pairs = [(a, b) for a, b in bracket_pairs(t.slots) if a is not None or b is not None]
            if not pairs or (len(pairs) == 1 and (pairs[0][0] is None or pairs[0][1] is None)):
                return False  # one player left, or none (the last matches were lost by both players)
            t.pairs = [Pair(a, b) if a is not None else Pair(str(b), None) for a, b in pairs]
        else:
            if t.round >= t.rounds:
                return False
            try:
                pairing = swiss_pairing(t.players, t.results, t.active())
            except PairingImpossible:
                return False
            t.pairs = [Pair(a, b) for a, b in pairing.pairs] + ([Pair(pairing.bye, None)] if pairing.bye else [])
        t.round += 1
        t.round_ends = self.clock() + t.deadline_secs
        return True

    async def _close_round(self, t: Tournament, version: int) -> Result | bool | None:
        """Close the round if all its matches ended (or its deadline passed) and pair the next one, as one
        commit. False: still being played; None: another writer got there first."""
        now = self.clock()
        games = await read_one(self.store, lambda r: r.hgetall(model.round_games(t.id)))
        kept_waiting = await read_one(self.store, lambda r: r.hgetall(model.round_waits(t.id)))
        results: list[GameResult] = []
        verdicts: list[Msg] = []
        ended: list[tuple[str, Commit]] = []  # adjudicated matches end in the round's commit (same home, one slot)
        for pair in t.pairs:
            if pair.b is None:
                results.append(GameResult(t.round, pair.a, None, pair.a))
                continue
            slot = model.slot(t.round, pair.a, pair.b)
            gid = games.get(slot)
            loaded = await self.sessions.load(gid, take=False) if gid else None
            s = loaded.session if loaded is not None else None
            if s is not None and s.status == "done" and s.winner is not None:
                results.append(GameResult(t.round, pair.a, pair.b, s.players[s.winner].user_id))
                continue
            forfeited = forfeit(t, pair, s)  # a player who left: his opponent wins at once
            if forfeited is None and now < t.round_ends and (s is None or s.status != "aborted"):
                return False
            winner: str | None
            said: Msg | None = None  # a verdict of its own (waits.py); else the reason's message
            if forfeited is not None:
                winner, reason = forfeited[0], "gone"
                if s is not None and s.status == "play":
                    ended.append((s.id, self._end_match(s, loaded.version if loaded else 0, forfeited[1])))
            elif s is None and (busy := waits.verdict(t, pair, kept_waiting.get(slot, "").split(","))) is not None:
                (winner, said), reason = busy, "busy"  # never started: a player was in another match here
            elif s is None:  # never started (a player could not be reached): neither played
                winner, reason = None, "both_idle"
            else:
                verdict = adjudicate(s, min(now, t.round_ends))  # an aborted match: judged when it stopped
                winner = None if verdict.winner is None else s.players[verdict.winner].user_id
                reason = verdict.reason
                if s.status == "play":
                    ended.append((s.id, self._end_match(s, loaded.version if loaded else 0, verdict.winner)))
            results.append(GameResult(t.round, pair.a, pair.b, winner))
            verdicts.append(said or Msg(f"tournament_adjudicated_{reason}", {
                "player0": t.name_of(pair.a), "player1": t.name_of(pair.b), "winner": t.name_of(winner)}))  # fmt: skip
        t.results.extend(results)
        if t.kind == "knockout":
            t.slots = next_bracket(t.slots, {frozenset((r.a, r.b)): r.winner for r in results if r.b is not None})
            t.slots = [p if p is None or p in t.active() else None for p in t.slots]
        more = self._pair(t)
        if not more:
            t.status = "done"
            t.winner = self._winner(t)
        told = self._round_result(t, verdicts)
        if not await self._save(t, version, finished=not more, extra=[commit for _gid, commit in ended], notice=told):
            return None
        for gid, _commit in ended:  # their players' match lists (other slots): the saga's next step
            try:
                await self.sessions.appliers.finish(gid)
            except Exception:  # the round's commit stands; a timer tick's sweep applies them (once)
                log.exception("applying the pending writes of %s failed; left pending", gid)
        if more:
            await self._start_matches(t)
        return told

    def _winner(self, t: Tournament) -> str | None:
        """The champion: the last one left in a knockout, the top of the table in a Swiss."""
        if t.kind == "knockout":
            left = [p for p in t.slots if p is not None]
            return left[0] if len(left) == 1 else None
        table = standings(t.players, t.results)
        return table[0].player if table else None

    async def _start_matches(self, t: Tournament) -> list[Result]:
        """Start every match of the current round not started yet (each once: its slot is taken in its
        game's own commit, in the place's home)."""
        games_key = model.round_games(t.id)
        games = await read_one(self.store, lambda r: r.hgetall(games_key))
        _deadline, rules = await self.settings.place_defaults(t.place)
        started: list[Result] = []
        for pair in t.pairs:
            if pair.b is None or pair.a in t.gone or pair.b in t.gone:  # a player who left: judged at the close
                continue
            field = model.slot(t.round, pair.a, pair.b)
            if field in games:
                continue
            gid = keys.new_id_in(keys.place_bucket(t.place))
            commit = Commit().field_free(games_key, field).hset(games_key, field, gid)
            a, b = t.ref(pair.a), t.ref(pair.b)
            result = await self.challenges.start(a, t.place, (a, b), t.points, rules, commit, game_id=gid,
                                                 rated=t.rated, kind=t.game, event=t.id)  # fmt: skip
            if result is not None and result.ok:
                started.append(result)
            elif result is not None and not (await self.store.read([("hget", games_key, field)]))[0]:
                # not started by another instance meanwhile: a player is busy here; tried again next look
                log.warning("tournament %s: match %s could not start: %s", t.id, field, result.error_key)
                if result.error_key in waits.BUSY_ERRORS:  # the pair is told (once), the close judges by it
                    await waits.note_busy(self.store, t, pair, field)
        return started

    def _round_result(self, t: Tournament, verdicts: Sequence[Msg]) -> Result:
        """The round's notice (:func:`.notices.round_result`) at the service's time."""
        return notices.round_result(t, verdicts, self.clock())

    def table_msgs(self, t: Tournament) -> list[Msg]:
        """The standings as messages (:func:`.notices.table_msgs`): the chats, ``tournament`` and the demo."""
        return notices.table_msgs(t)

    # --- helpers --------------------------------------------------------------------------------
    async def _edit(self, place: Place, edit: object, open_only: bool = False) -> Result:
        """Apply ``edit(t) -> Result`` to this channel's event under a compare-and-set, retried on a race."""
        assert callable(edit)
        for _ in range(8):
            version, t = await self.current(place)
            if t is None:
                return Result.error("tournament_none")
            if open_only and t.status != "open":
                return Result.error("tournament_not_open")
            answer: Result = edit(t)
            if not answer.ok:
                return answer
            if await self._save(t, version, finished=t.status == "cancelled"):
                return dataclasses.replace(answer, place=place)
        return Result.error("busy_try_again")

    def _end_match(self, s: Session, version: int, winner: int | None, end: str = "claimed") -> Commit:
        """The commit that ends an adjudicated match: won by ``winner`` (as by a deadline claim; ``end`` "left":
        his opponent left), or called off when both lose; unrated. Its channel slot is freed for the next round."""
        if winner is not None:  # the loser's game ends as his resignation: the board redrawn from this commit shows it
            concede(s, winner)
        s.status, s.winner, s.end = ("aborted", None, "aborted") if winner is None else ("done", winner, end)
        change = Change(kind="match_over", finished=True)
        return session_commit(s, version, change, self.sessions.options.reminder_fractions)

    async def _save(self, t: Tournament, version: int, finished: bool = False, extra: Sequence[Commit] = (),
                    notice: Result | None = None) -> bool:  # fmt: skip
        """Compare-and-set the event (and, when it ends, its place's index and history entry), with the
        ``extra`` commits (ended matches) and the ``notice`` for the outbox in the same atomic commit."""
        commit = Commit().expect(model.tournament(t.id), version)
        if notice is not None:
            notice_entry(commit, notice)
        for more in extra:
            commit.checks.extend(more.checks)
            commit.ops.extend(more.ops)
        commit.put_versioned(model.tournament(t.id), version + 1, t.encode(), model.KEEP)
        index = model.place_events_index(t.place)
        bucket = keys.place_bucket(t.place)
        if finished:
            if t.status == "done":  # each player's events and titles (their own slots: a Cluster spills them)
                commit.hset(index, "last", t.id)  # a bare "tournament" here shows its final table
                for entrant in t.players:
                    won = "1" if entrant.id == t.winner else "0"
                    commit.hset(model.player_events(t.place.platform, entrant.id), t.id, f"{t.place.scope_id}|{won}")
            commit.hdel(index, "now", only_if=t.id)
            commit.hset(index, t.id, f"{t.status}|{t.name_of(t.winner) if t.winner else ''}")
            commit.zrem(due_key(bucket), due_member(t))
        elif t.status == "running":
            commit.hset(index, t.id, "running|")
            commit.zadd(due_key(bucket), due_member(t), min(t.round_ends, self.clock() + POLL))
        return await self.store.commit(commit)

    async def _rating(self, place: Place, user_id: str, game: str) -> float:
        """The player's rating on this place's board of ``game`` (the start rating if he has none): his seed."""
        board = keys.ratings(keys.kind_board(keys.board_scope(place.platform, place.scope_id), game))
        (score,) = await self.store.read([("zscore", board, user_id)])
        return float(score) if score is not None else 1500.0
