"""Reading players' rating documents so that damage never blocks a match end: a damaged document (bad
prefix, bad JSON, absurd numbers, too large, or a key of the wrong type) is reset, with a log line."""

from __future__ import annotations

import json
import logging
import math
from typing import Any

from bot.storage.base import DamagedKey, DamagedValue, Store, split_versioned

from . import keys

log = logging.getLogger(__name__)

MAX_DOC = 4096  # a rating document is ~150 bytes
UNPREFIXED = -1  # what the commit script reads as the version of a string without a version prefix
WRONG_TYPE = -2  # not a string at all: no version check is possible, the key is replaced
Doc = tuple[str, str]  # (board scope, user id)


def new_stats() -> dict[str, Any]:
    """A player's stats before his first rated match."""
    return {"r": 1500.0, "rd": 350.0, "vol": 0.06, "w": 0, "l": 0, "pts": 0, "mars": 0, "st": 0, "best": 0, "g": 0}


def parse_stats(raw: bytes) -> tuple[int, dict[str, Any]]:
    """(version, stats) of a stored document; DamagedValue (a ValueError) when it does not add up."""
    if len(raw) > MAX_DOC:
        raise DamagedValue("rating document too large")
    version, blob = split_versioned(raw)
    data = json.loads(blob)
    if not isinstance(data, dict):
        raise DamagedValue("rating document is not an object")
    for name, low, high in (("r", -10_000.0, 10_000.0), ("rd", 0.0, 1000.0), ("vol", 0.0, 10.0)):
        value = data.get(name)
        if not isinstance(value, int | float) or not math.isfinite(value) or not low <= value <= high:
            raise DamagedValue(f"rating document has a bad {name!r}")
    return version, data


async def read_stats(store: Store, docs: list[Doc]) -> dict[Doc, tuple[int, dict[str, Any]]]:
    """Each document's (version, stats); a damaged one comes back fresh with ``_damaged`` set and the
    version to check (:data:`UNPREFIXED` / :data:`WRONG_TYPE` when there is no usable prefix)."""
    wrong: set[str] = set()
    while True:
        wanted = [d for d in docs if keys.player_stats(*d) not in wrong]
        try:
            raws = await store.read([("get", keys.player_stats(*d)) for d in wanted])
            break
        except DamagedKey as exc:
            if exc.key in wrong or len(wrong) >= len(docs):
                raise
            log.error("rating document %s has the wrong type; it will be reset", exc.key)
            wrong.add(exc.key)
    out: dict[Doc, tuple[int, dict[str, Any]]] = {}
    for doc in docs:
        out[doc] = (WRONG_TYPE, {**new_stats(), "_damaged": True})
    for doc, raw in zip(wanted, raws, strict=True):
        if raw is None:
            out[doc] = (0, new_stats())
            continue
        try:
            out[doc] = parse_stats(raw)
        except (ValueError, TypeError) as exc:
            log.error("rating document %s is damaged (%s); it will be reset", keys.player_stats(*doc), exc)
            try:
                version = split_versioned(raw)[0]
            except ValueError:
                version = UNPREFIXED
            out[doc] = (version, {**new_stats(), "_damaged": True})
    return out
