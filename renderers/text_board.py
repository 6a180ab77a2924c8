"""The text board: the same information as the picture in at most 80 monospace columns.

For the terminal chat, screen readers and chats where images fail. The layout mirrors the picture
(viewer's numbering, his start top right, his home bottom right). Each point is a 3-column cell;
a stack taller than five shows its count in its fifth cell. In Plakoto a pinned checker is the
edge cell in brackets, ``(○)``, under its pinner's stack; in Portes the checkers on the bar are
counted on the middle line and in each player's line.
"""

from __future__ import annotations

import functools
import unicodedata

from fevga.play import format_steps
from fevga.variants import TavliPosition

from .layout import VISIBLE_STACK
from .scene import BoardScene

GLYPHS = ("○", "●")  # player 0 (light checkers), player 1 (dark checkers): fixed per player
TOP_LEFT = tuple(range(12, 6, -1))
TOP_RIGHT = tuple(range(6, 0, -1))
BOTTOM_LEFT = tuple(range(13, 19))
BOTTOM_RIGHT = tuple(range(19, 25))
MAX_NAME = 22  # "Υπολογιστής (δύσκολο)", the AI in Greek, whole
INNER = 18  # columns of one half


def render_text(scene: BoardScene, perspective: int) -> str:
    """The board as Unicode text (fits an 80-column terminal and a chat code block)."""
    if perspective not in (0, 1):
        raise ValueError(f"perspective must be 0 or 1, not {perspective!r}")
    shown = scene.shown_for(perspective)
    board, pins = shown.board, _pins(shown)
    opponent = 1 - perspective
    offs = (scene.shown_position().me_off, scene.shown_position().opp_off)
    lines = [scene.match_line(perspective).replace("  ", " ")] if scene.shows_match_line() else []
    lines.append(_player_line(scene, opponent, perspective))
    lines.append(" " + _numbers(TOP_LEFT) + " " + _numbers(TOP_RIGHT))
    lines.append("┌" + "─" * INNER + "┬" + "─" * INNER + "┐")
    for row in range(VISIBLE_STACK):
        side = f" {GLYPHS[opponent]} " + scene.label("off", n=offs[opponent]) if row == 0 else ""
        lines.append(_row(board, pins, TOP_LEFT, TOP_RIGHT, row, perspective) + side)
    lines.append(_middle(scene, perspective))
    for row in reversed(range(VISIBLE_STACK)):
        side = f" {GLYPHS[perspective]} " + scene.label("off", n=offs[perspective]) if row == 0 else ""
        lines.append(_row(board, pins, BOTTOM_LEFT, BOTTOM_RIGHT, row, perspective) + side)
    lines.append("└" + "─" * INNER + "┴" + "─" * INNER + "┘")
    lines.append(" " + _numbers(BOTTOM_LEFT) + " " + _numbers(BOTTOM_RIGHT))
    lines.append(_player_line(scene, perspective, perspective))
    if any(pins):
        lines.append(scene.label("pinned", glyph="○/●"))
    status = _status(scene, perspective)
    if status:
        lines.append(status)
    return "\n".join(line.rstrip() for line in lines)


def describe(scene: BoardScene, perspective: int, limit: int = 1000) -> str:
    """A one-paragraph summary for alt text (Discord allows 1024 characters): who, pips, points, dice."""
    if perspective not in (0, 1):
        raise ValueError(f"perspective must be 0 or 1, not {perspective!r}")
    shown = scene.shown_for(perspective)
    board, pins = shown.board, _pins(shown)
    offs = (scene.shown_position().me_off, scene.shown_position().opp_off)
    bars = _bars(scene, perspective)
    pips = shown.pips()
    parts = []
    for player, side in ((perspective, "bottom"), (1 - perspective, "top")):
        sign = 1 if player == perspective else -1
        stacks = ", ".join(f"{i + 1}:{c * sign}" for i, c in enumerate(board) if c * sign > 0)
        pinned = ", ".join(str(i + 1) for i, v in enumerate(pins) if v == sign)
        light = "light" if player == 0 else "dark"
        extra = f", bar {bars[player]}" if bars[player] else ""
        extra += f", pinned on {pinned}" if pinned else ""
        parts.append(
            f"{_name(scene, player)} ({light}, {side}): pips {pips[0 if player == perspective else 1]}, "
            f"off {offs[player]}{extra}, points {stacks or 'none'}."
        )
    status = ". ".join(_status_parts(scene, perspective))
    game = scene.game.capitalize()  # the summary is English throughout, like its other words
    text = f"{game} board, numbered for " + _name(scene, perspective) + ". " + " ".join(parts)
    if status:
        text += " " + status + "."
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _numbers(points: tuple[int, ...]) -> str:
    return "".join(f"{p:>2} " for p in points)


def _cell(signed: int, pin: int, row: int, perspective: int) -> str:
    """One row of a point: a checker, the count of a tall stack, a pinned checker ``(○)``, or blank."""
    if pin and row == 0:
        return f"({GLYPHS[perspective if pin > 0 else 1 - perspective]})"
    row -= 1 if pin else 0
    count = abs(signed)
    room = VISIBLE_STACK - (1 if pin else 0)
    if count <= row:
        return "   "
    if row == room - 1 and count > room:
        return f"{count:>2} "
    owner = perspective if signed > 0 else 1 - perspective
    return f" {GLYPHS[owner]} "


def _row(
    board: tuple[int, ...], pins: tuple[int, ...], left: tuple[int, ...], right: tuple[int, ...], row: int, persp: int
) -> str:
    a = "".join(_cell(board[p - 1], pins[p - 1], row, persp) for p in left)
    b = "".join(_cell(board[p - 1], pins[p - 1], row, persp) for p in right)
    return f"│{a}│{b}│"


def _pins(shown: object) -> tuple[int, ...]:
    """Who is pinned on each viewer point (+1 the viewer, -1 the opponent, 0 none; all 0 outside Plakoto)."""
    return shown.pins if isinstance(shown, TavliPosition) else (0,) * 24


def _bars(scene: BoardScene, perspective: int) -> tuple[int, int]:
    """Checkers on the bar of player 0 and player 1 (Portes; 0 elsewhere)."""
    shown = scene.shown_position()
    if not isinstance(shown, TavliPosition):
        return 0, 0
    return shown.me_bar, shown.opp_bar


def _middle(scene: BoardScene, perspective: int) -> str:
    """The line between the rows: the dice on the mover's half, or the result; the bar's checkers."""
    left = right = ""
    if scene.winner is not None or scene.drawn:
        left = scene.label("game_over")
    elif scene.dice is not None and scene.turn is not None:
        dice = f"[{scene.dice[0]}] [{scene.dice[1]}]"
        if scene.turn == perspective:
            right = dice
        else:
            left = dice
    bars = _bars(scene, perspective)
    if any(bars):
        counts = " ".join(f"{GLYPHS[p]}{bars[p]}" for p in (perspective, 1 - perspective) if bars[p])
        text = scene.label("bar", n=counts)
        if right:
            left = f"{left} {text}".strip()
        else:
            right = text
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
    """Terminal columns ``text`` takes: wide East Asian characters count two, combining marks none (ASCII text,
    the usual case, is one column a character; other characters' widths are looked up once and remembered)."""
    if text.isascii():
        return len(text)
    return sum(map(_char_columns, text))


@functools.cache
def _char_columns(ch: str) -> int:
    """Columns of one character (0, 1 or 2), from ``unicodedata``."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _player_line(scene: BoardScene, player: int, perspective: int) -> str:
    """Glyph, name, start and home on this board, pips, off, score and turn or result."""
    pips = scene.shown_for(perspective).pips()[0 if player == perspective else 1]
    off = scene.shown_position().me_off if player == 0 else scene.shown_position().opp_off
    if scene.game == "fevga":
        start, home = ("1", "19-24") if player == perspective else ("13", "7-12")
    else:
        start, home = ("1", "19-24") if player == perspective else ("24", "6-1")
    parts = [
        f"{GLYPHS[player]} {_name(scene, player)}",
        scene.label("start_home", start=start, home=home),
        scene.label("pips", n=pips),
    ]
    bar = _bars(scene, perspective)[player]
    if bar:
        parts.append(scene.label("bar", n=bar))
    if off:
        parts.append(scene.label("off", n=off))
    if scene.match_length > 1:
        parts.append(scene.label("score", a=scene.score[player], b=scene.match_length))
    if scene.winner == player:
        parts.append(scene.win_label("winner_tag"))
    elif scene.turn == player:
        parts.append(scene.label("to_play"))
    return _wrap(" · ".join(parts))


def _steps(scene: BoardScene, convert: bool) -> str:
    """The last play as written (``bar/3*``, ``19/off``), in the mover's numbering or converted."""
    steps = scene.last_play_steps
    if convert:
        steps = tuple((scene.other_point(a), scene.other_point(b)) for a, b in steps)
    return format_steps(steps, scene.last_play_hits)


def _status(scene: BoardScene, perspective: int) -> str:
    """The status lines, wrapped to 80 columns."""
    return "\n".join(_wrap(p) for p in _status_parts(scene, perspective))


def _status_parts(scene: BoardScene, perspective: int) -> list[str]:
    """The last play (in the mover's own numbering, then as seen on this board) and the result."""
    parts = []
    if scene.last_mover is not None and scene.last_play_steps:
        mover = _name(scene, scene.last_mover)
        played = _steps(scene, False)
        text = scene.label("last", name=mover, steps=played)
        if scene.last_mover != perspective:
            text += " " + scene.label("here", steps=_steps(scene, True))
        parts.append(text)
    if scene.drawn:
        parts.append(scene.label("result_draw"))
    elif scene.winner is not None:
        parts.append(scene.win_label("result", name=_name(scene, scene.winner)))
    elif scene.turn is not None and scene.dice is not None:
        dice = f"{scene.dice[0]}-{scene.dice[1]}"
        parts.append(scene.label("turn_dice", name=_name(scene, scene.turn), dice=dice))
    return parts


def _wrap(text: str, width: int = 80) -> str:
    """Wrap a long status line on spaces so no line passes ``width`` columns."""
    words, lines, line, used = text.split(" "), [], "", 0  # used: columns(line), kept as the line grows
    for word in words:
        size = columns(word)
        if line and used + 1 + size > width:
            lines.append(line)
            line, used = "  " + word, 2 + size
        else:
            line, used = (f"{line} {word}", used + 1 + size) if line else (word, size)
    lines.append(line)
    return "\n".join(lines)
