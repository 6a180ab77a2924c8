"""Board pictures for fevga-bot: a PNG board, a Unicode text board and an animated replay.

All renderers are pure functions of a :class:`BoardScene`; they never change game state. One entry per
kind of picture serves every game (Fevga, Portes, Plakoto): build the scene with ``scene_from_game`` /
``scene_from_match`` / ``replay_scenes`` (or ``BoardScene`` with a ``TavliPosition``), then call
``render_board``, ``render_text``, ``describe`` or ``render_replay``; they dispatch on the game inside.
"""

from .board_png import render_board, render_board_image, warm_up
from .from_game import replay_scenes, scene_from_game, scene_from_match
from .layout import Geometry, checker_centre, geometry, point_box, viewer_point
from .replay import render_replay
from .scene import BoardScene
from .text_board import describe, render_text
from .theme import THEMES

__all__ = [
    "THEMES",
    "BoardScene",
    "Geometry",
    "checker_centre",
    "describe",
    "geometry",
    "point_box",
    "render_board",
    "render_board_image",
    "render_replay",
    "render_text",
    "replay_scenes",
    "scene_from_game",
    "scene_from_match",
    "viewer_point",
    "warm_up",
]
