"""A store outage logged once, not by every layer and every tick: which errors mean "the store is down", and
a small log for background loops that says ERROR when an outage starts and WARNING when it ends."""

from __future__ import annotations

import logging
import time

from redis.exceptions import RedisError

STORE_DOWN: tuple[type[BaseException], ...] = (RedisError, OSError)  # unreachable, refused, timed out


def is_outage(exc: BaseException) -> bool:
    """True when ``exc`` says the store cannot be reached (not a bug, not damaged data)."""
    return isinstance(exc, STORE_DOWN)


def briefly(exc: BaseException) -> str:
    """One line for a store error: its class and first line, no traceback (an outage is not a bug)."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


class OutageLog:
    """The outage log of one background loop (timers, the outbox): ERROR once when the store goes down, WARNING
    once when it works again, and nothing on each failing round in between (DEBUG)."""

    def __init__(self, logger: logging.Logger, what: str) -> None:
        self.logger, self.what = logger, what
        self.since: float | None = None  # when the outage began (monotonic), None while the store works

    def failed(self, exc: BaseException) -> None:
        """A round failed because the store is down: said once per outage."""
        if self.since is None:
            self.since = time.monotonic()
            self.logger.error("%s: the store is unavailable (%s); said again when it works", self.what, briefly(exc))
        else:
            self.logger.debug("%s: the store is still unavailable (%s)", self.what, briefly(exc))

    def worked(self) -> None:
        """A round worked: the end of an outage, if there was one, is said once."""
        if self.since is not None:
            self.logger.warning("%s: the store works again after %.0f s", self.what, time.monotonic() - self.since)
            self.since = None
