"""Players: each picks one legal play for a position and dice (``Player.choose``) and can rank the
legal plays with a score (``Player.rank``), best first, for hints."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from fevga import Play, Position, Rules, legal_plays

from .heuristic import heuristic_score, race_score


class Player(Protocol):
    """What the service and the benchmarks use: a name, ``choose`` and ``rank``."""

    name: str

    def choose(self, position: Position, dice: tuple[int, int], rules: Rules) -> Play: ...

    def rank(self, position: Position, dice: tuple[int, int], rules: Rules) -> list[tuple[Play, float]]: ...


class RandomPlayer:
    """Any legal play, uniformly; seeded for reproducible benchmarks."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self._rng = random.Random(seed)

    def choose(self, position: Position, dice: tuple[int, int], rules: Rules) -> Play:
        return self._rng.choice(legal_plays(position, dice, rules))

    def rank(self, position: Position, dice: tuple[int, int], rules: Rules) -> list[tuple[Play, float]]:
        plays = legal_plays(position, dice, rules)
        return [(p, 0.0) for p in plays]


class ScorePlayer:
    """Takes the play whose afterstate scores highest under a static evaluation."""

    def __init__(self, name: str, score: Callable[[Position], float]) -> None:
        self.name = name
        self._score = score

    def rank(self, position: Position, dice: tuple[int, int], rules: Rules) -> list[tuple[Play, float]]:
        plays = legal_plays(position, dice, rules)
        scored = [(p, self._score(p.result)) for p in plays]
        scored.sort(key=lambda item: -item[1])
        return scored

    def choose(self, position: Position, dice: tuple[int, int], rules: Rules) -> Play:
        plays = legal_plays(position, dice, rules)
        if len(plays) == 1:
            return plays[0]
        return max(plays, key=lambda p: self._score(p.result))


def greedy_player() -> ScorePlayer:
    return ScorePlayer("greedy", race_score)


def heuristic_player() -> ScorePlayer:
    return ScorePlayer("heuristic", heuristic_score)
