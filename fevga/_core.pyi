"""Type stub of the compiled core (fevga/_core.c)."""

from collections.abc import Sequence
from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from .play import Play
from .position import Position
from .rules import Rules
from .variants.plakoto import PlakotoSteps
from .variants.portes import PortesSteps
from .variants.position import TavliPosition
from .variants.tavli import TavliPlay

def init(position_cls: type[Position], play_cls: type[Play], /) -> None: ...
def legal_plays(position: Position, dice: tuple[int, int], rules: Rules, /) -> list[Play]: ...
def encode(positions: Sequence[Position], flip: bool, out: NDArray[np.float64] | NDArray[np.float32], /) -> None: ...
@overload
def reply_inputs(
    positions: Sequence[Position], unlock_point: int, strict: bool, extended: bool, /
) -> tuple[bytes, bytes]: ...
@overload
def reply_inputs(
    positions: Sequence[Position], unlock_point: int, strict: bool, extended: bool, out: NDArray[np.float32], /
) -> tuple[int, bytes]: ...
def plays_answer(request: Any, /) -> str | None: ...
def init_tavli(
    position_cls: type[TavliPosition],
    play_cls: type[TavliPlay],
    portes: type[PortesSteps],
    plakoto: type[PlakotoSteps],
    /,
) -> None: ...
def tavli_legal_plays(position: TavliPosition, dice: tuple[int, int], /) -> list[Play]: ...
def encode_tavli(positions: Sequence[TavliPosition], flip: bool, out: NDArray[np.float64], /) -> None: ...
@overload
def tavli_reply_inputs(positions: Sequence[TavliPosition], /) -> tuple[bytes, bytes, bytes]: ...
@overload
def tavli_reply_inputs(positions: Sequence[TavliPosition], out: NDArray[np.float32], /) -> tuple[int, bytes, bytes]: ...
def tavli_outcomes(positions: Sequence[TavliPosition], out: NDArray[np.float64], /) -> None: ...
