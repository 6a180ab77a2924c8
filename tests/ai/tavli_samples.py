"""Seeded Portes and Plakoto positions for the AI tests, met in random self-play games."""

from __future__ import annotations

import random

from fevga import Position, legal_plays
from fevga.ai.games import kind, result_points


def random_tavli_positions(game: str, count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """(position, dice) pairs from every phase of seeded random games of ``game``."""
    rng = random.Random(seed)
    seen: list[tuple[Position, tuple[int, int]]] = []
    while len(seen) < 30 * count:
        position: Position = kind(game).start()
        for _ in range(1000):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            seen.append((position, dice))
            result = rng.choice(legal_plays(position, dice)).result
            if result_points(result) is not None:
                break
            position = result.flip()
    return rng.sample(seen, count)
