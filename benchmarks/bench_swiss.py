"""How long Swiss pairing takes per round for fields of 16 to 256 players over 7 rounds with random results
(some double losses), and the worst round. Run: ``.venv/bin/python benchmarks/bench_swiss.py``
(``--smoke``: 16 and 33 players only)."""

from __future__ import annotations

import random
import sys
import time

from bot.service.tournaments.standings import Entrant, Result
from bot.service.tournaments.swiss import swiss_pairing


def run(players: int, rounds: int, seed: int) -> tuple[float, float]:
    """(mean, worst) seconds per pairing over ``rounds`` rounds."""
    rng = random.Random(seed)
    field = [Entrant(f"p{i}", 2000 - i) for i in range(players)]
    ids = [e.id for e in field]
    results: list[Result] = []
    times = []
    for rnd in range(1, rounds + 1):
        start = time.perf_counter()
        pairing = swiss_pairing(field, results, ids)
        times.append(time.perf_counter() - start)
        if pairing.bye:
            results.append(Result(rnd, pairing.bye, None, pairing.bye))
        for a, b in pairing.pairs:
            results.append(Result(rnd, a, b, rng.choice((a, b, a, b, None))))
    return sum(times) / len(times), max(times)


if __name__ == "__main__":
    for size in (16, 33) if "--smoke" in sys.argv[1:] else (16, 33, 64, 128, 256):
        mean, worst = run(size, 7, seed=size)
        print(f"{size:4d} players, 7 rounds: {mean * 1000:8.1f} ms a round on average, worst {worst * 1000:8.1f} ms")
