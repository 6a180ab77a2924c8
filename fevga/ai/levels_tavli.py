"""The levels and hints of Portes and Plakoto: ``easy`` and ``medium`` (the hand-made players of
``tavli_heuristic``: easy the race player in Plakoto, the heuristic with errors in Portes; medium
the heuristic), ``hard`` (the game's network, see HARD) and ``expert`` (the
network searched wider and deeper, see EXPERT), plus ``random``, ``greedy``, ``heuristic``,
``noisy`` and ``neural0/1/2``. Without the game's weights file the neural levels fall back to the heuristic."""

from __future__ import annotations

from typing import Any

from fevga import DEFAULT_RULES, Play, Position

from .games import game_network, has_game_weights
from .players import Player
from .search import NeuralPlayer
from .stakes import MONEY, Stakes
from .tavli_heuristic import EASY
from .tavli_heuristic import tavli_player as hand_made_player

# The search of each level (NeuralPlayer settings), chosen by move time and measured strength
# (docs/ai-training.md): hard is 1-ply over the 3 best 0-ply plays within 0.12 (p95 Portes 6.6 /
# Plakoto 12.0 ms a move);
# expert is 2-ply over the best of the 8 best plays at 1-ply: in Portes the 2 best, within a budget of
# 20,000 judged positions (wider does not change its choices); in Plakoto the 4 best, without a budget
# (with the 80-unit network 58.5 % against hard over 2,000 games, where the 2 best scored 55.1 %; p95 0.72 s
# a move with today's 160-unit network).
HARD: dict[str, Any] = {"ply": 1, "keep1": 3, "margin": 0.12, "max_work": 1500}
_PORTES: dict[str, Any] = {"ply": 2, "keep1": 8, "margin": 0.25, "keep2": 2, "max_work": 4000, "max_work2": 20000}
EXPERT: dict[str, dict[str, Any]] = {
    "portes": _PORTES,
    "plakoto": {**_PORTES, "keep2": 4, "max_work2": None},  # only the 2-ply width and budget differ
}
TAVLI_NAMES = ("random", "greedy", "heuristic", "noisy", "neural", "neural0", "neural1", "neural2", "hard", "expert")


def tavli_player(name: str, game: str, level: object) -> Player:
    """The player of Portes or Plakoto for a level already mapped to its player name (``level``
    as given, for the error message); ValueError for an unknown one."""
    if name == "neural":
        name = "hard"
    if isinstance(level, str) and level.strip().lower() == "easy":
        name = EASY[game]
    if name in ("random", "greedy", "heuristic", "noisy"):
        return hand_made_player(game, name)
    if name in ("neural0", "neural1", "neural2", "hard", "expert"):
        if not has_game_weights(game):
            return hand_made_player(game, "heuristic")
        net = game_network(game)
        if name == "hard":
            return NeuralPlayer(net, name=name, **HARD)
        if name == "expert":
            return NeuralPlayer(net, name=name, **EXPERT[game])
        return NeuralPlayer(net, ply=int(name[-1]), name=name)
    choices = ", ".join(("easy", "medium", "hard", "expert", *TAVLI_NAMES[:-2]))
    raise ValueError(f"unknown AI level {level!r}: use one of {choices}")


def tavli_hint(position: Position, dice: tuple[int, int], n: int, stakes: Stakes = MONEY) -> list[tuple[Play, float]]:
    """The ``n`` best legal plays of a Portes/Plakoto position with their equities, best first:
    the hard level's search widened to the ``n`` best 0-ply plays (all judged at its depth, by ``stakes``)."""
    game = getattr(position, "game", "fevga")
    if not has_game_weights(game):
        return hand_made_player(game, "heuristic").rank(position, dice, DEFAULT_RULES)[:n]
    net = game_network(game)
    ranked = NeuralPlayer(net, **{**HARD, "widen": n}, stakes=stakes).rank(position, dice, DEFAULT_RULES)[:n]
    return sorted(ranked, key=lambda item: -item[1])
