"""Look-back speed: the rating graph (matplotlib Agg, drawn in a worker thread by ``stats``) and the dice
statistics of ``dice`` (tally + chi-square over a player's rolls).

Run: ``python benchmarks/bench_lookback.py [--runs N] [--smoke]``. Prints the median and p95 ms to draw the graph
of 200 rated matches on two boards and encode it as PNG, its size, and the ms to tally and test 10,000 rolls.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.service.dice_stats import Tally
from renderers.rating_graph import Series, draw
from renderers.theme import CLASSIC


def _history(n: int, rng: random.Random) -> list[tuple[float, float]]:
    """A made-up rating history: a random walk whose RD shrinks with games played."""
    rating, points = 1500.0, []
    for k in range(n):
        rating += rng.uniform(-25, 25)
        points.append((rating, max(50.0, 350.0 - 6 * k)))
    return points


def main() -> None:
    """Time the graph and the dice statistics and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="the smallest run (CI checks the script works)")
    args = parser.parse_args()
    runs = 2 if args.smoke else args.runs
    rng = random.Random(1)
    series = [Series("here", _history(200, rng), CLASSIC.point_a),
              Series("global", _history(200, rng), CLASSIC.point_b)]
    draw("warm-up", series).png()
    times, size = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        size = len(draw("Μαρία", series).png())
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    print(f"rating graph 2x200 matches + PNG: median {statistics.median(times):.1f} ms  p95 {p95:.1f} ms  "
          f"{size / 1024:.1f} KB")
    rolls = [tuple(sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)) for _ in range(10_000)]
    start = time.perf_counter()
    tally = Tally().add(rolls)  # type: ignore[arg-type]
    p = tally.p_value()
    print(f"dice 10000 rolls tally + chi-square: {(time.perf_counter() - start) * 1000:.1f} ms (p = {p:.3f})")


if __name__ == "__main__":
    main()
