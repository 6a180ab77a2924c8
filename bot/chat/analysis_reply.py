"""The ``analyze`` answer as a Reply: the report's text in the chat's language and one picture per blunder.

The words come from ``bot/i18n`` (keys ``ana_<key>`` for ``fevga.analysis_text.WORDS`` and
``ana_legend_<key>`` for the picture's legend); pictures are drawn off the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.delivery.replies import Reply
from bot.i18n import catalogue, display_name, localised, translate
from bot.service.game_words import AI_LEVELS
from fevga.analysis import Move, Report
from fevga.analysis_text import WORDS, report_text, summary
from renderers.analysis_png import LEGEND, render_blunder

MAX_PICTURES = 6  # an album of at most this many blunders (Telegram allows 10)


def _templates(defaults: Mapping[str, str], prefix: str, lang: str) -> dict[str, str]:
    """The catalogue's templates (still with their ``{fields}``) for ``defaults``' keys, English as fallback."""
    own, english = catalogue(lang), catalogue("en")
    return {key: own.get(prefix + key) or english.get(prefix + key) or text for key, text in defaults.items()}


def words(lang: str) -> dict[str, str]:
    """``analysis_text.WORDS`` in ``lang``, each formatting with the catalogue's plural rules ("1 error")."""
    return {key: localised(template, lang) for key, template in _templates(WORDS, "ana_", lang).items()}


def legend(lang: str) -> dict[str, str]:
    """``analysis_png.LEGEND`` in ``lang``."""
    return _templates(LEGEND, "ana_legend_", lang)


def summary_line(report: Report, names: Sequence[str], lang: str) -> str:
    """The one-line summary (error rates, blunders, luck) in ``lang``."""
    return summary(report, names, words(lang))


def picture_caption(move: Move, names: Sequence[str], lang: str) -> str:
    """What goes under one blunder picture."""
    return translate(
        "analysis_picture", lang, name=names[move.player] if 0 <= move.player < len(names) else "?",
        turn=move.index + 1, dice=f"{move.dice[0]}-{move.dice[1]}", played=move.played, best=move.best,
        loss=f"{move.loss:.3f}", mark=move.mark,
    )


def _draw(moves: Sequence[Move], names: Sequence[str], labels: Mapping[str, str],
          board: tuple[tuple[str, str], ...] = ()) -> list[bytes]:
    """Every picture (run in a thread); ``board``: the board's words in the reply's language."""
    # renderers' AnalysedMove protocol declares settable attributes; the frozen Move has them read-only.
    return [render_blunder(move, names=names, labels=labels, board_labels=board) for move in moves]


async def analysis_reply(args: Mapping[str, Any], lang: str, *, draw: bool = True,
                         labels: tuple[tuple[str, str], ...] = ()) -> Reply:
    """The reply for a ``Msg('analysis', {'report', 'names', 'game_id', 'game_no'})``; ``labels``: the board's
    words in ``lang`` (the presenter's ``board_labels``)."""
    report = Report.from_dict(args["report"])
    if report.judge in AI_LEVELS:  # the level that judged, named as the AI is in this language
        report = replace(report, judge=display_name(f"AI ({report.judge})", lang))
    names = [display_name(str(n), lang) for n in args["names"]]
    head = translate("analysis", lang, game_id=args.get("game_id", "?"), game_no=args.get("game_no", 1),
                     game=args.get("game", "fevga"))
    text = "\n".join((head, report_text(report, names, words(lang))))
    if args.get("summary"):  # posted after a game: the one-line summary first
        text = "\n".join((summary_line(report, names, lang), "", text))
    moves = report.blunders()[:MAX_PICTURES]
    pictures: tuple[tuple[bytes, str], ...] = ()
    if draw and moves:
        images = await asyncio.to_thread(_draw, moves, names, legend(lang), labels)
        pictures = tuple((png, picture_caption(m, names, lang)) for png, m in zip(images, moves, strict=True))
    return Reply(text=text, pictures=pictures)
