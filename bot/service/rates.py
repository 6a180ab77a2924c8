"""A player's rolling list of analysed error rates (for ``stats``): read, add to, average."""

from __future__ import annotations

import json

RATES_KEPT = 20  # the average in ``stats`` is over this many analysed games
RATES_TTL = 400 * 86400  # as long as a rating document


def parse(raw: bytes | None) -> list[tuple[str, float]]:
    """A stored list ``[[game key, error rate], ...]`` (newest last), or empty when missing or unreadable."""
    if raw is None:
        return []
    try:
        return [(str(name), float(rate)) for name, rate in json.loads(raw)][-RATES_KEPT:]
    except (ValueError, TypeError):
        return []


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
