"""The compiled Portes and Plakoto generator (fevga._core.tavli_legal_plays) against the pure-Python
reference (fevga.variants.tavli.tavli_legal_plays): the same plays in the same order with the same
recorded and canonical steps, hits and result positions (both sides); the rules' invariants on every
play (checkers conserved, pins never stacked, bar first); and the loader's switch between the paths."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fevga import DiceError, accel
from fevga.ai.games import result_points
from fevga.movegen import legal_plays
from fevga.play import Play
from fevga.variants import TavliPlay, TavliPosition, tavli_legal_plays
from fevga.variants.position import validate_tavli

from .tavli_placements import any_position
from .tavli_positions import tpos

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
GAMES = ("portes", "plakoto")


def assert_same_plays(position: TavliPosition, dice: tuple[int, int], canonical: bool = True) -> list[Play]:
    """The built extension (a missing build fails here: CI installs a compiler) against the reference,
    field by field, and the invariants every play must keep. The canonical steps and hits are worked
    out in Python from the fields compared here; ``canonical`` compares them too (slower)."""
    want = tavli_legal_plays(position, dice)
    got = accel.compiled().tavli_legal_plays(position, dice)
    assert [p.result for p in got] == [p.result for p in want]
    assert [p._steps for p in got] == [p._steps for p in want]  # the recorded (walk-order) steps
    for mine, ref in zip(got, want, strict=True):
        assert type(mine) is TavliPlay and isinstance(ref, TavliPlay)
        assert mine.start is position and mine.dice == dice
        assert mine._rule is ref._rule and mine._rules is None and mine._hits is None
        result, other = mine.result, ref.result
        assert isinstance(result, TavliPosition) and isinstance(other, TavliPosition)
        assert result.game == position.game
        assert (result.pins, result.me_bar, result.opp_bar) == (other.pins, other.me_bar, other.opp_bar)
        assert result.opp_off == position.opp_off
        # checkers conserved on both sides, a pinned checker always under a pinner, one per point at most
        r = result
        validate_tavli(r.game, r.board, r.pins, r.me_bar, r.opp_bar, r.me_off, r.opp_off)
        entering = [k for k, (src, _) in enumerate(mine._steps) if src == 0]
        if r.me_bar:  # bar first: while one is still on the bar, every step entered
            assert len(entering) == len(mine._steps)
        else:  # the recorded order is a real order of play: the entries come first
            assert entering == list(range(position.me_bar))
        if canonical:
            assert mine.steps == ref.steps and mine.hits == ref.hits
    return got


@st.composite
def tavli_positions(draw: st.DrawFn) -> TavliPosition:
    rng = random.Random(draw(st.integers(0, 2**32)))
    return any_position(draw(st.sampled_from(GAMES)), rng)


@settings(max_examples=80, deadline=None)
@given(tavli_positions())
def test_compiled_plays_equal_the_reference_for_all_rolls(position: TavliPosition) -> None:
    for dice in ROLLS:
        assert_same_plays(position, dice, canonical=False)


@pytest.mark.parametrize("game", GAMES)
def test_random_self_play_cases_match(game: str) -> None:
    """Random self-play, every turn's roll compared (the benchmark runs 100,000 per game)."""
    rng = random.Random(26)
    cases = 0
    while cases < 1500:
        position = TavliPosition.start(game)
        while cases < 1500:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            play = rng.choice(assert_same_plays(position, dice))
            cases += 1
            if result_points(play.result) is not None:  # 15 off, or the mother rule
                break
            after = play.result.flip()
            assert isinstance(after, TavliPosition)
            position = after


def test_hits_pins_bar_and_passes_come_out_whole() -> None:
    """Hand-picked cases from RULES-TAVLI.md: a hit on an in-between landing (P-2), entering with a
    hit (P-3), a blocked entry (P-4), a pin and its release in one play (K-4), a pass (K-7)."""
    p2 = tpos("portes", {10: 1, 19: 4, 20: 4, 21: 3, 22: 3}, {14: 1, 16: 1, 1: 3, 2: 3, 3: 3, 4: 2, 5: 2})
    plays = {str(p): p for p in assert_same_plays(p2, (6, 4))}
    assert set(plays) == {"10/14* 14/20", "10/16* 16/20", "10/16* 19/23", "10/16* 20/24"}
    hit_between = plays["10/14* 14/20"]
    assert isinstance(hit_between.result, TavliPosition) and hit_between.result.opp_bar == 1
    assert hit_between.hits == (True, False) and hit_between.result.board[13] == 0
    p4 = tpos("portes", {12: 3, 17: 4, 19: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 15: 5}, me_bar=2)
    assert [str(p) for p in assert_same_plays(p4, (6, 5))] == ["bar/6"]
    assert assert_same_plays(p4, (5, 4))[0].is_pass
    k4 = tpos("plakoto", {1: 15}, {7: 1, 24: 14})
    plays = {str(p): p for p in assert_same_plays(k4, (6, 5))}
    assert set(plays) == {"1/6 1/7*", "1/7* 7/12"}
    pinned, released = plays["1/6 1/7*"].result, plays["1/7* 7/12"].result
    assert isinstance(pinned, TavliPosition) and isinstance(released, TavliPosition)
    assert pinned.pins[6] == -1 and released.pins[6] == 0
    k7 = tpos("plakoto", {19: 4, 20: 4, 21: 1, 22: 3, 23: 3}, {21: 1, 24: 12, 15: 2}, my_pinned=(21,))
    assert assert_same_plays(k7, (6, 5))[0].is_pass


def test_legal_plays_takes_the_compiled_path_and_the_pure_one_on_request() -> None:
    start = TavliPosition.start("plakoto")
    with accel.compiled_path():
        fast = legal_plays(start, (6, 6))
    with accel.pure_python():
        slow = legal_plays(start, (6, 6))
    assert [p.result for p in fast] == [p.result for p in slow] and len(fast) == 4
    assert [p.steps for p in fast] == [p.steps for p in slow]


@pytest.mark.parametrize("dice", [(0, 3), (3, 7), (True, 2), (2.0, 3), (1, 2, 3), None, (2**70, 1)], ids=repr)
def test_invalid_dice_raise_the_same_error(dice: object) -> None:
    start = TavliPosition.start("portes")
    with pytest.raises(DiceError) as want:
        tavli_legal_plays(start, dice)  # type: ignore[arg-type]
    with pytest.raises(DiceError) as got:
        accel.compiled().tavli_legal_plays(start, dice)
    assert str(got.value) == str(want.value) and got.value.key == want.value.key


def test_dice_as_a_list_work_like_a_tuple() -> None:
    start = TavliPosition.start("portes")
    got = accel.compiled().tavli_legal_plays(start, [6, 5])
    assert got == tavli_legal_plays(start, (6, 5))
    assert all(p.dice == (6, 5) and isinstance(p.dice, tuple) for p in got)


def test_a_broken_position_is_refused_not_walked() -> None:
    """Positions built without validation (``_make``) that the search could not represent."""
    core = accel.compiled()
    start = TavliPosition.start("portes")
    too_many = TavliPosition._make("portes", start.board, start.pins, 3, 0, 0, 0)
    with pytest.raises(ValueError, match="15 checkers"):
        core.tavli_legal_plays(too_many, (6, 5))
    wrong_game = TavliPosition._make("fevga", start.board, start.pins, 0, 0, 0, 0)
    with pytest.raises(ValueError, match="portes"):
        core.tavli_legal_plays(wrong_game, (6, 5))
    with pytest.raises(TypeError):
        core.tavli_legal_plays(object(), (6, 5))


def test_a_finished_game_passes() -> None:
    done = TavliPosition.from_tavli_lists("portes", [0] * 24, [0] * 23 + [15], 15, 0)
    for dice in ((6, 5), (2, 2)):
        assert [p.is_pass for p in assert_same_plays(done, dice)] == [True]
