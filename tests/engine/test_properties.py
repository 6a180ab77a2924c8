"""Property tests over random positions and dice, and a cross-check against a literal reference."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from fevga import Position, Rules, format_play, legal_plays, parse_play
from fevga.position import validate

from . import reference
from .positions import random_game_position, random_placement

dice_st = st.tuples(st.integers(1, 6), st.integers(1, 6))
rules_st = st.builds(Rules, unlock_point=st.sampled_from([13, 14]), strict_start_quarter=st.booleans())


@st.composite
def positions(draw: st.DrawFn) -> Position:
    rng = random.Random(draw(st.integers(0, 2**32)))
    return random_game_position(rng) if draw(st.booleans()) else random_placement(rng)


def to_reference(p: Position) -> reference.Pos:
    return (tuple([0, *p.me]), tuple([0, *p.opp]), p.me_off, p.opp_off)


@given(positions(), dice_st, rules_st)
def test_plays_respect_invariants(position: Position, dice: tuple[int, int], rules: Rules) -> None:
    plays = legal_plays(position, dice, rules)
    assert plays
    lengths = {len(p.steps) for p in plays}
    assert len(lengths) == 1  # every play uses the same (maximum) number of steps
    assert len({p.result for p in plays}) == len(plays)  # no two plays leave the same position
    for play in plays:
        result = play.result
        validate(result.board, result.me_off, result.opp_off)  # 15 checkers each
        assert result.opp == position.opp and result.opp_off == position.opp_off  # the opponent is untouched
        assert all(a < b for a, b in play.steps)  # checkers only move forward
        before = position.me
        after = result.me
        for k in range(24):  # no checker ever moves backwards: counts at or beyond k never shrink
            assert sum(after[k:]) + result.me_off >= sum(before[k:]) + position.me_off


@given(positions(), dice_st, rules_st)
def test_generator_matches_the_literal_reference(position: Position, dice: tuple[int, int], rules: Rules) -> None:
    plays = legal_plays(position, dice, rules)
    fast = {to_reference(p.result) for p in plays}
    slow = reference.legal_results(to_reference(position), dice, rules.unlock_point, rules.strict_start_quarter)
    assert fast == slow


@given(positions(), dice_st)
def test_parse_of_format_is_the_same_play(position: Position, dice: tuple[int, int]) -> None:
    for play in legal_plays(position, dice):
        assert parse_play(format_play(play), position, dice) == play
        assert parse_play(format_play(play, compact=True), position, dice) == play
        reordered = " ".join(reversed(format_play(play).split(" ")))
        try:
            again = parse_play(reordered, position, dice)
        except ValueError:
            continue  # a chain typed backwards may need its order; the position decides
        assert again == play


@given(positions())
def test_position_id_round_trips(position: Position) -> None:
    assert Position.from_id(position.id()) == position
    assert position.flip().flip() == position
    assert eval(repr(position), {"Position": Position}) == position
