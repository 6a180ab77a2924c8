"""The puzzle keys (docs/puzzles.md, "Keys"). The puzzle set is one slot for the whole bot; a player's puzzle
rating and answers share his user slot (one commit rates an answer); the daily puzzle of a channel, its due
time and its outbox entry share the channel's home (one commit posts it)."""

from __future__ import annotations

from bot.service.keys import PREFIX, home, place_bucket
from bot.service.models import Place

BANK = f"{PREFIX}:{{pz}}:all"
"""Hash: puzzle id -> ``fevga.puzzles.Puzzle.encode()``."""
BANK_RATINGS = f"{PREFIX}:{{pz}}:rate"
"""Hash: puzzle id -> ``rating:RD:volatility`` (a puzzle's own Glicko-2 rating, moved by first answers)."""
SEEDED = f"{PREFIX}:{{pz}}:seeded"
"""String: the number of shipped seed puzzles already copied into the bank (copied again when it grows)."""


def player(platform: str, user_id: str) -> str:
    """Versioned JSON: a player's puzzle rating, tallies, streaks and the puzzle he was last given."""
    return f"{PREFIX}:{{u:{platform}:{user_id}}}:pz"


def answered(platform: str, user_id: str) -> str:
    """Hash: puzzle id -> ``1`` solved / ``0`` missed: the puzzles he answered (only a first answer counts)."""
    return f"{PREFIX}:{{u:{platform}:{user_id}}}:pzdone"


def board(platform: str) -> str:
    """Zset: user id -> puzzle rating, the platform's ``top puzzles``."""
    return f"{PREFIX}:{{pzr:{platform}}}:z"


def board_names(platform: str) -> str:
    """Hash: user id -> ``name|streak|best streak|solved|answered`` for ``top puzzles``."""
    return f"{PREFIX}:{{pzr:{platform}}}:names"


def daily(place: Place) -> str:
    """Versioned JSON in the channel's home: the day's puzzle here, who answered it, and the day before's."""
    return f"{home(place_bucket(place))}:pzday:{place.platform}:{place.channel_id}"


def daily_due(bucket: int) -> str:
    """Zset in a home: ``<platform>|<scope>|<channel>`` -> when that channel's next daily puzzle is due."""
    return f"{home(bucket)}:pzdue"


def daily_member(place: Place) -> str:
    """A channel's member in its home's daily due set."""
    return f"{place.platform}|{place.scope_id}|{place.channel_id}"


def member_place(member: str) -> Place | None:
    """The channel of a daily due member (None for a malformed one)."""
    parts = member.split("|")
    return Place(parts[0], parts[1], parts[2]) if len(parts) == 3 and all(parts) else None


def building(platform: str, user_id: str, pid: str) -> str:
    """String in the player's slot: the channel (:func:`daily_member`) whose daily puzzle ``pid`` he is building
    an answer to with step buttons, so the buttons sent to his private chat (his steps are for him alone) answer
    that channel's puzzle."""
    return f"{PREFIX}:{{u:{platform}:{user_id}}}:pzbuild:{pid}"


def steps_shown(platform: str, user_id: str, channel_id: str, pid: str) -> str:
    """Versioned string in the player's slot: the steps of puzzle ``pid`` last shown to him in a channel, so a
    double press of the same step button shows them only once."""
    return f"{PREFIX}:{{u:{platform}:{user_id}}}:pzstep:{channel_id}:{pid}"
