"""A ladder of the AI levels (issue 23): a round robin of duplicate-dice matches (each pair of games
on the same dice with the seats swapped), then one Elo per level fitted from all the pairings at once
(Bradley-Terry, ``fevga.ai.elo``), anchored at random = 0, with a 95 % interval from a bootstrap over
the duplicate pairs. Prints a table: level, Elo, interval, games, score against each other level.

Fevga's levels are random, easy, medium, hard-v1, hard-v2, hard and expert; Portes' and Plakoto's
(``--game``) random, easy, medium, hard and expert. Each pairing plays ``--games`` games (200) in
one process, stopping at ``--time-limit`` seconds (whole pairs only) so that a slow expert cannot
stall the ladder; ``--jobs`` pairings run at once, each under ``nice``. A pairing won 100 % has no
finite Elo by itself: the fit adds one virtual drawn game per pairing (``--prior-draws``) and
the other pairings place the level.

    python benchmarks/bench_ladder.py --jobs 2 --games 200 --time-limit 1200 --save ladder.json
    python benchmarks/bench_ladder.py --game portes --games 100 --jobs 2
    python benchmarks/bench_ladder.py --load ladder.json          # the table again, no games
    python benchmarks/bench_ladder.py --only expert --first-pair 1000 --save more.json   # more of its games
    python benchmarks/bench_ladder.py --load ladder.json --load more.json   # both runs in one fit
    python benchmarks/bench_ladder.py --smoke                     # seconds: every part, tiny
"""

from __future__ import annotations

import os

# The network's matrices are tiny: BLAS threads only add overhead (and take other processes' cores).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from fevga.ai import get_player  # noqa: E402
from fevga.ai.arena import MatchStats, duplicate_match  # noqa: E402
from fevga.ai.elo import Ladder, bootstrap_ladder  # noqa: E402
from fevga.ai.players import Player, RandomPlayer  # noqa: E402
from fevga.ai.search import NeuralPlayer  # noqa: E402

LEVELS = {
    "fevga": ("random", "easy", "medium", "hard-v1", "hard-v2", "hard", "expert"),
    "portes": ("random", "easy", "medium", "hard", "expert"),
    "plakoto": ("random", "easy", "medium", "hard", "expert"),
}
Job = tuple[str, str, str, int, int, int, float, int]  # game, A, B, games, seed, first pair, time limit, nice


def make_player(name: str, game: str, seed: int) -> Player:
    """The player of a level; random is seeded so that a run can be repeated."""
    return RandomPlayer(seed) if name == "random" else get_player(name, game)


def plays_alike(a: Player, b: Player) -> bool:
    """True when two network players search alike with equal weights: every game between them
    or against a third player is the same game, so one rating serves both (hard-v2 = hard until
    a newer network ships)."""
    if not (isinstance(a, NeuralPlayer) and isinstance(b, NeuralPlayer)):
        return False
    settings = {key: value for key, value in vars(a).items() if key not in ("net", "name")}
    if settings != {key: value for key, value in vars(b).items() if key not in ("net", "name")}:
        return False
    mine, theirs = a.net.arrays(), b.net.arrays()
    return len(mine) == len(theirs) and all(
        x.shape == y.shape and (x == y).all() for x, y in zip(mine, theirs, strict=True)
    )


def twins_of(levels: tuple[str, ...], game: str) -> dict[str, str]:
    """Each level that plays exactly as a later one -> that later level (hard-v2 -> hard)."""
    players = {name: make_player(name, game, 0) for name in levels}
    twins: dict[str, str] = {}
    for k, name in reversed(list(enumerate(levels))):
        for later in reversed(levels[k + 1 :]):
            if later not in twins and plays_alike(players[later], players[name]):
                twins[name] = later
                break
    return twins


def play_pairing(job: Job) -> tuple[str, str, list[list[float]], float, int]:
    """One pairing in this process: [A's score (0-2, a draw 0.5), A's points minus B's] of each
    duplicate pair played before the games or the time limit ran out, the seconds it took, and the
    pairs left out because a game hit the arena's turn guard (it never ended)."""
    game, a_name, b_name, games, seed, first_pair, limit, niceness = job
    if niceness:
        os.nice(niceness)
    a, b = make_player(a_name, game, seed), make_player(b_name, game, seed + 1)
    start = time.perf_counter()
    scores: list[list[float]] = []
    endless = 0
    for k in range(first_pair, first_pair + (games + 1) // 2):
        try:
            pair = duplicate_match(a, b, 2, seed=seed, first_pair=k, game=game)
        except RuntimeError:  # a game past the arena's turn guard: the pair is left out and counted
            endless += 1
            continue
        scores.append([pair.wins + 0.5 * pair.draws, pair.points])
        if time.perf_counter() - start > limit:
            break
    return a_name, b_name, scores, time.perf_counter() - start, endless


def save(path: Path | None, game: str, seed: int, scores: dict[tuple[str, str], list[list[float]]]) -> None:
    """Write every pair's [score, points] to ``path`` (JSON), for ``--load``."""
    if path is not None:
        pairs = {f"{a} vs {b}": values for (a, b), values in scores.items()}
        path.write_text(json.dumps({"game": game, "seed": seed, "pairs": pairs}) + "\n")


def play_ladder(args: argparse.Namespace, levels: tuple[str, ...]) -> dict[tuple[str, str], list[list[float]]]:
    """Every pairing of ``levels``, ``args.jobs`` at a time, the slowest (expert's) first; each
    pairing is saved as it ends, so a run stopped early keeps the pairings done."""
    pairings = [p for p in itertools.combinations(levels, 2) if args.only is None or args.only in p]
    pairings.sort(key=lambda p: -max(levels.index(p[0]), levels.index(p[1])))
    jobs: list[Job] = [
        (args.game, a, b, args.games, args.seed, args.first_pair, args.time_limit, args.nice) for a, b in pairings
    ]
    scores: dict[tuple[str, str], list[list[float]]] = {}
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(max(1, min(args.jobs, len(jobs)))) as pool:
        for a_name, b_name, pair_scores, elapsed, endless in pool.imap_unordered(play_pairing, jobs, chunksize=1):
            scores[(a_name, b_name)] = pair_scores
            save(args.save, args.game, args.seed, scores)
            games = 2 * (len(pair_scores) + endless)
            stopped = " (stopped by the time limit)" if games < args.games else ""
            if endless:
                stopped += f" ({endless} pairs left out: a game did not end within the arena's turn guard)"
            print(
                f"{a_name} vs {b_name}: {_stats(pair_scores).summary()}{stopped} "
                f"[{elapsed:.0f} s; {time.perf_counter() - started:.0f} s in all]",
                flush=True,
            )
    return scores


def _stats(pairs: list[list[float]]) -> MatchStats:
    """A's figures from its [score, points] pairs (a half in a score is a Plakoto draw)."""
    halves = sum(1 for s, _ in pairs if s != int(s))
    wins = int(sum(s for s, _ in pairs) - 0.5 * halves)
    return MatchStats(games=2 * len(pairs), wins=wins, points=int(sum(p for _, p in pairs)), draws=halves)


def score_of(scores: dict[tuple[str, str], list[list[float]]], a: str, b: str) -> tuple[float, int] | None:
    """A's score and games against B, whichever way round the pairing was played."""
    if (a, b) in scores:
        return sum(s for s, _ in scores[(a, b)]), 2 * len(scores[(a, b)])
    if (b, a) in scores:
        games = 2 * len(scores[(b, a)])
        return games - sum(s for s, _ in scores[(b, a)]), games
    return None


def print_table(
    levels: tuple[str, ...], scores: dict[tuple[str, str], list[list[float]]], ladder: Ladder, twins: dict[str, str]
) -> None:
    """Level, Elo, interval, games and the score against each other level; a twin shows its
    original's figures and ``same`` against it."""
    width = max(len(name) for name in levels) + 1
    head = f"{'level':<{width}} {'Elo':>6}  {'95% interval':>13} {'games':>6}"
    print(head + "".join(f" {'vs ' + name:>{max(8, len(name) + 3)}}" for name in levels))
    for name in levels:
        me = twins.get(name, name)
        games = sum(found[1] for other in levels if (found := score_of(scores, me, other)) is not None)
        interval = f"[{ladder.low[me]:>+5.0f}, {ladder.high[me]:>+5.0f}]"
        row = f"{name:<{width}} {ladder.elo[me]:>+6.0f}  {interval} {games:>6}"
        for other in levels:
            them = twins.get(other, other)
            cell = "-" if other == name else "same" if them == me else "-"
            found = score_of(scores, me, them) if them != me else None
            if found and found[1]:
                cell = f"{100 * found[0] / found[1]:.0f}%/{found[1]}"
            row += f" {cell:>{max(8, len(other) + 3)}}"
        print(row)


def print_markdown(
    levels: tuple[str, ...], scores: dict[tuple[str, str], list[list[float]]], ladder: Ladder, twins: dict[str, str]
) -> None:
    """The same table in Markdown (for README and docs): the score cells as "win % (games)"."""
    print("| level | Elo | 95 % interval | games | " + " | ".join(f"vs {name}" for name in levels) + " |")
    print("|---|---:|---|---:|" + "---:|" * len(levels))
    for name in levels:
        me = twins.get(name, name)
        found = {other: score_of(scores, me, twins.get(other, other)) for other in levels}
        games = sum(f[1] for other in levels if (f := score_of(scores, me, other)) is not None)  # each game once
        cells = []
        for other in levels:
            f = found[other]
            if other != name and twins.get(other, other) == me:
                cells.append("same")
            else:
                cells.append("-" if f is None or other == name else f"{100 * f[0] / f[1]:.0f} % ({f[1]})")
        row = f"| {name} | {ladder.elo[me]:+.0f} | {ladder.low[me]:+.0f} to {ladder.high[me]:+.0f} | {games:,} | "
        print(row + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=tuple(LEVELS), default="fevga")
    parser.add_argument("--levels", default=None, help="comma-separated levels (default: every level of the game)")
    parser.add_argument("--games", type=int, default=200, help="games per pairing (rounded up to even)")
    parser.add_argument("--time-limit", type=float, default=1200.0, help="seconds per pairing at most")
    parser.add_argument("--jobs", type=int, default=1, help="pairings played at once, one process each")
    parser.add_argument("--nice", type=int, default=10, help="niceness added to each pairing's process")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", default=None, help="play only the pairings of this level (more of its games)")
    parser.add_argument("--first-pair", type=int, default=0, help="number of the first dice pair (more games)")
    parser.add_argument("--bootstrap", type=int, default=1000, help="refits for the 95 %% interval")
    parser.add_argument("--prior-draws", type=float, default=1.0, help="virtual drawn games per pairing")
    parser.add_argument("--save", type=Path, default=None, help="write every pair's score to this JSON file "
                        "(with --load: the loaded runs merged)")
    parser.add_argument("--load", type=Path, action="append", default=[], help="add the pairs of a saved run")
    parser.add_argument("--markdown", action="store_true", help="print the table in Markdown too")
    parser.add_argument("--smoke", action="store_true", help="the smallest run (it still runs)")
    args = parser.parse_args()
    levels = LEVELS[args.game]
    if args.smoke:
        levels = ("random", "easy", "hard-v2", "hard") if args.game == "fevga" else ("random", "easy", "hard")
        args.games, args.bootstrap, args.jobs = 2, 20, 1
    if args.levels:
        levels = tuple(name.strip() for name in args.levels.split(",") if name.strip())
    print(f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1 and 5 min); {os.cpu_count()} cores")
    scores: dict[tuple[str, str], list[list[float]]] = {}
    for path in args.load:
        if not path.is_file():
            sys.exit(f"{path}: no such file (a run saved with --save)")
        saved = json.loads(path.read_text())
        if saved["game"] != args.game:
            sys.exit(f"{path}: a {saved['game']} ladder, not {args.game}")
        for key, values in saved["pairs"].items():
            a_name, b_name = key.split(" vs ")
            scores.setdefault((a_name, b_name), []).extend(values)
    twins = twins_of(levels, args.game)
    for twin, original in twins.items():
        print(f"{twin} plays exactly as {original} (the same network and search): its games are {original}'s")
    played = tuple(name for name in levels if name not in twins)
    if not args.load:
        scores = play_ladder(args, played)
    else:
        save(args.save, args.game, args.seed, scores)  # the loaded runs merged into one file
        print(f"load after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1 and 5 min)")
    scores = {key: pairs for key, pairs in scores.items() if set(key) <= set(played)}  # a loaded file's others
    pair_scores = {key: [s for s, _ in pairs] for key, pairs in scores.items()}
    anchor = "random" if "random" in played else played[0]
    ladder = bootstrap_ladder(pair_scores, played, anchor, args.bootstrap, args.seed, args.prior_draws)
    print(f"\n{args.game}: Elo from all pairings ({anchor} = 0), 95 % interval from {args.bootstrap} bootstrap refits")
    print_table(levels, scores, ladder, twins)
    if args.markdown:
        print()
        print_markdown(levels, scores, ladder, twins)


if __name__ == "__main__":
    main()
