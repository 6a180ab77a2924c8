"""The text board: the same information as the picture in at most 80 monospace columns.

For the terminal chat, screen readers and chats where images fail. The layout mirrors the picture
(viewer's numbering, his start top right, his home bottom right). Each point is a 3-column cell;
a stack taller than five shows its count in its fifth cell.
"""

from __future__ import annotations

import unicodedata

from fevga.position import opponent_point
from fevga.rules import OFF

from .layout import VISIBLE_STACK
from .scene import BoardScene

GLYPHS = ("○", "●")  # player 0 (light checkers), player 1 (dark checkers): fixed per player
TOP_LEFT = tuple(range(12, 6, -1))
TOP_RIGHT = tuple(range(6, 0, -1))
BOTTOM_LEFT = tuple(range(13, 19))
BOTTOM_RIGHT = tuple(range(19, 25))
MAX_NAME = 20
INNER = 18  # columns of one half


def render_text(scene: BoardScene, perspective: int) -> str:
    """The board as Unicode text (fits an 80-column terminal and a chat code block)."""
    if perspective not in (0, 1):
        raise ValueError(f"perspective must be 0 or 1, not {perspective!r}")
    board = scene.shown_for(perspective).board
    opponent = 1 - perspective
    offs = (scene.shown_position().me_off, scene.shown_position().opp_off)
    lines = [_player_line(scene, opponent, perspective)]
    lines.append(" " + _numbers(TOP_LEFT) + " " + _numbers(TOP_RIGHT))
    lines.append("┌" + "─" * INNER + "┬" + "─" * INNER + "┐")
    for row in range(VISIBLE_STACK):
        side = f" {GLYPHS[opponent]} " + scene.label("off", n=offs[opponent]) if row == 0 else ""
        lines.append(_row(board, TOP_LEFT, TOP_RIGHT, row, perspective) + side)
    lines.append(_middle(scene, perspective))
    for row in reversed(range(VISIBLE_STACK)):
        side = f" {GLYPHS[perspective]} " + scene.label("off", n=offs[perspective]) if row == 0 else ""
        lines.append(_row(board, BOTTOM_LEFT, BOTTOM_RIGHT, row, perspective) + side)
    lines.append("└" + "─" * INNER + "┴" + "─" * INNER + "┘")
    lines.append(" " + _numbers(BOTTOM_LEFT) + " " + _numbers(BOTTOM_RIGHT))
    lines.append(_player_line(scene, perspective, perspective))
    status = _status(scene, perspective)
    if status:
        lines.append(status)
    return "\n".join(line.rstrip() for line in lines)


def describe(scene: BoardScene, perspective: int, limit: int = 1000) -> str:
    """A one-paragraph summary for alt text (Discord allows 1024 characters): who, pips, points, dice."""
    if perspective not in (0, 1):
        raise ValueError(f"perspective must be 0 or 1, not {perspective!r}")
    board = scene.shown_for(perspective).board
    offs = (scene.shown_position().me_off, scene.shown_position().opp_off)
    pips = scene.shown_for(perspective).pips()
    parts = []
    for player, side in ((perspective, "bottom"), (1 - perspective, "top")):
        sign = 1 if player == perspective else -1
        stacks = ", ".join(f"{i + 1}:{c * sign}" for i, c in enumerate(board) if c * sign > 0)
        light = "light" if player == 0 else "dark"
        parts.append(
            f"{_name(scene, player)} ({light}, {side}): pips {pips[0 if player == perspective else 1]}, "
            f"off {offs[player]}, points {stacks or 'none'}."
        )
    status = ". ".join(_status_parts(scene, perspective))
    text = "Fevga board, numbered for " + _name(scene, perspective) + ". " + " ".join(parts)
    if status:
        text += " " + status + "."
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _numbers(points: tuple[int, ...]) -> str:
    return "".join(f"{p:>2} " for p in points)


def _cell(signed: int, row: int, perspective: int) -> str:
    count = abs(signed)
    if count <= row:
        return "   "
    if row == VISIBLE_STACK - 1 and count > VISIBLE_STACK:
        return f"{count:>2} "
    owner = perspective if signed > 0 else 1 - perspective
    return f" {GLYPHS[owner]} "


def _row(board: tuple[int, ...], left: tuple[int, ...], right: tuple[int, ...], row: int, perspective: int) -> str:
    a = "".join(_cell(board[p - 1], row, perspective) for p in left)
    b = "".join(_cell(board[p - 1], row, perspective) for p in right)
    return f"│{a}│{b}│"


def _middle(scene: BoardScene, perspective: int) -> str:
    """The line between the rows: the dice on the mover's half, or the result."""
    left = right = ""
    if scene.winner is not None:
        left = scene.label("game_over")
    elif scene.dice is not None and scene.turn is not None:
        dice = f"[{scene.dice[0]}] [{scene.dice[1]}]"
        if scene.turn == perspective:
            right = dice
        else:
            left = dice
    return f"│{left:^{INNER}}│{right:^{INNER}}│"


def _name(scene: BoardScene, player: int) -> str:
    """The name on one line, without control characters or backticks (they would end a code block)."""
    clean = "".join(ch for ch in scene.names[player] if ch.isprintable() or ch == " ").replace("`", "'")
    name = " ".join(clean.split()) or "?"
    if columns(name) <= MAX_NAME:
        return name
    while columns(name) > MAX_NAME - 1:
        name = name[:-1]
    return name + "…"


def columns(text: str) -> int:
    """Terminal columns ``text`` takes: wide East Asian characters count two, combining marks none."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _player_line(scene: BoardScene, player: int, perspective: int) -> str:
    """Glyph, name, start and home on this board, pips, off, score and turn or result."""
    pips = scene.shown_for(perspective).pips()[0 if player == perspective else 1]
    off = scene.shown_position().me_off if player == 0 else scene.shown_position().opp_off
    start, home = ("1", "19-24") if player == perspective else ("13", "7-12")
    parts = [
        f"{GLYPHS[player]} {_name(scene, player)}",
        scene.label("start_home", start=start, home=home),
        scene.label("pips", n=pips),
    ]
    if off:
        parts.append(scene.label("off", n=off))
    if scene.match_length > 1:
        parts.append(scene.label("score", a=scene.score[player], b=scene.match_length))
    if scene.winner == player:
        parts.append(scene.label("winner_tag_mars" if scene.mars else "winner_tag"))
    elif scene.turn == player:
        parts.append(scene.label("to_play"))
    return _wrap(" · ".join(parts))


def _steps(steps: tuple[tuple[int, int], ...], convert: bool) -> str:
    def show(p: int) -> str:
        if p == OFF:
            return "off"
        return str(opponent_point(p) if convert else p)

    return " ".join(f"{show(a)}/{show(b)}" for a, b in steps)


def _status(scene: BoardScene, perspective: int) -> str:
    """The status lines, wrapped to 80 columns."""
    return "\n".join(_wrap(p) for p in _status_parts(scene, perspective))


def _status_parts(scene: BoardScene, perspective: int) -> list[str]:
    """The last play (in the mover's own numbering, then as seen on this board) and the result."""
    parts = []
    if scene.last_mover is not None and scene.last_play_steps:
        mover = _name(scene, scene.last_mover)
        played = _steps(scene.last_play_steps, False)
        text = scene.label("last", name=mover, steps=played)
        if scene.last_mover != perspective:
            text += " " + scene.label("here", steps=_steps(scene.last_play_steps, True))
        parts.append(text)
    if scene.winner is not None:
        parts.append(scene.label("result_mars" if scene.mars else "result", name=_name(scene, scene.winner)))
    elif scene.turn is not None and scene.dice is not None:
        dice = f"{scene.dice[0]}-{scene.dice[1]}"
        parts.append(scene.label("turn_dice", name=_name(scene, scene.turn), dice=dice))
    return parts


def _wrap(text: str, width: int = 80) -> str:
    """Wrap a long status line on spaces so no line passes ``width`` columns."""
    words, lines, line = text.split(" "), [], ""
    for word in words:
        if line and columns(line) + 1 + columns(word) > width:
            lines.append(line)
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)
