"""One way to read a whole number typed by a user or carried in a button token.

``str.isdigit()`` is true for superscripts such as ``²`` that ``int()`` refuses, so every number in the
command language and in tokens goes through :func:`whole_number`, which never raises. Decimal digits of any
script (Unicode category Nd: ``٣``, ``७``, ``３``) are read; other number signs (category No and Nl:
``²``, ``½``, ``①``, ``Ⅻ``) are not digits, and :func:`not_digits` tells a command to say so.
"""

from __future__ import annotations

MAX_DIGITS = 12  # longer inputs are never a valid count, point, version or length


def whole_number(text: str) -> int | None:
    """The integer ``text`` stands for (decimal digits of any script, an optional leading minus), else None."""
    digits = text[1:] if text.startswith("-") else text
    if not digits or len(text) > MAX_DIGITS or not digits.isdecimal():
        return None
    return int(text)


def not_digits(text: str) -> bool:
    """True when ``text`` is written with number signs that are not decimal digits (``7²``, ``½``, ``①``):
    the player meant a number, and must be told to type it in digits."""
    return any(ch.isnumeric() and not ch.isdecimal() for ch in text)


def ascii_digits(text: str) -> str:
    """``text`` with every decimal digit of any script written as its ASCII digit (``١٤`` -> ``14``)."""
    return "".join(str(int(ch)) if ch.isdecimal() else ch for ch in text)


def shown(word: str, limit: int = 20) -> str:
    """A typed word as an answer quotes it back: whole when short, else cut with an ellipsis (never a digit
    silently lost from a long number)."""
    return word if len(word) <= limit else word[: limit - 1] + "…"
