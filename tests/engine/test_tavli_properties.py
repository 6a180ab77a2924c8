"""Properties of Portes and Plakoto over random positions and rolls (hypothesis): checker
conservation, at most one pinned checker per point and only under a holder, bar first, each play's
steps re-apply to its result, flip and id round trips, the notation round trip."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fevga import format_play, legal_plays, parse_play
from fevga.variants import TavliPosition
from fevga.variants.position import validate_tavli
from fevga.variants.tavli import replay

from .tavli_positions import random_tavli_position
from .tavli_reference import key, reference_plays, sides


def check_invariants(p: TavliPosition) -> None:
    """Raise AssertionError unless ``p`` is a sound position (validation, pins, flip, id)."""
    validate_tavli(p.game, p.board, p.pins, p.me_bar, p.opp_bar, p.me_off, p.opp_off)
    for i, pin in enumerate(p.pins):
        assert pin in (-1, 0, 1)
        if pin:  # one pinned checker under the other player's stack
            assert p.board[i] * pin < 0
    if p.game == "plakoto":
        assert p.me_bar == p.opp_bar == 0
    else:
        assert not any(p.pins)
    assert p.flip().flip() == p
    assert TavliPosition.from_id(p.id()) == p
    assert sum(p.me) + p.me_bar + p.me_off == 15 and sum(p.opp) + p.opp_bar + p.opp_off == 15


def random_placement(game: str, rng: random.Random) -> TavliPosition:
    """Any valid placement (not necessarily reachable): bars in Portes, random pins in Plakoto."""
    board = [0] * 24
    pins = [0] * 24
    me_off = rng.choice([0, 0, rng.randint(0, 14)])
    opp_off = rng.choice([0, 0, rng.randint(0, 14)])
    me_bar = min(rng.choice([0, 0, 1, 2]), 15 - me_off) if game == "portes" else 0
    opp_bar = min(rng.choice([0, 0, 1]), 15 - opp_off) if game == "portes" else 0
    mine, his = 15 - me_off - me_bar, 15 - opp_off - opp_bar
    if game == "plakoto":
        for _ in range(rng.randint(0, 2)):
            i = rng.randrange(24)
            if board[i] == 0 and mine > 1 and his > 1:
                if rng.random() < 0.5:
                    board[i], pins[i] = -1, 1  # my checker pinned under one of his
                else:
                    board[i], pins[i] = 1, -1
                mine -= 1
                his -= 1
    for _ in range(mine):
        free = [i for i in range(24) if board[i] >= 0 and pins[i] != 1]
        board[rng.choice(free)] += 1
    for _ in range(his):
        free = [i for i in range(24) if board[i] <= 0 and pins[i] != -1]
        board[rng.choice(free)] -= 1
    return TavliPosition(tuple(board), me_off, opp_off, game, tuple(pins), me_bar, opp_bar)


positions = st.builds(
    lambda game, seed, reached: (random_tavli_position if reached else random_placement)(game, random.Random(seed)),
    st.sampled_from(["portes", "plakoto"]),
    st.integers(0, 10**9),
    st.booleans(),
)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@given(positions, dice)
def test_every_play_keeps_the_invariants(position: TavliPosition, roll: tuple[int, int]) -> None:
    check_invariants(position)
    plays = legal_plays(position, roll)
    assert plays
    assert len({p.result for p in plays}) == len(plays)  # one play per position left
    n = len(plays[0].steps)
    for play in plays:
        result = play.result
        assert isinstance(result, TavliPosition)
        check_invariants(result)
        assert len(play.steps) == n  # all use the most steps
        if play.is_pass:
            assert result == position
            continue
        assert replay(position, play.steps, roll) == (result, play.hits)
        froms = [a for a, _ in play.steps]
        if position.me_bar:  # bar first: the bar empties before any other checker moves
            entered = froms.count(0)
            assert froms[:entered] == [0] * entered
            assert entered == len(froms) or entered == position.me_bar
        assert result.opp_off == position.opp_off
        assert result.opp_bar >= position.opp_bar


@given(positions, dice)
def test_notation_round_trip(position: TavliPosition, roll: tuple[int, int]) -> None:
    for play in legal_plays(position, roll)[:12]:
        for text in (format_play(play), format_play(play, compact=True), format_play(play).replace("*", "")):
            assert parse_play(text, position, roll) == play


@settings(max_examples=80)
@given(positions, dice)
def test_same_plays_as_the_brute_force_reference(position: TavliPosition, roll: tuple[int, int]) -> None:
    me, him = sides(position)
    expected = reference_plays(position.game, me, him, roll)
    got = {key(*sides(p.result)) for p in legal_plays(position, roll)}
    assert got == expected
