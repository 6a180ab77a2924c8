"""What a command changed (:class:`Change`) and the atomic commit that stores it: the session at the next
version, its timer, channel index updates, extra checks and writes, the idempotency record and the events."""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field

from bot.storage.base import Commit
from fevga import FevgaError

from . import keys
from .models import Msg, PlayerRef, Result
from .session import Session, encode


@dataclass
class Change:
    """What a command did to a session, before it is committed."""

    messages: list[Msg] = field(default_factory=list)
    notify: list[PlayerRef] = field(default_factory=list)
    kind: str = "update"
    extra: Commit = field(default_factory=Commit)  # more checks and writes in the same atomic commit
    finished: bool = False  # the match ended (or was aborted): free the channel index
    rated: bool = False  # the commit records pending ratings: apply them right after (appliers.py)
    indexed: bool = False  # the commit records pending writes to players' slots (index, short list: appliers.py)


def error_result(exc: FevgaError) -> Result:
    """An engine error as a Result (its key and arguments, never a traceback)."""
    return Result(ok=False, messages=[Msg(exc.key, dict(exc.args_map))], error_key=exc.key)


def new_id() -> str:
    """A short random id (8 url-safe characters): fits in button payloads."""
    return secrets.token_urlsafe(6)


def next_timer(s: Session, reminder_fractions: tuple[float, ...]) -> float | None:
    """When the session's timer should fire next: a reminder, the deadline, or never."""
    if s.status != "play" or s.is_ai(s.game.turn) or s.expired:
        return None
    if s.reminded < len(reminder_fractions):
        return s.turn_start + reminder_fractions[s.reminded] * s.deadline_secs
    return s.deadline


def game_event(s: Session, version: int, kind: str) -> bytes:
    """A published event: what happened (``kind``) to which game, at which version, where."""
    return json.dumps({"game_id": s.id, "version": version, "kind": kind, "platform": s.place.platform,
                       "scope_id": s.place.scope_id, "channel_id": s.place.channel_id}).encode()


def session_commit(s: Session, version: int, change: Change, reminder_fractions: tuple[float, ...]) -> Commit:
    """Expect ``version``, write ``version + 1``, reset or drop the timer, publish the event."""
    commit = Commit().expect(keys.game(s.id), version)  # first: on a Redis Cluster its slot is the home slot
    commit.checks.extend(change.extra.checks)  # (what lives in other slots follows it: bot/storage/spill.py)
    ttl = keys.LIVE_TTL if s.status == "play" else keys.FINISHED_TTL  # retention: docs/service.md
    commit.put_versioned(keys.game(s.id), version + 1, encode(s), ttl)
    member = keys.timer("g", s.id, s.place.platform)
    due = next_timer(s, reminder_fractions)
    if due is None:
        commit.zrem(keys.timers(member), member)
    else:
        commit.zadd(keys.timers(member), member, due)
    if change.finished:
        for seat in s.human_seats():
            uid = s.players[seat].user_id
            commit.hdel(keys.channel_games(s.place), uid, only_if=s.id)
            commit.hset(keys.channel_last(s.place), uid, s.id)
    change.indexed = index_player_games(commit, s, version, change.finished) or change.indexed
    commit.ops.extend(change.extra.ops)
    published = game_event(s, version + 1, change.kind)
    commit.publish(keys.place_events(s.place.platform, s.place.channel_id), published)
    commit.publish(keys.game_events(s.id), published)
    outbox = keys.outbox(s.place.platform, keys.id_bucket(s.id))  # durable, in the game's home: see bot/delivery
    commit.xadd(outbox, outbox_entry(s, version + 1, change))
    return commit


def index_player_games(commit: Commit, s: Session, version: int, finished: bool) -> bool:
    """Keep each human player's running-games index (``mygames``): the match is added when it starts and
    removed when it ends. The index lives in the player's slot, so the game's commit only records the
    writes as pending in its own home; :class:`~bot.service.appliers.Appliers` applies them right after
    (or a sweep does). Each is one hash field, so applying one twice changes nothing. True when recorded."""
    ops: list[list[str]] = []
    if version == 0 and not finished:
        for seat in s.human_seats():
            player, other = s.players[seat], s.players[seat ^ 1]
            entry = json.dumps([s.place.platform, s.place.scope_id, s.place.channel_id, other.name])
            ops.append(["hset", keys.player_games(player.platform, player.user_id), s.id, entry])
    elif finished and version > 0:
        for seat in s.human_seats():
            player = s.players[seat]
            ops.append(["hdel", keys.player_games(player.platform, player.user_id), s.id])
            ops.append(["hset", keys.player_done(player.platform, player.user_id), s.id,
                        f"{int(time.time() * 1000)}:{s.game_no}"])
    if ops:
        pending = json.dumps({"t": round(time.time(), 3), "ops": ops}, separators=(",", ":"))
        commit.hset(keys.sagas(keys.id_bucket(s.id)), f"{s.id}:games:{version}", pending)
    return bool(ops)


def outbox_entry(s: Session, version: int, change: Change) -> dict[str, bytes | str]:
    """The outbox entry of a game commit: redraw this game's board (its messages say what happened)."""
    messages = json.dumps([[m.key, m.args] for m in change.messages], separators=(",", ":"))
    return {"k": "board", "game": s.id, "v": str(version), "kind": change.kind, "msgs": messages}

