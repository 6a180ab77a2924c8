"""The mutable state a Portes/Plakoto walk changes step by step, and the protocol of a game's step rule."""

from __future__ import annotations

from typing import Any, Protocol

from .position import TavliPosition


class StepState:
    """Board, pins, both bars and the mover's borne-off count, changed in place by ``apply``/``undo``."""

    __slots__ = ("bar", "board", "obar", "off", "pins")

    def __init__(self, position: TavliPosition) -> None:
        self.board = list(position.board)
        self.pins = list(position.pins)
        self.bar = position.me_bar
        self.obar = position.opp_bar
        self.off = position.me_off


class StepRule(Protocol):
    """One game's rule of a single step (``fevga.variants.portes.PortesSteps``, ``...plakoto.PlakotoSteps``)."""

    game: str

    @staticmethod
    def facts(s: StepState) -> Any: ...

    @staticmethod
    def landing(s: StepState, p: int, d: int, facts: Any) -> int: ...

    @staticmethod
    def apply(s: StepState, p: int, t: int) -> int: ...

    @staticmethod
    def undo(s: StepState, p: int, t: int, flag: int) -> None: ...

    @staticmethod
    def key(s: StepState) -> tuple[Any, ...]: ...

    @staticmethod
    def from_key(key: tuple[Any, ...], start: TavliPosition) -> TavliPosition: ...

    @staticmethod
    def position(s: StepState, start: TavliPosition) -> TavliPosition: ...
