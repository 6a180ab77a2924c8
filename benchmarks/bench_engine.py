"""Engine speed: µs per ``legal_plays`` call over a fixed, seeded sample of self-play positions,
and random self-play games per second on one core. Prints its figures.

Targets (issue 2): median ≤ 100 µs per (position, roll), p99 ≤ 2 ms, ≥ 50 self-play games/s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from fevga import Game, Position, RandomDice, legal_plays

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60, help="self-play games to draw positions from")
    parser.add_argument("--sample", type=int, default=3000, help="(position, roll) pairs to time")
    parser.add_argument("--selfplay", type=int, default=200, help="games for the games/s figure")
    parser.add_argument("--seed", type=int, default=12345)
    args = parser.parse_args()

    positions = sample_positions(args.games, args.seed)
    rng = random.Random(args.seed)
    pairs = [(rng.choice(positions), rng.choice(ROLLS)) for _ in range(args.sample)]
    times: dict[str, list[float]] = {"opening": [], "middle": [], "bear-off": [], "doubles": []}
    every: list[float] = []
    for position, dice in pairs:
        start = time.perf_counter()
        legal_plays(position, dice)
        micros = (time.perf_counter() - start) * 1e6
        every.append(micros)
        times[phase(position)].append(micros)
        if dice[0] == dice[1]:
            times["doubles"].append(micros)

    def p(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    print(f"legal_plays over {len(every)} (position, roll) pairs from {args.games} seeded self-play games")
    print(f"  all       median {statistics.median(every):8.1f} µs   p99 {p(every, 0.99):8.1f} µs")
    for name, values in times.items():
        if values:
            med = statistics.median(values)
            print(f"  {name:9} median {med:8.1f} µs   p99 {p(values, 0.99):8.1f} µs   n={len(values)}")

    play_rng = random.Random(args.seed)
    start = time.perf_counter()
    turns = 0
    for n in range(args.selfplay):
        game = Game.new(dice=RandomDice(n))
        while not game.is_over():
            game.play(play_rng.choice(game.legal_plays()))
            turns += 1
    elapsed = time.perf_counter() - start
    rate = args.selfplay / elapsed
    print(f"random self-play: {rate:.1f} games/s on one core ({turns / args.selfplay:.0f} turns/game)")
    print("targets: median ≤ 100 µs, p99 ≤ 2000 µs, ≥ 50 games/s")


if __name__ == "__main__":
    main()
