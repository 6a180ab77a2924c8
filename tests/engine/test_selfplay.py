"""2,000 random self-play games all end with a valid outcome."""

from __future__ import annotations

import random

from fevga import Game, RandomDice


def test_two_thousand_random_games_end_properly() -> None:
    rng = random.Random(2026)
    marses = 0
    for n in range(2000):
        game = Game.new(dice=RandomDice(n))
        turns = 0
        while not game.is_over():
            game.play(rng.choice(game.legal_plays()))
            turns += 1
            assert turns < 2000
        outcome = game.outcome
        assert outcome is not None and outcome.winner in (0, 1)
        winner_view = game.view(outcome.winner)
        assert winner_view.me_off == 15 and winner_view.opp_off < 15
        assert outcome.points == (2 if winner_view.opp_off == 0 else 1)
        marses += outcome.mars
    assert 0 < marses < 2000
