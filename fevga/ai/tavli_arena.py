"""Games of Portes or Plakoto between two players with seeded dice (``arena.play_game`` for Fevga),
ended by the engine's own ``Board.outcome`` (bear-off, mars, backgammon, the mother rule, a draw)."""

from __future__ import annotations

import random

from fevga import DEFAULT_RULES, Board
from fevga.variants import PlakotoRules, PortesRules, TavliPosition

from .players import Player

MAX_TURNS = 3000  # a guard against a (theoretical) deadlock, not a rule


def play_tavli_game(
    first: Player, second: Player, seed: int, rules: PortesRules | PlakotoRules, max_turns: int = MAX_TURNS
) -> tuple[int | None, int]:
    """One game where ``first`` moves first; roll k of the game is the k-th roll of ``seed``.
    Returns (winner: 0 = first, 1 = second, None for a draw; points); RuntimeError past
    ``max_turns`` turns."""
    rng = random.Random(seed)
    game = "portes" if isinstance(rules, PortesRules) else "plakoto"
    board = Board(TavliPosition.start(game), 0, rules)
    players = (first, second)
    for _ in range(max_turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        board.push(players[board.turn].choose(board.position, dice, DEFAULT_RULES), check=False)
        outcome = board.outcome()
        if outcome is not None:
            return outcome.winner, outcome.points
    raise RuntimeError(f"{game} game with seed {seed} did not end in {max_turns} turns")
