"""The turn being built with buttons is on the picture: moved checkers, arrows, the used dice greyed."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

from renderers import BoardScene, geometry, render_board, render_text, samples
from renderers.board_png import dice_boxes
from renderers.layout import DEFAULT_SIZE, Box, checker_centre
from renderers.sprites import spent_die_colours
from renderers.theme import get_theme


def _rgb(scene: BoardScene, perspective: int) -> Image.Image:
    return Image.open(io.BytesIO(render_board(scene, perspective))).convert("RGB")


def _slot(point: int, slot: int) -> Box:
    geom = geometry(DEFAULT_SIZE)
    cx, cy = checker_centre(geom, point, slot)
    r = int(geom.radius * 0.8)
    return int(cx) - r, int(cy) - r, int(cx) + r, int(cy) + r


def _share_near(img: Image.Image, box: Box, colour: tuple[int, int, int], tolerance: int = 30) -> float:
    """Share of the pixels in ``box`` within ``tolerance`` (per channel) of ``colour``."""
    flat = img.crop(box).tobytes()
    pixels = [tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)]
    near = [p for p in pixels if all(abs(a - b) <= tolerance for a, b in zip(p, colour, strict=True))]
    return len(near) / len(pixels)


def _close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


MID = samples.mid_game()  # player 0 to move with 5-3; he has 4 checkers on his 1 and none on his 6


def test_each_step_changes_the_picture_and_moves_the_checker() -> None:
    body = get_theme(MID.theme).checkers[0].body
    one = dataclasses.replace(MID, pending_steps=((1, 6),), dice_used=(5,))
    two = dataclasses.replace(MID, pending_steps=((1, 6), (6, 9)), dice_used=(5, 3))
    base, after_one, after_two = (render_board(s, 0) for s in (MID, one, two))
    assert len({base, after_one, after_two}) == 3  # every step re-uploads a different picture
    before, img = _rgb(MID, 0), _rgb(one, 0)
    # the destination (his 6, empty before) now shows a light checker; the origin's 4th checker is gone
    assert _share_near(before, _slot(6, 0), body) < 0.05
    assert _share_near(img, _slot(6, 0), body) > 0.4
    assert _share_near(before, _slot(1, 3), body) > 0.4
    assert _share_near(img, _slot(1, 3), body) < 0.2
    # after the chained second step the checker stands on 9 (two there now), 6 is empty again
    img2 = _rgb(two, 0)
    assert _share_near(img2, _slot(9, 1), body) > 0.4
    assert _share_near(img2, _slot(6, 0), body) < 0.2


def test_the_used_die_is_greyed_and_the_other_is_not() -> None:
    one = dataclasses.replace(MID, pending_steps=((1, 6),), dice_used=(5,))
    theme = get_theme(MID.theme)
    img = _rgb(one, 0)
    boxes = dice_boxes(geometry(DEFAULT_SIZE), one, 0)
    assert [(face, spent) for _b, face, spent in boxes] == [(5, True), (3, False)]
    faded = spent_die_colours(theme)[0]
    for box, _face, spent in boxes:
        x0, y0, x1, _y1 = box
        probe = img.getpixel(((x0 + x1) // 2, y0 + (x1 - x0) // 8))  # on the face, between the pips
        assert isinstance(probe, tuple)
        assert _close(probe, faded if spent else theme.die_face)
        assert not _close(probe, theme.die_face if spent else faded)


def test_a_double_shows_four_dice_and_greys_one_per_step() -> None:
    scene = dataclasses.replace(MID, dice=(2, 2), pending_steps=((7, 9), (9, 11)), dice_used=(2, 2))
    boxes = dice_boxes(geometry(DEFAULT_SIZE), scene, 0)
    assert [spent for _b, _f, spent in boxes] == [True, True, False, False]


def test_bearing_off_is_shown_in_the_tray_for_the_other_viewer_too() -> None:
    scene = samples.bear_off()  # player 1 to move with 4-4
    moved = dataclasses.replace(scene, pending_steps=((24, 25),), dice_used=(4,))
    assert moved.shown_position().opp_off == scene.position.opp_off + 1
    for perspective in (0, 1):
        assert render_board(moved, perspective) != render_board(scene, perspective)
    assert "off 4" in render_text(moved, 1)


def test_the_pending_marks_replace_the_last_play_marks() -> None:
    one = dataclasses.replace(MID, pending_steps=((1, 6),), dice_used=(5,))
    assert one.marks(0) == (frozenset({1}), frozenset({6}))
    assert one.marks(1) == (frozenset({13}), frozenset({18}))  # his 1 is the other's 13
    assert MID.marks(0) == MID.last_play_marks(0)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"pending_steps": ((1, 6),), "turn": None}, "turn and dice"),
        ({"pending_steps": ((6, 11),)}, "cannot be played"),  # no checker of his on 6
        ({"pending_steps": ((7, 5),)}, "forward"),
        ({"dice_used": (7,)}, "dice_used"),
    ],
)
def test_bad_pending_steps_are_refused(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(MID, **change)  # type: ignore[arg-type]
