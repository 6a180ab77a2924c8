"""Dice statistics: hand counts on fixed rolls and seeds, the incomplete gamma function against known values,
and the chi-square p-value of fair and loaded dice."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from bot.i18n import translate
from bot.service.dice_info import tally_messages
from bot.service.dice_stats import (
    EXPECTED_PIPS,
    MIN_ROLLS,
    ROLLS,
    Tally,
    chi_square_p,
    expected_share,
    first_mover,
    seat_rolls,
    tally_records,
    upper_gamma_q,
    verdict,
)
from fevga import FairDice, Game, Rules, game_to_dict


def test_twenty_one_rolls_and_expected_pips() -> None:
    assert len(ROLLS) == 21 and len(set(ROLLS)) == 21
    assert pytest.approx(294 / 36) == EXPECTED_PIPS  # 8.17: doubles counted as four steps
    assert round(EXPECTED_PIPS, 2) == 8.17


def test_hand_counts_of_a_written_game() -> None:
    """Turns alternate from the starter (the higher opening die); passes are rolls too."""
    game = {"first": None, "opening": ["25"], "turns": ["31:1/4 1/2", "66:pass", "13:4/5 5/8", "42:2/6", "x:odd"]}
    assert first_mover(game) == 1  # 2 < 5: seat 1 starts
    first, second = seat_rolls(game)
    assert second == [(3, 1), (3, 1)]
    assert first == [(6, 6), (4, 2)]
    tally = Tally().add(first)
    assert (tally.rolls, tally.doubles) == (2, 1)
    assert tally.average_pips == pytest.approx((24 + 6) / 2)


def test_tally_of_a_fixed_seed_matches_the_engine_rolls() -> None:
    """A game played on a fixed seed: the tally per seat is the engine's own rolls of that seat, counted here."""
    game = Game.new(Rules(), FairDice(b"\x07" * 32))
    rng = random.Random(3)
    for _ in range(40):
        if game.outcome is not None:
            break
        game.play(rng.choice(game.legal_plays()))
    record: dict[str, Any] = {"players": [["discord", "1", "a"], ["discord", "2", "b"]],
                              "game": game_to_dict(game, reveal_seed=True)}
    rolls = [r.dice for r in game.history]
    starter = first_mover(record["game"])
    for seat, uid in ((0, "1"), (1, "2")):
        mine = rolls[(seat ^ starter)::2]  # the starter made turns 0, 2, 4, ...
        tally = tally_records([record], "discord", uid)
        assert tally.rolls == len(mine) > 0
        for hi, lo in ROLLS:
            assert tally.counts[(hi, lo)] == sum(1 for d in mine if sorted(d, reverse=True) == [hi, lo])
    assert tally_records([record], "discord", "3").rolls == 0  # not his game


@pytest.mark.parametrize("x", [0.1, 1.0, 3.5, 10.0, 40.0])
def test_incomplete_gamma_known_values(x: float) -> None:
    assert upper_gamma_q(1, x) == pytest.approx(math.exp(-x), rel=1e-12)
    assert upper_gamma_q(0.5, x) == pytest.approx(math.erfc(math.sqrt(x)), rel=1e-10)
    closed = math.exp(-x) * sum(x**k / math.factorial(k) for k in range(10))  # integer s = 10
    assert upper_gamma_q(10, x) == pytest.approx(closed, rel=1e-10)


def test_chi_square_table_values() -> None:
    """Critical values of the chi-square table at 20 degrees of freedom."""
    assert chi_square_p(31.410, 20) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_p(45.315, 20) == pytest.approx(0.001, abs=1e-5)
    assert chi_square_p(19.337, 20) == pytest.approx(0.5, abs=1e-3)
    assert chi_square_p(0.0, 20) == 1.0
    with pytest.raises(ValueError):
        upper_gamma_q(0, 1.0)


def _fair(n: int, seed: bytes) -> Tally:
    dice = FairDice(seed)
    rolls = [dice.roll(k) for k in range(n)]
    return Tally().add((max(a, b), min(a, b)) for a, b in rolls)


def test_ten_thousand_fair_rolls() -> None:
    tally = _fair(10_000, b"\x01" * 32)
    assert tally.rolls == 10_000
    assert tally.doubles / 10_000 == pytest.approx(1 / 6, abs=0.015)
    assert tally.average_pips == pytest.approx(EXPECTED_PIPS, abs=0.15)
    assert tally.p_value() > 0.001
    assert verdict(tally.p_value()) in ("fair", "unusual")


def test_p_values_of_fair_dice_spread_evenly() -> None:
    """Under fair dice the p-value is uniform: of 40 sets of 10,000 rolls, a few fall below 0.25, not all."""
    rng = random.Random(11)
    ps = []
    for _ in range(40):
        tally = Tally().add(tuple(sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True))  # type: ignore[misc]
                            for _ in range(10_000))
        ps.append(tally.p_value())
    low = sum(p < 0.25 for p in ps)
    assert 2 <= low <= 20  # expected 10 of 40
    assert min(ps) > 1e-4


def test_loaded_dice_are_very_unusual() -> None:
    rng = random.Random(5)
    rolls = [(6, 6) if rng.random() < 0.06 else tuple(sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True))
             for _ in range(10_000)]
    tally = Tally().add(rolls)  # type: ignore[arg-type]
    assert tally.p_value() < 0.001
    assert verdict(tally.p_value()) == "very_unusual"


def test_too_few_rolls_give_no_verdict_and_one_roll_is_singular() -> None:
    """Below MIN_ROLLS (every roll expected at least 5 times: 5 * 36 = 180) the chi-square p-value means nothing:
    the figures are kept, the verdict is replaced by how many rolls it takes; "1 roll in 1 game", not "1 rolls"."""
    assert MIN_ROLLS == 180 == 5 / min(expected_share(r) for r in ROLLS)
    one = tally_messages(Tally().add([(5, 2)]), "Friend", 1)
    assert [m.key for m in one] == ["dice_summary", "dice_rolls", "dice_too_few"]
    assert "52:1/0" in one[1].args["rows"]  # the counts are still shown
    assert one[2].args == {"rolls": 1, "needed": 180, "expected": 5}
    english = [translate(m.key, "en", **m.args) for m in one]
    assert english[0].startswith("Friend: 1 roll in 1 game; doubles 0")
    assert "180" in english[2] and "p =" not in " ".join(english) and "Chi-square" not in " ".join(english)
    greek = [translate(m.key, "el", **m.args) for m in one]
    assert greek[0].startswith("Friend: 1 ζαριά σε 1 παρτίδα·") and "180" in greek[2] and "p =" not in greek[2]
    many = tally_messages(Tally().add([(5, 2)] * 7), "Friend", 2)
    assert translate(many[0].key, "en", **many[0].args).startswith("Friend: 7 rolls in 2 games;")
    assert translate(many[0].key, "el", **many[0].args).startswith("Friend: 7 ζαριές σε 2 παρτίδες·")


def test_the_verdict_starts_at_min_rolls() -> None:
    fair = Tally().add(roll for roll in ROLLS for _ in range(10 if roll[0] == roll[1] else 20))  # exactly expected
    assert fair.rolls == 2 * MIN_ROLLS and fair.testable
    assert tally_messages(fair, "a", 3)[-1].key == "dice_verdict_fair"
    short = _fair(MIN_ROLLS - 1, b"\x02" * 32)
    assert not short.testable and tally_messages(short, "a", 3)[-1].key == "dice_too_few"
    enough = _fair(MIN_ROLLS, b"\x02" * 32)
    assert enough.testable and tally_messages(enough, "a", 3)[-1].key.startswith("dice_verdict_")
