"""Post-game analysis: seconds per game at the default ply, stored bytes, and the ranking run.

Run: ``OPENBLAS_NUM_THREADS=1 python benchmarks/bench_analysis.py [--games 20] [--ranking 200]
[--quick | --smoke]``. Prints the seconds to analyse each game (hard level's search, luck included; median,
p95, max, and per 90 plies), the encoded report's bytes, and the error rates of random, greedy and
heuristic judged on the turns of ``--ranking`` hard self-play games. Targets: p95 <= 10 s for a
90-ply game on one core, <= 1 KB stored, random > greedy > heuristic.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fevga import DEFAULT_RULES, FairDice, Game, Position
from fevga.ai import Player, get_player
from fevga.analysis import analyse
from fevga.analysis_judge import rate_players
from fevga.play import apply_steps

P95_SECONDS, MAX_BYTES = 10.0, 1024


def play_game(players: tuple[Player, Player], seed: int) -> Game:
    """A whole game on fair dice seeded by ``seed``."""
    game = Game.new(dice=FairDice(seed.to_bytes(16, "big")))
    while not game.is_over():
        assert game.dice is not None
        game.play(players[game.turn].choose(game.position, game.dice, game.rules))
    return game


def turns_of(game: Game) -> list[tuple[Position, tuple[int, int]]]:
    """Every turn's position (mover's view) and dice."""
    out = []
    position = Position.start()
    for record in game.history:
        out.append((position, record.dice))
        position = apply_steps(position, record.steps).flip()
    return out


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def speed(games: int) -> None:
    """Analyse ``games`` hard-vs-medium games; print times and stored sizes."""
    hard, medium = get_player("hard"), get_player("heuristic")
    seconds, walls, per90, sizes, plies = [], [], [], [], []
    for seed in range(games):
        game = play_game((hard, medium) if seed % 2 == 0 else (medium, hard), seed=9000 + seed)
        wall0, start = time.perf_counter(), time.process_time()
        report = analyse(game)
        spent = time.process_time() - start
        walls.append(time.perf_counter() - wall0)
        seconds.append(spent)
        plies.append(len(game.history))
        per90.append(spent * 90 / len(game.history))
        sizes.append(len(report.encode()))
        json_bytes = len(json.dumps(report.to_dict(), separators=(",", ":")))
        print(
            f"  game {seed}: {len(game.history)} plies, {spent:.2f} s CPU ({walls[-1]:.2f} s wall), "
            f"{sizes[-1]} B stored ({json_bytes} B JSON)"
        )
    p95 = pct(per90, 0.95)
    print(
        f"analysis: {games} games, {statistics.median(plies):.0f} plies median; CPU s per game median "
        f"{statistics.median(seconds):.2f}, p95 {pct(seconds, 0.95):.2f}, max {max(seconds):.2f}; "
        f"per 90 plies median {statistics.median(per90):.2f}, p95 {p95:.2f} (target <= {P95_SECONDS}): "
        + ("met" if p95 <= P95_SECONDS else "NOT met")
        + f"; wall s per game p95 {pct(walls, 0.95):.2f}"
    )
    print(
        f"stored: median {statistics.median(sizes):.0f} B, max {max(sizes)} B (target <= {MAX_BYTES}): "
        + ("met" if max(sizes) <= MAX_BYTES else "NOT met")
    )


def ranking(games: int, max_turns: int | None = None) -> None:
    """Error rates of random, greedy and heuristic on the turns of hard self-play games (the first
    ``max_turns`` of them when given)."""
    hard = get_player("hard")
    turns = []
    for seed in range(games):
        turns.extend(turns_of(play_game((hard, hard), seed=20000 + seed)))
    turns = turns[:max_turns]
    names = ("random", "greedy", "heuristic")
    start = time.process_time()
    rated = rate_players({n: get_player(n) for n in names}, turns, DEFAULT_RULES)
    spent = time.process_time() - start
    parts = ", ".join(f"{n} {rated[n][0]:.1f}" for n in names)
    order = rated["random"][0] > rated["greedy"][0] > rated["heuristic"][0]
    print(
        f"ranking: {games} hard self-play games, {rated['random'][1]} unforced turns, judged by hard "
        f"({spent:.0f} s CPU): {parts}; order random > greedy > heuristic: {'met' if order else 'NOT met'}"
    )


def main() -> None:
    """Parse the options and run both parts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games timed (default 20)")
    parser.add_argument("--ranking", type=int, default=200, help="hard self-play games for the ranking")
    parser.add_argument("--quick", action="store_true", help="5 timed games, 10 ranking games")
    parser.add_argument("--smoke", action="store_true", help="1 timed game, 20 turns ranked (it still runs)")
    args = parser.parse_args()
    if args.quick:
        args.games, args.ranking = 5, 10
    if args.smoke:
        args.games = 1
    speed(args.games)
    if args.smoke:
        ranking(1, max_turns=20)
    else:
        ranking(args.ranking)


if __name__ == "__main__":
    main()
