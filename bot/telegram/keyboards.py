"""Inline keyboards from the core's ``Button``s, laid out by kind: accept / decline, the step builder's
moves (a point and a die each) in rows of four, undo / confirm, then resign. Each button's callback_data
is the core's opaque token."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.delivery.replies import Button
from bot.logging_setup import get_logger
from bot.service.button_kinds import ButtonKind

CALLBACK_DATA_MAX = 64  # bytes, Telegram's limit for callback_data
STEPS_PER_ROW = 4  # "13→16 (3)": a checker's point, where it lands, and the die
_MAX_LABEL = 64

# Groups of button kinds, laid out top to bottom; within a group buttons keep the core's order.
_LAYOUT: tuple[tuple[tuple[ButtonKind, ...], int], ...] = (
    ((ButtonKind.ACCEPT, ButtonKind.DECLINE, ButtonKind.CANCEL), 3),
    ((ButtonKind.STEP,), STEPS_PER_ROW),
    ((ButtonKind.PLAY,), 2),  # whole plays, e.g. "1/7 7/12"
    ((ButtonKind.UNDO, ButtonKind.CONFIRM), 2),
    ((ButtonKind.RESIGN, ButtonKind.ABORT), 2),
    ((ButtonKind.RESIGN_CONFIRM, ButtonKind.RESIGN_MATCH_CONFIRM), 2),
    ((ButtonKind.HINT, ButtonKind.CLAIM, ButtonKind.REMATCH), 3),
)
LAID_OUT = frozenset(kind for kinds, _ in _LAYOUT for kind in kinds)  # every ButtonKind (a test checks)

log = get_logger(__name__)


def _chunks(items: Sequence[InlineKeyboardButton], size: int) -> Iterable[list[InlineKeyboardButton]]:
    for start in range(0, len(items), size):
        yield list(items[start : start + size])


def _usable(button: Button) -> bool:
    """A token Telegram would refuse (over 64 bytes, or empty) is dropped and logged, never sent."""
    size = len(button.token.encode())
    if not 1 <= size <= CALLBACK_DATA_MAX:
        log.warning("telegram_button_dropped", kind=button.kind, token_bytes=size)
        return False
    return True


def keyboard(buttons: Sequence[Button]) -> InlineKeyboardMarkup | None:
    """The inline keyboard for a reply's buttons (None when there are none)."""
    usable = [b for b in buttons if _usable(b)]
    if not usable:
        return None
    rows: list[list[InlineKeyboardButton]] = []
    for kinds, width in _LAYOUT:
        group = [_inline(b) for b in usable if b.kind in kinds]
        rows.extend(_chunks(group, width))
    return InlineKeyboardMarkup(rows)


def _inline(button: Button) -> InlineKeyboardButton:
    label = button.label.strip()[:_MAX_LABEL] or "·"
    return InlineKeyboardButton(label, callback_data=button.token)
