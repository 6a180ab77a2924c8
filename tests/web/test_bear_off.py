"""The step API's bearing off: "off" (or 25) with a larger die than needed is matched to the smallest die
left that the engine allows there; a point no die reaches is refused."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.web.actions import _as_dice
from bot.web.app import ApiError
from fevga import Game, Position
from fevga.board import Board
from fevga.dice import FixedDice


def snapshot_at(position: Position, dice: tuple[int, int]) -> Any:
    game = Game(dice=FixedDice([]))
    game.board = Board(position, 0)
    game.dice = dice
    return SimpleNamespace(session=SimpleNamespace(game=game))


def test_bearing_off_with_a_larger_die() -> None:
    me = [0] * 24
    me[22] = 15  # all fifteen on my point 23
    opp = [0] * 24
    opp[0] = 15
    snap = snapshot_at(Position.from_lists(me, opp), (6, 5))
    assert _as_dice(snap, [(23, 25)]) == [(23, 5)]
    assert _as_dice(snap, [(23, 25), (23, 25)]) == [(23, 5), (23, 6)]
    with pytest.raises(ApiError) as refused:
        _as_dice(snap, [(23, 24)])  # a one: no such die
    assert refused.value.code == "bad_step"
