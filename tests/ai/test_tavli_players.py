"""The Portes/Plakoto players (random, greedy, heuristic) through the Fevga player interface: they
choose legal plays, and the heuristic beats random play."""

from __future__ import annotations

import random

import pytest

from fevga import DEFAULT_RULES, legal_plays
from fevga.ai import get_player
from fevga.ai.tavli_arena import play_tavli_game
from fevga.variants import PlakotoRules, PortesRules
from tests.engine.tavli_positions import random_tavli_position


@pytest.mark.parametrize("game", ["portes", "plakoto"])
@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard"])
def test_players_choose_a_legal_play(game: str, level: str) -> None:
    player = get_player(level, game)
    rng = random.Random(1)
    for _ in range(20):
        position = random_tavli_position(game, rng)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        assert player.choose(position, dice, DEFAULT_RULES) in legal_plays(position, dice)
        ranked = player.rank(position, dice, DEFAULT_RULES)
        assert {p for p, _ in ranked} == set(legal_plays(position, dice))


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown AI level"):
        get_player("grandmaster", "portes")


@pytest.mark.parametrize("rules", [PortesRules(), PlakotoRules()])
def test_heuristic_beats_random(rules: PortesRules | PlakotoRules) -> None:
    game = "portes" if isinstance(rules, PortesRules) else "plakoto"
    heuristic, rand = get_player("medium", game), get_player("random", game)
    wins = 0
    games = 30
    for seed in range(games):
        first_is_heuristic = seed % 2 == 0
        a, b = (heuristic, rand) if first_is_heuristic else (rand, heuristic)
        winner, _points = play_tavli_game(a, b, seed, rules)
        if winner is not None and (winner == 0) == first_is_heuristic:
            wins += 1
    assert wins >= 20, wins
