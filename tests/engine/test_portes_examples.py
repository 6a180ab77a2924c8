"""RULES-TAVLI.md worked examples P-1..P-9 (Portes): each listed set is the complete set of legal plays."""

from __future__ import annotations

import pytest

from fevga import IllegalPlayError, legal_plays, parse_play
from fevga.variants import TavliPosition

from .tavli_positions import assert_plays, tpos

START = TavliPosition.start("portes")


def test_start_layout_is_symmetric_and_named() -> None:
    assert START.me == [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, 0]
    assert START.opp == START.me
    assert START.flip() == START
    assert START.id().startswith("portes:")


def test_p1_start_six_five() -> None:
    listed = ["1/7/12", "1/7 12/17", "1/7 17/22", "12/18 12/17", "12/18 17/22", "12/18/23", "17/23 17/22"]
    assert_plays(START, (6, 5), listed)


def test_p1_same_play_two_ways() -> None:
    a = [p for p in legal_plays(START, (6, 5)) if str(p) == "12/18 18/23"]
    assert len(a) == 1
    assert parse_play("12/17 17/23", START, (6, 5)) == a[0]


P2 = tpos("portes", {10: 1, 19: 4, 20: 4, 21: 3, 22: 3}, {14: 1, 16: 1, 1: 3, 2: 3, 3: 3, 4: 2, 5: 2})


def test_p2_hits_and_in_between_hit() -> None:
    assert_plays(P2, (6, 4), ["10/14*/20", "10/16*/20", "10/16* 19/23", "10/16* 20/24"])


def test_p2_different_hits_are_different_plays() -> None:
    plays = {str(p): p for p in legal_plays(P2, (6, 4))}
    a, b = plays["10/14* 14/20"], plays["10/16* 16/20"]
    assert a.result.me == b.result.me and a.result.opp_bar == b.result.opp_bar == 1
    assert a != b and a.result.board[13] == 0 and b.result.board[13] == -1


P3 = tpos("portes", {12: 4, 17: 3, 19: 4, 20: 3}, {2: 2, 3: 1, 4: 3, 6: 3, 8: 6}, me_bar=1)


def test_p3_blocked_entry_passes() -> None:
    assert_plays(P3, (4, 2), ["pass"])
    assert_plays(P3, (2, 2), ["pass"])


def test_p3_hitting_on_entry() -> None:
    assert_plays(P3, (6, 3), ["bar/3*/9", "bar/3* 12/18", "bar/3* 17/23"])
    assert str(legal_plays(P3, (6, 3))[0]).startswith("bar/3*")


P4 = tpos("portes", {12: 3, 17: 4, 19: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 15: 5}, me_bar=2)


def test_p4_two_on_the_bar_rest_of_turn_lost() -> None:
    assert_plays(P4, (6, 5), ["bar/6"])
    assert_plays(P4, (5, 4), ["pass"])


P5 = tpos("portes", {24: 14}, {11: 2, 19: 13}, me_bar=1)


def test_p5_entering_and_the_higher_die() -> None:
    assert_plays(P5, (6, 5), ["bar/6"])
    assert_plays(P5, (5, 4), ["bar/5/9"])
    assert_plays(P5, (5, 4), ["bar/4/9"])


P6 = tpos("portes", {10: 1, 24: 14}, {21: 2, 1: 13})


def test_p6_higher_die_in_the_field_and_bear_off_in_mid_turn() -> None:
    assert_plays(P6, (6, 5), ["10/16"])
    assert_plays(P6, (5, 5), ["10/15/20/off 24/off"])
    assert_plays(P6, (5, 4), ["10/15/19"])
    assert_plays(P6, (5, 4), ["10/14/19"])


P7 = tpos("portes", {20: 2, 22: 1, 23: 1}, {1: 15}, me_off=11)


def test_p7_bearing_off() -> None:
    assert_plays(P7, (6, 2), ["20/off 20/22", "20/off 22/24", "20/off 23/off"])
    assert_plays(P7, (6, 5), ["20/off(2)"])
    assert_plays(P7, (4, 4), ["20/24(2) 22/off 23/off"])


P8 = tpos("portes", {19: 3, 21: 3, 22: 5, 23: 3}, {24: 4, 8: 11}, me_off=1)


def test_p8_higher_die_rule_while_bearing_off() -> None:
    assert_plays(P8, (5, 4), ["19/23", "21/off"])


P9 = tpos("portes", {23: 1}, {20: 1, 13: 14}, me_off=14)


def test_p9_last_checker_same_play_two_ways() -> None:
    assert_plays(P9, (3, 1), ["23/off"])
    assert_plays(P9, (3, 1), ["23/24/off"])


def test_p2_an_entry_that_leaves_two_different_positions_asks_for_the_landing() -> None:
    """`10/20` could hit either blot (P-2: two plays): it is refused, naming both, and changes nothing;
    with the landing written it is one play, `*` or not."""
    with pytest.raises(IllegalPlayError) as refused:
        parse_play("10/20", P2, (6, 4))
    assert refused.value.key == "ambiguous_play" and refused.value.args_map["count"] == 2
    assert sorted(refused.value.args_map["options"].split(" or ")) == ["10/14*/20", "10/16*/20"]
    assert str(parse_play("10/14/20", P2, (6, 4))) == "10/14* 14/20"
    assert str(parse_play("10/16*/20", P2, (6, 4))) == "10/16* 16/20"
    assert str(parse_play("16/20 10/16", P2, (6, 4))) == "10/16* 16/20"


def test_two_checkers_entering_on_a_double_may_be_written_as_whole_moves() -> None:
    """Both checkers enter before either moves on; `bar/10(2)` and `bar/10 bar/10` say so as well as
    the engine's own `bar/5/10(2)`."""
    position = tpos("portes", {12: 3, 17: 4, 19: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 6: 2, 15: 5}, me_bar=2)
    want = parse_play("bar/5/10(2)", position, (5, 5))
    assert want.result.me_bar == 0 and want.result.board[9] == 2
    for text in ("bar/10(2)", "bar/10 bar/10", "bar/5 bar/5 5/10(2)", "μπαρ/10(2)", "μπάρα/10(2)", "ΜΠΑΡΑ/10(2)"):
        assert parse_play(text, position, (5, 5)) == want
