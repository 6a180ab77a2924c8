"""Luck sums to zero: exactly over the 21 rolls of a position, and statistically over a sample."""

from __future__ import annotations

import math
import random

import pytest

from fevga import DEFAULT_RULES, Position
from fevga.ai import get_player
from fevga.ai.search import ROLLS
from fevga.analysis_judge import Judge, luck_of_roll
from fevga.play import apply_steps

from .games import play_game


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    """Positions (mover's view) met in a few medium-level games."""
    medium = get_player("heuristic")
    found: list[Position] = []
    for seed in range(4):
        game = play_game((medium, medium), seed=100 + seed)
        position = Position.start()
        for record in game.history:
            found.append(position)
            position = apply_steps(position, record.steps).flip()
    return found


def test_luck_averages_exactly_to_zero_over_the_rolls(positions: list[Position]) -> None:
    """The 21 rolls' weighted luck sums to 0 (to rounding) in any position."""
    judge = Judge(0)
    for position in positions[::60]:
        total = sum(w * (luck_of_roll(judge, position, dice, DEFAULT_RULES) or 0.0) for dice, w in ROLLS)
        assert abs(total) < 1e-9


def test_luck_of_random_rolls_averages_to_zero(positions: list[Position]) -> None:
    """Mean luck of n sampled (position, roll) pairs: zero expected, so |mean| < 4 standard errors
    (sample standard deviation / sqrt(n)); a false alarm has probability about 6e-5."""
    judge = Judge(0)
    rng = random.Random(7)
    sample = rng.sample(positions, min(300, len(positions)))
    lucks = []
    for position in sample:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        value = luck_of_roll(judge, position, dice, DEFAULT_RULES)
        assert value is not None
        lucks.append(value)
    n = len(lucks)
    mean = sum(lucks) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in lucks) / (n - 1))
    assert sd > 0.01  # the rolls do matter
    assert abs(mean) < 4 * sd / math.sqrt(n)
