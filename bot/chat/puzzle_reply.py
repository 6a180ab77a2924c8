"""Puzzle messages as Replies: the puzzle's board (the roll, the side to move, the text board) and the verdict on an
answer (a wrong one with the best play drawn as arrows beside the one played). Pictures are drawn off the
event loop; the words come from ``bot/i18n`` (``en.puzzles.json``)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from bot.chat.analysis_reply import legend
from bot.delivery.replies import Reply
from bot.i18n import catalogue, translate
from fevga.analysis import Move
from fevga.variants import any_position_from_id
from renderers import BoardScene, render_board, render_text
from renderers.analysis_png import render_blunder

PUZZLE_KEYS = ("puzzle", "puzzle_daily", "puzzle_verdict")  # shown as their own reply, with a picture


def _dice(text: str) -> tuple[int, int]:
    """``"6-4"`` -> (6, 4)."""
    a, _, b = str(text).partition("-")
    return int(a), int(b)


def _names(lang: str) -> tuple[str, str]:
    """The two sides as the picture names them: the one to move, and his opponent."""
    return translate("puzzle_side_to_move", lang), translate("puzzle_side_other", lang)


def themes_text(themes: Any, lang: str) -> str:
    """The puzzle's themes in words, or nothing."""
    words = [translate(f"puzzle_theme_{t}", lang) for t in themes or ()]
    return translate("puzzle_themes", lang, themes=", ".join(words)) if words else ""


def _scene(args: Mapping[str, Any], lang: str, labels: tuple[tuple[str, str], ...]) -> BoardScene:
    """The puzzle's board from the mover's side (seat 0), with his roll and the board's words in ``lang``."""
    return BoardScene(position=any_position_from_id(str(args["position"])), turn=0, dice=_dice(args["dice"]),
                      names=_names(lang), labels=labels)


def _verdict_picture(args: Mapping[str, Any], lang: str, labels: tuple[tuple[str, str], ...] = ()) -> bytes:
    """The wrong answer (crimson) and the best play (blue) on the puzzle's board (run in a thread)."""
    dice = _dice(args["dice"])
    move = Move(0, 0, dice, str(args["position"]), str(args["played"]), str(args["best"]),
                float(args["played_equity"]), float(args["best_equity"]))
    loss = catalogue(lang).get("puzzle_legend_loss") or catalogue("en")["puzzle_legend_loss"]  # a template: the
    words = {**legend(lang), "loss": loss}  # picture fills in the loss, mark and dice (no game turn or player to name)
    return render_blunder(move, names=_names(lang), labels=words, board_labels=labels)


async def puzzle_reply(msg_key: str, args: Mapping[str, Any], lang: str, rest: str = "", *,
                       draw: bool = True, labels: tuple[tuple[str, str], ...] = (),
                       words: Mapping[str, str] | None = None) -> Reply:
    """The reply for one puzzle message; ``rest`` (the result's other lines) goes under its text; ``labels``: the
    board's words in ``lang`` (the presenter's ``board_labels``); ``words``: the platform's words (the commands as
    they reach the bot in a group there)."""
    if msg_key == "puzzle_verdict":
        key = "puzzle_right" if args.get("correct") else "puzzle_wrong"
        text = translate(key, lang, **args)
        image = None
        if draw and not args.get("correct"):
            image = await asyncio.to_thread(_verdict_picture, args, lang, labels)
        body = "\n".join(t for t in (text, rest) if t)
        return Reply(text=body, image=image, image_name="puzzle.png" if image else None)
    head = translate("puzzle_daily_head" if msg_key == "puzzle_daily" else "puzzle_head", lang, **args)
    how = translate("puzzle_how", lang, **{**(words or {}), **args})
    lines = [head, themes_text(args.get("themes"), lang), how, rest]
    scene = _scene(args, lang, labels)
    image = await asyncio.to_thread(render_board, scene, 0) if draw else None
    return Reply(text="\n".join(t for t in lines if t), image=image, image_name="puzzle.png" if image else None,
                 board_text=render_text(scene, 0))
