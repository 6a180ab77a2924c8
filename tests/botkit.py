"""Shared test helpers for the bot layers: a real redis-server per test session and a core on it."""

from __future__ import annotations

import random
import time

from bot.service.models import GameView
from fevga import format_play, legal_plays
from tests.service.helpers import mover_position  # any game's position, seen by the player to move

__all__ = ["a_legal_play_text", "mover_position"]


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
