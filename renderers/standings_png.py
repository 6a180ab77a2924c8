"""The tournament standings as a picture: a title, then one row per player (rank, name, score, Buchholz,
Sonneborn-Berger, round results), names drawn as written (CJK, emoji, right-to-left) by
:mod:`renderers.textrun` and cut by whole characters to their column.

Words (the title and column heads) come from the caller, already translated; this module draws only.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import textrun
from .png import PNG_COMPRESS_LEVEL

BG = (40, 34, 31)
STRIPE = (52, 45, 41)
TEXT = (246, 240, 230)
HEAD = (255, 214, 102)
WON = (134, 214, 134)
LOST = (230, 120, 110)
SIZE = 22
ROW = 34
PAD = 16
NAME_WIDTH = 260
MAX_ROWS = 64  # a larger field is cut (the text form lists everyone)
MAX_WIDTH = 1000  # a title wider than this goes on two lines (the second cut by whole characters)
TITLE_LINES = 2


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's row: ``results`` is one (won, opponent name) per round; opponent None = a bye."""

    rank: int
    name: str
    score: int
    buchholz: int
    sonneborn_berger: int
    results: tuple[tuple[bool, str | None], ...] = ()


def column_xs(heads: Sequence[str], numbers: int = 3) -> list[int]:
    """Where each column starts: rank, name, the ``numbers`` number columns (72 px, or as wide as their head),
    rounds."""
    columns = [PAD, PAD + 48, PAD + 48 + NAME_WIDTH + 12]
    shown = list(heads[2 : 2 + numbers])
    for head in shown + [""] * (numbers - len(shown)):
        columns.append(columns[-1] + max(72, int(textrun.width(head, SIZE - 4)) + 16))
    return columns


def title_lines(title: str, size: int, max_width: float) -> list[str]:
    """The title on at most :data:`TITLE_LINES` lines of ``max_width`` pixels, broken between words (a long
    game name or a Greek title is never cut mid-title); only what still does not fit is cut, on the last line."""
    lines: list[str] = []
    words = title.split(" ")
    while words and len(lines) < TITLE_LINES - 1:
        taken = 1
        while taken < len(words) and textrun.width(" ".join(words[: taken + 1]), size, bold=True) <= max_width:
            taken += 1
        if taken == len(words) and textrun.width(" ".join(words), size, bold=True) <= max_width:
            break  # the rest fits on this line: it is the last one
        lines.append(textrun.fit(" ".join(words[:taken]), size, max_width, bold=True))
        words = words[taken:]
    if words:
        lines.append(textrun.fit(" ".join(words), size, max_width, bold=True))
    return lines


def render_standings(title: str, heads: Sequence[str], rows: Sequence[StandingRow], numbers: int = 3) -> bytes:
    """The PNG of the table. ``heads``: the column titles (rank, name, score, Buchholz, SB, rounds); ``numbers``:
    how many of the number columns are drawn (1: the score alone, as a knockout's table has)."""
    numbers = min(max(numbers, 1), 3)
    shown = list(rows[:MAX_ROWS])
    rounds = max((len(r.results) for r in shown), default=0)
    columns = column_xs(heads, numbers)
    cell = 44
    title_width = textrun.width(title, SIZE + 4, bold=True) + 2 * PAD  # a long title widens it, up to MAX_WIDTH
    width = max(columns[-1] + max(rounds, 1) * cell + PAD, 640, min(int(title_width) + 1, MAX_WIDTH))
    titles = title_lines(title, SIZE + 4, width - 2 * PAD)
    top = ROW * (len(titles) - 1)  # a title on two lines moves the table down by a row
    height = PAD * 2 + ROW * (len(shown) + 2) + top
    img = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(img)
    for n, line in enumerate(titles):
        textrun.draw(img, (PAD, PAD + n * ROW), line, SIZE + 4, HEAD, bold=True)
    y = PAD + ROW + top
    room = [nxt - x - 8 for x, nxt in itertools.pairwise(columns)] + [width - columns[-1] - PAD]
    shown_heads = heads[: len(columns) - 1] if rounds else heads  # the rounds' numbers head their own columns
    for x, head, space in zip(columns, shown_heads, room, strict=False):  # each head cut to its column: none overlap
        textrun.draw(img, (x, y), textrun.fit(head, SIZE - 4, space), SIZE - 4, HEAD)
    for n in range(rounds):
        textrun.draw(img, (columns[-1] + n * cell, y), str(n + 1), SIZE - 4, HEAD)
    for index, row in enumerate(shown):
        y = PAD + ROW * (index + 2) + top
        if index % 2:
            draw.rectangle((0, y - 4, width, y + ROW - 6), fill=STRIPE)
        textrun.draw(img, (columns[0], y), f"{row.rank}.", SIZE, TEXT)
        textrun.draw(img, (columns[1], y), textrun.fit(row.name, SIZE, NAME_WIDTH), SIZE, TEXT)
        values = (row.score, row.buchholz, row.sonneborn_berger)[:numbers]
        for x, value in zip(columns[2 : 2 + numbers], values, strict=True):
            textrun.draw(img, (x, y), str(value), SIZE, TEXT, bold=x == columns[2])
        for n, (won, opponent) in enumerate(row.results):
            mark = "★" if opponent is None else ("+" if won else "−")  # a bye, a win, a loss
            textrun.draw(img, (columns[-1] + n * cell, y), mark, SIZE, WON if won else LOST)
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()
