"""Batched search (all replies of all 21 rolls in one forward pass) gives today's answers: the same
equities within 1e-6 (the forward pass runs in float32, whose last bits depend on the block size),
so the same chosen plays, on a seeded sample of positions."""

from __future__ import annotations

import numpy as np
import pytest

from fevga import DEFAULT_RULES, Rules, legal_plays
from fevga.ai.evaluate import play_equities
from fevga.ai.network import default_network
from fevga.ai.search import one_ply, two_ply
from tests.engine.positions import pos

from . import unbatched
from .conftest import random_positions


@pytest.fixture(scope="module")
def cases():
    return random_positions(30, seed=99)


def assert_same(new: np.ndarray, old: np.ndarray) -> None:
    assert new.shape == old.shape
    assert np.array_equal(np.isnan(new), np.isnan(old))
    both = ~np.isnan(old)
    assert np.allclose(new[both], old[both], rtol=0.0, atol=1e-6), (new, old)
    if both.any():
        assert int(np.nanargmax(new)) == int(np.nanargmax(old))


def test_zero_ply_equities_match_the_unbatched_ones(cases):
    net = default_network()
    for position, dice in cases:
        plays = legal_plays(position, dice)
        assert_same(play_equities(net, plays), unbatched.play_equities(net, plays))


@pytest.mark.parametrize("max_work", [None, 3000, 400])
def test_one_ply_matches_the_unbatched_search(cases, max_work):
    net = default_network()
    rules = Rules(unlock_point=14) if max_work == 400 else DEFAULT_RULES
    checked = 0
    for position, dice in cases:
        plays = legal_plays(position, dice, rules)[:8]
        new = one_ply(net, plays, rules, max_work)
        assert_same(new, unbatched.one_ply(net, plays, rules, max_work))
        checked += int((~np.isnan(new)).sum())
    assert checked > 30


def test_two_ply_matches_the_unbatched_search(cases):
    net = default_network()
    for position, dice in cases[:4]:
        plays = legal_plays(position, dice)[:2]
        assert_same(two_ply(net, plays, DEFAULT_RULES), unbatched.two_ply(net, plays, DEFAULT_RULES))


def test_game_ending_plays_score_their_points():
    net = default_network()

    # Last checker home on 24 with 6-5: bearing it off ends the game; the opponent has none off (mars).
    position = pos({24: 1}, {1: 15}, me_off=14)
    plays = legal_plays(position, (6, 5))
    assert [p.result.me_off for p in plays] == [15]
    assert list(play_equities(net, plays)) == [2.0]
    assert list(one_ply(net, plays, DEFAULT_RULES)) == [2.0]
