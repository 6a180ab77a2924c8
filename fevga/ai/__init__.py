"""The AI of Fevga, Portes and Plakoto: players at several levels and hints.

Portes and Plakoto (``game=``) have the same levels and ``hint``, with their own networks
(``fevga/ai/levels_tavli.py``); what follows describes Fevga's.

``get_player(level)`` accepts the levels ``easy`` (greedy race play), ``medium`` (the hand-made
heuristic), ``hard`` (the network searched within a 300 ms budget) and ``expert`` (a deeper, wider
search, up to about 1 s), and the player names ``random``, ``greedy``, ``heuristic``, ``neural`` (= hard),
``neural0``, ``neural1``, ``neural2`` (the network at 0, 1 or 2 ply), ``hard-v1`` (the first
trained network at 1-ply, exactly as it shipped: the fixed yardstick) and ``hard-v2`` (the second
network, searched as ``hard`` is: ``hard`` moves to each new network, ``hard-v2`` stays). Every player
has ``choose(position, dice, rules) -> Play``; ``hint`` ranks the legal plays with their equities
(expected points for the mover).
"""

from __future__ import annotations

import numpy as np

from fevga import DEFAULT_RULES, Play, Position, Rules
from fevga.variants import check_game, game_of

from .levels_tavli import tavli_hint, tavli_player
from .network import V1_PATH, V2_PATH, WEIGHTS_PATH, WeightsError, default_network, v1_network, v2_network
from .players import Player, RandomPlayer, greedy_player, heuristic_player
from .search import NeuralPlayer, two_ply
from .stakes import MONEY, MatchScore, Stakes

LEVELS = {"easy": "greedy", "medium": "heuristic", "hard": "hard", "expert": "expert"}
NAMES = ("random", "greedy", "heuristic", "neural", "neural0", "neural1", "neural2", "hard-v1", "hard-v2")
# hard: HARD_PLY 2 = 2-ply over the 2 best 1-ply plays unless that would judge more than
# HARD_WORK2 positions (then 1-ply), which keeps its p95 move time under 300 ms. It is 1: a 2-ply
# hard (p95 ~270 ms, ~8x slower) could not be matched against hard-v1 over 2,000 games in the time
# there was, and 1-ply was measured (docs/ai-training.md).
HARD_PLY = 1
HARD_WORK2 = 8_000


def has_weights() -> bool:
    """True when the trained network ships with the package."""
    return WEIGHTS_PATH.exists()


def get_player(level: str, game: str = "fevga") -> Player:
    """A player of ``game`` for a level (easy/medium/hard/expert) or a player name; ValueError for
    anything else (FevgaError for an unknown game).

    Without the weights file (a development checkout before training) the neural levels fall
    back to the hand-made heuristic player.
    """
    key = level.strip().lower() if isinstance(level, str) else ""
    name = LEVELS.get(key, key)
    if check_game(game) != "fevga":
        return tavli_player(name, game, level)
    if name == "neural":
        name = "hard"
    if name == "random":
        return RandomPlayer()
    if name == "greedy":
        return greedy_player()
    if name == "heuristic":
        return heuristic_player()
    if name == "hard-v1":
        return NeuralPlayer(v1_network(), ply=1, name=name) if V1_PATH.exists() else heuristic_player()
    if name == "hard-v2":
        if not V2_PATH.exists():
            return heuristic_player()
        return NeuralPlayer(v2_network(), ply=HARD_PLY, keep2=2, max_work2=HARD_WORK2, name=name)
    if name in ("neural0", "neural1", "neural2", "hard", "expert"):
        if not has_weights():
            return heuristic_player()
        if name == "hard":
            return NeuralPlayer(default_network(), ply=HARD_PLY, keep2=2, max_work2=HARD_WORK2, name=name)
        if name == "expert":
            return NeuralPlayer(default_network(), ply=2, keep1=10, margin=0.25, keep2=4, max_work=6000, name=name)
        return NeuralPlayer(default_network(), ply=int(name[-1]), name=name)
    choices = ", ".join((*LEVELS, *NAMES))
    raise ValueError(f"unknown AI level {level!r}: use one of {choices}")


def playing_score(player: Player, score: MatchScore | None) -> Player:
    """``player`` playing the score of a match: a network player judges the game's ends by what they
    do to his chance of the match (a 2-point win is worth no more than 1 at 1-away); the hand-made
    players, and every player outside a match (``score`` None), play as they are."""
    if score is None or not isinstance(player, NeuralPlayer):
        return player
    return player.at_stakes(score.stakes())


def hint(
    position: Position,
    dice: tuple[int, int],
    rules: Rules = DEFAULT_RULES,
    n: int = 3,
    game: str | None = None,
    stakes: Stakes = MONEY,
) -> list[tuple[Play, float]]:
    """The ``n`` best legal plays with their equities (expected points for the mover), best first.

    The search is the hard level's, widened to the ``n`` best 0-ply plays: all are judged at 1-ply
    and, when hard searches 2-ply, the ``n`` best again at 2-ply if the budget allows all of them
    (so the equities are always comparable and never increase down the list). When the turn
    passes the list holds the pass play alone. ``game`` is the position's game (read off the
    position when None); Portes and Plakoto use their own network, searched like their hard level.
    ``stakes``: what the game's ends are worth (a match's score, see ``fevga.ai.stakes``; money by default).
    """
    n = max(1, n)
    if (game or game_of(position)) != "fevga":
        return tavli_hint(position, dice, n, stakes)
    if not has_weights():
        return heuristic_player().rank(position, dice, rules)[:n]
    net = default_network()
    searcher = NeuralPlayer(net, ply=1, widen=n, stakes=stakes)
    ranked = sorted(searcher.rank(position, dice, rules)[:n], key=lambda item: -item[1])
    if HARD_PLY >= 2 and len(ranked) > 1:
        eq2 = two_ply(net, [p for p, _ in ranked], rules, HARD_WORK2 * len(ranked) // 2, stakes)
        if not np.isnan(eq2).any():
            ranked = sorted(((p, float(e)) for (p, _), e in zip(ranked, eq2, strict=True)), key=lambda t: -t[1])
    return ranked


__all__ = [
    "LEVELS",
    "NAMES",
    "MatchScore",
    "NeuralPlayer",
    "Player",
    "Stakes",
    "WeightsError",
    "get_player",
    "has_weights",
    "hint",
    "playing_score",
]
