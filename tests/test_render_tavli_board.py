"""Portes and Plakoto pictures: every checker, pinned checker and bar checker is where the layout says,
in its owner's colour, with the engine's counts, and the point labels read right for both viewers."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from PIL import Image, ImageDraw

from fevga.position import Position
from fevga.variants import TavliPosition
from renderers import (
    BoardScene,
    checker_centre,
    geometry,
    render_board,
    render_board_image,
    render_text,
    replay_scenes,
    scene_from_game,
    sprites,
    tavli_samples,
    tavli_sprites,
)
from renderers.fonts import font
from renderers.layers import kit
from renderers.layout import DEFAULT_SIZE, VISIBLE_STACK, label_box
from renderers.tavli_layout import bar_centre
from renderers.theme import get_theme

THEME = get_theme("classic")
GEOM = geometry(DEFAULT_SIZE)


def _still(scene: BoardScene) -> BoardScene:
    """The scene without its last play, so no arrow crosses the slots the checks sample."""
    return dataclasses.replace(scene, last_play_steps=(), last_play_hits=(), last_mover=None)


def _rgb(scene: BoardScene, perspective: int) -> Image.Image:
    img = Image.open(io.BytesIO(render_board(scene, perspective)))
    assert img.format == "PNG"
    return img.convert("RGB")


def _nearest(pixel: tuple[int, ...], named: dict[str, tuple[int, int, int]]) -> str:
    return min(named, key=lambda n: sum((a - b) ** 2 for a, b in zip(pixel, named[n], strict=True)))


def _colour_at(img: Image.Image, centre: tuple[float, float], radius: float) -> str:
    """Which checker body (p0/p1) or ground is at both sample spots inside a checker's face."""
    named = {"p0": THEME.checkers[0].body, "p1": THEME.checkers[1].body, "felt": THEME.felt}
    named |= {"a": THEME.point_a, "b": THEME.point_b, "frame": THEME.frame}
    got = {
        _nearest(img.getpixel((int(centre[0]), int(centre[1] + dy))), named) for dy in (-0.45 * radius, 0.45 * radius)
    }
    assert len(got) == 1, (centre, got)
    return got.pop()


def _expected(position: TavliPosition, perspective: int) -> dict[int, dict[str, int]]:
    """Viewer point -> {"owner", "count", "pinned"} from each player's own lists (his q is the other's 25 - q),
    computed without the renderer."""
    out: dict[int, dict[str, int]] = {}
    pinned_at: dict[int, int] = {}
    for owner, counts, pins in ((0, position.me, position.me_pin), (1, position.opp, position.opp_pin)):

        def view(q: int, owner: int = owner) -> int:
            return q if owner == perspective else 25 - q

        for q in pins:
            pinned_at[view(q)] = owner
        for q, count in enumerate(counts, 1):
            if count:
                shown = count - (1 if pinned_at.get(view(q)) == owner else 0)
                if shown:
                    out[view(q)] = {"owner": owner, "count": shown, "pinned": -1}
    for point, owner in pinned_at.items():
        out[point]["pinned"] = owner
    return out


def _read_count(
    img: Image.Image, perspective: int, owner: int, box: tuple[int, int, int, int], tile: int, radius: float
) -> int:
    """The number on a checker, read as the count whose drawn checker matches the picture best."""
    k = kit("classic", DEFAULT_SIZE, perspective, "portes")
    seen = img.crop(box)

    def distance(n: int) -> int:
        base = k.bg_rgb.crop(box).convert("RGBA")
        base.alpha_composite(sprites.checker(THEME.checkers[owner], tile, radius, count=n))
        a, b = seen.tobytes(), base.convert("RGB").tobytes()
        return sum(abs(x - y) for x, y in zip(a, b, strict=True))

    return min(range(2, 16), key=distance)


def _check_points(img: Image.Image, position: TavliPosition, perspective: int) -> None:
    expected = _expected(position, perspective)
    r = GEOM.radius
    for point in range(1, 25):
        cell = expected.get(point, {"owner": -1, "count": 0, "pinned": -1})
        first = 0
        if cell["pinned"] >= 0:
            assert _colour_at(img, checker_centre(GEOM, point, 0), r) == f"p{cell['pinned']}", (point, perspective)
            cx, cy = checker_centre(GEOM, point, 0)
            depth = r * (1 - tavli_sprites.PIN_RING / 2)  # the middle of the pin ring, at both sides
            for x in (cx - depth, cx + depth):
                ring = img.getpixel((int(x), int(cy)))
                assert (
                    _nearest(ring, {"pin": tavli_sprites.PIN_COLOUR, "p": THEME.checkers[cell["pinned"]].body}) == "pin"
                )
            first = 1
        room = VISIBLE_STACK - first
        drawn = min(cell["count"], room)
        for slot in range(first, VISIBLE_STACK):
            got = _colour_at(img, checker_centre(GEOM, point, slot), r)
            if slot < first + drawn:
                assert got == f"p{cell['owner']}", (point, slot, perspective)
            else:
                assert got not in ("p0", "p1"), (point, slot, perspective)
        if cell["count"] > room:
            cx, cy = checker_centre(GEOM, point, VISIBLE_STACK - 1)
            half = GEOM.unit // 2
            box = (int(cx) - half, int(cy) - half, int(cx) - half + GEOM.unit, int(cy) - half + GEOM.unit)
            assert _read_count(img, perspective, cell["owner"], box, GEOM.unit, r) == cell["count"], point


def _check_bar(img: Image.Image, position: TavliPosition, perspective: int) -> None:
    bars = {0: position.me_bar, 1: position.opp_bar}  # per player
    tile = tavli_sprites.bar_tile(GEOM)
    for side, owner in ((0, perspective), (1, 1 - perspective)):
        for slot in range(VISIBLE_STACK):
            centre = bar_centre(GEOM, side, slot)
            got = _colour_at(img, centre, tile / 2 - 1)
            assert (got == f"p{owner}") == (slot < min(bars[owner], VISIBLE_STACK)), (side, slot, perspective)
        if bars[owner] > VISIBLE_STACK:
            cx, cy = bar_centre(GEOM, side, VISIBLE_STACK - 1)
            x, y = int(cx - tile / 2), int(cy - tile / 2)
            radius = tile / 2 - max(1, tile // 26)
            assert _read_count(img, perspective, owner, (x, y, x + tile, y + tile), tile, radius) == bars[owner]


def _read_label(img: Image.Image, point: int) -> int:
    """The number written under/over a point, read as the candidate 1-24 whose drawing matches best."""
    box = label_box(GEOM, point)
    seen = img.crop(box)
    f = font(max(9, int(GEOM.label * 0.62)), bold=True)

    def distance(n: int) -> int:
        cand = Image.new("RGB", seen.size, THEME.frame)
        ImageDraw.Draw(cand).text((seen.width / 2, seen.height / 2), str(n), font=f, fill=THEME.label, anchor="mm")
        return sum(abs(a - b) for a, b in zip(seen.tobytes(), cand.tobytes(), strict=True))

    return min(range(1, 25), key=distance)


@pytest.mark.parametrize("perspective", [0, 1])
def test_portes_with_checkers_on_both_bars_from_each_side(perspective: int) -> None:
    scene = tavli_samples.portes_bars()
    position = scene.position
    assert isinstance(position, TavliPosition) and position.me_bar == 2 and position.opp_bar == 1
    img = _rgb(_still(scene), perspective)
    _check_points(img, position, perspective)
    _check_bar(img, position, perspective)


@pytest.mark.parametrize("perspective", [0, 1])
def test_tall_bar_stack_shows_its_count(perspective: int) -> None:
    position = TavliPosition.from_tavli_lists(
        "portes", [0] * 18 + [8, 0, 0, 0, 0, 0], [0] * 18 + [9, 0, 0, 0, 0, 0], me_bar=7, opp_bar=6
    )
    scene = BoardScene(position, turn=1, dice=(2, 1))
    img = _rgb(scene, perspective)
    _check_points(img, position, perspective)
    _check_bar(img, position, perspective)


@pytest.mark.parametrize("perspective", [0, 1])
def test_plakoto_pins_under_one_and_three_pinners_and_a_pinned_mother(perspective: int) -> None:
    scene = tavli_samples.plakoto_pins()
    position = scene.position
    assert isinstance(position, TavliPosition)
    assert position.me_pin == [1, 7, 10] and position.opp_pin == [5]
    assert position.board[9] == -3 and position.board[6] == -1 and position.board[0] == -1  # pinners: 3, 1, 1
    img = _rgb(_still(scene), perspective)
    _check_points(img, position, perspective)


@pytest.mark.parametrize("perspective", [0, 1])
def test_a_pinned_checker_under_a_tall_stack_keeps_its_place_and_the_count_is_the_pinners(perspective: int) -> None:
    # one of player 1's checkers (his 15, player 0's 10) pinned under eight of player 0's
    position = TavliPosition.from_tavli_lists(
        "plakoto", [0] * 9 + [8] + [0] * 8 + [7] + [0] * 5, [14] + [0] * 13 + [1] + [0] * 9, opp_pin=(15,)
    )
    assert position.pins[9] == -1 and position.board[9] == 8
    img = _rgb(BoardScene(position, turn=0, dice=(3, 1)), perspective)
    _check_points(img, position, perspective)


@pytest.mark.parametrize("game", ["portes", "plakoto"])
@pytest.mark.parametrize("perspective", [0, 1])
def test_random_positions_of_a_legal_game_are_drawn_as_the_engine_says(game: str, perspective: int) -> None:
    played = tavli_samples.random_tavli_game(game, seed=5, max_plays=120)
    rng = random.Random(9)
    scenes = replay_scenes(played, ("A", "B"))
    for scene in rng.sample(scenes, 4):
        position = scene.position
        assert isinstance(position, TavliPosition)
        img = _rgb(_still(scene), perspective)
        _check_points(img, position, perspective)
        _check_bar(img, position, perspective)


@pytest.mark.parametrize("game", ["portes", "plakoto"])
@pytest.mark.parametrize("perspective", [0, 1])
def test_point_labels_are_the_viewers_own_numbering(game: str, perspective: int) -> None:
    scene = BoardScene(TavliPosition.start(game), turn=0, dice=(6, 5))
    img = _rgb(scene, perspective)
    for point in range(2, 24):  # 1 and 24 carry the start marks, checked below
        assert _read_label(img, point) == point
    # the viewer's start (1, top right) in his colour, the opponent's (the viewer's 24) in the other's
    for point, owner in ((1, perspective), (24, 1 - perspective)):
        box = label_box(GEOM, point)
        pixel = img.getpixel((box[0] + 4, (box[1] + box[3]) // 2))
        assert (
            _nearest(pixel, {"p0": THEME.checkers[0].body, "p1": THEME.checkers[1].body, "f": THEME.frame})
            == f"p{owner}"
        )


def test_start_positions_put_each_players_checkers_on_his_own_points() -> None:
    """Portes: 2 on my 1 (his 24), 5 on my 12, 3 on my 17, 5 on my 19; his the same on his own points."""
    img = _rgb(BoardScene(TavliPosition.start("portes"), turn=0, dice=(6, 5)), 0)
    for point, owner in ((1, 0), (12, 0), (17, 0), (19, 0), (24, 1), (13, 1), (8, 1), (6, 1)):
        assert _colour_at(img, checker_centre(GEOM, point, 0), GEOM.radius) == f"p{owner}"


def test_hit_is_starred_at_its_landing_and_the_match_line_names_the_game() -> None:
    scene = tavli_samples.portes_bars()  # player 1 played 12/17* (player 0's 8)
    plain = dataclasses.replace(scene, last_play_hits=(False,))
    for perspective in (0, 1):
        landing = 8 if perspective == 0 else 17
        cx, cy = checker_centre(GEOM, landing, 2)  # his third checker there is the one that hit
        window = (int(cx), int(cy) - GEOM.unit, int(cx) + GEOM.unit, int(cy) + GEOM.unit)
        starred, unstarred = _rgb(scene, perspective).crop(window), _rgb(plain, perspective).crop(window)

        def red(img: Image.Image) -> int:
            named = {"pin": tavli_sprites.PIN_COLOUR, "p1": THEME.checkers[1].body, "felt": THEME.felt}
            named |= {"a": THEME.point_a, "b": THEME.point_b, "hl": THEME.highlight}
            pixels = (img.getpixel((x, y)) for x in range(img.width) for y in range(img.height))
            return sum(1 for px in pixels if _nearest(px, named) == "pin")

        assert red(starred) > 20 and red(unstarred) == 0
    assert scene.match_line(0) == "Portes  ·  game 4 of tavli to 5  ·  2–1"
    assert scene.match_line(1) == "Portes  ·  game 4 of tavli to 5  ·  1–2"


def test_a_drawn_plakoto_game_shows_the_draw_banner_not_a_winner() -> None:
    played = tavli_samples.random_tavli_game("plakoto", seed=4)  # this seed ends with both mothers pinned
    assert played.outcome is not None and played.outcome.is_draw
    scene = scene_from_game(played, ("A", "B"))
    assert scene.drawn and scene.winner is None and scene.turn is None and scene.dice is None
    assert "Draw: both mothers pinned (0 points)" in render_text(scene, 0)
    drawn = render_board_image(scene, 0)
    going = render_board_image(dataclasses.replace(scene, drawn=False), 0)
    band = GEOM.middle
    assert drawn.crop(band).tobytes() != going.crop(band).tobytes()  # the banner is drawn in the middle band


@pytest.mark.parametrize("perspective", [0, 1])
def test_direction_marks_over_the_bar_show_each_viewer_moving_the_other_way_from_his_opponent(perspective: int) -> None:
    """Top band: the viewer's triangle on the left (he runs right to left there), the opponent's on the
    right; the bottom band the other way round. Fevga, where both move the same way, has none."""
    img = _rgb(BoardScene(TavliPosition.start("plakoto"), turn=0, dice=(6, 5)), perspective)
    x0, x1 = GEOM.left_half[2], GEOM.right_half[0]
    mid = (x0 + x1) / 2
    size = min((x1 - x0) / 2.4, GEOM.label * 0.6)
    named = {"p0": THEME.checkers[0].body, "p1": THEME.checkers[1].body, "frame": THEME.frame}
    rows = {0: GEOM.board[1] - GEOM.label / 2, 1: GEOM.board[3] + GEOM.label / 2}
    for row, y in rows.items():
        left = _nearest(img.getpixel((int(mid - size * 0.6), int(y))), named)
        right = _nearest(img.getpixel((int(mid + size * 0.6), int(y))), named)
        viewer, other = f"p{perspective}", f"p{1 - perspective}"
        assert (left, right) == ((viewer, other) if row == 0 else (other, viewer))
    fevga = _rgb(BoardScene(Position.start(), turn=0, dice=(6, 5)), perspective)
    assert _nearest(fevga.getpixel((int(mid - size * 0.6), int(rows[0]))), named) == "frame"


@pytest.mark.parametrize("name", ["Bob <&>", "Αλεξάνδρα Παπαδοπούλου-Κωνσταντινίδου"])
def test_a_greek_mother_win_banner_fits_inside_the_board(name: str) -> None:
    """The Greek mother-win banner is long ("Κερδίζει ο/η … · πλάκωσε τη μάνα, 2 πόντοι"): it stays inside the
    board, its words whole (the name is shortened first, then the letters made smaller)."""
    from bot.chat.presenter import board_labels
    from renderers.board_png import banner

    played = tavli_samples.random_tavli_game("plakoto", seed=4)
    scene = dataclasses.replace(scene_from_game(played, (name, "B")), drawn=False, winner=0, mother=True,
                                labels=board_labels("el"))
    k = kit("classic", DEFAULT_SIZE, 0, "plakoto")
    bx0, _by, bx1, _ = k.geom.board
    tile = banner(k, scene)
    assert tile.width <= bx1 - bx0 - k.geom.unit // 2
    assert "μάνα" in scene.win_label("banner", name="x")  # the mother's own words are what made it long
