"""Errors of the rules engine: all subclass ValueError and carry a message key for translation."""

from __future__ import annotations

from typing import Any


class FevgaError(ValueError):
    """Base class: a message in English plus a stable ``key`` and ``args`` for other languages."""

    key: str = "error"

    def __init__(self, message: str, key: str | None = None, **args: Any) -> None:
        super().__init__(message)
        if key is not None:
            self.key = key
        self.args_map: dict[str, Any] = args


class PositionError(FevgaError):
    """A position is invalid (wrong checker counts, two colours on a point, bad position id)."""

    key = "bad_position"


class DiceError(FevgaError):
    """Dice out of range or not the dice of the turn."""

    key = "bad_dice"


class NotationError(FevgaError):
    """The text of a play is malformed: it cannot even be read as steps."""

    key = "bad_notation"


class IllegalPlayError(FevgaError):
    """The play is readable but breaks a rule; ``rule`` names which (e.g. ``R1``, ``runner``)."""

    key = "illegal_play"

    def __init__(self, message: str, key: str | None = None, rule: str = "", **args: Any) -> None:
        super().__init__(message, key, **args)
        self.rule = rule


class GameStateError(FevgaError):
    """An action that does not fit the state of the game (game over, not your turn, ...)."""

    key = "bad_state"


class SerializationError(FevgaError):
    """Stored data is corrupt, tampered with, or of an unknown version."""

    key = "corrupt_data"


class IllegalStepError(IllegalPlayError):
    """A (from point, die) step of the step builder that cannot be part of any legal play."""

    key = "bad_step"
