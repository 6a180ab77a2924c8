"""The AI's view of each tavli game besides Fevga: its network inputs, how a play's result ends the
game, its starting position and its shipped weights. Fevga keeps its own modules (``encoding``,
``evaluate``, ``network``) unchanged; code shared by all games asks :func:`kind_of` for the rest.

Outputs of every network: P(win), P(win 2+), P(lose 2+) for the player on roll. A Plakoto draw is
learnt as half a win (target 0.5, 0, 0), which makes its equity 0, the points a draw gives; a mother
win counts as a 2-point win.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from fevga import Position, accel
from fevga.variants import TAVLI_GAMES, TavliPosition, check_game

from . import encoding_plakoto, encoding_portes
from .encoding_tavli import FloatArray, TavliArrays, arrays_of
from .network import Network

HERE = Path(__file__).parent


@dataclass(frozen=True)
class GameKind:
    """What the AI needs to know of one game (Portes or Plakoto)."""

    game: str
    n_inputs: int
    encode_arrays: Callable[[TavliArrays], FloatArray]
    outcomes: Callable[[TavliArrays], FloatArray]
    weights_path: Path

    def start(self) -> TavliPosition:
        """The game's starting position."""
        return TavliPosition.start(self.game)

    def encode(self, positions: Sequence[Position]) -> FloatArray:
        """Inputs for positions seen by the player on roll (the compiled core's when it is loaded)."""
        if accel.core is not None:
            return self._compiled(positions, False)
        return self.encode_arrays(arrays_of(positions))

    def afterstates(self, results: Sequence[Position]) -> tuple[FloatArray, FloatArray]:
        """(inputs for the opponent, now on roll, after each play result; the points the mover has
        won with each result, NaN while the game goes on)."""
        if accel.core is not None:
            return self._compiled(results, True), self.ends(results)
        a = arrays_of(results)
        return self.encode_arrays(a.flipped()), self.outcomes(a)

    def ends(self, results: Sequence[Position]) -> FloatArray:
        """The points the mover has won with each play result, NaN while the game goes on (the
        compiled core's when it is loaded: no numpy arrays built from the positions)."""
        if accel.core is None:
            return self.outcomes(arrays_of(results))
        points = np.empty(len(results), dtype=np.float64)
        accel.core.tavli_outcomes(results, points)
        return points

    def _compiled(self, positions: Sequence[Position], flip: bool) -> FloatArray:
        """``encode_arrays`` in C (fevga/_tavli_encode.h); ``flip``: as the other player sees them."""
        out = np.empty((len(positions), self.n_inputs), dtype=np.float64)
        assert accel.core is not None
        accel.core.encode_tavli(positions, flip, out)
        return out


KINDS: dict[str, GameKind] = {
    "portes": GameKind(
        "portes",
        encoding_portes.N_INPUTS,
        encoding_portes.encode_arrays,
        encoding_portes.outcomes,
        HERE / "weights-portes.npz",
    ),
    "plakoto": GameKind(
        "plakoto",
        encoding_plakoto.N_INPUTS,
        encoding_plakoto.encode_arrays,
        encoding_plakoto.outcomes,
        HERE / "weights-plakoto.npz",
    ),
}


def kind(game: str) -> GameKind:
    """The kind of ``game`` ("portes" or "plakoto"); FevgaError for an unknown game, ValueError for Fevga."""
    if check_game(game) not in TAVLI_GAMES:
        raise ValueError("Fevga's AI lives in fevga.ai.encoding/evaluate, not in a GameKind")
    return KINDS[game]


def kind_of(position: Position) -> GameKind | None:
    """The kind of a Portes/Plakoto position, or None for a Fevga one."""
    return KINDS[position.game] if isinstance(position, TavliPosition) else None


_NETWORKS: dict[str, Network] = {}


def game_network(game: str) -> Network:
    """The shipped network of ``game`` ("portes" or "plakoto"), loaded once and checked
    (FileNotFoundError if the package has no weights for it, WeightsError naming a bad file)."""
    k = kind(game)
    if game not in _NETWORKS:
        _NETWORKS[game] = Network.load(k.weights_path, k.n_inputs)
    return _NETWORKS[game]


def has_game_weights(game: str) -> bool:
    """True when the trained network of ``game`` ships with the package."""
    return kind(game).weights_path.exists()


def result_points(result: Position) -> float | None:
    """Points the mover has won (negative: lost; 0: a draw) if the play result ``result`` ends a
    Portes/Plakoto game, else None."""
    k = kind_of(result)
    assert k is not None
    value = float(k.ends([result])[0])
    return None if np.isnan(value) else value
