"""Animated replay of a finished game: one GIF frame per scene (per play), at most 8 MB.

The frames are the board's palette images, which share one palette per theme and size, so the
GIF needs no requantising; each later frame stores only its changed pixels (the rest transparent).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
from PIL import Image

from .board_png import render_board_image
from .layout import DEFAULT_SIZE, MIN_SIZE
from .scene import BoardScene

MAX_BYTES = 8 * 1024 * 1024
DEFAULT_REPLAY_SIZE = DEFAULT_SIZE
FRAME_MS = 900
FIRST_MS = 1500
LAST_MS = 4000


def render_replay(
    scenes: Sequence[BoardScene],
    perspective: int,
    size: int = DEFAULT_REPLAY_SIZE,
    frame_ms: int = FRAME_MS,
    theme: str | None = None,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """An animated GIF of ``scenes`` (start, then the position after each play) seen by ``perspective``.

    If the GIF would pass ``max_bytes`` it is drawn smaller; ValueError when even the smallest
    size does not fit.
    """
    if not scenes:
        raise ValueError("a replay needs at least one scene")
    if frame_ms < 20:
        raise ValueError("frame_ms must be at least 20")
    current = size
    while True:
        data = _gif(scenes, perspective, current, frame_ms, theme)
        if len(data) <= max_bytes:
            return data
        if current <= MIN_SIZE:
            raise ValueError(f"the replay of {len(scenes)} plays does not fit in {max_bytes} bytes")
        current = max(MIN_SIZE, int(current * 0.8))


def _gif(scenes: Sequence[BoardScene], perspective: int, size: int, frame_ms: int, theme: str | None) -> bytes:
    frames = [render_board_image(s, perspective, size=size, theme=theme) for s in scenes]
    durations = [frame_ms] * len(frames)
    durations[0] = max(frame_ms, FIRST_MS)
    durations[-1] = max(frame_ms, LAST_MS)
    options: dict[str, object] = {}
    free = _unused_index(frames)
    if free is not None and len(frames) > 1:
        frames = _as_deltas(frames, free)
        options["transparency"] = free
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
        **options,
    )
    return out.getvalue()


def _unused_index(frames: list[Image.Image]) -> int | None:
    """A palette index no frame uses, to mark unchanged pixels as transparent."""
    used = np.zeros(256, dtype=bool)
    for frame in frames:
        used[np.unique(np.asarray(frame))] = True
    free = np.flatnonzero(~used)
    return int(free[-1]) if free.size else None


def _as_deltas(frames: list[Image.Image], transparent: int) -> list[Image.Image]:
    """Every frame after the first keeps only the pixels that changed; the rest become transparent.

    Frames are not disposed, so the viewer sees exactly the full boards, but the GIF shrinks
    about threefold because long transparent runs compress well.
    """
    palette = frames[0].getpalette()
    out = [frames[0]]
    previous = np.asarray(frames[0])
    for frame in frames[1:]:
        current = np.asarray(frame)
        delta = Image.fromarray(np.where(current == previous, transparent, current).astype(np.uint8), mode="P")
        delta.putpalette(palette or [])
        out.append(delta)
        previous = current
    return out
