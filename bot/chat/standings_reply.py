"""The standings picture of a tournament or season result: the table's messages (a header, one row per
player) drawn by :mod:`renderers.standings_png`, with the column heads in the reply's language."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import translate
from bot.service.models import Msg
from renderers.standings_png import StandingRow, render_standings

KNOCKOUT_HEADERS = tuple(f"tournament_table_{h}_ko" for h in ("header", "final", "start"))  # a bracket's tables
HEADERS = ("tournament_table_header", "tournament_table_final", "tournament_table_start", "tournament_table_open",
           *KNOCKOUT_HEADERS)  # fmt: skip
ROWS = ("tournament_table_row", "tournament_table_row_ko")
COLUMNS = ("tournament_col_rank", "tournament_col_name", "tournament_col_score", "tournament_col_buchholz",
           "tournament_col_sb", "tournament_col_rounds")  # fmt: skip
KNOCKOUT_COLUMNS = ("tournament_col_rank", "tournament_col_name", "tournament_col_wins", "tournament_col_rounds")
SEASON_HEADERS = ("season_table_header", "season_table_final")
PICTURE_TITLES = {
    "tournament_table_header": "tournament_picture_header",
    "tournament_table_final": "tournament_picture_final",
    "tournament_table_start": "tournament_picture_start",
    "tournament_table_open": "tournament_picture_open",
    "season_table_header": "season_picture_header",
    "season_table_final": "season_picture_final",
}
"""The picture's title for each table header (a knockout's ``…_ko`` header: its Swiss twin's): the game's short
name and no list of the columns (the picture heads them), so it fits (renderers.standings_png wraps the rest)."""
SEASON_COLUMNS = ("season_col_rank", "season_col_name", "season_col_rating", "season_col_matches", "season_col_wins")


def standings_picture(messages: Sequence[Msg], lang: str) -> bytes | None:
    """The PNG of the first table among ``messages`` (None when there is none, or it has no rows)."""
    header = next((m for m in messages if m.key in HEADERS + SEASON_HEADERS), None)
    if header is None:
        return None
    numbers = 3
    if header.key in SEASON_HEADERS:
        rows = [_season_row(m) for m in messages if m.key == "season_table_row"]
        heads = [translate(key, lang) for key in SEASON_COLUMNS]
    else:
        rows = [_row(m) for m in messages if m.key in ROWS]
        knockout = header.key in KNOCKOUT_HEADERS or any(m.key == "tournament_table_row_ko" for m in messages)
        numbers = 1 if knockout else 3  # a bracket has matches won and nothing to break ties with
        heads = [translate(key, lang) for key in (KNOCKOUT_COLUMNS if knockout else COLUMNS)]
    if not rows:  # an empty table is said in words (nobody ranked yet): a picture of its heads shows nothing
        return None
    title = translate(PICTURE_TITLES[header.key.removesuffix("_ko")], lang, **header.args)
    return render_standings(title, heads, rows, numbers=numbers)


def _season_row(msg: Msg) -> StandingRow:
    """A season's row: rating, rated matches and wins in the three number columns."""
    a = msg.args
    return StandingRow(int(a.get("rank", 0)), str(a.get("name", "")), int(a.get("rating", 0)),
                       int(a.get("matches", 0)), int(a.get("wins", 0)))  # fmt: skip


def _row(msg: Msg) -> StandingRow:
    """One row from its message's arguments (a damaged mark is drawn as a loss, never raises)."""
    a = msg.args
    marks = a.get("marks") or []
    results = tuple(
        (bool(m[0]), None if m[1] is None else str(m[1])) for m in marks if isinstance(m, list | tuple) and len(m) == 2
    )
    return StandingRow(int(a.get("rank", 0)), str(a.get("name", "")), int(a.get("score", 0)),
                       int(a.get("buchholz", 0)), int(a.get("sb", 0)), results)  # fmt: skip
