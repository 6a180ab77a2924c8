"""Hand-worked cases for every rule of RULES.md, including the seeds' own examples."""

from __future__ import annotations

import pytest

from fevga import DEFAULT_RULES, IllegalPlayError, Position, Rules, format_play, legal_plays, parse_play
from fevga.movegen import opponent_can_move

from .positions import pos


def texts(position: Position, dice: tuple[int, int], rules: Rules = DEFAULT_RULES) -> set[str]:
    return {format_play(p, compact=True) for p in legal_plays(position, dice, rules)}


def rule_of(text: str, position: Position, dice: tuple[int, int], rules: Rules = DEFAULT_RULES) -> IllegalPlayError:
    with pytest.raises(IllegalPlayError) as info:
        parse_play(text, position, dice, rules)
    return info.value


START = Position.start()


# --- the opening (seed examples) -------------------------------------------------------------
def test_opening_six_six_plays_a_single_six() -> None:
    assert texts(START, (6, 6)) == {"1/7"}


def test_opening_four_four_plays_two_fours() -> None:
    assert texts(START, (4, 4)) == {"1/5/9"}


def test_opening_three_three_plays_three_threes() -> None:
    assert texts(START, (3, 3)) == {"1/4/7/10"}


def test_opening_five_five_runner_to_16_then_last_five_from_1_or_16() -> None:
    assert texts(START, (5, 5)) == {"1/6/11/16 1/6", "1/6/11/16/21"}


def test_opening_non_double_moves_the_runner_with_both_dice() -> None:
    assert texts(START, (6, 5)) == {"1/7/12"}
    assert texts(START, (2, 1)) == {"1/3/4"}


# --- rule 2: no hitting -----------------------------------------------------------------------
def test_a_step_may_not_land_on_the_opponents_point() -> None:
    err = rule_of("1/7/13", START, (6, 6))
    assert err.key == "point_held" and "point 13 is held by your opponent" in str(err)


def test_a_step_may_land_on_own_point() -> None:
    position = pos({1: 13, 14: 1, 20: 1}, {1: 15})
    assert "1/6 14/20" in texts(position, (6, 5))


# --- rule 3: the runner -----------------------------------------------------------------------
def test_only_the_runner_may_leave_point_one_until_it_reaches_13() -> None:
    position = pos({1: 14, 5: 1}, {1: 15})
    assert texts(position, (2, 1)) == {"5/7/8"}
    err = rule_of("1/2 5/7", position, (2, 1))
    assert err.rule == "runner" and "only your runner may move until it reaches point 13" in str(err)


def test_reaching_13_mid_turn_unlocks_the_remaining_steps() -> None:
    position = pos({1: 14, 10: 1}, {2: 15})  # theirs on their 2 = my 14
    plays = texts(position, (3, 4))
    assert "10/13 1/5" in plays  # canonical order keeps the unlocking step first: 1/5 first is locked


def test_unlock_point_variant_14() -> None:
    # The runner stands on 13 and the opponent holds my 14 and 15 (his 2 and 3).
    position = pos({1: 14, 13: 1}, {2: 8, 3: 7})
    unlocked = texts(position, (2, 1), Rules(unlock_point=13))
    assert unlocked and all(t.startswith("1/") for t in unlocked)
    assert [p.is_pass for p in legal_plays(position, (2, 1), Rules(unlock_point=14))] == [True]


# --- rule 4: bearing off ----------------------------------------------------------------------
def test_bear_off_exact_and_overshoot_from_the_lowest_point() -> None:
    position = pos({20: 1, 23: 1}, {1: 15}, me_off=13)
    # 23 is the lowest once 20 has moved up, so 20/23/off is as legal as bearing both off.
    assert texts(position, (6, 3)) == {"20/off 23/off", "20/23/off"}
    err = rule_of("23/off 20/21", position, (6, 1))
    assert err.rule == "bear-off" and err.key == "overshoot"


def test_moving_inside_home_instead_of_bearing_off_is_allowed() -> None:
    position = pos({19: 2, 23: 1}, {1: 15}, me_off=12)
    plays = texts(position, (1, 2))
    assert "19/20 19/21" in plays and "23/off" not in plays
    assert any("23/24" in t for t in plays)


def test_no_bearing_off_while_checkers_are_outside_home() -> None:
    position = pos({17: 1, 20: 14}, {1: 15})
    err = rule_of("20/off 17/18", position, (5, 1))
    assert err.key == "not_all_home" and "outside 19-24" in str(err)


def test_bearing_off_becomes_possible_in_the_middle_of_a_turn() -> None:
    position = pos({17: 1, 20: 14}, {1: 15})
    play = parse_play("20/off 17/23", position, (6, 5))  # typed in the other order
    assert play.result.me_off == 1 and play.steps[0] == (17, 23)


# --- R1 and R2 --------------------------------------------------------------------------------
def test_r1_may_not_end_holding_all_of_points_1_to_6() -> None:
    position = pos({1: 10, 2: 1, 3: 1, 4: 1, 5: 1, 13: 1}, {3: 15})
    err = rule_of("1/6 13/14", position, (5, 1))
    assert err.rule == "R1" and "(R1)" in str(err)
    assert parse_play("1/6/7", position, (5, 1)).result.board[6] == 1


def test_r1_strict_variant_judges_every_step() -> None:
    position = pos({1: 10, 2: 1, 3: 1, 4: 1, 5: 1, 13: 1}, {3: 15})
    assert "1/6/11/16/21" in texts(position, (5, 5))
    strict = Rules(strict_start_quarter=True)
    assert "1/6/11/16/21" not in texts(position, (5, 5), strict)
    assert rule_of("1/21", position, (5, 5), strict).rule == "R1"


def test_r2_may_not_hold_all_of_points_14_to_19_and_passes_when_nothing_else_moves() -> None:
    position = pos({13: 1, 14: 2, 15: 3, 16: 3, 17: 3, 18: 3}, {8: 3, 9: 3, 10: 3, 11: 3, 12: 3})
    assert [p.is_pass for p in legal_plays(position, (6, 6))] == [True]
    assert texts(position, (6, 5)) == {"13/18"}
    err = rule_of("13/19", position, (6, 5))
    assert err.rule == "R2"


def test_a_run_of_six_elsewhere_is_allowed() -> None:
    position = pos({15: 3, 16: 3, 17: 3, 18: 3, 19: 2, 14: 1}, {1: 15})
    plays = texts(position, (6, 1))
    assert "14/20 19/20" in plays


# --- rule 6: as many dice as possible; the higher die ----------------------------------------
def test_must_use_both_dice() -> None:
    err = rule_of("1/7", START, (6, 5))
    assert err.key == "use_both" and str(err) == "you must use both dice"


def test_must_play_the_higher_die_when_only_one_can_be_played() -> None:
    position = pos({1: 14, 5: 1}, {1: 14, 4: 1})
    assert texts(position, (6, 5)) == {"5/11"}
    err = rule_of("5/10", position, (6, 5))
    assert err.key == "higher_die" and "you must play the higher die" in str(err)


# --- R3: never shut the opponent in (the Greek text's trap) ----------------------------------
def trap() -> Position:
    # He holds his 24, 1, 2, 3, 4, 5; all the opponent's checkers sit on the opponent's 11 and 24.
    return pos({24: 2, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 10: 3}, {11: 10, 24: 5})


def test_trap_position_shuts_the_opponent_in() -> None:
    assert not opponent_can_move(trap().board, 0, Rules())


def test_r3_he_must_open_a_point() -> None:
    plays = legal_plays(trap(), (2, 1))
    assert plays and all(opponent_can_move(p.result.board, 0, Rules()) for p in plays)
    err = rule_of("10/11/13", trap(), (2, 1))
    assert err.rule == "R3"


def test_r3_lapses_when_every_play_shuts_him_in() -> None:
    # His checkers wait on his 6 behind my wall on 19-24 (his 7-12) and on his 24. With 6-6 my wall
    # cannot move (bearing off is not allowed yet), so every play leaves him shut in.
    position = pos({1: 3, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, {6: 10, 24: 5})
    assert not opponent_can_move(position.board, 0, Rules())
    plays = legal_plays(position, (6, 6))
    assert plays and not plays[0].is_pass
    assert all(not opponent_can_move(p.result.board, 0, Rules()) for p in plays)


# --- rule 8: passing --------------------------------------------------------------------------
def test_pass_when_no_step_is_legal_and_pass_text() -> None:
    position = pos({13: 1, 14: 2, 15: 3, 16: 3, 17: 3, 18: 3}, {8: 3, 9: 3, 10: 3, 11: 3, 12: 3})
    assert parse_play("pass", position, (6, 6)).is_pass
    err = rule_of("pass", START, (6, 5))
    assert err.key == "cannot_pass"
    assert rule_of("13/19", position, (6, 6)).key == "must_pass"
