"""A whole play packed into a play button's token and back: digits only, so it fits Telegram's 64 bytes.
Portes and Plakoto: from point 0 is the bar, and a landing that hits or pins is written 50 higher."""

from __future__ import annotations

from collections.abc import Sequence

from fevga.rules import OFF

HIT = 50  # added to a landing that hits (Portes) or pins (Plakoto)


def play_code(steps: Sequence[tuple[int, int]], hits: Sequence[bool] = ()) -> str:
    """A whole play's steps as digits for a play button: two for each from and to, ``01070712`` for 1/7 7/12;
    ``hits`` (one per step) marks the landings that hit or pin (``13/8*``)."""
    marks = list(hits) + [False] * (len(steps) - len(hits))
    return "".join(f"{a:02d}{b + (HIT if hit else 0):02d}" for (a, b), hit in zip(steps, marks, strict=True))


def play_text(code: str) -> str | None:
    """The play a :func:`play_code` stands for, as typed (``1/7 7/12``, ``19/off``, ``bar/3*``); None if it is
    not one."""
    if not code.isdigit() or not code.isascii() or len(code) % 4 or not 4 <= len(code) <= 16:
        return None
    steps: list[str] = []
    for at in range(0, len(code), 4):
        a, b = int(code[at : at + 2]), int(code[at + 2 : at + 4])
        hit = b > HIT
        b -= HIT if hit else 0
        if not (0 <= a <= 24 and a < b <= OFF) or (hit and b == OFF):
            return None
        steps.append(f"{'bar' if a == 0 else a}/{'off' if b == OFF else b}{'*' if hit else ''}")
    return " ".join(steps)


def steps_code(path: Sequence[tuple[int, int]]) -> str:
    """Clicked (from point, die) steps as digits for a puzzle's step button: three each, ``016075`` for a 6 from
    point 1 then a 5 from point 7 (``""`` for none)."""
    return "".join(f"{point:02d}{die}" for point, die in path)


def steps_of(code: str) -> tuple[tuple[int, int], ...] | None:
    """The steps a :func:`steps_code` stands for (at most four, a double's); None if it is not one."""
    if not code.isascii() or (code and not code.isdigit()) or len(code) % 3 or len(code) > 12:
        return None
    path = tuple((int(code[at : at + 2]), int(code[at + 2])) for at in range(0, len(code), 3))
    return path if all(0 <= point <= 24 and 1 <= die <= 6 for point, die in path) else None
