"""A player's rolling list of analysed error rates (for ``stats``): read, add to, average.

Stored as a versioned value (``b"<version>:" + JSON``) so that adding to it is a compare-and-set: two
analyses finishing at once both land. A list written before that (plain JSON) reads as version -1."""

from __future__ import annotations

import json

from bot.storage.base import DamagedValue, split_versioned

RATES_KEPT = 20  # the average in ``stats`` is over this many analysed games
RATES_TTL = 400 * 86400  # as long as a rating document


def parse(raw: bytes | None) -> list[tuple[str, float]]:
    """A stored list ``[[game key, error rate], ...]`` (newest last), or empty when missing or unreadable."""
    return versioned(raw)[1]


def versioned(raw: bytes | None) -> tuple[int, list[tuple[str, float]]]:
    """The stored value's version (0: none stored, -1: plain JSON of old) and its list (empty when unreadable)."""
    if raw is None:
        return 0, []
    try:
        version, blob = split_versioned(raw)
    except DamagedValue:
        version, blob = -1, bytes(raw)
    try:
        return version, [(str(name), float(rate)) for name, rate in json.loads(blob)][-RATES_KEPT:]
    except (ValueError, TypeError):
        return version, []


def added(rates: list[tuple[str, float]], entry: str, rate: float) -> list[tuple[str, float]] | None:
    """The list with ``entry`` added (the oldest dropped past 20); None when it is there already."""
    if any(name == entry for name, _ in rates):
        return None
    return [*rates, (entry, rate)][-RATES_KEPT:]


def encode(rates: list[tuple[str, float]]) -> bytes:
    """The stored form."""
    return json.dumps([[name, rate] for name, rate in rates]).encode()


def average(rates: list[tuple[str, float]]) -> tuple[float, int] | None:
    """The mean error rate (one decimal) and how many games, None for an empty list."""
    if not rates:
        return None
    return round(sum(rate for _, rate in rates) / len(rates), 1), len(rates)
