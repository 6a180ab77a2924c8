"""Delivery that converges: the board tracker (the shown board is state, brought up to the stored version)
and the outbox consumer (each committed change delivered by exactly one instance). See docs/frontends.md."""

from .outbox import NoticeSink, OutboxConsumer
from .pings import Pinger, PingPlan, PingSurface
from .tracker import BoardSurface, BoardTracker, Outcome, RetryLater, Undeliverable

__all__ = [
    "BoardSurface",
    "BoardTracker",
    "NoticeSink",
    "OutboxConsumer",
    "Outcome",
    "PingPlan",
    "PingSurface",
    "Pinger",
    "RetryLater",
    "Undeliverable",
]
