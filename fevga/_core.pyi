"""Type stub of the compiled core (fevga/_core.c)."""

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .play import Play
from .position import Position
from .rules import Rules

def init(position_cls: type[Position], play_cls: type[Play], /) -> None: ...
def legal_plays(position: Position, dice: tuple[int, int], rules: Rules, /) -> list[Play]: ...
def encode(positions: Sequence[Position], flip: bool, out: NDArray[np.float64], /) -> None: ...
def plays_answer(request: Any, /) -> str | None: ...
