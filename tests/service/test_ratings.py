"""Glicko-2 against Glickman's worked example, and why not the glicko2 package."""

from __future__ import annotations

import glicko2
import pytest

from bot.service.ratings import Rating, rate_game, update

OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_paper_worked_example() -> None:
    new = update(Rating(1500, 200, 0.06), OPPONENTS)
    # the paper prints 1464.06 / 151.52 / 0.05999 (from rounded intermediate values)
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.vol == pytest.approx(0.05999, abs=0.00001)


def test_ratings_are_translation_invariant() -> None:
    """Glicko-2 depends on rating differences only: shifting everyone by 200 shifts the result by 200."""
    base = update(Rating(1500, 200, 0.06), OPPONENTS)
    shifted = update(Rating(1700, 200, 0.06), [(Rating(o.rating + 200, o.rd), s) for o, s in OPPONENTS])
    assert shifted.rating == pytest.approx(base.rating + 200, abs=1e-6)
    assert shifted.rd == pytest.approx(base.rd, abs=1e-9)
    assert shifted.vol == pytest.approx(base.vol, abs=1e-12)


def test_glicko2_package_fails_away_from_1500() -> None:
    """The PyPI package matches the example only because the player is at 1500: its volatility
    function uses the rating where the paper uses the deviation."""
    p = glicko2.Player(1500, 200, 0.06)
    p.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert p.rating == pytest.approx(1464.06, abs=0.02)
    q = glicko2.Player(2100, 200, 0.06)
    q.update_player([2000, 2150, 2300], [30, 100, 300], [1, 0, 0])
    ours = update(Rating(2100, 200, 0.06), [(Rating(o.rating + 600, o.rd), s) for o, s in OPPONENTS])
    base = update(Rating(1500, 200, 0.06), OPPONENTS)
    assert ours.vol == pytest.approx(base.vol, abs=1e-12)  # ours: the same game shifted is the same result
    assert abs(q.vol - p.vol) > 2e-6  # theirs: the same game shifted gives another volatility


def test_one_game_and_provisional_mark() -> None:
    winner, loser = rate_game(Rating(), Rating())
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating, abs=1e-6)
    assert winner.provisional and winner.shown().endswith("?")
    assert not Rating(1600, 100).provisional and Rating(1600.4, 100).shown() == "1600"


def test_no_games_grows_the_deviation() -> None:
    assert update(Rating(1500, 50, 0.06), []).rd == pytest.approx((50**2 + (0.06 * 173.7178) ** 2) ** 0.5)
