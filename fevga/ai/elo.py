"""Elo ratings of several players from all their pairwise results at once: a Bradley-Terry
maximum-likelihood fit (Newton's method), anchored at one player = 0, with a bootstrap interval.

A pairing won 100 % gives no finite rating difference on its own; ``prior_draws`` virtual drawn
games per pairing played keep every rating finite (1 draw in 200 games moves a 75 % score by
about 1 Elo), and the other pairings carry the rest.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

ELO_PER_NAT = 400.0 / math.log(10.0)  # Elo points per unit of the logistic scale
Results = Mapping[tuple[str, str], tuple[float, int]]  # (A, B) -> (A's score, games); a draw scores 0.5


def elo_of_score(rate: float) -> float:
    """The Elo difference that makes the expected score ``rate`` (0 < rate < 1): 75 % -> +191."""
    return ELO_PER_NAT * math.log(rate / (1.0 - rate))


def _totals(results: Results, index: dict[str, int], prior_draws: float) -> tuple[np.ndarray, np.ndarray]:
    """Per pair of players (i < j): games played and i's score, the virtual draws included."""
    n = len(index)
    games = np.zeros((n, n))
    score = np.zeros((n, n))
    for (a, b), (s, g) in results.items():
        if g <= 0:
            continue
        if not 0.0 <= s <= g:
            raise ValueError(f"{a} vs {b}: a score of {s} in {g} games")
        i, j = index[a], index[b]
        games[i, j] += g + prior_draws
        games[j, i] += g + prior_draws
        score[i, j] += s + prior_draws / 2
        score[j, i] += g - s + prior_draws / 2
    return games, score


def _connected(games: np.ndarray) -> bool:
    """True when every player is linked to every other through pairings played."""
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in np.nonzero(games[i])[0]:
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return len(seen) == len(games)


def _log_likelihood(theta: np.ndarray, score: np.ndarray) -> float:
    """The log-likelihood of the scores for ratings ``theta`` (logistic scale)."""
    diff = theta[:, None] - theta[None, :]
    return float(np.sum(score * -np.logaddexp(0.0, -diff)))


def fit_elo(
    results: Results, players: Sequence[str], anchor: str, prior_draws: float = 1.0, tol: float = 1e-9
) -> dict[str, float]:
    """Each player's Elo (``anchor`` = 0) maximising the likelihood of all ``results`` together.

    ValueError when the players are not all linked by pairings, or when a rating would be infinite
    (a player who won or lost every game, with ``prior_draws`` = 0)."""
    index = {name: k for k, name in enumerate(players)}
    unknown = {name for pair in results for name in pair} - set(index)
    if unknown or anchor not in index:
        raise ValueError(f"unknown players in the results: {sorted(unknown | ({anchor} - set(index)))}")
    games, score = _totals(results, index, prior_draws)
    if not _connected(games):
        raise ValueError("the pairings do not link every player to every other: no common scale")
    won = score.sum(axis=1)
    if np.any(won <= 0) or np.any(won >= games.sum(axis=1)):
        raise ValueError("a player won or lost every game: its Elo is infinite (use prior_draws > 0)")
    free = [k for k in range(len(players)) if k != index[anchor]]
    theta = np.zeros(len(players))
    current = _log_likelihood(theta, score)
    for _ in range(200):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i's expected score vs j
        grad = (score - games * p).sum(axis=1)
        weight = games * p * (1.0 - p)
        hessian = np.diag(weight.sum(axis=1)) - weight  # minus the second derivative
        step = np.zeros_like(theta)
        step[free] = np.linalg.solve(hessian[np.ix_(free, free)], grad[free])
        size = 1.0
        while size > 1e-6:  # backtracking: the likelihood is concave, a shorter step always gains
            trial = theta + size * step
            value = _log_likelihood(trial, score)
            if value >= current - 1e-12:
                break
            size /= 2
        theta, current = trial, value
        if np.max(np.abs(size * step)) < tol:
            break
    return {name: float(ELO_PER_NAT * theta[index[name]]) for name in players}


@dataclass
class Ladder:
    """The fitted Elo of each player with its 95 % bootstrap interval."""

    elo: dict[str, float]
    low: dict[str, float]
    high: dict[str, float]


def bootstrap_ladder(
    pair_scores: Mapping[tuple[str, str], Sequence[float]],
    players: Sequence[str],
    anchor: str,
    resamples: int = 1000,
    seed: int = 1,
    prior_draws: float = 1.0,
) -> Ladder:
    """Elo from all pairings, with a 95 % interval from ``resamples`` refits on the duplicate pairs
    of each pairing drawn again with replacement. ``pair_scores[(A, B)]`` holds A's score (0-2) in
    each pair of games played on the same dice."""

    def results_of(scores: Mapping[tuple[str, str], Sequence[float]]) -> dict[tuple[str, str], tuple[float, int]]:
        return {key: (float(sum(s)), 2 * len(s)) for key, s in scores.items() if s}

    elo = fit_elo(results_of(pair_scores), players, anchor, prior_draws)
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {name: [] for name in players}
    for _ in range(resamples):
        again = {key: rng.choices(list(s), k=len(s)) for key, s in pair_scores.items() if s}
        for name, value in fit_elo(results_of(again), players, anchor, prior_draws).items():
            draws[name].append(value)
    low = {name: float(np.percentile(v, 2.5)) if v else elo[name] for name, v in draws.items()}
    high = {name: float(np.percentile(v, 97.5)) if v else elo[name] for name, v in draws.items()}
    return Ladder(elo, low, high)
