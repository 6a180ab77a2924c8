"""Which finished matches may be rematched: not one ended because a player left the server or group (nobody to
ask), nor a tournament's pairing (the event pairs its players; a rematch would be an unasked extra match)."""

from __future__ import annotations

from .session import Session


def rematch_refused(s: Session) -> str | None:
    """The error key refusing a rematch of ``s`` (and hiding its Rematch button), or None when it may be had."""
    if s.end == "left":
        return "rematch_left"
    if s.event is not None:
        return "rematch_event"
    return None
