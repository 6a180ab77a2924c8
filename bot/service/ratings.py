"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), steps 1-8, tested on the paper's example.

Why not the ``glicko2`` PyPI package (2.1.0): its volatility function ``f(x)`` uses the player's
rating where the paper has his deviation (phi^2). The paper's example hides it (the player is rated
1500, i.e. mu = 0); elsewhere the volatility (and so the rating) drifts with the rating level (small:
~1e-5 in volatility at 2100, but results stop being translation invariant). It is also untyped and
keeps tau as a class attribute. This module follows the paper directly (~60 lines).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
START_RATING = 1500.0
START_RD = 350.0
START_VOL = 0.06
TAU = 0.5
PROVISIONAL_RD = 110.0
EPSILON = 0.000001


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: rating, deviation (RD), volatility."""

    rating: float = START_RATING
    rd: float = START_RD
    vol: float = START_VOL

    @property
    def provisional(self) -> bool:
        """Shown with a '?' until the deviation is below 110."""
        return self.rd >= PROVISIONAL_RD

    def shown(self) -> str:
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) from the paper."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``games`` as (opponent, score 1 / 0.5 / 0)."""
    mu = (player.rating - START_RATING) / SCALE
    phi = player.rd / SCALE
    if not games:  # step 6 only: the deviation grows
        return Rating(player.rating, min(START_RD, SCALE * math.sqrt(phi * phi + player.vol**2)), player.vol)
    v_inv = 0.0
    delta_sum = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - START_RATING) / SCALE
        phi_j = opponent.rd / SCALE
        e = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    sigma = _new_volatility(phi, player.vol, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Rating(SCALE * mu_new + START_RATING, SCALE * phi_new, sigma)


def rate_game(winner: Rating, loser: Rating) -> tuple[Rating, Rating]:
    """Both players' new ratings after one decisive game (each game is its own rating period)."""
    return update(winner, [(loser, 1.0)]), update(loser, [(winner, 0.0)])
