"""Golden pictures of fixed positions, compared with a pixel tolerance (font rasterising may drift).

Regenerate after an intended change with ``FEVGA_UPDATE_GOLDEN=1 pytest tests/test_render_golden.py``
and look at the new PNGs before committing them.
"""

from __future__ import annotations

import dataclasses
import io
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from fevga.position import Position
from renderers import render_board, samples

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "mid_game_p0": (samples.mid_game, 0, None, 720),
    "mid_game_p1": (samples.mid_game, 1, None, 720),
    "start_p0_small": (samples.start, 0, None, 480),
    "bear_off_p1_night": (samples.bear_off, 1, "night", 720),
    "finished_mars_p0": (samples.finished_mars, 0, None, 720),
}
MAX_MEAN_DIFF = 1.5  # mean absolute difference per channel (0-255)
MAX_BAD_SHARE = 0.001  # share of pixels allowed to differ by more than BAD_LEVEL
BAD_LEVEL = 40


def _render(name: str) -> bytes:
    make, perspective, theme, size = CASES[name]
    return render_board(make(), perspective, size=size, theme=theme)


@pytest.mark.parametrize("name", sorted(CASES))
def test_picture_matches_golden(name: str):
    path = GOLDEN / f"{name}.png"
    data = _render(name)
    if os.environ.get("FEVGA_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(data)
    got = Image.open(io.BytesIO(data)).convert("RGB")
    want = Image.open(path).convert("RGB")
    assert got.size == want.size
    diff = np.abs(np.asarray(got, dtype=np.int16) - np.asarray(want, dtype=np.int16))
    assert diff.mean() <= MAX_MEAN_DIFF
    assert (diff.max(axis=2) > BAD_LEVEL).mean() <= MAX_BAD_SHARE


def test_tolerance_catches_a_moved_checker():
    """The comparison is strict enough to see one checker on the wrong point."""
    base = samples.mid_game()
    board = list(base.position.board)
    board[8], board[9] = 0, 1  # move player 0's checker from his 9 to his 10
    moved = dataclasses.replace(base, position=Position(tuple(board)))
    a = np.asarray(Image.open(io.BytesIO(render_board(base, 0))).convert("RGB"), dtype=np.int16)
    b = np.asarray(Image.open(io.BytesIO(render_board(moved, 0))).convert("RGB"), dtype=np.int16)
    assert (np.abs(a - b).max(axis=2) > BAD_LEVEL).mean() > MAX_BAD_SHARE
