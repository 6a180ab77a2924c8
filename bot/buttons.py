"""Button tokens: a service Action packed into a short string (≤ 64 bytes, Telegram's limit) and back.

A token carries the action, the game (or challenge) id and the state version, so a stale or forged
button is recognised and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.numbers import whole_number
from bot.replies import TOKEN_MAX_BYTES

CODES = {
    "accept": "A",
    "decline": "D",
    "cancel": "C",
    "step": "S",
    "undo": "U",
    "confirm": "K",
    "resign": "R",
    "resign_confirm": "Y",
    "rematch": "M",
    "claim": "L",
    "abort": "B",
    "hint": "H",
}
KINDS = {code: kind for kind, code in CODES.items()}


@dataclass(frozen=True, slots=True)
class Token:
    """A decoded button: what to do, on which game, at which version, with which step."""

    kind: str
    game_id: str
    version: int
    from_point: int = 0
    die: int = 0


def encode(kind: str, game_id: str, version: int, from_point: int = 0, die: int = 0) -> str:
    """``S.<game>.<version>.<from>.<die>``; raise ValueError if it would not fit a button."""
    parts = [CODES[kind], game_id, str(version)]
    if kind == "step":
        parts += [str(from_point), str(die)]
    token = ".".join(parts)
    if len(token.encode()) > TOKEN_MAX_BYTES:
        raise ValueError("button token too long")
    return token


def decode(token: object) -> Token | None:
    """The token's content, or None for anything that is not a token of ours."""
    if not isinstance(token, str) or len(token.encode()) > TOKEN_MAX_BYTES:
        return None
    parts = token.split(".")
    if len(parts) < 3 or parts[0] not in KINDS or not parts[1]:
        return None
    numbers = [whole_number(part) for part in parts[2:]]
    if any(n is None or n < 0 for n in numbers):
        return None
    kind = KINDS[parts[0]]
    if not all(ch.isalnum() or ch in "-_" for ch in parts[1]):
        return None
    if kind == "step":
        if len(parts) != 5:
            return None
        version, from_point, die = (int(n or 0) for n in numbers)
        if not (1 <= from_point <= 24 and 1 <= die <= 6):
            return None
        return Token(kind, parts[1], version, from_point, die)
    if len(parts) != 3:
        return None
    return Token(kind, parts[1], int(numbers[0] or 0))
