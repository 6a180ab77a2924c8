"""The AI seen by the service: ``choose`` a play and ``hint`` the best plays.

Uses ``fevga.ai`` (get_player / hint) when it is importable, else a placeholder that picks a random
legal play. Switching is automatic; :class:`RandomAI` stays for tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import importlib
import random
from typing import Any, Protocol

from fevga import Play, Position, legal_plays
from fevga.ai.stakes import MONEY, MatchScore
from fevga.variants import AnyRules, game_of


class AiPlayer(Protocol):
    """What the service needs from an AI."""

    slow: bool

    def choose(
        self, position: Position, dice: tuple[int, int], rules: AnyRules, level: str, score: MatchScore | None = None
    ) -> Play: ...

    def hint(
        self, position: Position, dice: tuple[int, int], rules: AnyRules, n: int, score: MatchScore | None = None
    ) -> list[tuple[Play, float]]: ...


class RandomAI:
    """Placeholder: a random legal play; hints list legal plays without an evaluation (score 0)."""

    slow = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(
        self, position: Position, dice: tuple[int, int], rules: AnyRules, level: str, score: MatchScore | None = None
    ) -> Play:
        return self.rng.choice(legal_plays(position, dice, rules))

    def hint(
        self, position: Position, dice: tuple[int, int], rules: AnyRules, n: int, score: MatchScore | None = None
    ) -> list[tuple[Play, float]]:
        return [(p, 0.0) for p in legal_plays(position, dice, rules)[:n]]


class EngineAI:
    """The real AI from ``fevga.ai``; its evaluations may be slow, so calls run in a thread."""

    slow = True

    def __init__(self, module: Any) -> None:
        self.module = module

    def choose(
        self, position: Position, dice: tuple[int, int], rules: AnyRules, level: str, score: MatchScore | None = None
    ) -> Play:
        """The play of ``level``'s player of the position's game (Portes and Plakoto have their own),
        playing the match's ``score`` (the network levels: see ``fevga.ai.stakes``)."""
        player = self.module.playing_score(self.module.get_player(level, game_of(position)), score)
        play: Play = player.choose(position, dice, rules)
        return play

    def hint(
        self, position: Position, dice: tuple[int, int], rules: AnyRules, n: int, score: MatchScore | None = None
    ) -> list[tuple[Play, float]]:
        """The best plays: Fevga's hint search, or the ranking of the other game's strongest player; in a match,
        judged by its score as the AI plays it."""
        game = game_of(position)
        if game != "fevga":
            player = self.module.playing_score(self.module.get_player("hard", game), score)
            return list(player.rank(position, dice, rules))[:n]
        stakes = score.stakes() if score is not None else MONEY
        return list(self.module.hint(position, dice, rules, n=n, stakes=stakes))


def default_ai() -> AiPlayer:
    """``fevga.ai`` if it is there, else the random placeholder."""
    try:
        module = importlib.import_module("fevga.ai")
    except ImportError:
        return RandomAI()
    if all(hasattr(module, name) for name in ("get_player", "hint", "playing_score")):
        return EngineAI(module)
    return RandomAI()


async def ai_choose(
    ai: AiPlayer,
    position: Position,
    dice: tuple[int, int],
    rules: AnyRules,
    level: str,
    score: MatchScore | None = None,
) -> Play:
    """The AI's play, off the event loop when it is slow; ``score``: the match it plays (None: money)."""
    if ai.slow:
        return await asyncio.to_thread(ai.choose, position, dice, rules, level, score)
    return ai.choose(position, dice, rules, level, score)


async def ai_hint(
    ai: AiPlayer, position: Position, dice: tuple[int, int], rules: AnyRules, n: int, score: MatchScore | None = None
) -> list[tuple[Play, float]]:
    """The ``n`` best plays, off the event loop when the AI is slow; ``score``: the match the asker plays."""
    if ai.slow:
        return await asyncio.to_thread(ai.hint, position, dice, rules, n, score)
    return ai.hint(position, dice, rules, n, score)
