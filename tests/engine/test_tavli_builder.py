"""The step builder for Portes and Plakoto: bar entry as a step from point 0, hits and pins marked,
only steps that can finish a legal play offered, the finished play equal to the parsed one."""

from __future__ import annotations

import random

import pytest

from fevga import Board, IllegalStepError, legal_plays, parse_play
from fevga.variants import PlakotoRules, PortesRules

from .tavli_positions import random_tavli_position, tpos

P3 = tpos("portes", {12: 4, 17: 3, 19: 4, 20: 3}, {2: 2, 3: 1, 4: 3, 6: 3, 8: 6}, me_bar=1)
K4 = tpos("plakoto", {1: 15}, {7: 1, 24: 14})


def test_bar_entry_is_a_step_from_point_zero() -> None:
    board = Board(P3, 0, PortesRules())
    state = board.step_options((6, 3), [])
    assert state.options == {0: [3]} and state.hitting == frozenset({(0, 3)})
    state = board.step_options((6, 3), [(0, 3)])
    assert state.steps == ((0, 3),) and state.hits == (True,) and state.dice_left == (6,)
    assert state.options == {3: [6], 12: [6], 17: [6]}
    done = board.step_options((6, 3), [(0, 3), (3, 6)])
    assert done.play == parse_play("bar/3*/9", P3, (6, 3)) and done.options == {}


def test_a_step_no_legal_play_can_use_is_refused() -> None:
    board = Board(P3, 0, PortesRules())
    with pytest.raises(IllegalStepError):
        board.step_options((6, 3), [(12, 6)])
    with pytest.raises(IllegalStepError):
        board.step_options((6, 3), [(0, 6)])


def test_pins_are_marked_and_pin_then_move_on() -> None:
    board = Board(K4, 0, PlakotoRules())
    state = board.step_options((6, 5), [])
    assert state.options == {1: [5, 6]} and (1, 6) in state.hitting and (1, 5) not in state.hitting
    state = board.step_options((6, 5), [(1, 6), (7, 5)])
    assert state.hits == (True, False) and state.play == parse_play("1/7*/12", K4, (6, 5))


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_every_legal_play_can_be_clicked(game: str) -> None:
    rng = random.Random(4)
    for _ in range(15):
        position = random_tavli_position(game, rng)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        board = Board(position, 0)
        for play in legal_plays(position, dice):
            if play.is_pass:
                assert board.step_options(dice, []).options == {}
                continue
            pending: list[tuple[int, int]] = []
            left = list(dice) * (2 if dice[0] == dice[1] else 1)
            for a, b in play.steps:
                die = b - a if b - a in left else min(d for d in left if d > b - a)
                left.remove(die)
                assert die in board.step_options(dice, pending).options.get(a, [])
                pending.append((a, die))
            assert board.step_options(dice, pending).play == play
