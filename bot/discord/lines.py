"""Slash-command options written back as one line of the command language (``bot/commands/grammar.py``).

The core reads every chat the same way, so ``/fevga challenge user:@bob points:5`` is simply
``challenge <@bob_id> 5``. These helpers are pure, so they are tested without Discord.
"""

from __future__ import annotations

import re

_SPACES = re.compile(r"\s+")


def _join(*words: object) -> str:
    return " ".join(str(w) for w in words if w is not None and str(w) != "")


def one_line(text: str) -> str:
    """Collapse whitespace (slash string options may hold newlines)."""
    return _SPACES.sub(" ", text).strip()


def challenge_line(
    user_id: int | None, points: int | None, unlock: int | None, strict: bool | None, game: str | None = None
) -> str:
    """``challenge <@id>|open [game] [points] [unlock=14] [strict]``."""
    target = f"<@{user_id}>" if user_id is not None else "open"
    return _join(
        "challenge",
        target,
        game,
        points,
        f"unlock={unlock}" if unlock not in (None, 13) else None,
        "strict" if strict else None,
    )


def with_id_line(command: str, challenge_id: str | None) -> str:
    """``accept``/``decline``/``cancel`` with an optional challenge id (one word)."""
    word = one_line(challenge_id or "").split(" ")[0]
    return _join(command, word)


def play_ai_line(level: str | None, points: int | None, game: str | None = None) -> str:
    """``play ai [game] [level] [points]``."""
    return _join("play ai", game, level, points)


def move_line(play: str) -> str:
    """``move <play>``; an empty play stays ``move`` so the core explains what to type."""
    return _join("move", one_line(play))


def resign_line(whole_match: bool | None) -> str:
    return "resign match" if whole_match else "resign"


def top_line(scope: str | None, count: int | None, game: str | None = None) -> str:
    """``top [game] [global] [count]``."""
    return _join("top", game, "global" if scope == "global" else None, count)


def rules_line(game: str | None) -> str:
    """``rules [game]`` (no game: the place's default game)."""
    return _join("rules", game)


def stats_line(user_id: int | None) -> str:
    return _join("stats", f"<@{user_id}>" if user_id is not None else None)


def settings_line(name: str | None, value: str | None) -> str:
    """``settings`` lists them; ``settings name value`` changes one (the core checks both)."""
    return _join("settings", one_line(name or "").replace(" ", "_"), one_line(value or "").replace(" ", "_"))


def help_line(topic: str | None) -> str:
    return _join("help", topic)


def prefix_line(content: str, prefix: str) -> str:
    """What follows the prefix in a prefix-command message, on one line."""
    return one_line(content[len(prefix) :] if content.startswith(prefix) else content)


def _mention(user_id: int | None) -> str | None:
    return f"<@{user_id}>" if user_id is not None else None


def puzzle_line(play: str | None) -> str:
    """``puzzle`` (show it) or ``puzzle <play>`` (answer it)."""
    return _join("puzzle", one_line(play or ""))


def dice_line(user_id: int | None, game_id: str | None) -> str:
    """``dice [<@id>] [game id]`` (one word of the game id; both given: the core explains it takes one)."""
    return _join("dice", _mention(user_id), one_line(game_id or "").split(" ")[0])


def h2h_line(user_id: int, other_id: int | None) -> str:
    """``h2h <@id> [<@id>]``: the actor (or the first player) against the other."""
    return _join("h2h", _mention(user_id), _mention(other_id))


def tournament_line(action: str, detail: str | None = None) -> str:
    """``tournament <action> [detail]`` (the detail is one word: an id or a mention)."""
    return _join("tournament", action, one_line(detail or "").split(" ")[0])
