"""Portes/Plakoto notation and diagnosis: ``bar``, ``*`` (optional on input, written on output),
Greek letters, illegal entries named by their rule key, and the hand-checked rules of RULES-TAVLI.md."""

from __future__ import annotations

import pytest

from fevga import Board, IllegalPlayError, NotationError, Position, format_play, legal_plays, parse_play
from fevga.variants import PortesRules, TavliPosition

from .tavli_positions import tpos

P1 = TavliPosition.start("portes")
P2 = tpos("portes", {10: 1, 19: 4, 20: 4, 21: 3, 22: 3}, {14: 1, 16: 1, 1: 3, 2: 3, 3: 3, 4: 2, 5: 2})
P3 = tpos("portes", {12: 4, 17: 3, 19: 4, 20: 3}, {2: 2, 3: 1, 4: 3, 6: 3, 8: 6}, me_bar=1)
P5 = tpos("portes", {24: 14}, {11: 2, 19: 13}, me_bar=1)
K2 = tpos("plakoto", {1: 13, 3: 1, 7: 1}, {7: 1, 10: 1, 24: 13}, my_pinned=(7,))
K4 = tpos("plakoto", {1: 15}, {7: 1, 24: 14})
K7 = tpos("plakoto", {19: 4, 20: 4, 21: 1, 22: 3, 23: 3}, {21: 1, 24: 12, 15: 2}, my_pinned=(21,))


def rule_key(text: str, position: TavliPosition, dice: tuple[int, int]) -> str:
    with pytest.raises(IllegalPlayError) as info:
        parse_play(text, position, dice)
    return info.value.key


def test_star_is_optional_and_written_after_each_hit() -> None:
    play = parse_play("10/14/20", P2, (6, 4))
    assert play == parse_play("10/14*/20", P2, (6, 4)) == parse_play("10/14*/20*", P2, (6, 4))
    assert format_play(play, compact=True) == "10/14*/20" and play.hits == (True, False)
    assert play.result.opp_bar == 1 and play.result.board[13] == 0 and play.result.board[15] == -1  # hit on 14


def test_bar_forms_and_greek_letters() -> None:
    assert str(parse_play("bar/3/9", P3, (6, 3))) == "bar/3* 3/9"
    assert parse_play("bar/γ*/ι", P3, (6, 3)) == parse_play("bar/3 3/9", P3, (6, 3))
    assert format_play(parse_play("bar/5/9", P5, (5, 4)), compact=True) in ("bar/5/9", "bar/4/9")
    two = tpos("portes", {12: 3, 17: 4, 19: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 15: 7}, me_bar=2)
    play = parse_play("bar/5(2) 5/10(2)", two, (5, 5))
    assert format_play(play, compact=True) == "bar/5/10(2)" and play.steps[:2] == ((0, 5), (0, 5))


def test_pin_and_release_within_one_play() -> None:
    play = parse_play("1/7/12", K4, (6, 5))
    assert format_play(play, compact=True) == "1/7*/12" and play.hits == (True, False)
    assert play.result.pins[6] == 0 and play.result.board[6] == -1


@pytest.mark.parametrize(
    ("position", "dice", "text", "key"),
    [
        (P3, (6, 3), "12/18 17/20", "bar_first"),
        (P3, (6, 3), "bar/6 12/15", "blocked"),
        (P5, (6, 5), "bar/5", "higher_die"),
        (P1, (6, 5), "1/7", "use_both"),
        (P1, (6, 5), "1/6 12/18", "blocked"),
        (K2, (4, 3), "7/11 1/4", "pinned"),
        (K2, (4, 3), "3/7 1/4", "own_pinned_point"),
        (K7, (4, 3), "22/off 19/23", "bear_off_pinned"),
        (P2, (6, 4), "19/off 10/14", "not_all_home"),
        (K2, (4, 3), "2/6 1/4", "no_checker"),
        (P1, (6, 5), "bar/5 12/18", "no_bar_checker"),
    ],
)
def test_illegal_entries_name_their_rule(position: TavliPosition, dice: tuple[int, int], text: str, key: str) -> None:
    assert rule_key(text, position, dice) == key


def test_rule_messages_match_the_spec() -> None:
    with pytest.raises(IllegalPlayError, match="a checker on the bar must enter first"):
        parse_play("12/18 17/20", P3, (6, 3))
    with pytest.raises(IllegalPlayError, match="point 6 is blocked"):
        parse_play("bar/6 12/15", P3, (6, 3))
    with pytest.raises(IllegalPlayError, match="your checker on 7 is pinned"):
        parse_play("7/11 1/4", K2, (4, 3))
    with pytest.raises(IllegalPlayError, match="you cannot land on 7: your own checker is pinned there"):
        parse_play("3/7 1/4", K2, (4, 3))
    with pytest.raises(IllegalPlayError, match="you cannot bear off while a checker of yours is pinned"):
        parse_play("22/off 19/23", K7, (4, 3))


def test_more_steps_from_a_point_than_checkers_there_says_how_many() -> None:
    """Plakoto, 6-6, three checkers on 15: ``15/21(4)`` moves all three and then finds none; the error says there
    are only three, not that there are none (a point with no checker at all still says so)."""
    three = tpos("plakoto", {1: 12, 15: 3}, {24: 15})
    with pytest.raises(IllegalPlayError, match="you have only 3 checkers on point 15") as info:
        parse_play("15/21(4)", three, (6, 6))
    assert info.value.key == "only_checkers" and info.value.args_map == {"point": 15, "count": 3}
    assert info.value.rule == "steps"
    one = tpos("portes", {1: 14, 15: 1}, {24: 15})
    with pytest.raises(IllegalPlayError, match="you have only 1 checker on point 15") as info:
        parse_play("15/21 15/19", one, (6, 4))
    assert info.value.args_map == {"point": 15, "count": 1}
    assert rule_key("14/20(4)", three, (6, 6)) == "no_checker"
    assert rule_key("1/7 7/13 7/13 15/21", three, (6, 6)) == "only_checkers"  # one arrived on 7 and left
    two_out = tpos("portes", {12: 3, 17: 4, 19: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 6: 2, 15: 5}, me_bar=2)
    for text in ("bar/5(3)", "bar/5 bar/5 bar/5"):  # from the bar too: "only 2 on the bar", not "none"
        with pytest.raises(IllegalPlayError, match="you have only 2 checkers on the bar") as info:
            parse_play(text, two_out, (5, 5))
        assert info.value.key == "only_bar_checkers" and info.value.args_map == {"count": 2}


@pytest.mark.parametrize(
    ("position", "text", "key"),
    [
        (K4, "bar/6", "no_bar"),
        (Position.start(), "bar/6", "no_bar"),
        (P3, "3/bar", "to_bar"),
        (P3, "bar/x", "bad_token"),
    ],
)
def test_notation_errors(position: Position, text: str, key: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_play(text, position, (6, 3))
    assert info.value.key == key and isinstance(info.value, ValueError)


def test_pass_rules() -> None:
    assert parse_play("pass", P3, (4, 2)).is_pass
    assert rule_key("pass", P3, (6, 3)) == "cannot_pass"
    assert rule_key("bar/4", P3, (4, 2)) == "must_pass"


def test_a_checker_hit_during_bear_off_stops_bearing_off() -> None:
    me_bearing_off = tpos("portes", {19: 3, 20: 4, 22: 1, 23: 5}, {24: 2, 1: 13}, me_off=2)
    board = Board(me_bearing_off.flip(), 1, PortesRules())
    board.push(board.parse("1/3*/4", (2, 1)))  # his 3 is my 22: my blot goes to my bar
    mine = board.position
    assert isinstance(mine, TavliPosition) and mine.me_bar == 1
    plays = board.legal_plays((6, 3))
    assert plays and all(25 not in (b for _, b in p.steps) for p in plays)
    assert all(p.steps[0][0] == 0 for p in plays)
    assert rule_key("23/off 19/22", mine, (6, 3)) == "bar_first"
    assert rule_key("bar/6 23/off", mine, (6, 3)) == "not_all_home"  # entered, but not home


def test_any_step_order_matches_the_position_left() -> None:
    for play in legal_plays(P1, (6, 5)):
        steps = list(play.steps)
        text = " ".join(f"{a}/{b}" for a, b in reversed(steps))
        assert parse_play(text, P1, (6, 5)) == play
