"""Seeded games between AI players for the analysis tests."""

from __future__ import annotations

from collections.abc import Callable

from fevga import FairDice, Game, Play, Position
from fevga.ai import Player


def seeded_dice(seed: int) -> FairDice:
    """Fair dice from a small seed (the seed must be 16 bytes or more)."""
    return FairDice(seed.to_bytes(16, "big"))


def play_game(
    players: tuple[Player, Player],
    seed: int,
    override: Callable[[Game], Play | None] | None = None,
) -> Game:
    """Play a whole game; ``override`` may replace a player's choice (return None to keep it)."""
    game = Game.new(dice=seeded_dice(seed))
    while not game.is_over():
        assert game.dice is not None
        play = override(game) if override is not None else None
        if play is None:
            play = players[game.turn].choose(game.position, game.dice, game.rules)
        game.play(play)
    return game


def all_home(position: Position) -> bool:
    """True when every checker of the mover still on the board is on his points 19-24."""
    return all(c <= 0 for c in position.board[:18])
