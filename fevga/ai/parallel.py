"""Parallel TD(λ) training: independent workers with periodic weight averaging.

Each round, every worker starts from the same weights, plays its own block of self-play games
(game ``k`` always uses the dice of seed ``seed * 1000003 + k``) and learns from them alone; the
round ends by averaging the workers' weights. Only weights cross process boundaries (a few
hundred kB per round), so the workers never wait on one another inside a round.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from .encoding import FloatArray
from .network import Network
from .players import Player
from .selfplay import lambda_returns, self_play_game
from .tavli_heuristic import tavli_player

Weights = tuple[FloatArray, ...]  # the network's arrays (Network.arrays: 4, or 7 with a second hidden layer)


@dataclass(frozen=True)
class Block:
    """One worker's share of a round: games ``first .. first + count - 1`` of the run, from ``weights``
    (the run's settings alone, with no weights, describe a whole run)."""

    seed: int
    lam: float
    lr: float
    lr_final: float
    total: int
    weights: Weights | None = None
    game: str = "fevga"
    first: int = 0
    count: int = 0
    mix: float = 0.0  # the share of games the network plays against the game's heuristic (tavli)


def schedule(lr: float, lr_final: float, total: int, game: int) -> float:
    """Linear decay of the learning rate from ``lr`` at game 0 to ``lr_final`` at game ``total``."""
    frac = min(game / max(total, 1), 1.0)
    return float(lr + (lr_final - lr) * frac)


def get_weights(net: Network) -> Weights:
    """Copies of the network's arrays (what is sent to a worker)."""
    return tuple(a.copy() for a in net.arrays())


def set_weights(net: Network, weights: Weights) -> None:
    """Put arrays into ``net`` (in place of its own)."""
    net.set_arrays(weights)


def run_block(block: Block) -> tuple[Weights, float]:
    """Play and learn from one block of self-play games; return the new weights and the summed mse."""
    if block.weights is None:
        raise ValueError("a block to train needs weights")
    net = Network.__new__(Network)
    set_weights(net, block.weights)
    net.meta = {}
    mse = 0.0
    heuristic = tavli_player(block.game, "heuristic") if block.mix > 0 else None
    for game in range(block.first, block.first + block.count):
        seed = block.seed * 1_000_003 + game
        opponent, seat = opponent_of(seed, block.mix, heuristic)
        rows, next_values, z = self_play_game(net, seed, game=block.game, opponent=opponent, opponent_seat=seat)
        targets = lambda_returns(next_values, z, block.lam)
        mse += net.train_batch(rows, targets, schedule(block.lr, block.lr_final, block.total, game))
    return get_weights(net), mse


def opponent_of(seed: int, mix: float, other: Player | None) -> tuple[Player | None, int]:
    """(the opponent of game ``seed``, his seat): ``other`` in a share ``mix`` of the games, in either
    seat, drawn from the game's seed apart from its dice; None (self-play) otherwise."""
    draw = random.Random(-seed - 1)
    if other is None or draw.random() >= mix:
        return None, 1
    return other, draw.randrange(2)


def average(results: list[Weights]) -> Weights:
    """The element-wise mean of the workers' weights."""
    return tuple(np.mean([r[i] for r in results], axis=0) for i in range(len(results[0])))


Mapper = Callable[[Callable[[Block], tuple[Weights, float]], list[Block]], list[tuple[Weights, float]]]


@contextmanager
def mapper(workers: int) -> Iterator[Mapper]:
    """A ``map`` over ``workers`` processes (forked), or the plain in-process map for one worker."""
    if workers <= 1:
        yield lambda fn, items: [fn(item) for item in items]
        return
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers) as pool:
        yield lambda fn, items: pool.map(fn, items, chunksize=1)


def train_round(net: Network, run: Mapper, first: int, count: int, workers: int, settings: Block) -> float:
    """Games ``first .. first + count - 1`` split over ``workers`` blocks, then averaged into ``net``;
    returns the summed mse of the round's updates."""
    per = -(-count // workers)
    blocks = []
    start = first
    while start < first + count:
        n = min(per, first + count - start)
        blocks.append(dataclasses.replace(settings, weights=get_weights(net), first=start, count=n))
        start += n
    out = run(run_block, blocks)
    set_weights(net, average([w for w, _ in out]))
    return float(sum(m for _, m in out))


def widen(net: Network, hidden: int, seed: int) -> Network:
    """A copy of ``net`` with ``hidden`` units computing the same outputs: the new units get small
    random input weights and zero output weights, so training starts from the old player."""
    if hidden < net.hidden:
        raise ValueError(f"cannot shrink a network of {net.hidden} hidden units to {hidden}")
    rng = np.random.default_rng(seed)
    extra = hidden - net.hidden
    wide = Network.__new__(Network)
    arrays = [
        np.vstack([net.w1, rng.uniform(-0.1, 0.1, size=(extra, net.w1.shape[1]))]),
        np.concatenate([net.b1, np.zeros(extra)]),
        np.hstack([net.w2, np.zeros((3, extra))]),
        net.b2.copy(),
    ]
    if (deep := net.deep_layer) is not None:  # the second layer ignores the new units
        w3, b3, w4 = deep
        arrays += [np.hstack([w3, np.zeros((net.deep_units, extra))]), b3.copy(), w4.copy()]
    wide.set_arrays(arrays)
    wide.meta = {}
    return wide
