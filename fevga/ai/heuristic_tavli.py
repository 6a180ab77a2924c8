"""Hand-made players for Portes and Plakoto: ``easy`` (race: pips and borne-off checkers) and
``medium`` (a heuristic: pips, points made, primes, blots and the shots at them, the bar, pins and
the mothers). Both score every play's result at once with the network's input features, read on
the mover's view with the opponent to roll; the game's end is worth 1000 a point."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fevga import Play, Position, legal_plays

from . import encoding_plakoto as kp
from . import encoding_portes as pp
from .encoding_tavli import FloatArray, arrays_of
from .games import kind_of

# Weights per input of a side's block (mover's minus opponent's, ``_MINE_ONLY`` the mover's alone).
_PORTES = {99: -200.0, 98: 30.0, 103: 18.0, 104: 12.0, 105: 20.0, 106: 10.0, 96: -24.0}
_PORTES_MINE = {102: -40.0}
_PLAKOTO = {124: -200.0, 123: 30.0, 126: -180.0, 120: -150.0, 121: -15.0, 130: -18.0, 131: -12.0, 132: -45.0}
_PLAKOTO_MINE = {129: -40.0}
_RACE = {"portes": {99: -200.0, 98: 30.0}, "plakoto": {124: -200.0, 123: 30.0}}


def _weights(game: str, race: bool) -> tuple[FloatArray, FloatArray]:
    """(weights of the mover's side block minus the opponent's, extra weights of the mover's alone)."""
    per = pp.PER_SIDE if game == "portes" else kp.PER_SIDE
    both = np.zeros(per)
    mine = np.zeros(per)
    if race:
        table, extra = _RACE[game], dict[int, float]()
    else:
        table, extra = (_PORTES, _PORTES_MINE) if game == "portes" else (_PLAKOTO, _PLAKOTO_MINE)
    for i, w in table.items():
        both[i] = w
    for i, w in extra.items():
        mine[i] = w
    return both, mine


def scores(results: Sequence[Position], race: bool = False) -> FloatArray:
    """The score of each play result (mover's view): higher is better for the mover."""
    game = kind_of(results[0])
    assert game is not None
    a = arrays_of(results)
    x = game.encode_arrays(a)  # the mover's view (his side block first)
    per = pp.PER_SIDE if game.game == "portes" else kp.PER_SIDE
    both, mine = _weights(game.game, race)
    value = x[:, :per] @ (both + mine) - x[:, per : 2 * per] @ both
    points = game.outcomes(a)
    return np.asarray(np.where(np.isnan(points), value, 1000.0 * points), dtype=np.float64)


class TavliScorePlayer:
    """Takes the play whose result scores highest under :func:`scores` (``race`` for ``easy``)."""

    def __init__(self, name: str, race: bool = False) -> None:
        self.name = name
        self.race = race

    def rank(self, position: Position, dice: tuple[int, int], rules: object = None) -> list[tuple[Play, float]]:
        plays = legal_plays(position, dice)
        values = scores([p.result for p in plays], self.race)
        order = np.argsort(-values, kind="stable")
        return [(plays[i], float(values[i])) for i in order]

    def choose(self, position: Position, dice: tuple[int, int], rules: object = None) -> Play:
        return self.rank(position, dice, rules)[0][0]
