"""The ``replay`` command: the last game of a match as an animated GIF (drawn off the event loop)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.i18n import translate
from bot.replies import Reply
from bot.service import GameService, Place, PlayerRef
from fevga import SerializationError, game_from_dict
from renderers import render_replay, replay_scenes


def _draw(record: dict[str, Any], perspective: int) -> bytes:
    game = game_from_dict(record["game"])
    names = [p[2] for p in record["players"]]
    scenes = replay_scenes(game, names, match_length=record.get("length", 1), score=record.get("score_before", (0, 0)))
    return render_replay(scenes, perspective)


async def replay_reply(service: GameService, actor: PlayerRef, place: Place, lang: str) -> list[Reply]:
    """The replay of the actor's current or last game here."""
    export = await service.export(actor, place)
    if not export.ok or export.game_id is None:
        return [Reply(translate("replay_none", lang), private=True, error=True)]
    record_result = await service.record(export.game_id)
    records = record_result.messages[0].args.get("record", {}).get("games", []) if record_result.ok else []
    if not records:
        return [Reply(translate("replay_none", lang), private=True, error=True)]
    record = records[-1]
    seat = 0
    for n, player in enumerate(record["players"]):
        if player[0] == actor.platform and player[1] == actor.user_id:
            seat = n
    try:
        gif = await asyncio.to_thread(_draw, record, seat)
    except (SerializationError, KeyError, ValueError, TypeError):
        return [Reply(translate("corrupt_game", lang, game_id=export.game_id), private=True, error=True)]
    return [Reply(translate("replay_ready", lang, game_id=export.game_id), image=gif, image_name="replay.gif")]
