"""Dice behind an injectable source, and provably fair dice.

A fair game draws a secret 32-byte seed and publishes ``sha256(seed)`` at its start. Roll ``k`` is
derived from ``HMAC-SHA256(seed, k)`` (k as 8 bytes big-endian) by unbiased rejection sampling: bytes
of 252 or more are skipped, the others give ``byte % 6 + 1``. When the seed is revealed at the end,
:func:`verify` recomputes every roll of the record.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Protocol

from .errors import DiceError

Roll = tuple[int, int]


class DiceSource(Protocol):
    """Anything that gives roll number ``k`` (0, 1, 2, ...) of a game as two dice."""

    def roll(self, k: int) -> Roll: ...


def check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    """Return the dice as a pair of ints 1..6, or raise DiceError."""
    try:
        a, b = dice
    except (TypeError, ValueError):
        raise DiceError("dice are a pair of numbers from 1 to 6", key="bad_dice") from None
    for d in (a, b):
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            raise DiceError("each die is a number from 1 to 6", key="bad_dice")
    return a, b


def _dice_from_bytes(seed: bytes, k: int) -> Roll:
    out: list[int] = []
    block = 0
    while len(out) < 2:
        msg = k.to_bytes(8, "big") if block == 0 else k.to_bytes(8, "big") + block.to_bytes(4, "big")
        digest = hmac.new(seed, msg, hashlib.sha256).digest()
        for byte in digest:
            if byte < 252:
                out.append(byte % 6 + 1)
                if len(out) == 2:
                    break
        block += 1
    return out[0], out[1]


class FairDice:
    """Provably fair dice: a secret seed, its public sha256 commitment, HMAC-derived rolls."""

    name = "fair"

    def __init__(self, seed: bytes | None = None) -> None:
        self.seed = seed if seed is not None else secrets.token_bytes(32)
        if not isinstance(self.seed, bytes) or len(self.seed) < 16:
            raise DiceError("a dice seed is at least 16 bytes", key="bad_seed")

    @property
    def commitment(self) -> str:
        return hashlib.sha256(self.seed).hexdigest()

    def roll(self, k: int) -> Roll:
        return _dice_from_bytes(self.seed, k)


class RandomDice:
    """Ordinary pseudo-random dice for simulations and the AI's self-play (not for real games)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def roll(self, k: int) -> Roll:
        return self._rng.randint(1, 6), self._rng.randint(1, 6)


class FixedDice:
    """Scripted rolls, for tests and replays: roll k is ``rolls[k]``."""

    name = "fixed"

    def __init__(self, rolls: Iterable[Roll]) -> None:
        self.rolls = [tuple(r) for r in rolls]

    def roll(self, k: int) -> Roll:
        if k >= len(self.rolls):
            raise DiceError(f"no scripted roll number {k}", key="dice_exhausted")
        a, b = self.rolls[k]
        return int(a), int(b)


def verify(seed_hex: str, commitment: str, rolls: Sequence[Sequence[int]]) -> bool:
    """True when ``sha256(seed) == commitment`` and ``rolls[k]`` is roll k of that seed for every k."""
    try:
        seed = bytes.fromhex(seed_hex)
    except (ValueError, TypeError):
        return False
    if not hmac.compare_digest(hashlib.sha256(seed).hexdigest(), str(commitment).lower()):
        return False
    return all(tuple(r) == _dice_from_bytes(seed, k) for k, r in enumerate(rolls))
