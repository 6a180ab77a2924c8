"""When a channel's daily puzzle is due: the ``puzzle_hour`` place setting (0-23 UTC, off by default) and the
due-set write a change of it adds to the settings commit."""

from __future__ import annotations

import time

from bot.service import keys as service_keys
from bot.service.models import Place
from bot.storage.base import Commit

from . import keys

DAY = 86400


def next_due(hour: int, now: float) -> float:
    """The first moment after ``now`` that is ``hour``:00 UTC."""
    midnight = now - now % DAY
    due = midnight + hour * 3600
    return due if due > now else due + DAY


def day_of(now: float) -> str:
    """The UTC date of ``now`` (``2026-11-26``)."""
    return time.strftime("%Y-%m-%d", time.gmtime(now))


def parse_hour(value: str | None) -> int | None:
    """A stored ``puzzle_hour`` (None: off or unreadable)."""
    return int(value) if value is not None and value.isdigit() and 0 <= int(value) <= 23 else None


def schedule(commit: Commit, place: Place, value: str, now: float) -> Commit:
    """Add to a settings commit what ``puzzle_hour = value`` means for the channel's next post."""
    due = keys.daily_due(service_keys.place_bucket(place))
    hour = parse_hour(value)
    if hour is None:
        return commit.zrem(due, keys.daily_member(place))
    return commit.zadd(due, keys.daily_member(place), next_due(hour, now))
