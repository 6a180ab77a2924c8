"""The blunder picture: the board before a move, from the mover's side, with the played play and the
best play drawn as two sets of arrows in distinct colours, their equities and a legend.

Pure: ``render_blunder(move) -> PNG bytes`` reads an analysis move (``fevga.analysis.Move``) and
never changes anything. The board itself is the ordinary board renderer's picture.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from PIL import Image, ImageDraw

from fevga.notation import parse_moves
from fevga.position import Position
from fevga.rules import OFF
from fevga.variants import TavliPosition, any_position_from_id

from . import textrun
from .board_png import render_board_image
from .fonts import fit, font, printable
from .layout import DEFAULT_SIZE, VISIBLE_STACK, Geometry, checker_centre, geometry
from .png import PNG_COMPRESS_LEVEL
from .scene import DEFAULT_THEME, BoardScene
from .tavli_layout import bar_centre
from .theme import RGB, get_theme

PLAYED_COLOUR: RGB = (214, 32, 74)  # crimson: the move made
BEST_COLOUR: RGB = (24, 120, 230)  # blue: the best move (apart in hue and lightness)
PLAYED_LANE = 1  # checker slot the played arrows run along
BEST_LANE = 3  # and the best ones: two lanes, so the sets do not hide each other
LEGEND_LINES = 3

LEGEND: dict[str, str] = {
    "played": "Played: {play}",
    "best": "Best: {play}",
    "equity": "equity {equity}",
    "loss": "Loss {loss} {mark}  ·  {name}, turn {turn}, dice {dice}",
}

Point = tuple[float, float]


class AnalysedMove(Protocol):
    """What the picture needs of a move (``fevga.analysis.Move`` has it)."""

    @property
    def index(self) -> int: ...
    @property
    def player(self) -> int: ...
    @property
    def dice(self) -> tuple[int, int]: ...
    @property
    def position(self) -> str: ...
    @property
    def played(self) -> str: ...
    @property
    def best(self) -> str: ...
    @property
    def played_equity(self) -> float: ...
    @property
    def best_equity(self) -> float: ...

    @property
    def loss(self) -> float:
        """Equity lost by the played move."""
        ...

    @property
    def mark(self) -> str:
        """``??``, ``?`` or empty."""
        ...


def steps_of(text: str, game: str = "fevga") -> list[tuple[int, int]]:
    """The (from, to) steps of a written play (``1/7 7/12``, ``19/off``, Portes ``bar/3*``); empty for ``pass``."""
    return list(parse_moves(text, game) or [])


def anchor(geom: Geometry, point: int, lane: int) -> Point:
    """Where an arrow touches the viewer's point ``point`` (25 = his tray, 0 = his bar) in ``lane``."""
    if point == 0:
        return bar_centre(geom, 0, min(lane, VISIBLE_STACK - 1))
    if point == OFF:
        x0, y0, x1, _y1 = geom.trays[0]
        return (x0 + x1) / 2, y0 + geom.unit * (lane + 0.5)
    return checker_centre(geom, point, lane)


def arrow_lines(geom: Geometry, steps: Sequence[tuple[int, int]], lane: int) -> list[tuple[Point, Point]]:
    """Start and tip of each step's arrow, in pixels (the mover is the viewer, so his numbering)."""
    return [(anchor(geom, a, lane), anchor(geom, b, lane)) for a, b in steps]


def _arrow(draw: ImageDraw.ImageDraw, start: Point, tip: Point, colour: RGB, u: int) -> None:
    """A shaft with a dot at the start and a filled head ending exactly at ``tip``."""
    (x0, y0), (x1, y1) = start, tip
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    dx, dy = (x1 - x0) / length, (y1 - y0) / length
    head = min(u * 0.55, length * 0.6)
    base = (x1 - dx * head, y1 - dy * head)
    width = max(3, u // 7)
    draw.line((start, base), fill=colour, width=width)
    r = max(3, u // 6)
    draw.ellipse((x0 - r, y0 - r, x0 + r, y0 + r), fill=colour, outline=(255, 255, 255))
    half = head * 0.5
    left = (base[0] - dy * half, base[1] + dx * half)
    right = (base[0] + dy * half, base[1] - dx * half)
    draw.polygon([tip, left, right], fill=colour, outline=(255, 255, 255))


def _arrows(draw: ImageDraw.ImageDraw, geom: Geometry, steps: list[tuple[int, int]], lane: int, colour: RGB) -> None:
    """One arrow per distinct step; a step made more than once (doubles) is labelled ``×n``."""
    u = geom.unit
    counts = {step: steps.count(step) for step in steps}
    for step, n in counts.items():
        ((a, b),) = arrow_lines(geom, [step], lane)
        _arrow(draw, a, b, colour, u)
        if n > 1:
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - u * 0.3)
            draw.text(
                mid,
                f"×{n}",
                font=font(int(u * 0.4), bold=True),
                fill=colour,
                anchor="mm",
                stroke_width=2,
                stroke_fill=(255, 255, 255),
            )


def _text(labels: Mapping[str, str], key: str, **args: object) -> str:
    """One legend phrase from ``labels`` or the English default."""
    return (labels.get(key) or LEGEND[key]).format(**args)


def render_blunder_image(
    move: AnalysedMove,
    *,
    position: Position | None = None,
    names: Sequence[str] = ("Player 1", "Player 2"),
    size: int = DEFAULT_SIZE,
    theme: str = DEFAULT_THEME,
    labels: Mapping[str, str] = LEGEND,
    board_labels: tuple[tuple[str, str], ...] = (),
) -> Image.Image:
    """The picture as an RGB image: board, the two arrow sets and a legend strip below; ``board_labels``: the
    board's own words (pips, whose turn, the game's name) in the caller's language."""
    start = position if position is not None else any_position_from_id(move.position)
    game = start.game if isinstance(start, TavliPosition) else "fevga"
    seat = move.player
    scene = BoardScene.from_position(start, seen_by=seat, turn=seat, dice=move.dice, names=names, theme=theme)
    if board_labels:
        scene = replace(scene, labels=board_labels)
    board = render_board_image(scene, seat, size=size).convert("RGB")
    geom = geometry(size)
    u = geom.unit
    draw = ImageDraw.Draw(board)
    for text, lane, colour in ((move.played, PLAYED_LANE, PLAYED_COLOUR), (move.best, BEST_LANE, BEST_COLOUR)):
        _arrows(draw, geom, steps_of(text, game), lane, colour)
    line_h = int(u * 0.62)
    pad = int(u * 0.3)
    out = Image.new("RGB", (board.width, board.height + 2 * pad + LEGEND_LINES * line_h), get_theme(theme).strip)
    out.paste(board, (0, 0))
    _legend(out, move, names, labels, board.height + pad, line_h, theme)
    return out


def _legend(
    img: Image.Image,
    move: AnalysedMove,
    names: Sequence[str],
    labels: Mapping[str, str],
    y: int,
    line_h: int,
    theme: str,
) -> None:
    """Two coloured key lines (played, best) with their equities, then the loss line."""
    th = get_theme(theme)
    draw = ImageDraw.Draw(img)
    size = int(line_h * 0.7)
    f, fb = font(size), font(size, bold=True)
    x0 = int(line_h * 0.6)
    room = img.width - 2 * x0
    rows = (
        (PLAYED_COLOUR, _text(labels, "played", play=move.played), move.played_equity),
        (BEST_COLOUR, _text(labels, "best", play=move.best), move.best_equity),
    )
    for n, (colour, words, equity) in enumerate(rows):
        top = y + n * line_h
        key = (x0, top + line_h * 0.2, x0 + line_h * 0.9, top + line_h * 0.8)
        draw.rectangle(key, fill=colour)
        eq = _text(labels, "equity", equity=f"{equity:+.3f}")
        eq_w = int(f.getlength(eq))
        draw.text((img.width - x0 - eq_w, top + line_h / 2), eq, font=f, fill=th.strip_text, anchor="lm")
        text = fit(printable(words), size, room - eq_w - int(line_h * 1.6), bold=True)
        draw.text((x0 + line_h * 1.2, top + line_h / 2), text, font=fb, fill=th.strip_text, anchor="lm")
    name = textrun.drawable(names[move.player]) if 0 <= move.player < len(names) else ""
    last = _text(
        labels,
        "loss",
        loss=f"{move.loss:.3f}",
        mark=move.mark,
        name=name,
        turn=move.index + 1,
        dice=f"{move.dice[0]}-{move.dice[1]}",
    )
    ascent, descent = f.getmetrics()  # the name is drawn as written (fallback fonts), centred like the rest
    line_top = y + 2 * line_h + (line_h - ascent - descent) / 2
    textrun.draw(img, (x0, line_top), textrun.fit(last, size, room), size, th.accent)


def render_blunder(
    move: AnalysedMove,
    *,
    position: Position | None = None,
    names: Sequence[str] = ("Player 1", "Player 2"),
    size: int = DEFAULT_SIZE,
    theme: str = DEFAULT_THEME,
    labels: Mapping[str, str] = LEGEND,
    board_labels: tuple[tuple[str, str], ...] = (),
) -> bytes:
    """The blunder picture as PNG bytes (see :func:`render_blunder_image`)."""
    img = render_blunder_image(
        move, position=position, names=names, size=size, theme=theme, labels=labels, board_labels=board_labels
    )
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


__all__ = [
    "BEST_COLOUR",
    "BEST_LANE",
    "LEGEND",
    "PLAYED_COLOUR",
    "PLAYED_LANE",
    "anchor",
    "arrow_lines",
    "render_blunder",
    "render_blunder_image",
    "steps_of",
]
