"""End of a Portes or Plakoto game: P-9 scoring, backgammon value, the mother rule (K-5, K-6 every
part, both variants), resignation points (M-2)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fevga import Board, FevgaError, FixedDice, Game, Rules, parse_play
from fevga.variants import PlakotoRules, PortesRules, TavliPosition

from .tavli_positions import tpos

P9 = tpos("portes", {23: 1}, {20: 1, 13: 14}, me_off=14)


@pytest.mark.parametrize(("value", "points"), [(2, 2), (3, 3)])
def test_p9_backgammon(value: int, points: int) -> None:
    board = Board(P9, 0, PortesRules(backgammon_value=value))
    board.push(parse_play("23/24/off", P9, (3, 1)))
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.points == points and outcome.mars


def test_p9_one_point_when_he_bore_one_off() -> None:
    pos = tpos("portes", {23: 1}, {20: 1, 13: 13}, me_off=14, opp_off=1)
    board = Board(pos, 1, PortesRules(backgammon_value=3))
    board.push(parse_play("23/off", pos, (3, 1)))
    outcome = board.outcome()
    assert outcome is not None and (outcome.winner, outcome.points, outcome.mars) == (1, 1, False)


def test_mars_without_backgammon_is_two_even_under_three() -> None:
    pos = tpos("portes", {23: 1}, {13: 15}, me_off=14)
    board = Board(pos, 0, PortesRules(backgammon_value=3))
    board.push(parse_play("23/off", pos, (3, 1)))
    outcome = board.outcome()
    assert outcome is not None and outcome.points == 2


K5 = tpos("plakoto", {16: 1, 18: 2, 19: 4, 20: 4, 21: 4}, {24: 1, 5: 7, 3: 7})


@pytest.mark.parametrize("text", ["18/24* 16/19", "18/24* 21/24", "16/22 21/24*"])
def test_k5_pinning_the_mother_wins_two(text: str) -> None:
    board = Board(K5, 0, PlakotoRules())
    board.push(parse_play(text, K5, (6, 3)))
    outcome = board.outcome()
    assert outcome is not None and (outcome.winner, outcome.points) == (0, 2) and board.is_game_over()
    assert not outcome.mars  # two points for the mother, not a mars: nobody bore off


def test_a_plakoto_mars_is_bearing_off_all_while_he_has_none_off() -> None:
    pos = tpos("plakoto", {24: 1}, {13: 15}, me_off=14)
    board = Board(pos, 0, PlakotoRules())
    board.push(parse_play("24/off", pos, (3, 1)))
    outcome = board.outcome()
    assert outcome is not None and (outcome.winner, outcome.points, outcome.mars) == (0, 2, True)


def test_k5_other_plays_go_on() -> None:
    board = Board(K5, 0, PlakotoRules())
    board.push(parse_play("16/22 18/21", K5, (6, 3)))
    assert board.outcome() is None and not board.is_game_over()


K6 = tpos("plakoto", {1: 2, 12: 3, 18: 5, 19: 5}, {24: 1, 5: 7, 3: 7})


def test_k6a_exception_goes_on_then_his_only_play() -> None:
    board = Board(K6, 0, PlakotoRules())
    board.push(parse_play("18/24* 12/17", K6, (6, 5)))
    assert board.outcome() is None
    his = board.legal_plays((4, 2))
    assert [str(p) for p in his] == ["20/22"]


def test_k6a_strict_wins_at_once() -> None:
    board = Board(K6, 0, PlakotoRules(mother_rule="strict"))
    board.push(parse_play("18/24* 12/17", K6, (6, 5)))
    outcome = board.outcome()
    assert outcome is not None and (outcome.winner, outcome.points) == (0, 2)


def test_k6b_emptying_point_one_wins_keeping_one_goes_on() -> None:
    board = Board(K6, 0, PlakotoRules())
    board.push(parse_play("1/7(2) 12/18 18/24*", K6, (6, 6)))
    outcome = board.outcome()
    assert outcome is not None and (outcome.winner, outcome.points) == (0, 2)
    board = Board(K6, 0, PlakotoRules())
    board.push(parse_play("1/7 12/18(2) 18/24*", K6, (6, 6)))
    assert board.outcome() is None


K6C = tpos(
    "plakoto", {1: 1, 7: 1, 12: 2, 17: 1, 18: 4, 19: 5, 24: 1}, {24: 1, 5: 7, 3: 7}, his_pinned=(24,)
)


def test_k6c_both_mothers_pinned_is_a_draw() -> None:
    his_view = K6C.flip()
    assert isinstance(his_view, TavliPosition)
    board = Board(his_view, 1, PlakotoRules())
    assert board.outcome() is None
    plays = board.legal_plays((4, 1))
    assert sorted(str(p) for p in plays) == ["20/21 20/24*", "20/24* 22/23"]
    for play in plays:
        b = Board(his_view, 1, PlakotoRules())
        b.push(play)
        outcome = b.outcome()
        assert outcome is not None and outcome.winner is None and outcome.points == 0 and outcome.is_draw


def test_k6c_delayed_win_when_i_empty_my_point_one() -> None:
    board = Board(K6C, 0, PlakotoRules())
    board.push(parse_play("1/2 7/11", K6C, (4, 1)))
    outcome = board.outcome()
    assert outcome is not None and (outcome.winner, outcome.points) == (0, 2)


def _game_at(position: TavliPosition, rules: PortesRules | PlakotoRules) -> Game:
    game = Game.new(rules, FixedDice([(6, 1), (3, 1)]))
    game.board = Board(position, game.turn, game.rules)
    return game


def test_m2_portes_resign_with_a_checker_on_the_bar() -> None:
    pos = tpos("portes", {19: 14}, {10: 15}, me_bar=1)
    assert _game_at(pos, PortesRules()).resign_points(0) == 2
    assert _game_at(pos, PortesRules(backgammon_value=3)).resign_points(0) == 3
    outcome = _game_at(pos, PortesRules(backgammon_value=3)).resign(0)
    assert (outcome.winner, outcome.points, outcome.resigned) == (1, 3, True)


def test_m2_plakoto_resign_with_one_off() -> None:
    pos = tpos("plakoto", {24: 14}, {1: 15}, me_off=1)
    game = _game_at(pos, PlakotoRules())
    assert game.resign_points(0) == 1
    assert game.resign_points(1) == 2


@pytest.mark.parametrize(
    "make", [lambda: PortesRules(backgammon_value=3.0), lambda: PortesRules(backgammon_value=True),
             lambda: PortesRules(backgammon_value=4), lambda: Rules(unlock_point=13.0)]
)
def test_options_are_whole_numbers_of_their_range(make: Callable[[], object]) -> None:
    """Game options take whole numbers only: a 3.0 would give a game of float points."""
    with pytest.raises(FevgaError) as bad:
        make()
    assert bad.value.key == "bad_variant"
