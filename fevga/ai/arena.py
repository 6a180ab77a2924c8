"""Games between two players with seeded dice, and duplicate-dice matches with their statistics
(win % with a Wilson 95% interval, points per game, Elo difference)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from fevga import DEFAULT_RULES, Position, Rules
from fevga.variants import default_rules

from .players import Player
from .tavli_arena import play_tavli_game

MAX_TURNS = 2000  # R3 keeps games finite; a guard, not a rule


def play_game(
    first: Player, second: Player, seed: int, rules: Rules = DEFAULT_RULES, game: str = "fevga"
) -> tuple[int | None, int]:
    """One game of ``game`` where ``first`` moves first; roll k of the game is the k-th roll of ``seed``.

    Returns (winner: 0 = first, 1 = second, None = a draw (Plakoto); points 1 or 2, 0 for a draw).
    """
    if game != "fevga":
        return play_tavli_game(first, second, seed, default_rules(game))  # type: ignore[arg-type]
    rng = random.Random(seed)
    players = (first, second)
    position = Position.start()
    turn = 0
    for _ in range(MAX_TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        play = players[turn].choose(position, dice, rules)
        result = play.result
        if result.me_off == 15:
            return turn, 2 if result.opp_off == 0 else 1
        position = result.flip()
        turn ^= 1
    raise RuntimeError(f"game with seed {seed} did not end in {MAX_TURNS} turns")


@dataclass
class MatchStats:
    """Results of player A against player B."""

    games: int = 0
    wins: int = 0
    points: int = 0  # A's points minus B's
    draws: int = 0  # Plakoto only; a draw counts as half a win in the win rate

    def add(self, a_won: bool | None, points: int) -> None:
        """Count one game: A won (True), lost (False) or drew (None)."""
        self.games += 1
        if a_won is None:
            self.draws += 1
            return
        self.wins += int(a_won)
        self.points += points if a_won else -points

    @property
    def win_rate(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def wilson(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval for the win rate."""
        n = self.games
        if n == 0:
            return 0.0, 1.0
        p = self.win_rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    @property
    def ppg(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def elo(self) -> float:
        """Elo difference implied by the win rate (clamped away from 0 and 1)."""
        p = min(max(self.win_rate, 0.5 / max(self.games, 1)), 1 - 0.5 / max(self.games, 1))
        return 400.0 * math.log10(p / (1 - p))

    def summary(self) -> str:
        lo, hi = self.wilson()
        return (
            f"{self.games} games: win {100 * self.win_rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}], "
            f"{self.ppg:+.3f} points/game, Elo {self.elo:+.0f}"
        )


def duplicate_match(
    a: Player,
    b: Player,
    games: int,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    progress: Callable[[MatchStats], None] | None = None,
    first_pair: int = 0,
    game: str = "fevga",
) -> MatchStats:
    """``games`` games (rounded up to even) in pairs with the same dice: A moves first with the
    pair's dice, then B moves first with the same dice, so luck largely cancels out. Pairs are
    numbered from ``first_pair``, so a match can be split over processes and summed."""
    stats = MatchStats()
    pairs = (games + 1) // 2
    for k in range(first_pair, first_pair + pairs):
        game_seed = seed * 1_000_003 + k
        winner, points = play_game(a, b, game_seed, rules, game)
        stats.add(None if winner is None else winner == 0, points)
        winner, points = play_game(b, a, game_seed, rules, game)
        stats.add(None if winner is None else winner == 1, points)
        if progress is not None:
            progress(stats)
    return stats
