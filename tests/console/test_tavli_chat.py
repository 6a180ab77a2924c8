"""Portes, Plakoto and tavli in the terminal chat on the real core and a real redis-server: ``play ai portes``
and ``play ai tavli 3`` typed as a person would, played to the end with the text board and the PNG, then the
replay GIF, the export and the analysis of the games."""

from __future__ import annotations

import asyncio
import io
import random
import re
from pathlib import Path

import pytest

from bot.chat.core import BotCore
from bot.console import ConsoleChat
from fevga.match import game_kind
from tests.botkit import a_legal_play_text

PNG, GIF = b"\x89PNG\r\n\x1a\n", b"GIF8"


async def play_to_the_end(chat: ConsoleChat, core: BotCore, rng: random.Random) -> tuple[object, set[str]]:
    """Type random legal plays until the match is over; (the last view, the games seen)."""
    seen: set[str] = set()
    for _ in range(3000):
        view = (await core.service.board(chat.you, chat.place)).view
        assert view is not None
        if view.status != "play":
            return view, seen
        seen.add(view.game)
        if view.kind == "tavli":
            assert view.game == game_kind("tavli", view.game_no)
        await chat.command(a_legal_play_text(view, rng))
    raise AssertionError("the match did not end")


def pictures(folder: Path, suffix: str) -> list[bytes]:
    return [p.read_bytes() for p in sorted(folder.glob(f"*{suffix}"))]


@pytest.mark.parametrize("game", ["portes", "plakoto"])
async def test_play_ai_one_game_then_replay_export_and_analysis(core: BotCore, tmp_path: Path, game: str) -> None:
    out = io.StringIO()
    chat = ConsoleChat(core, board_dir=tmp_path, out=out)
    await chat.command(f"play ai {game}")
    started = out.getvalue()
    assert f"({game.capitalize()})" in started and "│" in started and not started.lstrip().startswith("!")
    assert pictures(tmp_path, ".png") and all(p.startswith(PNG) for p in pictures(tmp_path, ".png"))
    view, seen = await play_to_the_end(chat, core, random.Random(4))
    assert seen == {game} and view.status == "done"  # type: ignore[attr-defined]
    assert "Traceback" not in out.getvalue()
    await check_after_game(chat, out, tmp_path, game.capitalize())


async def test_play_ai_tavli_three_rotates_the_games(core: BotCore, tmp_path: Path) -> None:
    out = io.StringIO()
    chat = ConsoleChat(core, board_dir=tmp_path, out=out)
    await chat.command("play ai tavli 3")
    assert "(tavli: Portes, Plakoto, Fevga in turn)" in out.getvalue()
    view, seen = await play_to_the_end(chat, core, random.Random(9))
    assert view.match_winner is not None and max(view.score) >= 3  # type: ignore[attr-defined]
    assert "portes" in seen and (view.game_no < 2 or "plakoto" in seen)  # type: ignore[attr-defined]
    text = out.getvalue()
    assert "tavli" in text and "Traceback" not in text
    await check_after_game(chat, out, tmp_path, "Tavli")


async def check_after_game(chat: ConsoleChat, out: io.StringIO, folder: Path, variation: str) -> None:
    """The replay is a GIF, the export names the games, and the analysis of game 1 comes with its pictures."""
    mark = len(out.getvalue())
    await chat.command("replay")
    assert "[picture:" in out.getvalue()[mark:] and "! " not in out.getvalue()[mark:]
    assert pictures(folder, ".gif") and pictures(folder, ".gif")[0].startswith(GIF)
    mark = len(out.getvalue())
    await chat.command("export")
    exported = [p for p in folder.iterdir() if p.suffix in (".mat", ".txt")]
    assert exported and f'[Variation "{variation}"]' in exported[0].read_text(encoding="utf-8")
    mark = len(out.getvalue())
    await asyncio.gather(*chat.core._follow_ups)  # the automatic posts after each game against the AI are out
    mark = len(out.getvalue())
    await chat.command("analyze")  # asked for afterwards: shown again
    answer = out.getvalue()[mark:]
    assert len(re.findall(r"Analysis of game \d+", answer)) == 1, answer
    assert "Traceback" not in answer and not answer.startswith("! "), answer
    blunders = sorted(folder.glob("blunder-*.png"))  # the analysis pictures: the worst plays on the board
    assert blunders and all(p.read_bytes().startswith(PNG) for p in blunders) and "[picture:" in answer
