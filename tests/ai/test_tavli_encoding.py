"""The Portes and Plakoto network inputs and game ends (fevga.ai.games, encoding_portes/plakoto)."""

from __future__ import annotations

import numpy as np
import pytest

from fevga import legal_plays
from fevga.ai import encoding_plakoto, encoding_portes
from fevga.ai.games import kind, result_points
from fevga.variants import TavliPosition

from .tavli_samples import random_tavli_positions

PER_SIDE = {"portes": encoding_portes.PER_SIDE, "plakoto": encoding_plakoto.PER_SIDE}


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_inputs_are_the_same_for_both_sides_of_the_start(game):
    k = kind(game)
    x = k.encode([k.start()])
    per = PER_SIDE[game]
    assert x.shape == (1, k.n_inputs) == (1, 2 * per + 1)
    assert np.array_equal(x[0, :per], x[0, per : 2 * per])
    assert x[0, -1] == 0.0  # not a race


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_flipping_a_position_swaps_the_side_blocks(game):
    k = kind(game)
    per = PER_SIDE[game]
    sample = [p for p, _ in random_tavli_positions(game, 40, seed=7)]
    x = k.encode(sample)
    y = k.encode([p.flip() for p in sample])
    assert np.array_equal(x[:, :per], y[:, per : 2 * per])
    assert np.array_equal(x[:, per : 2 * per], y[:, :per])
    assert np.array_equal(x[:, -1], y[:, -1])
    after, points = k.afterstates(sample)  # the afterstate inputs are the opponent's view
    assert np.array_equal(after, y)
    assert np.isnan(points).all() == all(result_points(p) is None for p in sample)


def test_portes_bar_blots_and_shots():
    me = [0] * 24
    opp = [0] * 24
    me[0], me[11], me[16], me[18] = 2, 4, 3, 5  # one of the 5 on my 12 is on the bar
    opp[0], opp[11], opp[16], opp[18] = 2, 5, 3, 5
    pos = TavliPosition.from_tavli_lists("portes", me, opp, me_bar=1)
    x = kind("portes").encode([pos])[0]
    assert x[96] == 0.5 and x[97] == 1.0  # the mover's bar
    assert x[encoding_portes.PER_SIDE + 97] == 0.0  # the opponent has none there
    lone = [0] * 24
    lone[5], lone[18] = 1, 14  # a blot on my 6, six pips in front of his checkers on my 12
    his = [0] * 24
    his[12] = 15  # his 13 = my 12
    blot = TavliPosition.from_tavli_lists("portes", lone, his)
    x = kind("portes").encode([blot])[0]
    assert x[101] == pytest.approx(1 / 15)
    # shots at distance 6: 6-x (11), 5-1 and 4-2 (4), 3-3 and 2-2 (2) = 17 of 36
    assert x[102] == pytest.approx(17 / 36)


def test_plakoto_pins_and_mothers():
    me = [0] * 24
    opp = [0] * 24
    me[0], me[15], me[17] = 1, 12, 2  # my mother, alone, with his checker on it
    opp[23], opp[0] = 1, 14  # his 24 = my 1: he pins my mother
    pos = TavliPosition.from_tavli_lists("plakoto", me, opp, me_pin=[1])
    x = kind("plakoto").encode([pos])[0]
    assert x[96] == 1.0 and x[120] == 1.0  # pinned on my point 1: the mother
    assert x[126] == pytest.approx(1 / 15)
    # the opponent pinned my mother and still has 14 checkers on his point 1: the game goes on
    assert result_points(pos.flip()) is None


@pytest.mark.parametrize(
    ("board", "pins", "me_off", "opp_off", "points"),
    [
        # I bore off all 15 and he none: a mars
        ((0,) * 23 + (-15,), (0,) * 24, 15, 0, 2.0),
        ((0,) * 23 + (-14,), (0,) * 24, 15, 1, 1.0),
        # his mother pinned under mine, none of mine left on my point 1: I win 2
        ((0,) * 18 + (5, 5, 3, 0, 0, 2), (0,) * 23 + (-1,), 0, 14, 2.0),
        # both mothers pinned: a draw
        ((-1,) + (0,) * 17 + (5, 5, 3, 0, 0, 1), (1,) + (0,) * 22 + (-1,), 0, 13, 0.0),
    ],
)
def test_plakoto_ends(board, pins, me_off, opp_off, points):
    pos = TavliPosition(board, me_off, opp_off, "plakoto", pins)
    assert result_points(pos) == points


def test_a_winning_portes_play_is_seen_as_the_end():
    me = [0] * 24
    me[23] = 1
    opp = [0] * 24
    opp[20] = 14  # his 21 = my 4
    pos = TavliPosition.from_tavli_lists("portes", me, opp, 14, 1)
    (play,) = legal_plays(pos, (6, 1))
    assert result_points(play.result) == 1.0
    mars = TavliPosition.from_tavli_lists("portes", me, [0] * 5 + [15] + [0] * 18, 14, 0)
    assert result_points(legal_plays(mars, (6, 1))[0].result) == 2.0
