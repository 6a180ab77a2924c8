"""Reading a board photo back: is it a PNG, and are the checkers on it where a given position has them?"""

from __future__ import annotations

import io
from functools import cache

from PIL import Image

from fevga.position import Position, opponent_point
from renderers import BoardScene, checker_centre, geometry
from renderers.arrows import endpoints
from renderers.layers import kit
from renderers.layout import MAX_SIZE, MIN_SIZE, VISIBLE_STACK
from renderers.theme import THEMES, get_theme


def png_image(data: bytes) -> Image.Image:
    """The decoded picture; AssertionError unless the bytes are a PNG."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG", image.format
    return image.convert("RGB")


@cache
def _size_for(width: int, height: int) -> int | None:
    for size in range(MIN_SIZE, MAX_SIZE + 1):
        geom = geometry(size)
        if (geom.width, geom.height) == (width, height):
            return size
    return None


def _expected(position: Position, perspective: int) -> dict[int, tuple[int, int]]:
    """Viewer point -> (owner, count) from player 0's view of the position."""
    out: dict[int, tuple[int, int]] = {}
    for owner, counts in ((0, position.me), (1, position.opp)):
        for index, count in enumerate(counts):
            if count:
                own = index + 1
                out[own if owner == perspective else opponent_point(own)] = (owner, count)
    return out


def _under_arrows(scene: BoardScene | None, size: int, perspective: int, theme: str) -> list[tuple[float, float]]:
    """Points on the pending steps' arrows (every few pixels), where a checker may be hidden."""
    if scene is None or not scene.pending_steps or scene.turn is None:
        return []
    k = kit(theme, size, perspective)
    side = 0 if scene.turn == perspective else 1
    out: list[tuple[float, float]] = []
    for (ax, ay), (bx, by) in endpoints(k, scene.shown_for(perspective), scene.steps_for(perspective), side):
        n = max(1, int(max(abs(bx - ax), abs(by - ay)) // 3))
        out.extend((ax + (bx - ax) * i / n, ay + (by - ay) * i / n) for i in range(n + 1))
    return out


def _shows(
    image: Image.Image, size: int, position: Position, perspective: int, theme_name: str,
    scene: BoardScene | None = None,
) -> bool:
    theme = get_theme(theme_name)
    geom = geometry(size)
    arrows = _under_arrows(scene, size, perspective, theme_name)
    near = 0.34 * geom.unit  # the arrow's head half-width with its outline, and a margin
    named = {
        "p0": theme.checkers[0].body, "p1": theme.checkers[1].body,
        "felt": theme.felt, "a": theme.point_a, "b": theme.point_b,
    }  # fmt: skip

    def nearest(pixel: tuple[int, int, int]) -> str:
        return min(named, key=lambda n: sum((a - b) ** 2 for a, b in zip(pixel, named[n], strict=True)))

    expected = _expected(position, perspective)
    for point in range(1, 25):
        owner, count = expected.get(point, (None, 0))
        for slot in range(VISIBLE_STACK):
            x, y = checker_centre(geom, point, slot)
            y += 0.45 * geom.radius
            if any(abs(x - ax) < near and abs(y - ay) < near for ax, ay in arrows):
                continue  # hidden under an arrow of the turn being built
            got = nearest(image.getpixel((int(x), int(y))))  # type: ignore[arg-type]
            if slot < min(count, VISIBLE_STACK):
                if got != f"p{owner}":
                    return False
            elif got in ("p0", "p1"):
                return False
    return True


def board_shows(data: bytes, position: Position, scene: BoardScene | None = None) -> bool:
    """True when the PNG board shows exactly the checkers of ``position`` (player 0's view), for either
    viewer and any theme. With a ``scene`` of a turn being built, its pending steps are expected to be
    shown made (checkers under their arrows are not judged)."""
    image = png_image(data)
    size = _size_for(*image.size)
    assert size is not None, f"no board size gives a {image.size} picture"
    if scene is not None:
        position = scene.shown_position()
    return any(_shows(image, size, position, p, theme, scene) for p in (0, 1) for theme in THEMES)
