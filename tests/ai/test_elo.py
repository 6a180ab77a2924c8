"""The ladder's Elo fit (fevga.ai.elo) on synthetic results: equal scores give equal ratings, 75 %
gives about +191, the anchor is 0, the order is kept, a 100 % pairing stays finite, and the
bootstrap interval holds the estimate and narrows with more games."""

from __future__ import annotations

import math
import random

import pytest

from fevga.ai.elo import bootstrap_ladder, elo_of_score, fit_elo


def test_a_known_score_gives_its_elo() -> None:
    assert elo_of_score(0.75) == pytest.approx(190.85, abs=0.01)
    elo = fit_elo({("a", "b"): (150.0, 200)}, ["a", "b"], anchor="b", prior_draws=0)
    assert elo["b"] == 0.0 and elo["a"] == pytest.approx(190.85, abs=0.01)


def test_equal_scores_give_equal_ratings_and_the_anchor_is_zero() -> None:
    results = {("a", "b"): (50.0, 100), ("b", "c"): (50.0, 100), ("a", "c"): (50.0, 100)}
    elo = fit_elo(results, ["a", "b", "c"], anchor="c", prior_draws=0)
    assert elo["c"] == 0.0
    assert elo["a"] == pytest.approx(0.0, abs=1e-6) and elo["b"] == pytest.approx(0.0, abs=1e-6)
    moved = fit_elo({("a", "b"): (150.0, 200)}, ["a", "b"], anchor="a", prior_draws=0)
    assert moved["a"] == 0.0 and moved["b"] == pytest.approx(-190.85, abs=0.01)


def test_the_fit_uses_every_pairing_and_keeps_the_order() -> None:
    # a chain of 75 % scores: each step is worth about 191 Elo, whatever the direction of the pairing
    results = {("b", "a"): (150.0, 200), ("c", "b"): (150.0, 200), ("c", "d"): (50.0, 200)}
    elo = fit_elo(results, ["a", "b", "c", "d"], anchor="a", prior_draws=0)
    assert elo["b"] == pytest.approx(190.85, abs=0.01)
    assert elo["c"] == pytest.approx(381.7, abs=0.02)
    assert elo["d"] == pytest.approx(572.5, abs=0.05)
    # results generated from known ratings are fitted back close to them
    true = {"r": 0.0, "e": 150.0, "m": 400.0, "h": 900.0}
    rng = random.Random(3)
    names = list(true)
    games = {}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            p = 1 / (1 + 10 ** ((true[b] - true[a]) / 400))
            games[(a, b)] = (float(sum(rng.random() < p for _ in range(4000))), 4000)
    fitted = fit_elo(games, names, anchor="r")
    assert sorted(names, key=fitted.__getitem__) == ["r", "e", "m", "h"]
    for name in names:
        assert fitted[name] == pytest.approx(true[name], abs=40)


def test_a_clean_sweep_is_finite_with_the_prior_and_refused_without_it() -> None:
    results = {("strong", "weak"): (200.0, 200), ("strong", "mid"): (120.0, 200), ("mid", "weak"): (120.0, 200)}
    players = ["weak", "mid", "strong"]
    elo = fit_elo(results, players, anchor="weak")
    assert all(math.isfinite(v) for v in elo.values())
    assert 0 < elo["mid"] < elo["strong"]
    with pytest.raises(ValueError, match="infinite"):
        fit_elo({("strong", "weak"): (200.0, 200)}, ["weak", "strong"], anchor="weak", prior_draws=0)


def test_unlinked_players_or_bad_scores_are_refused() -> None:
    with pytest.raises(ValueError, match="do not link"):
        fit_elo({("a", "b"): (10.0, 20), ("c", "d"): (10.0, 20)}, ["a", "b", "c", "d"], anchor="a")
    with pytest.raises(ValueError, match="a score of 30"):
        fit_elo({("a", "b"): (30.0, 20)}, ["a", "b"], anchor="a")
    with pytest.raises(ValueError, match="unknown players"):
        fit_elo({("a", "x"): (10.0, 20)}, ["a", "b"], anchor="a")


def test_the_bootstrap_interval_holds_the_estimate_and_narrows_with_games() -> None:
    rng = random.Random(5)

    def pairs(n: int) -> list[float]:  # a 75 % player: pair scores 0, 1 or 2
        return [float((rng.random() < 0.75) + (rng.random() < 0.75)) for _ in range(n)]

    small = bootstrap_ladder({("a", "b"): pairs(50)}, ["b", "a"], anchor="b", resamples=300)
    large = bootstrap_ladder({("a", "b"): pairs(2000)}, ["b", "a"], anchor="b", resamples=300)
    for ladder in (small, large):
        assert ladder.low["b"] == ladder.high["b"] == ladder.elo["b"] == 0.0
        assert ladder.low["a"] < ladder.elo["a"] < ladder.high["a"]
    assert large.high["a"] - large.low["a"] < (small.high["a"] - small.low["a"]) / 3
    assert large.low["a"] < 191 < large.high["a"]
