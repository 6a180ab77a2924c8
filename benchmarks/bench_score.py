"""Playing the score (fevga.ai.stakes): a level that judges a game's ends by the match score against the same
level playing every game for money (a 2-point win always worth two). Prints the share of matches won, the
same matches replayed with both playing money (the control), and the difference, paired on the same dice.

Each pair of matches is played twice on the same dice (game g of match pair i uses seed (seed, i, g)) with the
seats swapped. The first game's opening side alternates by pair; after that the previous game's winner starts
(after a draw, the other side). ``--score A-B`` starts every match at that score (the score player's A points,
the money player's B), where the stakes differ most from money (2-away 1-away: a mars wins the match).

    python benchmarks/bench_score.py --kind tavli --length 5 --matches 1000 --jobs 2
    python benchmarks/bench_score.py --kind portes --length 5 --score 3-4 --matches 2000 --jobs 2
    python benchmarks/bench_score.py --smoke
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import multiprocessing  # noqa: E402
import time  # noqa: E402
import zlib  # noqa: E402

from fevga.ai import MatchScore, get_player, playing_score  # noqa: E402
from fevga.ai.arena import MatchStats, play_game  # noqa: E402
from fevga.match import MATCH_KINDS, game_kind  # noqa: E402

Args = tuple[str, str, int, tuple[int, int], int, int]  # level, kind, length, start score, seed, pair


def one_match(
    level: str, kind: str, length: int, start: tuple[int, int], seed: int, pair: int, swap: bool, control: bool
) -> bool:
    """One match; True when the score player (seat 0; seat 1 plays money) won it. The swapped match of a pair
    gives the first game's opening to the other seat, on the same dice. ``control``: seat 0 plays money too."""
    score = [start[0], start[1]]
    first = (pair + int(swap)) % 2  # the seat moving first in this game
    number = 1
    while max(score) < length:
        game = game_kind(kind, number)
        scorer = get_player(level, game)
        if not control:
            scorer = playing_score(scorer, MatchScore(length, score[0], score[1], kind, number))
        seats = (scorer, get_player(level, game))
        game_seed = zlib.crc32(f"{seed}:{pair}:{number}".encode())
        winner, points = play_game(seats[first], seats[1 - first], game_seed, game=game)
        if winner is None:  # a Plakoto draw: the other side opens the next game
            first = 1 - first
        else:
            won = first if winner == 0 else 1 - first
            score[won] += points
            first = won  # the winner starts the next game
        number += 1
    return score[0] >= length


def task(args: Args) -> list[tuple[bool, bool]]:
    """Both matches of one pair (seats swapped on the same dice), each played twice: with seat 0 playing the
    score and with it playing money (the control); (score won, control won) for each."""
    level, kind, length, start, seed, pair = args
    return [
        (one_match(level, kind, length, start, seed, pair, swap, False),
         one_match(level, kind, length, start, seed, pair, swap, True))
        for swap in (False, True)
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kind", default="tavli", choices=MATCH_KINDS)
    ap.add_argument("--length", type=int, default=5)
    ap.add_argument("--score", default="0-0", help="A-B: the score player's points and the money player's at the start")
    ap.add_argument("--level", default="hard")
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--smoke", action="store_true", help="2 Portes matches to 3 from 1-2 (seconds)")
    args = ap.parse_args()
    if args.smoke:
        args.kind, args.length, args.score, args.matches = "portes", 3, "1-2", 2
    a, b = (int(x) for x in args.score.split("-"))
    pairs = range((args.matches + 1) // 2)
    tasks: list[Args] = [(args.level, args.kind, args.length, (a, b), args.seed, i) for i in pairs]
    t0 = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = [m for part in pool.map(task, tasks, chunksize=4) for m in part]
    else:
        results = [m for t in tasks for m in task(t)]
    scored, control = MatchStats(), MatchStats()
    for s_won, c_won in results:
        scored.add(s_won, 1)
        control.add(c_won, 1)
    n = len(results)
    diffs = [int(s_won) - int(c_won) for s_won, c_won in results]
    mean = sum(diffs) / n
    sd = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
    half = 1.96 * sd / n**0.5
    where = f"{args.kind} matches to {args.length} from {a}-{b}"
    for name, stats in ((f"{args.level} playing the score", scored), ("the same with both playing money", control)):
        lo, hi = stats.wilson()
        print(f"{name} vs {args.level} playing money: {where}: {n} matches: won {100 * stats.win_rate:.1f}% "
              f"[{100 * lo:.1f}, {100 * hi:.1f}]")
    print(f"playing the score: {100 * mean:+.1f} points of match wins [{100 * (mean - half):+.1f}, "
          f"{100 * (mean + half):+.1f}] (paired on the same dice; {sum(d != 0 for d in diffs)} matches went "
          f"otherwise; {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
