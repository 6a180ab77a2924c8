"""Dice statistics ("are the dice rigged?"): tally the rolls of kept game records and test them against fair dice.

Pure functions, no I/O: the rolls of each seat are read from a record's turns (``"62:1/7 7/9"``), tallied over
the 21 distinct rolls, and compared with the expected rates (each double 1/36, each other roll 2/36) by a
chi-square test whose p-value comes from the regularized upper incomplete gamma function below (scipy is not a
dependency of the bot).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Roll = tuple[int, int]

ROLLS: tuple[Roll, ...] = tuple((hi, lo) for hi in range(6, 0, -1) for lo in range(hi, 0, -1))  # 66, 65, .. 11
EXPECTED_PIPS = sum((4 * hi if hi == lo else hi + lo) * (1 if hi == lo else 2) for hi, lo in ROLLS) / 36  # 8.17
DOUBLES_RATE = 1 / 6
DEGREES = len(ROLLS) - 1  # 20 degrees of freedom for the chi-square test of 21 frequencies
UNUSUAL = 0.05  # below this p-value the counts are unusual for fair dice
VERY_UNUSUAL = 0.001  # below this, very unusual
MIN_EXPECTED = 5  # every roll's expected count must reach this before the chi-square test is trusted
# The p-value comes from the chi-square distribution, an approximation that holds only when no roll is expected
# too rarely: the usual rule (Cochran's) asks for an expected count of at least 5 in every cell. The rarest
# rolls are the doubles (1/36), so that takes 5 * 36 = 180 rolls; with fewer, no verdict is given at all (a
# p-value from a handful of rolls says nothing about the dice, however it comes out).
MIN_ROLLS = MIN_EXPECTED * 36  # 180: a double, the rarest roll, is expected once in 36 rolls


def expected_share(roll: Roll) -> float:
    """The chance of ``roll`` (high die first) with fair dice: 1/36 for a double, 2/36 otherwise."""
    return (1 if roll[0] == roll[1] else 2) / 36


def pips(roll: Roll) -> int:
    """The pips a roll moves: a double counts four steps."""
    return 4 * roll[0] if roll[0] == roll[1] else roll[0] + roll[1]


def read_roll(text: str) -> Roll | None:
    """``"62"`` or ``"26"`` -> ``(6, 2)``; anything that is not two dice 1-6 -> None."""
    if len(text) != 2 or not all("1" <= c <= "6" for c in text):
        return None
    a, b = int(text[0]), int(text[1])
    return (max(a, b), min(a, b))


def first_mover(game: Mapping[str, Any]) -> int:
    """The seat that made the game's first turn: ``first`` when set, else the higher die of the last opening
    roll (the same rule as the ``.mat`` export)."""
    first = game.get("first")
    if first in (0, 1):
        return int(first)
    opening = game.get("opening") or []
    last = str(opening[-1]) if opening else ""
    if len(last) == 2 and last.isdigit():
        return 0 if int(last[0]) > int(last[1]) else 1
    return 0


def seat_rolls(game: Mapping[str, Any]) -> tuple[list[Roll], list[Roll]]:
    """The rolls each seat made in a game dict (turns alternate; passes are rolls too). Opening rolls (one die
    each, to decide who starts) are not counted; an unreadable turn is skipped but keeps the alternation."""
    out: tuple[list[Roll], list[Roll]] = ([], [])
    seat = first_mover(game)
    for turn in game.get("turns") or []:
        roll = read_roll(str(turn).split(":", 1)[0])
        if roll is not None:
            out[seat].append(roll)
        seat ^= 1
    return out


@dataclass
class Tally:
    """Counts of the 21 rolls (high die first) of one player or one game."""

    counts: dict[Roll, int] = field(default_factory=lambda: dict.fromkeys(ROLLS, 0))

    def add(self, rolls: Iterable[Roll]) -> Tally:
        """Count more rolls; returns itself."""
        for roll in rolls:
            self.counts[roll] += 1
        return self

    @property
    def rolls(self) -> int:
        """How many rolls were counted."""
        return sum(self.counts.values())

    @property
    def doubles(self) -> int:
        """How many of them were doubles."""
        return sum(n for (hi, lo), n in self.counts.items() if hi == lo)

    @property
    def average_pips(self) -> float:
        """Average pips per roll (doubles four steps); 0 with no rolls."""
        total = self.rolls
        return sum(pips(r) * n for r, n in self.counts.items()) / total if total else 0.0

    def chi_square(self) -> float:
        """Pearson's chi-square statistic of the 21 counts against fair dice."""
        total = self.rolls
        if total == 0:
            return 0.0
        return sum((n - total * expected_share(r)) ** 2 / (total * expected_share(r)) for r, n in self.counts.items())

    @property
    def testable(self) -> bool:
        """Whether there are enough rolls (``MIN_ROLLS``) for the chi-square test to mean anything."""
        return self.rolls >= MIN_ROLLS

    def p_value(self) -> float:
        """The chance fair dice give a chi-square at least this large (20 degrees of freedom)."""
        return chi_square_p(self.chi_square(), DEGREES)


def verdict(p: float) -> str:
    """The p-value in plain words, as a catalogue key suffix: ``fair``, ``unusual`` or ``very_unusual``."""
    if p < VERY_UNUSUAL:
        return "very_unusual"
    return "unusual" if p < UNUSUAL else "fair"


def chi_square_p(statistic: float, degrees: int) -> float:
    """Upper tail of the chi-square distribution: Q(degrees / 2, statistic / 2)."""
    return upper_gamma_q(degrees / 2, statistic / 2)


def upper_gamma_q(s: float, x: float, eps: float = 1e-14, limit: int = 1000) -> float:
    """The regularized upper incomplete gamma function Q(s, x) = Γ(s, x) / Γ(s), for s > 0 and x >= 0:
    the series of P for x < s + 1, Lentz's continued fraction otherwise (Numerical Recipes §6.2)."""
    if s <= 0 or x < 0 or math.isnan(x):
        raise ValueError("Q(s, x) needs s > 0 and x >= 0")
    if x == 0:
        return 1.0
    log_front = s * math.log(x) - x - math.lgamma(s)
    if x < s + 1:
        term = total = 1 / s
        a = s
        for _ in range(limit):
            a += 1
            term *= x / a
            total += term
            if abs(term) < abs(total) * eps:
                break
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - s
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, limit):
        an = -i * (i - s)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < eps:
            break
    return min(1.0, math.exp(log_front) * h)


def tally_records(records: Sequence[Mapping[str, Any]], platform: str, user_id: str) -> Tally:
    """Tally the rolls ``user_id`` made in kept records (``records.make_record`` layout)."""
    tally = Tally()
    for record in records:
        for seat, player in enumerate(record.get("players") or []):
            if seat < 2 and [str(player[0]), str(player[1])] == [platform, user_id]:
                tally.add(seat_rolls(record["game"])[seat])
    return tally
