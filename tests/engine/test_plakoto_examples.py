"""RULES-TAVLI.md worked examples K-1..K-9 (Plakoto): each listed set is the complete set of legal plays."""

from __future__ import annotations

from fevga import legal_plays, parse_play
from fevga.variants import TavliPosition

from .tavli_positions import assert_plays, tpos

START = TavliPosition.start("plakoto")


def test_k1_the_start() -> None:
    assert START.flip() == START
    assert_plays(START, (6, 5), ["1/7 1/6", "1/7/12"])
    assert_plays(START, (6, 5), ["1/6/12", "1/6 1/7"])
    assert_plays(START, (6, 6), ["1/7(4)", "1/7(3) 7/13", "1/7(2) 7/13(2)", "1/7 1/7/13/19"])


K2 = tpos("plakoto", {1: 13, 3: 1, 7: 1}, {7: 1, 10: 1, 24: 13}, my_pinned=(7,))


def test_k2_pinning_and_my_own_pinned_checker() -> None:
    assert_plays(K2, (4, 3), ["1/5 1/4", "1/5 3/6", "1/5/8", "3/6/10*"])
    assert_plays(K2, (6, 3), ["1/4/10*", "1/4 3/9", "3/9/12"])


def test_k2_pin_is_marked() -> None:
    play = parse_play("3/6/10", K2, (4, 3))
    assert str(play) == "3/6 6/10*" and play.result.pins[9] == -1


K3 = tpos("plakoto", {6: 1, 10: 1, 22: 6, 23: 7}, {10: 1, 24: 14}, his_pinned=(10,))


def test_k3_adding_to_my_pinning_point_and_releasing() -> None:
    assert_plays(K3, (4, 1), ["6/10/11", "6/10 22/23", "10/14 6/7", "10/14/15", "10/14 22/23"])
    assert_plays(K3, (4, 4), ["6/10/14/18/22", "6/10/14 10/14/18"])
    held = parse_play("6/10/11", K3, (4, 1)).result
    freed = parse_play("10/14/15", K3, (4, 1)).result
    assert held.pins[9] == -1 and freed.pins[9] == 0 and freed.board[9] == -1


K4 = tpos("plakoto", {1: 15}, {7: 1, 24: 14})


def test_k4_pin_on_an_in_between_landing() -> None:
    assert_plays(K4, (6, 5), ["1/7* 1/6", "1/7*/12"])
    assert_plays(K4, (6, 5), ["1/6/12", "1/6 1/7"])
    assert_plays(K4, (6, 1), ["1/7* 1/2", "1/7*/8"])
    assert_plays(K4, (6, 1), ["1/2/8", "1/2 1/7"])
    through = parse_play("1/7/12", K4, (6, 5))
    assert through.result.pins[6] == 0 and through.result.board[6] == -1


K5 = tpos("plakoto", {16: 1, 18: 2, 19: 4, 20: 4, 21: 4}, {24: 1, 5: 7, 3: 7})


def test_k5_pinning_the_mother() -> None:
    listed = [
        "18/24* 16/19", "18/24* 18/21", "18/24* 19/22", "18/24* 20/23", "18/24* 21/24",
        "16/22 21/24*", "16/22 18/21", "16/22 19/22", "16/22 20/23",
    ]
    assert_plays(K5, (6, 3), listed)


K6 = tpos("plakoto", {1: 2, 12: 3, 18: 5, 19: 5}, {24: 1, 5: 7, 3: 7})


def test_k6_plays_exist() -> None:
    assert parse_play("18/24* 12/17", K6, (6, 5)).result.pins[23] == -1
    parse_play("1/7(2) 12/18 18/24*", K6, (6, 6))
    parse_play("1/7 12/18(2) 18/24*", K6, (6, 6))


K7 = tpos("plakoto", {19: 4, 20: 4, 21: 1, 22: 3, 23: 3}, {21: 1, 24: 12, 15: 2}, my_pinned=(21,))


def test_k7_no_bearing_off_while_pinned() -> None:
    assert_plays(K7, (6, 5), ["pass"])
    assert_plays(K7, (4, 3), ["19/23 19/22", "19/23 20/23"])
    assert_plays(K7, (2, 1), ["19/20/22", "20/22/23"])


K8 = tpos("plakoto", {10: 1, 23: 14}, {21: 2, 16: 1, 24: 12})


def test_k8_higher_die_with_a_pin() -> None:
    assert_plays(K8, (6, 5), ["10/16*"])
    assert_plays(K8, (5, 1), ["10/15/16*"])
    assert_plays(K8, (5, 1), ["10/11/16*"])


K9 = tpos("plakoto", {20: 1, 22: 2, 23: 2}, {20: 1, 24: 14}, me_off=10, his_pinned=(20,))


def test_k9_bearing_off_from_a_pinning_point() -> None:
    assert_plays(K9, (6, 1), ["20/off 22/23", "20/21/off"])
    assert_plays(K9, (5, 3), ["20/off 22/off", "20/23 22/off"])
    for play in legal_plays(K9, (6, 1)):
        assert play.result.pins[19] == 0 and play.result.board[19] == -1
