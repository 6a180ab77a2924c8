"""Whether the last commit of the current task was confirmed by the replicas (``WAIT``) in time.

The store marks a commit that no replica confirmed within the configured time; the service asks right
after its commit and then tells the user the move is saved but may be delayed. A context variable, so
concurrent commands (each its own asyncio task) never see each other's mark.
"""

from __future__ import annotations

from contextvars import ContextVar

_lagged: ContextVar[bool] = ContextVar("fevga_commit_lagged", default=False)


def mark_lagged() -> None:
    """Called by the store: the commit stands, but no replica confirmed it in time."""
    _lagged.set(True)


def take_lagged() -> bool:
    """True once when a commit of this task was not confirmed by the replicas in time (then cleared)."""
    lagged = _lagged.get()
    if lagged:
        _lagged.set(False)
    return lagged
