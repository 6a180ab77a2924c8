"""One way to read a whole number typed by a user or carried in a button token.

``str.isdigit()`` is true for superscripts such as ``²`` that ``int()`` refuses, so every number in the
command language and in tokens goes through :func:`whole_number`, which never raises.
"""

from __future__ import annotations

MAX_DIGITS = 12  # longer inputs are never a valid count, point, version or length


def whole_number(text: str) -> int | None:
    """The integer ``text`` stands for, as ``int()`` reads it, or None when it is not one."""
    if not text or len(text) > MAX_DIGITS:
        return None
    try:
        return int(text)
    except ValueError:
        return None
