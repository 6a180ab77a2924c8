"""Whether a match is rated, and why not: the one decision behind fair ratings (docs/service.md, "Fair
ratings"). Pure functions of a session and the players' recent short games, so the rating math
(``ratings.py``) and where its result is applied can change without touching the rules below.

- A game against the AI is never rated.
- A turn deadline under :data:`MIN_RATED_DEADLINE` (one hour) makes the match unrated from its start.
- Before both players have made a play, a game can only be aborted (a resignation or a claim then aborts).
- A match that ended within :data:`SHORT_PLIES` plays is *short*; the :data:`SHORT_LIMIT` + 1st short rated
  match against the same opponent within :data:`SHORT_WINDOW` is not rated (and ``stats`` flags the pair).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .session import Session

MIN_RATED_DEADLINE = 3600.0  # seconds: a shorter turn deadline makes the match unrated
SHORT_PLIES = 20  # a match that ended within this many plays (both players' together) is short
SHORT_WINDOW = 86400.0  # short matches against one opponent are counted over this many seconds
SHORT_LIMIT = 3  # this many short rated matches against one opponent in the window: flagged, further ones unrated
SHORT_KEEP = 200  # entries kept per player at most (a bound, far above any honest use)


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a finished match moves the ratings; ``reason`` names why not (``ai``, ``deadline``, ``aborted``,
    ``repeated``) and ``short`` whether it counts as a short match."""

    rated: bool
    reason: str | None = None
    short: bool = False


def deadline_rated(deadline_secs: float) -> bool:
    """Whether a match with this turn deadline can be rated."""
    return deadline_secs >= MIN_RATED_DEADLINE


def match_plies(s: Session) -> int:
    """Plays made so far in the match (forced passes not counted), every game of it."""
    return s.plies_before + sum(1 for r in s.game.history if not r.is_pass)


def both_moved(s: Session) -> bool:
    """Whether both players have made a play in this match (before that, it can only be aborted)."""
    if s.game_no > 1:
        return True
    return len({r.player for r in s.game.history if not r.is_pass}) >= 2


def verdict(s: Session, short_before: int) -> Verdict:
    """Is this finished match rated? ``short_before``: short rated matches between the two players within the
    window before this one (see :func:`count_recent`)."""
    if len(s.human_seats()) != 2 or s.ai_level is not None:
        return Verdict(False, "ai")
    if s.end == "aborted" or s.winner is None:
        return Verdict(False, "aborted")
    short = match_plies(s) <= SHORT_PLIES
    if not s.rated:
        return Verdict(False, "deadline", short)
    if short and short_before >= SHORT_LIMIT:
        return Verdict(False, "repeated", short)
    return Verdict(True, None, short)


# --- the per-player list of recent short matches: JSON [[opponent id, opponent name, ended at], ...] ---------
def parse_short(raw: bytes | None) -> list[list[Any]]:
    """A stored short-match list (unreadable or missing: empty)."""
    if not raw:
        return []
    try:
        data = json.loads(raw)
    except ValueError:
        return []
    if not isinstance(data, list):
        return []
    return [e for e in data if isinstance(e, list) and len(e) == 3 and isinstance(e[2], int | float)]


def count_recent(entries: list[list[Any]], opponent_id: str, now: float) -> int:
    """Short matches against ``opponent_id`` within the window ending ``now``."""
    return sum(1 for uid, _name, at in entries if uid == opponent_id and now - at < SHORT_WINDOW)


def add_short(entries: list[list[Any]], opponent_id: str, opponent_name: str, now: float) -> bytes:
    """The list with this short match added and entries older than the window dropped (bounded)."""
    kept = [e for e in entries if now - e[2] < SHORT_WINDOW][-(SHORT_KEEP - 1):]
    kept.append([opponent_id, opponent_name, round(now, 3)])
    return json.dumps(kept, separators=(",", ":")).encode()


def flagged(entries: list[list[Any]], now: float) -> list[tuple[str, int]]:
    """Opponents (name, count) with at least :data:`SHORT_LIMIT` short matches in the window ending ``now``."""
    counts: dict[str, tuple[str, int]] = {}
    for uid, name, at in entries:
        if now - at < SHORT_WINDOW:
            counts[uid] = (str(name), counts.get(uid, ("", 0))[1] + 1)
    return [(name, n) for name, n in counts.values() if n >= SHORT_LIMIT]
