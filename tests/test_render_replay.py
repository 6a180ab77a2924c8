"""The animated replay: one frame per scene, the frames are the boards, and it stays within 8 MB."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageSequence

from renderers import render_board_image, render_replay, samples
from renderers.replay import DEFAULT_REPLAY_SIZE, MAX_BYTES


def _frames(data: bytes) -> list[np.ndarray]:
    img = Image.open(io.BytesIO(data))
    assert img.format == "GIF"
    return [np.asarray(frame.convert("RGB"), dtype=np.int16) for frame in ImageSequence.Iterator(img)]


def test_a_whole_game_gives_one_frame_per_play_within_8_mb():
    scenes = samples.demo_game(seed=7)
    assert scenes[-1].winner is not None and len(scenes) > 60
    data = render_replay(scenes, 0)
    assert len(data) <= MAX_BYTES
    frames = _frames(data)
    assert len(frames) == len(scenes)
    for index in (0, len(scenes) // 2, len(scenes) - 1):
        board = np.asarray(
            render_board_image(scenes[index], 0, size=DEFAULT_REPLAY_SIZE).convert("RGB"), dtype=np.int16
        )
        assert frames[index].shape == board.shape
        assert np.abs(frames[index] - board).max() <= 8  # the frame is that board


def test_replay_shrinks_to_fit_a_byte_budget_and_refuses_when_it_cannot():
    scenes = samples.demo_game(seed=3)[:12]
    full = render_replay(scenes, 1)
    budget = len(full) * 2 // 3
    small = render_replay(scenes, 1, max_bytes=budget)
    assert len(small) <= budget
    assert Image.open(io.BytesIO(small)).width < Image.open(io.BytesIO(full)).width
    assert len(_frames(small)) == len(scenes)
    with pytest.raises(ValueError, match="does not fit"):
        render_replay(scenes, 1, max_bytes=1000)


def test_replay_needs_scenes():
    with pytest.raises(ValueError, match="at least one scene"):
        render_replay([], 0)
