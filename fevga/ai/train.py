"""Train the network by TD(λ) self-play: ``python -m fevga.ai.train --games 40000 --workers 2``
(``--game portes`` or ``--game plakoto`` for the other tavli games; Fevga by default).

Each game is played by the network against itself at 0-ply (dice from a seed derived from the
run's seed and the game number, so runs are reproducible and resumable). After each game every
position (seen by the player on roll) is moved toward its λ-return, computed backwards from the
final result through the network's own estimates of the following positions (the offline
λ-return form of TD(λ)). With ``--workers N`` the games of each round are split over N
processes that learn independently and are then averaged (``fevga/ai/parallel.py``).
Checkpoints hold the weights, the number of games played and the evaluation curve; ``--resume``
continues from one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from .arena import duplicate_match
from .encoding import N_INPUTS, N_INPUTS_V3
from .games import kind
from .network import V1_PATH, V2_PATH, Network, deepen, extend_inputs
from .parallel import Block, mapper, schedule, train_round, widen
from .players import RandomPlayer, heuristic_player
from .search import NeuralPlayer
from .selfplay import MAX_TURNS, lambda_returns, self_play_game
from .tavli_heuristic import tavli_player

__all__ = ["MAX_TURNS", "evaluate", "lambda_returns", "learning_rate", "main", "self_play_game"]


def evaluate(net: Network, games: int, seed: int, opponent: str = "heuristic", game: str = "fevga") -> dict[str, float]:
    """Duplicate-dice match of the network at 0-ply against a fixed opponent: the game's heuristic
    player, ``random``, ``v1`` or ``v2`` (Fevga's hard-v1 or hard-v2 network at 0-ply)."""
    if opponent in ("v1", "v2"):
        path = V1_PATH if opponent == "v1" else V2_PATH
        other: Any = NeuralPlayer(Network.load(path), ply=0, name=f"{opponent}-0ply")
    elif opponent == "random":
        other = RandomPlayer(seed=seed)
    elif game != "fevga":
        other = tavli_player(game, "heuristic")
    else:
        other = heuristic_player()
    stats = duplicate_match(NeuralPlayer(net, ply=0), other, games, seed=seed, game=game)
    lo, hi = stats.wilson()
    return {"games": stats.games, "win": stats.win_rate, "lo": lo, "hi": hi, "ppg": stats.ppg}


def learning_rate(args: argparse.Namespace, game: int) -> float:
    """The learning rate for ``game`` (linear decay over the run's ``--games``)."""
    return schedule(args.lr, args.lr_final, args.games, game)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fevga.ai.train", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", choices=("fevga", "portes", "plakoto"), default="fevga", help="the game to learn")
    parser.add_argument("--games", type=int, default=40000, help="self-play games in total")
    parser.add_argument("--hidden", type=int, default=80, help="hidden units")
    parser.add_argument("--lr", type=float, default=0.1, help="learning rate at the start")
    parser.add_argument("--lr-final", type=float, default=0.02, help="learning rate at the end (linear decay)")
    parser.add_argument("--lam", type=float, default=0.7, help="TD(λ) trace decay")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=Path("/tmp/fevga-train/checkpoint.npz"))
    parser.add_argument("--every", type=int, default=2000, help="checkpoint and evaluate every N games")
    parser.add_argument("--eval-games", type=int, default=100, help="games per evaluation vs heuristic")
    parser.add_argument("--resume", action="store_true", help="continue from --out if it exists")
    parser.add_argument("--workers", type=int, default=1, help="self-play processes, averaged every round")
    parser.add_argument("--round", type=int, default=500, help="games per worker between averagings")
    parser.add_argument("--init", type=Path, default=None, help="start from these weights (widened to --hidden)")
    parser.add_argument("--eval-random", type=int, default=0, help="games per evaluation vs random")
    parser.add_argument("--eval-v1", type=int, default=0, help="games per evaluation vs hard-v1 at 0-ply")
    parser.add_argument("--eval-v2", type=int, default=0, help="games per evaluation vs hard-v2 at 0-ply")
    parser.add_argument(
        "--encoding", choices=("base", "v3"), default="base",
        help="Fevga inputs: base (209, hard-v1/v2) or v3 (+ Fevga-specific; --init weights get zero weights for them)",
    )
    parser.add_argument(
        "--mix", type=float, default=0.0, help="share of games played against the heuristic (Portes, Plakoto)"
    )
    parser.add_argument(
        "--deep", type=int, default=0,
        help="add a second hidden layer of N units (zero output weights: it starts as the network it grows from)",
    )
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    if not 0.0 <= args.mix <= 1.0 or (args.mix > 0 and args.game == "fevga"):
        parser.error("--mix is a share from 0 to 1, for --game portes or plakoto")

    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.game == "fevga":
        n_inputs = N_INPUTS_V3 if args.encoding == "v3" else N_INPUTS
    else:
        n_inputs = kind(args.game).n_inputs
    if args.resume and args.out.exists():
        net = Network.load(args.out, n_inputs)
        print(f"resuming from {args.out} at game {net.meta.get('games', 0)}", flush=True)
    elif args.init is not None:
        start = Network.load(args.init, (N_INPUTS, n_inputs) if args.game == "fevga" else n_inputs)
        net = widen(extend_inputs(start, n_inputs), args.hidden, args.seed)
        net.meta = {"games": 0, "seconds": 0.0, "curve": [], "init": str(args.init)}
    else:
        net = Network(hidden=args.hidden, seed=args.seed, n_inputs=n_inputs)
        net.meta = {"games": 0, "seconds": 0.0, "curve": []}
    if args.deep > 0 and not net.deep_units:
        net = deepen(net, args.deep, args.seed)
    settings: dict[str, Any] = {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}
    net.meta["settings"] = settings
    start_game = int(net.meta.get("games", 0))
    seconds = float(net.meta.get("seconds", 0.0))

    bar: Any = None
    if not args.no_progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=args.games, initial=start_game, unit="game", file=sys.stderr, mininterval=5.0)
        except ImportError:  # tqdm is optional: fall back to the periodic log lines
            bar = None
    t0 = time.perf_counter()
    mse_sum = 0.0
    settings_block = Block(args.seed, args.lam, args.lr, args.lr_final, args.games, game=args.game, mix=args.mix)
    workers = max(1, args.workers)
    with mapper(workers) as run:
        game = start_game
        while game < args.games:
            next_mark = min((game // args.every + 1) * args.every, args.games)
            count = min(args.round * workers, next_mark - game)
            mse_sum += train_round(net, run, game, count, workers, settings_block)
            game += count
            if bar is not None:
                bar.update(count)
            if game == next_mark:
                mse_sum = _checkpoint(net, args, game, seconds + time.perf_counter() - t0, mse_sum)
    if bar is not None:
        bar.close()
    return 0


def _checkpoint(net: Network, args: argparse.Namespace, done: int, elapsed: float, mse_sum: float) -> float:
    """Evaluate, append a curve point, write both checkpoint files and log the point; returns 0 (the
    mse sum restarts)."""
    point: dict[str, Any] = {"games": done, "seconds": round(elapsed, 1), "mse": mse_sum / args.every}
    if args.eval_games > 0:
        point["vs_heuristic_0ply"] = evaluate(net, args.eval_games, seed=90_000 + done, game=args.game)
    if args.eval_random > 0:
        point["vs_random_0ply"] = evaluate(net, args.eval_random, seed=80_000 + done, opponent="random", game=args.game)
    if args.eval_v1 > 0:
        point["vs_v1_0ply"] = evaluate(net, args.eval_v1, seed=70_000 + done, opponent="v1")
    if args.eval_v2 > 0:
        point["vs_v2_0ply"] = evaluate(net, args.eval_v2, seed=60_000 + done, opponent="v2")
    net.meta["games"] = done
    net.meta["seconds"] = elapsed
    net.meta["curve"].append(point)
    net.save(args.out)
    net.save(args.out.with_name(f"{args.out.stem}-{done}.npz"))
    print(json.dumps(point), flush=True)
    return 0.0


if __name__ == "__main__":
    sys.exit(main())
