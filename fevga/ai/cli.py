"""``python -m fevga bestplay``: one JSON request (as for ``plays``, plus ``"level"``) -> the best play."""

from __future__ import annotations

from typing import Any

from fevga.errors import FevgaError
from fevga.jsonlines import play_entry, read_request
from fevga.rules import DEFAULT_RULES, Rules
from fevga.variants import game_of

from . import get_player

DEFAULT_LEVEL = "hard"


def bestplay_line(obj: dict[str, Any]) -> dict[str, Any]:
    """Answer ``{"play": {...one entry of plays...}}``, or ``{"play": None}`` when the turn passes.

    Raises FevgaError (a ValueError) with a clear message for invalid input or an unknown level.
    """
    position, dice, rules = read_request(obj)
    level = obj.get("level", DEFAULT_LEVEL)
    if not isinstance(level, str):
        raise FevgaError("'level' must be a level's name: easy, medium, hard or expert", key="bad_level")
    try:
        player = get_player(level, game_of(position))
    except ValueError as exc:
        raise FevgaError(str(exc), key="bad_level") from None
    # a Portes/Plakoto game's options only score games: its legal plays do not depend on them
    play = player.choose(position, dice, rules if isinstance(rules, Rules) else DEFAULT_RULES)
    if play.is_pass:
        return {"play": None}
    return {"play": play_entry(play)}
