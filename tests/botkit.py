"""Shared test helpers for the bot layers: a real redis-server per test session and a core on it."""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Iterator

from bot.service.models import GameView
from fevga import format_play, legal_plays
from tests.service.helpers import mover_position  # any game's position, seen by the player to move

__all__ = ["LogRecords", "a_legal_play_text", "log_records", "mover_position"]


class LogRecords(logging.Handler):
    """The records of one logger, kept (attached to that logger itself: nothing else can remove it)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def said(self, words: str) -> list[logging.LogRecord]:
        """The records whose message contains ``words``."""
        return [r for r in self.records if words in r.getMessage()]


@contextlib.contextmanager
def log_records(name: str) -> Iterator[LogRecords]:
    """Keep logger ``name``'s records of level INFO and above while the block runs."""
    handler = LogRecords()
    logger = logging.getLogger(name)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.disabled = False
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def a_legal_play_text(view: GameView, rng: random.Random) -> str:
    """Some legal play for the player to move, as text he would type."""
    assert view.dice is not None
    plays = legal_plays(mover_position(view), view.dice)
    return format_play(rng.choice(plays))


class OffsetClock:
    """Wall time plus an offset a test moves forward (timers become due, challenges expire)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset
