"""Reading the tournament commands: ``tournament create swiss rounds 5 points 3 deadline 24h start 2h``,
``tournament join|leave|start|cancel``, ``tournament remove <name>``, ``tournament [standings] [id]``,
``tournaments`` (``tournament <id>`` too: the id has the shape every event id has). Pure: never raises, bad
input gets a CommandError that says what to type."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from bot.commands.numbers import shown, whole_number
from bot.service.game_words import game_word
from bot.service.keys import is_game_id

from . import intents as i
from . import tournament_intents as t

_DURATION = re.compile(r"^(?:(\d{1,4})d)?(?:(\d{1,5})h)?(?:(\d{1,6})m)?$")
ACTIONS = ("join", "leave", "start", "cancel")


def duration(word: str) -> float | None:
    """``24h``, ``90m``, ``2d``, ``1h30m`` in seconds (None when it is not one)."""
    found = _DURATION.match(word.lower())
    if found is None or not any(found.groups()):
        return None
    days, hours, minutes = (int(g) if g else 0 for g in found.groups())
    return float(days * 86400 + hours * 3600 + minutes * 60)


def moment(word: str) -> float | None:
    """``2026-11-26T18:00`` (UTC) in epoch seconds (None when it is not one)."""
    try:
        when = datetime.fromisoformat(word)
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def tournament(words: list[str]) -> i.Intent | i.CommandError:
    """``tournament ...``."""
    low = [w.lower() for w in words]
    if not low or low[0] in ("standings", "table", "show"):
        rest = words[1:] if low else []
        if len(rest) > 1:
            return i.CommandError("cmd_too_many_words", {"command": "tournament"})
        return t.TournamentShow(rest[0][:20] if rest else None)
    if low[0] in ACTIONS:
        if len(low) > 1:
            return i.CommandError("cmd_too_many_words", {"command": f"tournament {low[0]}"})
        return t.TournamentAct(low[0])
    if low[0] == "remove":
        if len(words) != 2:
            return i.CommandError("cmd_tournament_remove_usage")
        return t.TournamentRemove(words[1][:64])
    if low[0] == "create":
        return _create(low[1:])
    if len(words) == 1 and is_game_id(words[0]):  # ``tournament CrOmWlHZ``: an event's id, as written
        return t.TournamentShow(words[0])
    return i.CommandError("cmd_tournament_usage")


def _create(low: list[str]) -> i.Intent | i.CommandError:
    """``create [swiss|knockout] [<game>] [rounds N] [points N] [deadline 24h] [start 2h|<ISO time>] [rated|unrated]``
    (the game word in English or Greek: fevga, portes, plakoto, tavli)."""
    fields: dict[str, object] = {}
    words = iter(low)
    for word in words:
        if word in ("swiss", "knockout", "ko"):
            fields["kind"] = "knockout" if word == "ko" else word
        elif "game" not in fields and (named := game_word(word)) is not None:
            fields["game"] = named
        elif word in ("rated", "unrated"):
            fields["rated"] = word == "rated"
        elif word in ("rounds", "points", "deadline", "start"):
            value = next(words, "")
            if word in ("rounds", "points"):
                number = whole_number(value)
                if number is None:
                    return i.CommandError("cmd_tournament_number", {"option": word, "value": shown(value)})
                fields[word] = number
            elif word == "deadline":
                seconds = duration(value)
                if seconds is None:
                    return i.CommandError("cmd_tournament_duration", {"value": shown(value)})
                fields["deadline"] = seconds
            else:
                seconds = duration(value)
                at = moment(value) if seconds is None else None
                if seconds is None and at is None:
                    return i.CommandError("cmd_tournament_start", {"value": value[:30]})
                fields["start_in" if seconds is not None else "start_at"] = seconds if seconds is not None else at
        else:
            return i.CommandError("cmd_bad_option", {"option": word[:30]})
    return t.TournamentCreate(**fields)  # type: ignore[arg-type]


def tournaments(words: list[str]) -> i.Intent | i.CommandError:
    """``tournaments``: the place's events."""
    if words:
        return i.CommandError("cmd_too_many_words", {"command": "tournaments"})
    return t.TournamentList()
