"""Portes and Plakoto figures for bench_engine.py: µs per ``legal_plays`` call over seeded self-play
positions of each game, compiled and pure-Python, against Fevga's compiled median (issue 26 target:
within 2×); and the cross-check of the compiled generator against the pure path on random self-play.

    python benchmarks/tavli_timing.py --crosscheck 2000     # this part alone
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from fevga import Play, accel
from fevga.ai.games import result_points
from fevga.variants import TavliPosition, tavli_legal_plays

GAMES = ("portes", "plakoto")
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
Generator = Callable[[TavliPosition, tuple[int, int]], list[Play]]


def pct(values: list[float], q: float) -> float:
    """The q-quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def selfplay_positions(game: str, games: int, seed: int, generate: Generator) -> list[TavliPosition]:
    """Every position of ``games`` random self-play games of ``game`` (seeded), moves chosen by ``generate``."""
    rng = random.Random(seed)
    out: list[TavliPosition] = []
    for _ in range(games):
        position = TavliPosition.start(game)
        for _turn in range(2000):
            out.append(position)
            play = rng.choice(generate(position, (rng.randint(1, 6), rng.randint(1, 6))))
            if result_points(play.result) is not None:  # 15 off, or the mother rule
                break
            after = play.result.flip()
            assert isinstance(after, TavliPosition)
            position = after
    return out


def time_calls(generate: Generator, pairs: list[tuple[TavliPosition, tuple[int, int]]]) -> list[float]:
    """µs per call of ``generate`` on each (position, roll)."""
    out = []
    for position, dice in pairs:
        start = time.perf_counter()
        generate(position, dice)
        out.append((time.perf_counter() - start) * 1e6)
    return out


def same_plays(position: TavliPosition, dice: tuple[int, int], core: object) -> tuple[bool, list[Play]]:
    """Compiled vs pure on one case: the same plays in order (results both sides, recorded steps)."""
    want = tavli_legal_plays(position, dice)
    got: list[Play] = core.tavli_legal_plays(position, dice)  # type: ignore[attr-defined]
    same = [p.result for p in got] == [p.result for p in want] and [p._steps for p in got] == [p._steps for p in want]
    for mine, ref in zip(got, want, strict=False):
        a, b = mine.result, ref.result
        assert isinstance(a, TavliPosition) and isinstance(b, TavliPosition)
        same = same and (a.pins, a.me_bar, a.opp_bar) == (b.pins, b.me_bar, b.opp_bar)
    return same, got


def crosscheck(game: str, cases: int, seed: int) -> tuple[int, int]:
    """Compare the paths on random self-play (position, roll) cases until ``cases`` of them could
    move (a pass proves little): (mismatches, all cases compared)."""
    core = accel.compiled()
    rng = random.Random(seed)
    bad = done = moving = 0
    while moving < cases:
        position = TavliPosition.start(game)
        for _turn in range(2000):
            if moving >= cases:
                break
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            same, got = same_plays(position, dice, core)
            done += 1
            moving += not got[0].is_pass
            if not same:
                bad += 1
                if bad <= 5:
                    print(f"  MISMATCH {position.id()} {dice}")
            result = rng.choice(got).result
            if result_points(result) is not None:
                break
            after = result.flip()
            assert isinstance(after, TavliPosition)
            position = after
    return bad, done


def encoder_figures(game: str, positions: list[TavliPosition], seed: int) -> str:
    """µs to encode the afterstates of one roll's legal plays (the AI's batch), numpy vs compiled."""
    import numpy as np

    from fevga.ai.encoding_tavli import arrays_of
    from fevga.ai.games import kind

    k = kind(game)
    rng = random.Random(seed)
    batches = [[p.result for p in tavli_legal_plays(rng.choice(positions), rng.choice(ROLLS))] for _ in range(300)]
    slow, fast = [], []
    for batch in batches:
        start = time.perf_counter()
        k.encode_arrays(arrays_of(batch).flipped())
        slow.append((time.perf_counter() - start) * 1e6)
        start = time.perf_counter()
        out = np.empty((len(batch), k.n_inputs))
        accel.compiled().encode_tavli(batch, True, out)
        fast.append((time.perf_counter() - start) * 1e6)
    return (
        f"  {game:8} inputs of one roll's afterstates (median {statistics.median([len(b) for b in batches]):.0f}"
        f" plays): numpy median {statistics.median(slow):7.1f} µs, compiled median {statistics.median(fast):6.2f} µs"
    )


def report(games: int, sample: int, seed: int, cases: int, fevga_median: float | None) -> None:
    """Print the timings per game (and the cross-check when ``cases``)."""
    compiled = accel.enabled()
    core = accel.core
    for game in GAMES:
        positions = selfplay_positions(game, games, seed, tavli_legal_plays)
        rng = random.Random(seed)
        pairs = [(rng.choice(positions), rng.choice(ROLLS)) for _ in range(sample)]
        pure = time_calls(tavli_legal_plays, pairs)
        line = f"  {game:8} pure-Python median {statistics.median(pure):7.1f} p99 {pct(pure, 0.99):7.1f}"
        if core is not None:
            fast = time_calls(core.tavli_legal_plays, pairs)
            median = statistics.median(fast)
            line += f"   compiled median {median:6.2f} p99 {pct(fast, 0.99):7.2f}"
            line += f"   ×{statistics.median(pure) / median:5.1f} median"
            if fevga_median:
                line += f"   {median / fevga_median:4.2f}× Fevga's compiled median"
        print(f"{line}   n={len(pairs)} from {len(positions)} positions")
        if core is not None:
            moving = [k for k, (p, d) in enumerate(pairs) if not core.tavli_legal_plays(p, d)[0].is_pass]
            slow, quick = [pure[k] for k in moving], [fast[k] for k in moving]
            print(
                f"  {game:8} without the passes: pure median {statistics.median(slow):7.1f}"
                f"   compiled median {statistics.median(quick):6.2f} p99 {pct(quick, 0.99):7.2f}   n={len(moving)}"
            )
            print(encoder_figures(game, positions, seed))
    if compiled and cases:
        print_crosschecks(cases, seed + 1)
    print("target (issue 26): Portes and Plakoto compiled medians within 2× of Fevga's; 0 mismatches")


def print_crosschecks(cases: int, seed: int) -> None:
    """Run and print the cross-check of each game."""
    for game in GAMES:
        start = time.perf_counter()
        bad, done = crosscheck(game, cases, seed)
        elapsed = time.perf_counter() - start
        print(
            f"cross-check {game} compiled vs pure: {cases} self-play cases that move ({done} with the passes),"
            f" {bad} mismatches ({elapsed:.0f} s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="self-play games per kind to draw positions from")
    parser.add_argument("--sample", type=int, default=3000, help="(position, roll) pairs to time per game")
    parser.add_argument("--crosscheck", type=int, default=100_000, help="cases per game compared with the pure path")
    parser.add_argument("--seed", type=int, default=12345)
    args = parser.parse_args()
    print(f"Portes and Plakoto legal_plays, µs per call ({args.sample} pairs per game)")
    report(args.games, args.sample, args.seed, args.crosscheck, None)


if __name__ == "__main__":
    main()
