"""Season keys and months (docs/tournaments.md, "Seasons").

A season's tallies live on its board's slot (written in the board's own rating commit, so each match counts
once); its due entry, channel and archive live in one home chosen by the board, with the outbox entry of the
season's post, so closing a season is one commit of one slot.
"""

from __future__ import annotations

import binascii
import json
import re
from datetime import UTC, datetime

from bot.service import keys

KEEP = 800 * 86400
"""Seconds an archived season is kept."""
MIN_MATCHES = 5
"""Rated matches in a season a player needs to be ranked in it."""
TOP = 10
"""Players a season's final post and archive show."""
MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def month_of(when: float) -> str:
    """The season (``YYYY-MM``, UTC) a moment belongs to."""
    return datetime.fromtimestamp(when, UTC).strftime("%Y-%m")


def month_end(month: str) -> float:
    """The first second after season ``month`` (the next month's start, UTC)."""
    year, number = (int(x) for x in month.split("-"))
    year, number = (year + 1, 1) if number == 12 else (year, number + 1)
    return datetime(year, number, 1, tzinfo=UTC).timestamp()


def month_before(month: str) -> str:
    """The season before ``month`` (``2026-01`` -> ``2025-12``)."""
    year, number = (int(x) for x in month.split("-"))
    return f"{year - 1}-12" if number == 1 else f"{year}-{number - 1:02d}"


def valid_month(text: str) -> bool:
    """``YYYY-MM`` with a real month (any year: one with no season here is answered "no season then", not
    "not a month")."""
    found = MONTH.match(text)
    return found is not None and 1 <= int(found.group(2)) <= 12 and int(found.group(1)) >= 1


def tallies(board: str, month: str) -> str:
    """Hash on the board's slot: user id -> ``matches|wins|rating|name`` in that season (rating: after his
    last match of the season, so the rating at its end)."""
    return f"{keys.PREFIX}:{{r:{board}}}:season:{month}"


def home_of(board: str) -> int:
    """The home of a board's seasons (its due entry, channel and archives)."""
    return binascii.crc_hqx(board.encode(), 0) % keys.BUCKETS


def due(bucket: int) -> str:
    """Zset in a home: a season to close (:func:`due_member`) -> its end."""
    return f"{keys.home(bucket)}:sdue"


def channels(bucket: int) -> str:
    """Hash in a home: board -> the channel its season's post goes to (the last one a rated match was in)."""
    return f"{keys.home(bucket)}:schan"


def archive(board: str, month: str) -> str:
    """Versioned JSON in the board's seasons home: the season's final table (written once)."""
    return f"{keys.home(home_of(board))}:season:{board}:{month}"


def due_member(month: str, platform: str, scope_id: str, kind: str) -> str:
    """A season's member in its home's due set."""
    return json.dumps([month, platform, scope_id, kind], separators=(",", ":"))


def parse_member(member: str) -> tuple[str, str, str, str] | None:
    """(month, platform, scope id, kind) of a due member; None when it is not one."""
    try:
        month, platform, scope_id, kind = (str(x) for x in json.loads(member))
    except (ValueError, TypeError):
        return None
    return month, platform, scope_id, kind


def parse_tally(raw: str | None) -> tuple[int, int, float, str]:
    """(matches, wins, rating, name) of a tally field (zeros when absent or unreadable)."""
    try:
        matches, wins, rating, name = str(raw).split("|", 3)
        return int(matches), int(wins), float(rating), name
    except (ValueError, AttributeError):
        return 0, 0, 0.0, ""


def tally(previous: str | None, rating: float, won: bool, name: str) -> str:
    """A player's tally after one more rated match."""
    matches, wins, _rating, _name = parse_tally(previous)
    return f"{matches + 1}|{wins + int(won)}|{rating:.3f}|{name}"
