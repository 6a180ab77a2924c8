"""The Portes/Plakoto position: opposite directions, flip, the id that names the game, validation
(15 each counting bar, pinned and off; one pinned checker per point, under a holder), pasteable repr."""

from __future__ import annotations

import pytest

import fevga
from fevga import PositionError, TavliPlay, TavliPosition, any_position_from_id, legal_plays

from .tavli_positions import tpos


def test_opposite_directions_and_flip() -> None:
    p = tpos("portes", {1: 14, 7: 1}, {24: 15})
    assert p.opp[0] == 15 and p.board[23] == -15  # his 1 is my 24
    q = p.flip()
    assert q.board[0] == 15 and q.board[17] == -1 and q.board[23] == -14  # my 7 is his 18
    assert q.flip() == p and p.pips() == q.pips()[::-1]


def test_ids_name_the_game_and_round_trip() -> None:
    pinned = tpos("plakoto", {1: 13, 3: 1, 7: 1}, {7: 1, 10: 1, 24: 13}, my_pinned=(7,))
    assert pinned.id() == "plakoto:M.A...a..a.............m:......+.................:0:0"
    barred = tpos("portes", {24: 14}, {11: 2, 19: 13}, me_bar=1)
    assert barred.id().startswith("portes:") and barred.id().endswith(":1:0:0:0")
    for p in (pinned, barred, pinned.flip(), TavliPosition.start("portes")):
        assert TavliPosition.from_id(p.id()) == p == any_position_from_id(p.id())
    assert pinned.me_pin == [7] and pinned.flip().opp_pin == [7]


@pytest.mark.parametrize(
    "text",
    [
        "portes:O......................o:0:0:0:0:0",
        "plakoto:O......................o:0:0",
        "checkers:O......................o:0:0:0:0",
        "portes:O......................n:0:0:0:0",
        "plakoto:O......................o:......+.................:0:0",
        "plakoto:O......................o:.......................x:0:0",
    ],
)
def test_bad_ids_are_refused(text: str) -> None:
    with pytest.raises(PositionError):
        TavliPosition.from_id(text)


def test_validation() -> None:
    board = [0] * 24
    board[0], board[23] = 15, -15
    with pytest.raises(PositionError, match="16 checkers"):
        TavliPosition(tuple(board), 0, 0, "portes", me_bar=1)
    with pytest.raises(PositionError, match="only Portes has a bar"):
        TavliPosition(tuple(board), 0, 0, "plakoto", me_bar=1)
    pins = [0] * 24
    pins[23] = 1  # one of mine pinned under his stack on my 24 (his mother point)
    board14 = list(board)
    board14[0] = 14
    assert TavliPosition(tuple(board14), 0, 0, "plakoto", tuple(pins)).me_pin == [24]
    pins[0] = 1  # my checker pinned under MY stack: no pinner
    with pytest.raises(PositionError, match="no pinner"):
        TavliPosition(tuple(board14), 0, 0, "plakoto", tuple(pins))
    with pytest.raises(PositionError, match="both players"):
        tpos("portes", {1: 14, 5: 1}, {5: 1, 24: 14})


def test_play_repr_is_pasteable() -> None:
    k = tpos("plakoto", {1: 15}, {7: 1, 24: 14})
    for play in legal_plays(k, (6, 1)):
        again = eval(repr(play), vars(fevga))
        assert isinstance(again, TavliPlay) and again == play and again.hits == play.hits


def test_fevga_constructor_is_refused() -> None:
    with pytest.raises(PositionError):
        TavliPosition.from_lists([15] + [0] * 23, [15] + [0] * 23)
