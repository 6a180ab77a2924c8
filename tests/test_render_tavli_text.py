"""Portes and Plakoto beyond the still board: the text board read back against the engine's position,
the pending move with an entry from the bar, the replay GIF of a random game of each kind, and the
blunder picture of a Portes position."""

from __future__ import annotations

import dataclasses
import io
from dataclasses import dataclass

import numpy as np
import pytest
from PIL import Image, ImageSequence

from fevga import Match, legal_plays
from fevga.notation import format_play
from fevga.variants import TavliPosition
from renderers import (
    BoardScene,
    checker_centre,
    describe,
    geometry,
    render_board,
    render_replay,
    render_text,
    replay_scenes,
    scene_from_match,
    tavli_samples,
)
from renderers.analysis_png import PLAYED_COLOUR, PLAYED_LANE, render_blunder
from renderers.layout import DEFAULT_SIZE
from renderers.tavli_layout import bar_centre
from renderers.text_board import GLYPHS
from renderers.theme import get_theme

TOP = list(range(12, 0, -1))
BOTTOM = list(range(13, 25))
GEOM = geometry(DEFAULT_SIZE)


def _parse(text: str) -> dict[int, tuple[int, int, int]]:
    """Viewer point -> (owner, count, pinned owner or -1) read from the text board's cells."""
    lines = text.split("\n")
    top = next(i for i, line in enumerate(lines) if line.startswith("┌"))
    bottom = next(i for i, line in enumerate(lines) if line.startswith("└"))
    rows = lines[top + 1 : bottom]
    assert len(rows) == 11
    found: dict[int, tuple[int, int, int]] = {}

    def read(row_lines: list[str], points: list[int]) -> None:
        for column, point in enumerate(points):
            x = 1 + 3 * column + (1 if column >= 6 else 0)
            owner, count, pinned = -1, 0, -1
            for cell in (line[x : x + 3] for line in row_lines):
                if cell.startswith("(") and cell.endswith(")"):
                    pinned = GLYPHS.index(cell[1])
                elif cell.strip() in GLYPHS:
                    who = GLYPHS.index(cell.strip())
                    assert owner in (-1, who)
                    owner, count = who, count + 1
                elif cell.strip():
                    count = int(cell)
            if count or pinned >= 0:
                found[point] = (owner, count, pinned)

    read(rows[:5], TOP)
    read(list(reversed(rows[6:])), BOTTOM)
    return found


def _expected(position: TavliPosition, perspective: int) -> dict[int, tuple[int, int, int]]:
    """The same from each player's own lists (his q is the other's 25 - q), without the renderer."""
    cells: dict[int, list[int]] = {}
    for owner, counts, pins in ((0, position.me, position.me_pin), (1, position.opp, position.opp_pin)):
        for q, count in enumerate(counts, 1):
            point = q if owner == perspective else 25 - q
            cell = cells.setdefault(point, [-1, 0, -1])
            if q in pins:
                cell[2] = owner
                count -= 1
            if count:
                cell[0], cell[1] = owner, count
    return {p: (c[0], c[1], c[2]) for p, c in cells.items() if c[1] or c[2] >= 0}


def _bar_counts(text: str) -> dict[int, int]:
    """Player (by glyph) -> checkers on the bar, from the two player lines."""
    out = {0: 0, 1: 0}
    for line in text.split("\n"):
        for player in (0, 1):
            if line.startswith(GLYPHS[player] + " ") and " · bar " in line:
                out[player] = int(line.split(" · bar ")[1].split(" ")[0])
    return out


def _scenes() -> list[BoardScene]:
    scenes = [tavli_samples.portes_bars(), tavli_samples.plakoto_pins()]
    for game in ("portes", "plakoto"):
        played = tavli_samples.random_tavli_game(game, seed=11, max_plays=90)
        scenes.extend(replay_scenes(played, ("A", "B"))[10::20])
    return scenes


@pytest.mark.parametrize("perspective", [0, 1])
def test_text_board_shows_every_stack_pin_and_bar_as_the_engine_says(perspective: int) -> None:
    seen_pin = seen_bar = False
    for scene in _scenes():
        position = scene.position
        assert isinstance(position, TavliPosition)
        text = render_text(scene, perspective)
        assert max(len(line) for line in text.split("\n")) <= 80
        assert _parse(text) == _expected(position, perspective)
        assert _bar_counts(text) == {0: position.me_bar, 1: position.opp_bar}
        seen_pin |= bool(position.me_pin or position.opp_pin)
        seen_bar |= bool(position.me_bar and position.opp_bar)
        assert text.split("\n")[0].startswith(scene.label("game_" + scene.game))
    assert seen_pin and seen_bar


def test_text_board_last_play_has_bar_and_hit_marks_in_both_numberings() -> None:
    scene = dataclasses.replace(
        tavli_samples.portes_bars(), last_play_steps=((0, 3), (3, 9)), last_play_hits=(True, False)
    )
    text = render_text(scene, 0)
    assert "Last: Maria played bar/3* 3/9 (here bar/22* 22/16)" in text
    assert "bar ○2 ●1" in text  # the middle line counts both bars
    pins = render_text(tavli_samples.plakoto_pins(), 1)
    assert "(○/●) pinned" in pins and "Plakoto  ·" not in pins and pins.startswith("Plakoto · game 2 of tavli to 5")


def test_describe_names_the_game_the_bar_and_the_pins() -> None:
    portes = describe(tavli_samples.portes_bars(), 0)
    assert portes.startswith("Portes board") and "bar 2" in portes and "bar 1" in portes
    plakoto = describe(tavli_samples.plakoto_pins(), 0)
    assert plakoto.startswith("Plakoto board") and "pinned on 1, 7, 10" in plakoto and "pinned on 20" in plakoto


@pytest.mark.parametrize("perspective", [0, 1])
def test_pending_entry_from_the_bar_is_drawn_moved(perspective: int) -> None:
    base = tavli_samples.portes_bars()  # player 0 has two on the bar and 6-3: the 3 enters on his 3
    scene = dataclasses.replace(base, pending_steps=((0, 3),), dice_used=(3,))
    shown = scene.shown_for(perspective)
    assert isinstance(shown, TavliPosition) and (shown.me_bar if perspective == 0 else shown.opp_bar) == 1
    img = Image.open(io.BytesIO(render_board(scene, perspective))).convert("RGB")
    still = Image.open(io.BytesIO(render_board(base, perspective))).convert("RGB")
    point = 3 if perspective == 0 else 22
    light = get_theme("classic").checkers[0].body

    def lightness(image: Image.Image, xy: tuple[float, float], dy: float = GEOM.radius * 0.45) -> int:
        px = image.getpixel((int(xy[0]), int(xy[1] + dy)))
        return sum(abs(a - b) for a, b in zip(px, light, strict=True))

    assert lightness(img, checker_centre(GEOM, point, 0)) < 60 < lightness(still, checker_centre(GEOM, point, 0))
    side = 0 if perspective == 0 else 1
    second = bar_centre(GEOM, side, 1)
    assert lightness(still, second, 0) < 60 < lightness(img, second, 0)  # one checker left the bar


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_replay_gif_of_a_short_random_game_has_one_frame_per_scene(game: str) -> None:
    played = tavli_samples.random_tavli_game(game, seed=21, max_plays=24)
    scenes = replay_scenes(played, ("A", "B"))
    assert len(scenes) == len(played.history) + 1 == 25
    data = render_replay(scenes, 1, size=400)
    img = Image.open(io.BytesIO(data))
    assert img.format == "GIF"
    frames = [np.asarray(f.convert("RGB"), dtype=np.int16) for f in ImageSequence.Iterator(img)]
    assert len(frames) == len(scenes)
    assert any(np.abs(frames[i] - frames[i + 1]).max() > 0 for i in range(len(frames) - 1))


def test_a_finished_random_game_replays_to_the_engines_final_position() -> None:
    for game in ("portes", "plakoto"):
        played = tavli_samples.random_tavli_game(game, seed=4)
        scenes = replay_scenes(played, ("A", "B"))
        assert played.outcome is not None
        assert scenes[-1].position == played.view(0)
        assert scenes[-1].winner == played.outcome.winner and scenes[-1].drawn == played.outcome.is_draw


def test_scene_from_match_names_the_game_of_the_rotation_and_the_score_before_it() -> None:
    match = Match.new(5, kind="tavli")
    scene = scene_from_match(match, ("A", "B"))
    assert scene.game == "portes" and scene.match_line(0).startswith("Portes  ·  game 1 of tavli to 5")


@dataclass(frozen=True)
class _Move:
    """An analysed move as ``fevga.analysis.Move`` gives it (the fields the picture reads)."""

    index: int
    player: int
    dice: tuple[int, int]
    position: str
    played: str
    best: str
    played_equity: float
    best_equity: float
    loss: float
    mark: str


def test_blunder_picture_of_a_portes_entry_draws_the_played_arrow_from_the_bar() -> None:
    position = tavli_samples.portes_bars().position
    plays = legal_plays(position, (6, 3))
    texts = [format_play(p) for p in plays]
    assert all(t.startswith("bar/3") for t in texts)
    move = _Move(0, 0, (6, 3), position.id(), texts[0], texts[-1], -0.2, 0.1, 0.3, "?")
    img = Image.open(io.BytesIO(render_blunder(move))).convert("RGB")
    cx, cy = bar_centre(GEOM, 0, PLAYED_LANE)
    window = [img.getpixel((int(cx) + dx, int(cy) + dy)) for dx in range(-6, 7) for dy in range(-6, 7)]
    assert any(sum(abs(a - b) for a, b in zip(px, PLAYED_COLOUR, strict=True)) < 40 for px in window)
