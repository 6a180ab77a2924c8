"""A head start for a Portes/Plakoto network: teach it the hand-made heuristic before self-play.

``python -m fevga.ai.imitate --game portes --games 200 --out init.npz`` plays seeded heuristic
games; at every turn each legal play's result is scored by the heuristic and its P(win) target is
a logistic of that score (``--scale`` points of score = one unit of log-odds; the game's end is its
real result). The network is fitted to these targets (its P(win 2+)/P(lose 2+) outputs are left to
self-play), so at 0-ply it ranks plays much like the heuristic. ``python -m fevga.ai.train --init``
then continues from it with TD(λ) self-play.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

from fevga import DEFAULT_RULES, Position, legal_plays
from fevga.variants import TavliPosition

from .encoding_tavli import FloatArray
from .games import kind, result_points
from .network import Network
from .tavli_heuristic import plakoto_score, portes_score, tavli_player


def imitation_data(game: str, games: int, seed: int, scale: float) -> tuple[FloatArray, FloatArray]:
    """(inputs of every legal play's result, seen by the opponent on roll; his P(win) targets) over
    seeded heuristic self-play games."""
    k = kind(game)
    score = portes_score if game == "portes" else plakoto_score
    player = tavli_player(game, "heuristic")
    rows: list[FloatArray] = []
    targets: list[FloatArray] = []
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        position: Position = k.start()
        for _ in range(3000):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(position, dice)
            results = [p.result for p in plays]
            x, points = k.afterstates(results)
            mover = np.array([score(r) if isinstance(r, TavliPosition) else 0.0 for r in results])
            win = 1.0 / (1.0 + np.exp(np.clip(-mover / scale, -40.0, 40.0)))  # the mover's P(win)
            win = np.where(np.isnan(points), win, np.where(points > 0, 1.0, np.where(points < 0, 0.0, 0.5)))
            rows.append(x)
            targets.append(1.0 - win)  # the opponent, now on roll, is who the inputs describe
            result = player.choose(position, dice, DEFAULT_RULES).result
            if result_points(result) is not None:
                break
            position = result.flip()
    return np.concatenate(rows), np.concatenate(targets)


def fit(net: Network, x: FloatArray, win: FloatArray, epochs: int, lr: float, seed: int) -> float:
    """Mini-batch gradient steps moving the network's P(win) toward ``win`` (its other outputs are
    their own targets); returns the last epoch's mean squared error of P(win)."""
    rng = np.random.default_rng(seed)
    mse = 0.0
    for _ in range(epochs):
        order = rng.permutation(len(x))
        total = 0.0
        for i in range(0, len(x), 64):
            batch = order[i : i + 64]
            targets = net.forward(x[batch])
            total += float(((targets[:, 0] - win[batch]) ** 2).sum())
            targets[:, 0] = win[batch]
            net.train_batch(x[batch], targets, lr)
        mse = total / len(x)
    return mse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fevga.ai.imitate", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", choices=("portes", "plakoto"), required=True)
    parser.add_argument("--games", type=int, default=200, help="heuristic games whose turns are learnt")
    parser.add_argument("--scale", type=float, default=10.0, help="heuristic points per unit of log-odds")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--hidden", type=int, default=80)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    x, win = imitation_data(args.game, args.games, args.seed, args.scale)
    net = Network(hidden=args.hidden, seed=args.seed, n_inputs=kind(args.game).n_inputs)
    mse = fit(net, x, win, args.epochs, args.lr, args.seed)
    net.meta = {"games": 0, "seconds": 0.0, "curve": [], "imitation": {**vars(args), "out": str(args.out)}}
    net.meta["imitation"]["rows"] = len(x)
    net.meta["imitation"]["mse"] = mse
    net.save(args.out)
    print(f"{len(x)} positions from {args.games} games, P(win) mse {mse:.4f}: {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
