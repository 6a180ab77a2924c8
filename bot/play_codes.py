"""A whole play packed into a play button's token and back: digits only, so it fits Telegram's 64 bytes."""

from __future__ import annotations

from collections.abc import Sequence

from fevga.rules import OFF


def play_code(steps: Sequence[tuple[int, int]]) -> str:
    """A whole play's steps as digits for a play button: two for each from and to, ``01070712`` for 1/7 7/12."""
    return "".join(f"{a:02d}{b:02d}" for a, b in steps)


def play_text(code: str) -> str | None:
    """The play a :func:`play_code` stands for, as typed (``1/7 7/12``, ``19/off``); None if it is not one."""
    if not code.isdigit() or not code.isascii() or len(code) % 4 or not 4 <= len(code) <= 16:
        return None
    steps: list[str] = []
    for at in range(0, len(code), 4):
        a, b = int(code[at : at + 2]), int(code[at + 2 : at + 4])
        if not (1 <= a <= 24 and a < b <= OFF):
            return None
        steps.append(f"{a}/{'off' if b == OFF else b}")
    return " ".join(steps)
