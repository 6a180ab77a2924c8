"""The ``replay`` command: the last game of a match as an animated GIF (drawn off the event loop).

Each answer says what is true: a game that was called off, one with no plays or one still being played has
nothing to replay (its dice seed stays secret until it ends); only a record that fails to decode is called
damaged, and a failure to draw a sound record is reported as that.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.delivery.replies import Reply
from bot.i18n import display_name, translate
from bot.service import GameService, Place, PlayerRef
from fevga import Game, SerializationError, game_from_dict
from renderers import render_replay, replay_scenes

log = logging.getLogger(__name__)


def _decode(record: dict[str, Any]) -> tuple[Game, list[str]]:
    """The game of a kept record, replayed and checked against its dice seed, and its players' names.
    Raises SerializationError (or a KeyError, TypeError...) when the stored data does not add up."""
    return game_from_dict(record["game"]), [str(p[2]) for p in record["players"]]


def _draw(game: Game, names: list[str], record: dict[str, Any], perspective: int) -> bytes:
    """The animated GIF of a decoded game, from the side of ``perspective``."""
    scenes = replay_scenes(game, names, match_length=record.get("length", 1), score=record.get("score_before", (0, 0)))
    return render_replay(scenes, perspective)


def _unplayable(record: dict[str, Any]) -> str | None:
    """The message key saying why a sound record has nothing to replay, else None."""
    if record.get("status") == "aborted" or record.get("end") == "aborted":
        return "replay_called_off"
    game = record.get("game")
    if isinstance(game, dict) and game.get("turns") == []:
        return "replay_no_plays"
    return None


def _chosen(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The game to replay: the last one, or while it is still played the last finished game of the match
    (None when there is none: the running game's dice seed is secret until it ends)."""
    last = records[-1]
    if last.get("status") != "play" or last.get("outcome") is not None:
        return last
    finished = [r for r in records[:-1] if r.get("outcome") is not None or r.get("status") == "aborted"]
    return finished[-1] if finished else None


async def replay_reply(service: GameService, actor: PlayerRef, place: Place, lang: str) -> list[Reply]:
    """The replay of the actor's current or last game here."""
    export = await service.export(actor, place)
    if not export.ok or export.game_id is None:
        return [Reply(translate("replay_none", lang), private=True, error=True)]
    game_id = export.game_id
    record_result = await service.record(game_id)
    records = record_result.messages[0].args.get("record", {}).get("games", []) if record_result.ok else []
    if not records:
        return [Reply(translate("replay_none", lang), private=True, error=True)]
    record = _chosen(records)
    if record is None:
        return [Reply(translate("replay_running", lang, game_id=game_id), private=True, error=True)]
    reason = _unplayable(record)
    if reason is not None:
        return [Reply(translate(reason, lang, game_id=game_id), private=True, error=True)]
    seat = 0
    try:
        for n, player in enumerate(record["players"]):
            if player[0] == actor.platform and player[1] == actor.user_id:
                seat = n
        game, names = await asyncio.to_thread(_decode, record)
    except (SerializationError, KeyError, ValueError, TypeError, IndexError):  # the stored data itself is bad
        log.exception("the record of game %s does not decode", game_id)
        return [Reply(translate("corrupt_game", lang, game_id=game_id), private=True, error=True)]
    try:
        gif = await asyncio.to_thread(_draw, game, [display_name(n, lang) for n in names], record, seat)
    except Exception:  # the data is sound: drawing failed (e.g. too big to fit), so say that, not damage
        log.exception("the replay of game %s could not be drawn", game_id)
        return [Reply(translate("replay_failed", lang, game_id=game_id), private=True, error=True)]
    return [Reply(translate("replay_ready", lang, game_id=game_id), image=gif, image_name="replay.gif")]
