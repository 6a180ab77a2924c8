"""Engine speed: µs per ``legal_plays`` call over a fixed, seeded sample of self-play positions, on
the compiled core and the pure-Python path side by side; random self-play games per second on one
core; ``python -m fevga plays`` over a 3,000-line JSON-lines file (process start-up included); and a
cross-check of the compiled generator against the pure-Python reference. Prints its figures.

Targets (issue 2): median ≤ 100 µs per (position, roll), p99 ≤ 2 ms, ≥ 50 self-play games/s.
Issue 16: the compiled core ≥ 10× faster than the pure path at the median and at p99; 0 mismatches.
Issue 26: Portes and Plakoto (benchmarks/tavli_timing.py) compiled medians within 2× of Fevga's; 100,000
random self-play cases that move per game compared with the pure path, 0 mismatches.

    python benchmarks/bench_engine.py                    # everything (about ten minutes)
    python benchmarks/bench_engine.py --crosscheck 0 --tavli-crosscheck 0    # timings only
    python benchmarks/bench_engine.py --variants-only    # Portes and Plakoto only (pure Python)

Portes and Plakoto (issue 26) are timed on the pure-Python path per game, the same way: µs per
``legal_plays`` over seeded self-play positions of that game, and random self-play games/s; then
compiled and pure side by side (benchmarks/tavli_timing.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from fevga import Game, Play, Position, RandomDice, Rules, accel
from fevga.movegen import legal_plays, legal_plays_reference
from fevga.play import apply_steps

sys.path.insert(0, str(Path(__file__).parent))
import tavli_timing  # the Portes/Plakoto part, next to this script

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
Generator = Callable[[Position, tuple[int, int], Rules], list[Play]]


def phase(position: Position) -> str:
    mine = position.me
    if sum(mine[18:]) + position.me_off == 15:
        return "bear-off"
    if mine[0] >= 13:
        return "opening"
    return "middle"


def sample_positions(games: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    for n in range(games):
        game = Game.new(dice=RandomDice(seed + n))
        while not game.is_over():
            out.append(game.position)
            game.play(rng.choice(game.legal_plays()))
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_calls(generate: Generator, pairs: list[tuple[Position, tuple[int, int]]]) -> dict[str, list[float]]:
    """µs per call, overall ("all") and per phase and for doubles."""
    rules = Rules()
    times: dict[str, list[float]] = {"all": [], "opening": [], "middle": [], "bear-off": [], "doubles": []}
    for position, dice in pairs:
        start = time.perf_counter()
        generate(position, dice, rules)
        micros = (time.perf_counter() - start) * 1e6
        times["all"].append(micros)
        times[phase(position)].append(micros)
        if dice[0] == dice[1]:
            times["doubles"].append(micros)
    return times


def selfplay_rate(games: int, seed: int) -> tuple[float, float]:
    """(random self-play games/s, turns per game) with whatever path legal_plays uses now."""
    play_rng = random.Random(seed)
    start = time.perf_counter()
    turns = 0
    for n in range(games):
        game = Game.new(dice=RandomDice(n))
        while not game.is_over():
            game.play(play_rng.choice(game.legal_plays()))
            turns += 1
    return games / (time.perf_counter() - start), turns / games


def crosscheck(cases: int, seed: int, positions: list[Position]) -> int:
    """Compare the compiled core with the reference on ``cases`` (position, roll, rules) triples:
    game positions and arbitrary placements (many near bear-off or blocked), both unlock points,
    strict on and off. Returns the number of mismatches (and prints the first few)."""
    core = accel.core
    assert core is not None
    rng = random.Random(seed)
    bad = 0
    for k in range(cases):
        position = rng.choice(positions) if k % 2 else random_placement(rng)
        dice = ROLLS[k % 21]
        rules = Rules(unlock_point=rng.choice((13, 14)), strict_start_quarter=rng.random() < 0.3)
        want = legal_plays_reference(position, dice, rules)
        got = core.legal_plays(position, dice, rules)
        same = [p.result for p in want] == [p.result for p in got] and [p.steps for p in want] == [
            p.steps for p in got
        ]
        if same:
            same = all(apply_steps(p.start, p.steps) == p.result for p in got)
        if not same:
            bad += 1
            if bad <= 5:
                print(f"  MISMATCH {position.id()} {dice} {rules}: {want} != {got}")
    return bad


def random_placement(rng: random.Random) -> Position:
    """Any valid placement of 15 + 15 checkers; often crowded into the home boards (bear-off cases)."""
    board = [0] * 24
    me_off = rng.choice([0, 0, rng.randint(0, 14)])
    opp_off = rng.choice([0, 0, rng.randint(0, 14)])
    lo = rng.choice((0, 0, 12, 18))
    for _ in range(15 - me_off):
        board[rng.randrange(lo, 24)] += 1
    free = [i for i in range(24) if board[i] == 0]
    for _ in range(15 - opp_off):
        board[rng.choice(free)] -= 1
    return Position(tuple(board), me_off, opp_off)


def cli_time(pairs: list[tuple[Position, tuple[int, int]]], pure: bool) -> float:
    """Seconds for ``python -m fevga plays`` on one JSON-lines file of the pairs, start-up included."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cases.jsonl"
        with path.open("w") as f:
            for position, dice in pairs:
                line = {"me": position.me, "opp": position.opp, "me_off": position.me_off}
                f.write(json.dumps({**line, "opp_off": position.opp_off, "dice": list(dice)}) + "\n")
        env = dict(os.environ)
        env.pop(accel.PURE_ENV, None)
        if pure:
            env[accel.PURE_ENV] = "1"
        start = time.perf_counter()
        with path.open() as stdin:
            done = subprocess.run(
                [sys.executable, "-m", "fevga", "plays"], stdin=stdin, capture_output=True, env=env, check=True
            )
        elapsed = time.perf_counter() - start
        assert done.stdout.count(b"\n") == len(pairs)
        return elapsed


def variant_figures(game: str, games: int, sample: int, seed: int) -> None:
    """Print the pure-Python ``legal_plays`` median/p99 (µs) and self-play games/s of Portes or Plakoto,
    in CPU time of this process (the machine may be shared: wall time would count the others' work)."""
    from fevga.variants import default_rules

    rules = default_rules(game)
    rng = random.Random(seed)
    positions: list[Position] = []
    start = time.process_time()
    turns = 0
    for n in range(games):
        played = Game.new(rules, RandomDice(seed + n))
        while not played.is_over():
            positions.append(played.position)
            played.play(rng.choice(played.legal_plays()))
            turns += 1
    rate = games / (time.process_time() - start)
    pairs = [(rng.choice(positions), rng.choice(ROLLS)) for _ in range(sample)]
    times: dict[str, list[float]] = {"all": [], "doubles": []}
    for position, dice in pairs:
        begin = time.process_time()
        legal_plays(position, dice)
        micros = (time.process_time() - begin) * 1e6
        times["all"].append(micros)
        if dice[0] == dice[1]:
            times["doubles"].append(micros)
    for name, values in times.items():
        print(
            f"  {game:8} {name:8} median {statistics.median(values):7.1f} µs  p99 {pct(values, 0.99):8.1f} µs"
            f"  n={len(values)}"
        )
    print(f"  {game:8} random self-play: {rate:.1f} games/s on one core ({turns / games:.0f} turns/game)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60, help="self-play games to draw positions from")
    parser.add_argument("--sample", type=int, default=3000, help="(position, roll) pairs to time")
    parser.add_argument("--selfplay", type=int, default=200, help="games for the games/s figure")
    parser.add_argument("--crosscheck", type=int, default=100_000, help="cases compared with the reference")
    parser.add_argument("--tavli-crosscheck", type=int, default=100_000, help="Portes/Plakoto cases each")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--variant-games", type=int, default=40, help="Portes/Plakoto self-play games")
    parser.add_argument("--variants-only", action="store_true", help="time Portes and Plakoto only")
    args = parser.parse_args()

    print(f"Portes and Plakoto, pure Python, CPU time: legal_plays over {args.sample} (position, roll) pairs")
    with accel.pure_python():
        for game in ("portes", "plakoto"):
            variant_figures(game, args.variant_games, args.sample, args.seed)
    if args.variants_only:
        return

    positions = sample_positions(args.games, args.seed)
    rng = random.Random(args.seed)
    pairs = [(rng.choice(positions), rng.choice(ROLLS)) for _ in range(args.sample)]
    compiled = accel.enabled()
    print(f"legal_plays over {len(pairs)} (position, roll) pairs from {args.games} seeded self-play games")
    pure_times = time_calls(legal_plays_reference, pairs)
    fast_times = time_calls(legal_plays, pairs) if compiled else None
    header = "pure-Python (µs)" if fast_times is None else "pure-Python (µs)        compiled (µs)        speed-up"
    print(f"  {'':9} {header}")
    for name, values in pure_times.items():
        if not values:
            continue
        line = f"  {name:9} median {statistics.median(values):7.1f} p99 {pct(values, 0.99):7.1f}"
        if fast_times is not None:
            fast = fast_times[name]
            line += f"   median {statistics.median(fast):6.2f} p99 {pct(fast, 0.99):7.2f}"
            line += f"   ×{statistics.median(values) / statistics.median(fast):5.1f} median"
            line += f" ×{pct(values, 0.99) / pct(fast, 0.99):5.1f} p99"
        print(f"{line}   n={len(values)}")
    if not compiled:
        print("  (compiled core not in use: only the pure-Python path was timed)")
    print(f"Portes and Plakoto legal_plays, µs per call ({len(pairs)} pairs per game)")
    fevga_median = statistics.median(fast_times["all"]) if fast_times is not None else None
    tavli_timing.report(args.games, len(pairs), args.seed, 0, fevga_median)

    with accel.pure_python():
        rate, turns = selfplay_rate(args.selfplay, args.seed)
    print(f"random self-play, pure-Python: {rate:.1f} games/s on one core ({turns:.0f} turns/game)")
    if compiled:
        rate, turns = selfplay_rate(args.selfplay, args.seed)
        print(f"random self-play, compiled:    {rate:.1f} games/s on one core ({turns:.0f} turns/game)")

    cli_pairs = pairs[:3000]
    pure_s = cli_time(cli_pairs, pure=True)
    line = f"python -m fevga plays, {len(cli_pairs)} lines (start-up included): pure-Python {pure_s:.2f} s"
    if compiled:
        line += f", compiled {cli_time(cli_pairs, pure=False):.2f} s"
    print(line)

    if compiled and args.crosscheck:
        start = time.perf_counter()
        bad = crosscheck(args.crosscheck, args.seed + 1, positions)
        elapsed = time.perf_counter() - start
        print(f"cross-check compiled vs reference: {args.crosscheck} cases, {bad} mismatches ({elapsed:.0f} s)")
    if compiled and args.tavli_crosscheck:
        tavli_timing.print_crosschecks(args.tavli_crosscheck, args.seed + 2)
    print("targets: median ≤ 100 µs, p99 ≤ 2000 µs, ≥ 50 games/s; compiled ≥ 10× faster; 0 mismatches")


if __name__ == "__main__":
    main()
