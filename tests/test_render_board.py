"""The PNG board: every checker is drawn where the layout says, in its owner's colour, for both viewers."""

from __future__ import annotations

import dataclasses
import io
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from fevga.position import Position, opponent_point
from renderers import BoardScene, checker_centre, geometry, point_box, render_board, render_board_image, samples
from renderers.fonts import has_glyph, printable
from renderers.layout import DEFAULT_SIZE, VISIBLE_STACK, label_box
from renderers.theme import THEMES, get_theme


def _rgb(scene: BoardScene, perspective: int, size: int = DEFAULT_SIZE, theme: str | None = None) -> Image.Image:
    data = render_board(scene, perspective, size=size, theme=theme)
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


def _pixels(img: Image.Image) -> list[tuple[int, int, int]]:
    flat = img.convert("RGB").tobytes()
    return [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3)]


def _nearest(pixel: Any, named: dict[str, tuple[int, int, int]]) -> str:
    return min(named, key=lambda n: sum((a - b) ** 2 for a, b in zip(pixel, named[n], strict=True)))


def _expected(position: Position, perspective: int) -> dict[int, tuple[int, int]]:
    """Viewer point -> (owner, count), computed from player 0's own lists, not via the renderer."""
    out: dict[int, tuple[int, int]] = {}
    for owner, counts in ((0, position.me), (1, position.opp)):
        for i, count in enumerate(counts):
            if count:
                own_point = i + 1
                shown = own_point if owner == perspective else opponent_point(own_point)
                out[shown] = (owner, count)
    return out


def _check_checkers(img: Image.Image, position: Position, perspective: int, theme_name: str, size: int) -> None:
    theme = get_theme(theme_name)
    geom = geometry(size)
    named = {
        "p0": theme.checkers[0].body,
        "p1": theme.checkers[1].body,
        "felt": theme.felt,
        "a": theme.point_a,
        "b": theme.point_b,
    }
    expected = _expected(position, perspective)
    r = geom.radius
    for point in range(1, 25):
        owner, count = expected.get(point, (None, 0))
        for slot in range(VISIBLE_STACK):
            cx, cy = checker_centre(geom, point, slot)
            for dy in (-0.45 * r, 0.45 * r):
                pixel = img.getpixel((int(cx), int(cy + dy)))
                got = _nearest(pixel, named)
                if slot < min(count, VISIBLE_STACK):
                    assert got == f"p{owner}", (point, slot, perspective, pixel)
                else:
                    assert got not in ("p0", "p1"), (point, slot, perspective, pixel)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), perspective=st.sampled_from([0, 1]), theme=st.sampled_from(sorted(THEMES)))
def test_every_checker_is_where_the_layout_says_in_its_owners_colour(seed: int, perspective: int, theme: str):
    rng = random.Random(seed)
    position = samples.random_position(rng)
    scene = BoardScene(position, turn=rng.choice([0, 1]), dice=(rng.randint(1, 6), rng.randint(1, 6)), theme=theme)
    _check_checkers(_rgb(scene, perspective), position, perspective, theme, DEFAULT_SIZE)


@pytest.mark.parametrize("size", [400, 1100])
def test_mapping_holds_at_other_sizes(size: int):
    scene = samples.mid_game()
    for perspective in (0, 1):
        _check_checkers(_rgb(scene, perspective, size=size), scene.position, perspective, "classic", size)


def test_last_play_marks_do_not_hide_checkers():
    for scene in (samples.mid_game(), samples.bear_off(), samples.finished_mars()):
        for perspective in (0, 1):
            _check_checkers(_rgb(scene, perspective), scene.position, perspective, "classic", DEFAULT_SIZE)


def test_layout_puts_each_viewers_start_top_right_and_home_bottom_right():
    geom = geometry(DEFAULT_SIZE)
    xs_top = [point_box(geom, p)[0] for p in range(1, 13)]
    xs_bottom = [point_box(geom, p)[0] for p in range(13, 25)]
    assert xs_top == sorted(xs_top, reverse=True)  # 1 rightmost ... 12 leftmost
    assert xs_bottom == sorted(xs_bottom)  # 13 leftmost ... 24 rightmost
    assert point_box(geom, 1)[0] == point_box(geom, 24)[0]
    assert point_box(geom, 12)[0] == point_box(geom, 13)[0]
    assert all(point_box(geom, p)[1] < point_box(geom, p + 12)[1] for p in range(1, 13))
    # stacks grow from the edge towards the middle
    assert checker_centre(geom, 1, 1)[1] > checker_centre(geom, 1, 0)[1]
    assert checker_centre(geom, 24, 1)[1] < checker_centre(geom, 24, 0)[1]
    # the viewer's tray is at the bottom right, next to his home
    assert geom.trays[0][1] > geom.trays[1][1] and geom.trays[0][0] > point_box(geom, 24)[2]


def test_player_colours_are_fixed_per_player_not_per_viewer():
    scene = samples.start()  # player 0 on his point 1, player 1 on his point 1
    theme = get_theme("classic")
    geom = geometry(DEFAULT_SIZE)
    named = {"p0": theme.checkers[0].body, "p1": theme.checkers[1].body}
    for perspective in (0, 1):
        img = _rgb(scene, perspective)
        own = checker_centre(geom, 1, 0)
        other = checker_centre(geom, 13, 0)
        own_px = img.getpixel((int(own[0]), int(own[1] - 0.45 * geom.radius)))
        other_px = img.getpixel((int(other[0]), int(other[1] - 0.45 * geom.radius)))
        assert _nearest(own_px, named) == f"p{perspective}"
        assert _nearest(other_px, named) == f"p{1 - perspective}"


def test_tall_stack_shows_a_count_on_its_last_checker():
    scene = samples.mid_game()  # player 1 has 6 on his point 1 = player 0's 13
    theme = get_theme("classic")
    geom = geometry(DEFAULT_SIZE)
    img = _rgb(scene, 0)
    cx, cy = checker_centre(geom, 13, VISIBLE_STACK - 1)
    text = theme.checkers[1].text
    r = int(geom.radius * 0.3)
    window = [img.getpixel((int(cx) + dx, int(cy) + dy)) for dx in range(-r, r) for dy in range(-r, r)]
    assert any(_nearest(p, {"t": text, "b": theme.checkers[1].body}) == "t" for p in window)
    below = checker_centre(geom, 13, VISIBLE_STACK - 2)
    plain = [img.getpixel((int(below[0]) + dx, int(below[1]) + dy)) for dx in range(-r, r) for dy in range(-r, r)]
    assert not any(_nearest(p, {"t": text, "b": theme.checkers[1].body}) == "t" for p in plain)


def test_last_play_highlights_the_point_numbers_it_left_and_reached():
    scene = samples.mid_game()  # player 1 played 1/7 7/11: player 0 sees 13 -> 23
    theme = get_theme("classic")
    geom = geometry(DEFAULT_SIZE)
    img = _rgb(scene, 0)
    plain = _rgb(dataclasses.replace(scene, last_play_steps=(), last_mover=None), 0)

    def count_highlight(image: Image.Image, point: int) -> int:
        box = label_box(geom, point)
        crop = image.crop(box)
        return sum(1 for p in _pixels(crop) if _nearest(p, {"h": theme.highlight, "x": theme.frame}) == "h")

    for point in (13, 23):
        assert count_highlight(img, point) > 20 and count_highlight(plain, point) < count_highlight(img, point)
    assert count_highlight(img, 19) == count_highlight(plain, 19)  # the chain's middle point is not marked


def test_render_is_pure_and_deterministic():
    scene = samples.mid_game()
    before = dataclasses.asdict(scene)
    a = render_board(scene, 0)
    b = render_board(scene, 0)
    assert a == b
    assert dataclasses.asdict(scene) == before
    assert render_board(scene, 1) != a


def test_default_picture_is_a_palette_png_of_the_default_size():
    img = render_board_image(samples.mid_game(), 0)
    assert img.mode == "P"
    assert img.size == (geometry(DEFAULT_SIZE).width, geometry(DEFAULT_SIZE).height)
    assert abs(img.width - DEFAULT_SIZE) <= 2


def test_greek_names_are_drawn_not_replaced():
    assert all(has_glyph(ch) for ch in "ΝίκοςΒασίληςαβγδεζηθικλμνξοπρστυφχψω")
    assert printable("Νίκος") == "Νίκος"
    assert printable("张伟\x07") == "??"
    scene = samples.mid_game()
    greek = render_board(dataclasses.replace(scene, names=("Νίκος", "Μαρία")), 0)
    latin = render_board(dataclasses.replace(scene, names=("Nikos", "Maria")), 0)
    assert greek != latin


def test_very_long_names_stay_inside_their_strip():
    scene = dataclasses.replace(samples.mid_game(), names=("Ω" * 200, "x" * 200))
    theme = get_theme("classic")
    img = _rgb(scene, 0)
    geom = geometry(DEFAULT_SIZE)
    # the right part of each strip still shows the pips text, not the name running over it
    for strip in geom.strips:
        _x0, y0, x1, y1 = strip
        band = img.crop((x1 - geom.unit * 4, y0, x1, y1))
        colours = {
            _nearest(
                p,
                {
                    "dim": theme.strip_dim,
                    "txt": theme.strip_text,
                    "bg": theme.strip,
                    "act": theme.strip_active,
                },
            )
            for p in _pixels(band)
        }
        assert "dim" in colours and "txt" not in colours


def test_bad_arguments_raise_clear_errors():
    scene = samples.mid_game()
    with pytest.raises(ValueError, match="perspective"):
        render_board(scene, 2)
    with pytest.raises(ValueError, match="unknown theme"):
        render_board(scene, 0, theme="neon")
    with pytest.raises(ValueError, match="size"):
        render_board(scene, 0, size=12.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dice"):
        dataclasses.replace(scene, dice=(0, 7))
    with pytest.raises(ValueError, match="step"):
        dataclasses.replace(scene, last_play_steps=((5, 3),))
    with pytest.raises(ValueError, match="mars needs a winner"):
        dataclasses.replace(scene, mars=True)
    with pytest.raises(ValueError, match="turn"):
        dataclasses.replace(scene, turn=3)
    with pytest.raises(ValueError, match="known themes: classic, night"):
        dataclasses.replace(scene, theme="neon")


def test_warm_up_builds_the_layers_for_both_viewers():
    from renderers import warm_up
    from renderers.layers import kit

    before = kit.cache_info()
    warm_up(sizes=(360,))
    after = kit.cache_info()
    assert after.misses - before.misses == 2  # one kit per viewer for this size
    warm_up(sizes=(360,))
    assert kit.cache_info().misses == after.misses


def test_from_position_turns_a_movers_view_into_player_0s_view():
    scene = samples.mid_game()
    seen_by_1 = scene.position.flip()
    rebuilt = BoardScene.from_position(seen_by_1, seen_by=1, turn=1, dice=[2, 5], names=["a", "b"])
    assert rebuilt.position == scene.position
    assert rebuilt.dice == (2, 5) and rebuilt.names == ("a", "b")
    assert rebuilt.position_for(1) == seen_by_1
