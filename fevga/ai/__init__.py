"""Fevga AI: players at several levels and hints.

``get_player(level)`` accepts the levels ``easy`` (greedy race play), ``medium`` (the hand-made
heuristic) and ``hard`` (the network at 1-ply with move filtering), and the player names
``random``, ``greedy``, ``heuristic``, ``neural`` (= hard), ``neural0``, ``neural1``, ``neural2``
(the network at 0, 1 or 2 ply). Every player
has ``choose(position, dice, rules) -> Play``; ``hint`` ranks the legal plays with their equities
(expected points for the mover).
"""

from __future__ import annotations

from fevga import DEFAULT_RULES, Play, Position, Rules

from .network import WEIGHTS_PATH, default_network
from .players import Player, RandomPlayer, greedy_player, heuristic_player
from .search import NeuralPlayer

LEVELS = {"easy": "greedy", "medium": "heuristic", "hard": "neural1"}
NAMES = ("random", "greedy", "heuristic", "neural", "neural0", "neural1", "neural2")


def has_weights() -> bool:
    """True when the trained network ships with the package."""
    return WEIGHTS_PATH.exists()


def get_player(level: str) -> Player:
    """A player for a level (easy/medium/hard) or a player name; ValueError for anything else.

    Without the weights file (a development checkout before training) the neural levels fall
    back to the hand-made heuristic player.
    """
    key = level.strip().lower() if isinstance(level, str) else ""
    name = LEVELS.get(key, key)
    if name == "neural":
        name = LEVELS["hard"]
    if name == "random":
        return RandomPlayer()
    if name == "greedy":
        return greedy_player()
    if name == "heuristic":
        return heuristic_player()
    if name in ("neural0", "neural1", "neural2"):
        if not has_weights():
            return heuristic_player()
        return NeuralPlayer(default_network(), ply=int(name[-1]), name=name)
    choices = ", ".join(("easy", "medium", "hard", *NAMES))
    raise ValueError(f"unknown AI level {level!r}: use one of {choices}")


def hint(
    position: Position, dice: tuple[int, int], rules: Rules = DEFAULT_RULES, n: int = 3
) -> list[tuple[Play, float]]:
    """The ``n`` best legal plays with their equities (expected points for the mover), best first.

    The search is the hard level's (so the first hint is the play hard would make), widened to
    the ``n`` best 0-ply plays: every play returned is judged at 1-ply, so the equities are
    comparable and never increase down the list. When the turn passes the list holds the pass play alone.
    """
    n = max(1, n)
    if not has_weights():
        ranked = heuristic_player().rank(position, dice, rules)
    else:
        searcher = NeuralPlayer(default_network(), ply=1, widen=n)
        ranked = sorted(searcher.rank(position, dice, rules)[:n], key=lambda item: -item[1])
    return ranked[:n]


__all__ = ["LEVELS", "NAMES", "NeuralPlayer", "Player", "get_player", "has_weights", "hint"]
