"""Every level and player name returns a legal play; unknown levels are refused clearly."""

from __future__ import annotations

import pytest

from fevga import DEFAULT_RULES, Position, Rules, legal_plays
from fevga.ai import HARD_PLY, LEVELS, NAMES, get_player
from fevga.ai.search import NeuralPlayer

ALL = [*[n for n in LEVELS if n != "expert"], *[n for n in NAMES if n != "neural2"]]


@pytest.mark.parametrize("level", ALL)
def test_each_level_returns_a_legal_play(level, sample_positions):
    player = get_player(level)
    for position, dice in sample_positions:
        play = player.choose(position, dice, DEFAULT_RULES)
        assert play in legal_plays(position, dice, DEFAULT_RULES), (level, position, dice)


def test_two_ply_returns_a_legal_play(sample_positions):
    player = get_player("neural2")
    for position, dice in sample_positions[:2]:
        assert player.choose(position, dice, DEFAULT_RULES) in legal_plays(position, dice)


def test_levels_respect_rule_variants():
    rules = Rules(unlock_point=14, strict_start_quarter=True)
    position = Position.start()
    for level in LEVELS:
        play = get_player(level).choose(position, (6, 6), rules)
        assert play in legal_plays(position, (6, 6), rules)


def test_pass_is_returned_when_nothing_moves():
    # The mover's runner is locked: his only checker off point 1 sits on 7 and every point it
    # could reach (8..13) is held by the opponent, so no step at all is legal.
    me = [14, 0, 0, 0, 0, 0, 1] + [0] * 17
    opp = [0] * 24
    for q in (20, 21, 22, 23, 24):  # his 20..24 are my 8..12
        opp[q - 1] = 1
    opp[0] = 10  # his 1 is my 13
    position = Position.from_lists(me, opp)
    assert legal_plays(position, (6, 6))[0].is_pass
    for level in LEVELS:
        assert get_player(level).choose(position, (6, 6), DEFAULT_RULES).is_pass


def test_levels_map_onto_the_players():
    hard = get_player("hard")
    assert isinstance(hard, NeuralPlayer) and hard.ply == HARD_PLY
    assert get_player("medium").name == "heuristic"
    assert get_player("easy").name == "greedy"
    neural = get_player(" Neural ")
    assert isinstance(neural, NeuralPlayer) and neural.ply == HARD_PLY
    zero = get_player("neural0")
    assert isinstance(zero, NeuralPlayer) and zero.ply == 0


@pytest.mark.parametrize("bad", ["grandmaster", "", "HARDEST", None, 3])
def test_unknown_level_is_refused(bad):
    with pytest.raises(ValueError, match="unknown AI level"):
        get_player(bad)
