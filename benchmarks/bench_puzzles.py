"""Puzzles: seconds to choose one (the expert's search and the wide 2-ply check), to re-check a stored one,
to judge an answer, and the stored size.

Run: ``OPENBLAS_NUM_THREADS=1 python benchmarks/bench_puzzles.py [--games 3] [--smoke]``. For each game (Fevga,
Portes, Plakoto): self-play turns that pass the 0-ply prefilter (``fevga.puzzle_seed``) are given to ``select``;
prints the median and max seconds per candidate and how many became puzzles, the seconds of ``verify`` on the
game's shipped puzzles, the microseconds of ``check`` (an answer typed in a chat) and the bytes of a stored puzzle.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fevga.puzzle_seed import turns_of
from fevga.puzzle_select import select, verify
from fevga.puzzles import check, load_seed
from fevga.variants import GAMES


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="one game, three candidates, two shipped puzzles a game")
    args = parser.parse_args()
    limit = 3 if args.smoke else 10**6
    for game in GAMES:
        skip = 8 if game == "plakoto" else 0  # as its seed set was made (docs/puzzles.md)
        turns = (turn for k in range(1 if args.smoke else args.games) for turn in turns_of(k, game, skip))
        candidates = list(itertools.islice(turns, limit))
        seconds, found = [], 0
        for position, dice in candidates:
            start = time.process_time()
            found += select(position, dice) is not None
            seconds.append(time.process_time() - start)
        print(f"{game} select: {len(candidates)} candidates -> {found} puzzles; CPU s per candidate median "
              f"{statistics.median(seconds):.2f} max {max(seconds):.2f}")
        seed = [p for p in load_seed() if p.game == game][: 2 if args.smoke else None]
        start = time.process_time()
        held = sum(verify(p) for p in seed)
        each_s = (time.process_time() - start) / len(seed)
        print(f"{game} verify: {held} of {len(seed)} shipped puzzles hold; CPU s each {each_s:.2f}")
        start = time.perf_counter()
        for p in seed:
            check(p, p.answer)
        each = (time.perf_counter() - start) / len(seed) * 1e6
        size = statistics.mean(len(p.encode().encode()) for p in seed)
        print(f"{game} check an answer: {each:.0f} us; a stored puzzle: {size:.0f} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
