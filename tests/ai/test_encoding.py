"""Encoding sanity: flipping the view swaps the two sides' inputs exactly."""

from __future__ import annotations

import numpy as np

from fevga import Position
from fevga.ai.encoding import N_INPUTS, PER_SIDE, boards_of, encode, encode_afterstates, flip_boards


def test_flip_boards_matches_position_flip(sample_positions):
    positions = [p for p, _ in sample_positions]
    flipped = flip_boards(*boards_of(positions))
    expected = boards_of([p.flip() for p in positions])
    for got, want in zip(flipped, expected, strict=True):
        assert np.array_equal(got, want)


def test_flipping_swaps_the_sides(sample_positions):
    positions = [p for p, _ in sample_positions]
    x = encode(positions)
    y = encode([p.flip() for p in positions])
    assert x.shape == (len(positions), N_INPUTS)
    assert np.array_equal(x[:, :PER_SIDE], y[:, PER_SIDE : 2 * PER_SIDE])
    assert np.array_equal(x[:, PER_SIDE : 2 * PER_SIDE], y[:, :PER_SIDE])
    assert np.array_equal(x[:, -1], y[:, -1])


def test_afterstate_inputs_are_the_flipped_position(sample_positions):
    positions = [p for p, _ in sample_positions]
    assert np.array_equal(encode_afterstates(positions), encode([p.flip() for p in positions]))


def test_start_position_is_symmetric_and_readable():
    x = encode([Position.start()])[0]
    assert np.array_equal(x[:PER_SIDE], x[PER_SIDE : 2 * PER_SIDE])
    # 15 checkers on point 1: >=1, >=2, >=3 set and (15 - 3) / 2 = 6 in the fourth unit.
    assert list(x[0:4]) == [1.0, 1.0, 1.0, 6.0]
    assert x[96] == 0.0  # none borne off
    assert x[97] == 15 * 24 / 200.0  # pips
    assert x[98] == 0.0  # not unlocked
    assert x[-1] == 0.0 or x[-1] == 1.0


def test_blocking_points_are_counted_ahead_of_the_rearmost_checker():
    # My points 14, 15, 16 are the opponent's 3, 4, 5: ahead of his checkers on his point 1.
    me = [0] * 24
    me[0] = 12
    me[13] = me[14] = me[15] = 1
    opp = [0] * 24
    opp[0] = 15
    x = encode([Position.from_lists(me, opp)])[0]
    # On his track my 14, 15, 16 are his 3, 4, 5 and my 1 is his 13: all within 12 of his 1.
    assert x[101] == 4 / 6.0
    assert x[102] == 3 / 6.0  # the longest run: his 3-5
    assert x[103] == 4 / 12.0
    # His only point (his 1 = my 13) is 12 points ahead of my rearmost checkers on my point 1.
    assert x[PER_SIDE + 101] == 1 / 6.0
    assert x[PER_SIDE + 103] == 1 / 12.0
    assert x[-1] == 0.0  # not a race
