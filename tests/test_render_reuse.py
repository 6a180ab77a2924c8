"""What a new board reuses (the speed of every move's picture rests on it): the pips line draws no new text
once its digits are known."""

from __future__ import annotations

import dataclasses

from fevga.position import Position
from renderers import render_board, samples
from renderers.layers import kit
from renderers.layout import DEFAULT_SIZE


def _text_tiles(theme: str, perspective: int) -> int:
    """How many text tiles the kit ``render_board`` uses holds (its private store, counted here only)."""
    return len(kit(theme, DEFAULT_SIZE, perspective, "fevga")._texts)


def test_a_new_positions_pips_draw_no_new_text_once_the_digits_are_known() -> None:
    base = samples.mid_game()
    for scene in samples.demo_game(seed=3)[:40]:  # every digit and word of the pips lines, both grounds
        render_board(dataclasses.replace(scene, names=base.names, match_length=base.match_length), 0)
    render_board(base, 0)
    known = _text_tiles(base.theme, 0)
    board = list(base.position.board)
    mover = next(i for i, n in enumerate(board) if n > 1)
    board[mover] -= 1
    board[mover + 1 if board[mover + 1] >= 0 else mover - 1] += 1  # one checker one point on: new pips
    moved = dataclasses.replace(base, position=Position(tuple(board)))
    assert render_board(moved, 0) != render_board(base, 0)
    assert _text_tiles(base.theme, 0) == known
