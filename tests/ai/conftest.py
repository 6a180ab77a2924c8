"""Shared fixtures: a seeded sample of positions from random self-play games."""

from __future__ import annotations

import random

import pytest

from fevga import Position, legal_plays


def random_positions(count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """(position, dice) pairs met in seeded random games, from every phase of a game."""
    rng = random.Random(seed)
    seen: list[tuple[Position, tuple[int, int]]] = []
    while len(seen) < 40 * count:
        position = Position.start()
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            seen.append((position, dice))
            result = rng.choice(legal_plays(position, dice)).result
            if result.me_off == 15:
                break
            position = result.flip()
    return rng.sample(seen, count)


@pytest.fixture(scope="session")
def sample_positions() -> list[tuple[Position, tuple[int, int]]]:
    return random_positions(12, seed=2024)
