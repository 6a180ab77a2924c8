"""Portes' easy level: the heuristic with a fixed, bounded error per play. It beats random play,
loses to medium, and its games end (the race player it replaced lost to random in games of
thousands of turns)."""

from __future__ import annotations

import random

import pytest

from fevga import DEFAULT_RULES, legal_plays
from fevga.ai import get_player
from fevga.ai.players import Player, RandomPlayer, ScorePlayer
from fevga.ai.tavli_arena import play_tavli_game
from fevga.ai.tavli_heuristic import EASY_NOISE, NoisyScorePlayer, portes_score
from fevga.variants import PortesRules
from tests.engine.tavli_positions import random_tavli_position

TURNS = 400  # Portes games between sensible players take 50-140 turns


def _wins(player: Player, other: Player, games: int) -> int:
    """Games ``player`` wins of ``games`` fixed-seed Portes games, seats alternating; RuntimeError
    if one runs past TURNS."""
    wins = 0
    for seed in range(games):
        first = seed % 2 == 0
        a, b = (player, other) if first else (other, player)
        winner, _points = play_tavli_game(a, b, seed, PortesRules(), max_turns=TURNS)
        wins += winner is not None and (winner == 0) == first
    return wins


def test_portes_easy_is_the_noisy_heuristic_and_plakoto_easy_the_race_player() -> None:
    easy = get_player("easy", "portes")
    assert isinstance(easy, NoisyScorePlayer) and easy.noise == EASY_NOISE > 0
    assert get_player("noisy", "portes").name == "noisy"
    assert get_player("easy", "plakoto").name == "greedy"


def test_the_error_is_bounded_fixed_per_play_and_changes_choices() -> None:
    easy = get_player("easy", "portes")
    rng = random.Random(3)
    changed = 0
    for _ in range(40):
        position = random_tavli_position("portes", rng)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        ranked = easy.rank(position, dice, DEFAULT_RULES)
        assert ranked == easy.rank(position, dice, DEFAULT_RULES)  # the same every time
        assert {p for p, _ in ranked} == set(legal_plays(position, dice))
        for play, value in ranked:
            assert abs(value - portes_score(play.result)) <= EASY_NOISE  # type: ignore[arg-type]
        assert easy.choose(position, dice, DEFAULT_RULES) == ranked[0][0]
        best = get_player("medium", "portes").choose(position, dice, DEFAULT_RULES)
        changed += ranked[0][0] != best
    assert 0 < changed < 40, changed  # it errs sometimes, not always


def test_easy_beats_random_and_loses_to_medium_in_games_that_end() -> None:
    easy, games = get_player("easy", "portes"), 40
    assert _wins(easy, RandomPlayer(seed=5), games) >= 0.75 * games
    assert _wins(easy, get_player("medium", "portes"), games) <= 0.4 * games


def test_the_old_race_player_is_what_easy_fixed() -> None:
    race = get_player("greedy", "portes")
    assert isinstance(race, ScorePlayer)
    with pytest.raises(RuntimeError, match=f"did not end in {TURNS} turns"):
        _wins(race, RandomPlayer(seed=5), 20)
