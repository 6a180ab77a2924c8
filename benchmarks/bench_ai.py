"""AI strength and speed (issue 8). Prints its figures and whether each target is met.

Strength: duplicate-dice matches (each pair of games uses the same dice with the seats swapped, so
each player starts once per pair), reporting win % with a Wilson 95% interval, points per game
(mars = 2) and the Elo difference. Targets, each from at least 1,000 games (hard vs hard-v1: 2,000):
  hard vs random    >= 97 %
  hard vs heuristic >= 92 % (issue 16; was >= 65 % and >= +0.4 points/game)
  hard vs medium    >= 55 % with the interval's lower end above 50 %
  hard vs hard-v1   >= 60 %, >= +0.25 points/game, interval's lower end above 50 %
  hard vs hard-v2   >= 60 %, >= +0.3 points/game, interval's lower end above 50 % (issue 23, 2,000 games)
  expert vs hard    >= 55 % (issue 23, 2,000 games)
Speed: time per move over a seeded sample of positions: hard p95 <= 50 ms, expert p95 <= 1 s (issue 23),
medium p95 <= 20 ms; also self-play games/s of the network at 0-ply on one core and the parallel
training loop's games/s on ``--train-workers`` processes, on the compiled core and, with --pure,
on the pure-Python path too. ``--jobs N`` splits each match over N processes (the same games).
A pairing is ``A-B`` or, when a name holds a dash, ``A:B`` (``hard:hard-v1``).

    python benchmarks/bench_ai.py                      # everything at the issue's figures (hours)
    python benchmarks/bench_ai.py --games 200 --pairings hard-heuristic --no-speed
    python benchmarks/bench_ai.py --pairings hard-neural0,medium-easy,easy-random   # more figures
    python benchmarks/bench_ai.py --no-strength --pure                 # speed only, both paths
    python benchmarks/bench_ai.py --pairings hard:hard-v1 --games 2000 --jobs 2 --no-speed
    python benchmarks/bench_ai.py --smoke                              # seconds: every part, tiny
    python benchmarks/bench_ai.py --game portes --jobs 2   # Portes (or plakoto): its own targets
    python benchmarks/bench_ai.py --game portes --pairings oracle-heuristic --games 1000 --jobs 2 --no-speed
        # a ceiling probe: hard's network at 1-ply, told the heuristic's answer to every roll (fevga.ai.probes)

Portes and Plakoto (issue 26; a Plakoto draw counts as half a win) have their own targets, each
from 2,000 games: hard vs heuristic >= 90 %, hard vs random >= 99 %, expert vs hard >= 55 %, and
hard p95 <= 50 ms a move.

``medium`` is the heuristic player, so ``hard-medium`` is the same games as ``hard-heuristic``
and is reported from them rather than played twice.
"""

from __future__ import annotations

import os

# The network's matrices are tiny: BLAS threads only add overhead (and take other processes' cores).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

from fevga import DEFAULT_RULES, Position, accel  # noqa: E402
from fevga.ai import LEVELS, get_player  # noqa: E402
from fevga.ai.arena import MatchStats, duplicate_match  # noqa: E402
from fevga.ai.games import game_network, result_points  # noqa: E402
from fevga.ai.network import default_network  # noqa: E402
from fevga.ai.players import Player, RandomPlayer  # noqa: E402
from fevga.ai.probes import OracleReplyPlayer  # noqa: E402
from fevga.ai.train import self_play_game  # noqa: E402
from fevga.variants import start_position  # noqa: E402

Target = Callable[[MatchStats], bool]
TARGETS: dict[str, tuple[str, Target]] = {
    "hard-random": (">= 97 %", lambda s: s.win_rate >= 0.97),
    "hard-heuristic": (">= 92 %", lambda s: s.win_rate >= 0.92),
    "hard-medium": (">= 55 % and Wilson low end > 50 %", lambda s: s.win_rate >= 0.55 and s.wilson()[0] > 0.5),
    "hard-hard-v1": (
        ">= 60 %, >= +0.25 points/game, Wilson low end > 50 %",
        lambda s: s.win_rate >= 0.6 and s.ppg >= 0.25 and s.wilson()[0] > 0.5,
    ),
    "hard-hard-v2": (
        ">= 60 %, >= +0.3 points/game, Wilson low end > 50 %",
        lambda s: s.win_rate >= 0.6 and s.ppg >= 0.3 and s.wilson()[0] > 0.5,
    ),
    "expert-hard": (">= 55 %", lambda s: s.win_rate >= 0.55),
}
SPEED_TARGETS_MS = {"hard": 50.0, "expert": 1000.0, "medium": 20.0}
TAVLI_TARGETS: dict[str, tuple[str, Target]] = {
    "hard-heuristic": (">= 90 %", lambda s: s.win_rate >= 0.90),
    "hard-random": (">= 99 %", lambda s: s.win_rate >= 0.99),
    "expert-hard": (">= 55 %", lambda s: s.win_rate >= 0.55),
}
TAVLI_SPEED_TARGETS_MS = {"hard": 50.0}
GAME = "fevga"  # the game benchmarked (``--game``); read by the match processes too


def make_player(name: str, seed: int) -> Player:
    if name == "oracle":  # a probe, not a level: hard's network, told the heuristic's every answer
        net = default_network() if GAME == "fevga" else game_network(GAME)
        return OracleReplyPlayer(net, get_player("heuristic", GAME))
    return RandomPlayer(seed) if name == "random" else get_player(name, GAME)


def targets() -> dict[str, tuple[str, Target]]:
    """The strength targets of the game benchmarked."""
    return TARGETS if GAME == "fevga" else TAVLI_TARGETS


def resolve(name: str) -> str:
    """The player behind a level name (``medium`` -> ``heuristic``), so equal pairings run once."""
    return LEVELS.get(name, name)


def split_pairing(pairing: str) -> tuple[str, str]:
    """``A:B`` or ``A-B`` (at the first dash) -> (A, B)."""
    a_name, b_name = pairing.split(":", 1) if ":" in pairing else pairing.split("-", 1)
    return a_name.strip(), b_name.strip()


def _match_part(job: tuple[str, str, int, int, int]) -> tuple[int, int, int, int]:
    """One task of a split match (CHUNK_PAIRS pairs at most): (games, A's wins, A's points, draws)."""
    a_name, b_name, games, seed, first_pair = job
    a, b = make_player(a_name, seed), make_player(b_name, seed + 1)
    stats = duplicate_match(a, b, games, seed=seed, first_pair=first_pair, game=GAME)
    return stats.games, stats.wins, stats.points, stats.draws


CHUNK_PAIRS = 10  # pairs per task of a split match: a match stopped early still has its first tasks


def split_match(
    a_name: str, b_name: str, games: int, seed: int, jobs: int, progress: Callable[[MatchStats], None]
) -> MatchStats:
    """The same games as one ``duplicate_match``, in tasks of CHUNK_PAIRS pairs over ``jobs``
    processes; ``progress`` gets the running sum of the leading tasks done, in pair order, so a
    match stopped early (Ctrl-C, ``timeout -s INT``) can still report whole leading pairs."""
    import multiprocessing

    pairs = (games + 1) // 2
    parts = [(a_name, b_name, 2 * min(CHUNK_PAIRS, pairs - k), seed, k) for k in range(0, pairs, CHUNK_PAIRS)]
    stats = MatchStats()
    with multiprocessing.get_context("fork").Pool(min(jobs, len(parts))) as pool:
        for part in pool.imap(_match_part, parts, chunksize=1):
            stats = MatchStats(*(total + new for total, new in zip(_fields(stats), part, strict=True)))
            progress(stats)
    return stats


def _fields(stats: MatchStats) -> tuple[int, int, int, int]:
    """(games, wins, points, draws): the figures a match process sends back."""
    return stats.games, stats.wins, stats.points, stats.draws


def run_pairing(
    pairing: str, games: int, seed: int, done: dict[tuple[str, str], MatchStats], jobs: int = 1
) -> MatchStats:
    a_name, b_name = split_pairing(pairing)
    pairing = f"{a_name}-{b_name}"
    key = (resolve(a_name), resolve(b_name))
    if key in done:
        stats = done[key]
        print(f"{a_name} vs {b_name} is {key[0]} vs {key[1]}, already played above:", flush=True)
        report(pairing, a_name, b_name, stats, 0.0)
        return stats
    t0 = time.perf_counter()
    last = [t0]

    def progress(stats: MatchStats) -> None:
        now = time.perf_counter()
        if now - last[0] > 60 or stats.games >= games:
            last[0] = now
            print(f"  {pairing}: {stats.summary()} ({now - t0:.0f} s)", file=sys.stderr, flush=True)

    latest: list[MatchStats] = []

    def keep(stats: MatchStats) -> None:
        latest[:] = [MatchStats(stats.games, stats.wins, stats.points, stats.draws)]  # whole pairs only
        progress(stats)

    try:
        if jobs > 1:
            stats = split_match(a_name, b_name, games, seed, jobs, keep)
        else:
            a, b = make_player(a_name, seed), make_player(b_name, seed + 1)
            stats = duplicate_match(a, b, games, seed=seed, progress=keep, game=GAME)
    except KeyboardInterrupt:  # stopped early (Ctrl-C, timeout -s INT): report the pairs finished
        if not latest:
            raise
        report(pairing, a_name, b_name, latest[0], time.perf_counter() - t0)
        print("interrupted: the figures above are from the games finished so far", flush=True)
        raise
    done[key] = stats
    report(pairing, a_name, b_name, stats, time.perf_counter() - t0)
    return stats


def report(pairing: str, a_name: str, b_name: str, stats: MatchStats, elapsed: float) -> None:
    target_text, met = targets().get(pairing, ("(no target)", lambda s: True))
    verdict = "" if pairing not in targets() else ("MET" if met(stats) else "NOT MET")
    wanted = 2000 if pairing in ("hard-hard-v1", "hard-hard-v2", "expert-hard") or GAME != "fevga" else 1000
    if pairing in targets() and stats.games < wanted:
        verdict += f" (only {stats.games} games: the issue asks for {wanted:,})"
    summary = stats.summary() + (f", {stats.draws} draws" if stats.draws else "")
    print(f"{a_name} vs {b_name}: {summary}; target {target_text}: {verdict} [{elapsed:.0f} s]", flush=True)


def sample_positions(games: int, seed: int) -> list[Position]:
    """Positions from seeded heuristic self-play games: a realistic mix of phases."""
    player = get_player("heuristic", GAME)
    out: list[Position] = []
    for k in range(games):
        rng = random.Random(seed + k)
        position = start_position(GAME)
        while True:
            out.append(position)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            result = player.choose(position, dice, DEFAULT_RULES).result
            if result.me_off == 15 if GAME == "fevga" else result_points(result) is not None:
                break
            position = result.flip()
    return out


def run_selfplay(games: int, seed: int, label: str) -> None:
    """Self-play games/s of the network at 0-ply, as the training loop plays them (one core)."""
    net = default_network() if GAME == "fevga" else game_network(GAME)
    start = time.perf_counter()
    turns = 0
    for k in range(games):
        rows, _, _ = self_play_game(net, seed + k, game=GAME)
        turns += len(rows)
    elapsed = time.perf_counter() - start
    rate = games / elapsed
    print(f"network 0-ply self-play ({label}): {rate:.1f} games/s on one core ({turns / games:.0f} turns/game)")


def run_training(games: int, workers: int, label: str) -> None:
    """Games/s of the parallel training loop (self-play and learning) on ``workers`` processes,
    from the shipped network, in rounds of 250 games per worker."""
    from fevga.ai.network import Network
    from fevga.ai.parallel import Block, get_weights, mapper, set_weights, train_round

    net = Network.__new__(Network)
    set_weights(net, get_weights(default_network() if GAME == "fevga" else game_network(GAME)))
    net.meta = {}
    settings = Block(seed=11, lam=0.7, lr=0.01, lr_final=0.01, total=games, game=GAME)
    with mapper(workers) as run:
        start = time.perf_counter()
        done = 0
        while done < games:
            count = min(250 * workers, games - done)
            train_round(net, run, done, count, workers, settings)
            done += count
        elapsed = time.perf_counter() - start
    print(f"training loop ({label}): {games / elapsed:.1f} games/s on {workers} processes ({games} games)", flush=True)


def run_speed(levels: list[str], samples: int, seed: int, label: str = "") -> None:
    rng = random.Random(seed)
    positions = sample_positions(6, seed)
    pairs = [(rng.choice(positions), (rng.randint(1, 6), rng.randint(1, 6))) for _ in range(samples)]
    for level in levels:
        player = get_player(level, GAME)
        times = []
        for position, dice in pairs:
            t = time.perf_counter()
            player.choose(position, dice, DEFAULT_RULES)
            times.append(1000 * (time.perf_counter() - t))
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        limit = (SPEED_TARGETS_MS if GAME == "fevga" else TAVLI_SPEED_TARGETS_MS).get(level)
        verdict = "" if limit is None else f"; target p95 <= {limit:.0f} ms: {'MET' if p95 <= limit else 'NOT MET'}"
        print(
            f"{level} ({player.name}){label} move time over {len(times)} positions: "
            f"median {statistics.median(times):.1f} ms, "
            f"p95 {p95:.1f} ms, max {times[-1]:.1f} ms{verdict}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("fevga", "portes", "plakoto"), default="fevga")
    parser.add_argument("--games", type=int, default=None, help="games per pairing (1000; tavli 2000)")
    parser.add_argument(
        "--pairings",
        default=None,
        help="comma-separated A-B pairs of levels or names, e.g. medium-heuristic,heuristic-random "
        "(default: hard-random,hard-heuristic,hard-medium; tavli: hard-heuristic,hard-random,expert-hard)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--speed-samples", type=int, default=300, help="positions timed per level")
    parser.add_argument("--speed-levels", default="hard,expert,medium", help="levels or names timed")
    parser.add_argument("--selfplay", type=int, default=30, help="network self-play games timed (0: none)")
    parser.add_argument("--train-games", type=int, default=2000, help="training-loop games timed (0: none)")
    parser.add_argument("--train-workers", type=int, default=2, help="processes of the timed training loop")
    parser.add_argument("--jobs", type=int, default=1, help="processes per match (the same games, summed)")
    parser.add_argument("--pure", action="store_true", help="time the pure-Python path as well")
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--no-strength", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="the smallest run of every part (it still runs)")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.speed_samples, args.speed_levels = 2, 3, "hard,medium"
        args.pairings = "hard-random,oracle-heuristic"
        args.selfplay, args.train_games, args.train_workers = 1, 2, 1
    global GAME
    GAME = args.game
    tavli = GAME != "fevga"
    if args.pairings is None:
        args.pairings = "hard-heuristic,hard-random,expert-hard" if tavli else "hard-random,hard-heuristic,hard-medium"
    if args.games is None:
        args.games = 2000 if tavli else 1000
    if not args.no_speed:
        levels = [name.strip() for name in args.speed_levels.split(",") if name.strip()]
        path = "compiled core" if accel.enabled() else "pure Python"
        run_speed(levels, args.speed_samples, args.seed, f" [{path}]")
        if args.selfplay:
            run_selfplay(args.selfplay, args.seed, path)
        if args.train_games:
            run_training(args.train_games, args.train_workers, path)
        if args.pure and accel.enabled():
            with accel.pure_python():
                run_speed(levels, args.speed_samples, args.seed, " [pure Python]")
                if args.selfplay:
                    run_selfplay(args.selfplay, args.seed, "pure Python")
    if not args.no_strength:
        done: dict[tuple[str, str], MatchStats] = {}
        try:
            for pairing in [p.strip() for p in args.pairings.split(",") if p.strip()]:
                run_pairing(pairing, args.games, args.seed, done, args.jobs)
        except KeyboardInterrupt:
            sys.exit(130)


if __name__ == "__main__":
    main()
