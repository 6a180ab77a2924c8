"""The words drawn on boards, as templates a caller may replace (the bot passes its catalogue's)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

DEFAULT_LABELS: dict[str, str] = {
    "to_play": "to play",
    "wins": "wins",
    "wins_mars": "wins · mars",
    "pips": "pips {n}",
    "off": "off {n}",
    "score": "score {a}/{b}",
    "start_home": "start {start}, home {home}",
    "banner": "{name} wins",
    "banner_mars": "{name} wins · mars, {points} points",
    "game_over": "game over",
    "last": "Last: {name} played {steps}",
    "here": "(here {steps})",
    "result": "{name} wins (1 point)",
    "result_mars": "{name} wins ({points} points, mars)",
    "turn_dice": "{name} to play {dice}",
    "winner_tag": "WINS",
    "winner_tag_mars": "WINS (mars)",
    "game_fevga": "Fevga",
    "game_portes": "Portes",
    "game_plakoto": "Plakoto",
    "tavli_game": "game {n} of tavli to {length}",
    "match_game": "game {n}, match to {length}",
    "banner_draw": "Draw: both mothers pinned",
    "result_draw": "Draw: both mothers pinned (0 points)",
    "wins_mother": "wins · mother pinned",
    "banner_mother": "{name} wins · mother pinned, 2 points",
    "result_mother": "{name} wins (2 points, mother pinned)",
    "winner_tag_mother": "WINS (mother pinned)",
    "bar": "bar {n}",
    "pinned": "({glyph}) pinned",
    "wins_resigned": "wins · resignation",
    "banner_resigned": "{name} wins · resignation, {points} points",
    "result_resigned": "{name} wins ({points} points, resignation)",
    "winner_tag_resigned": "WINS (resignation)",
}


@lru_cache(maxsize=32)
def _as_dict(labels: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """``labels`` as a dict, made once per set of labels (a board reads ten or so; read-only)."""
    return dict(labels)


class _Args(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def label(labels: tuple[tuple[str, str], ...], key: str, **args: Any) -> str:
    """The label ``key`` from ``labels`` (else the English default) with ``args`` filled in."""
    template = _as_dict(labels).get(key) or DEFAULT_LABELS[key]
    try:
        return template.format_map(_Args(args))
    except (ValueError, IndexError, KeyError, AttributeError, TypeError):
        return DEFAULT_LABELS[key].format_map(_Args(args))
