"""``analyze`` in the terminal chat: the report as text (English and Greek) and the blunder pictures
written beside the board, after a whole game against the AI on a real redis-server."""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.chat.core import BotCore
from bot.console import ConsoleChat
from bot.service.ai import RandomAI
from bot.storage import LocalRedis, RedisStore

from .test_terminal_chat import play_until_over


@pytest.fixture
async def analysing_core(redis_server: LocalRedis) -> AsyncIterator[BotCore]:
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    bot = await BotCore.create(store=store, ai=RandomAI(seed=3), analysis_ply=0)
    yield bot
    await bot.close()


async def test_analyze_after_a_game_prints_the_report_and_writes_the_blunders(
    analysing_core: BotCore, tmp_path: Path,
) -> None:
    out = io.StringIO()
    chat = ConsoleChat(analysing_core, board_dir=tmp_path, out=out)
    await chat.start()
    await chat.command("analyze")
    assert "still being played" in out.getvalue()  # a running game is refused
    await play_until_over(chat, analysing_core, random.Random(2))
    await asyncio.gather(*analysing_core._follow_ups)  # the analysis posted after the game (AI game: on)
    before = len(out.getvalue())
    await chat.command("analysis")
    text = out.getvalue()[before:]
    assert "Analysis of game 1" in text and "Analysis by neural0" in text
    assert text.count("error rate") >= 2  # both players' lines
    blunders = sorted(tmp_path.glob("blunder-*.png"))
    assert blunders, text  # random play against random play blunders
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in blunders)
    assert text.count("[picture:") == len(blunders)
    assert analysing_core.service.analyses.runs == 1

    before = len(out.getvalue())
    await chat.command("lang el")
    await chat.command("ανάλυση")
    greek = out.getvalue()[before:]
    assert "Ανάλυση της παρτίδας 1" in greek and "ποσοστό λάθους" in greek
    assert analysing_core.service.analyses.runs == 1  # read back, not analysed again


async def test_the_analysis_follows_a_game_against_the_ai_by_itself(analysing_core: BotCore, tmp_path: Path) -> None:
    out = io.StringIO()
    chat = ConsoleChat(analysing_core, board_dir=tmp_path, out=out)
    await chat.start()
    await play_until_over(chat, analysing_core, random.Random(5))
    await asyncio.wait_for(asyncio.gather(*analysing_core._follow_ups), 30)
    text = out.getvalue()
    summary = next(line for line in text.splitlines() if "; luckier: " in line or "; luck even" in line)
    assert summary.startswith("You: error rate ") and "AI (medium): " in summary  # the one-line summary
    assert "Analysis by neural0" in text.split(summary, 1)[1]
    assert analysing_core.service.analyses.runs == 1
    await chat.command("analyze")  # asked afterwards: the stored one
    assert analysing_core.service.analyses.runs == 1


async def test_the_place_setting_turns_the_analysis_after_a_game_off(analysing_core: BotCore, tmp_path: Path) -> None:
    out = io.StringIO()
    chat = ConsoleChat(analysing_core, board_dir=tmp_path, out=out)
    await chat.command("settings analysis off")
    assert "analysis is now off" in out.getvalue()
    await chat.start()
    await play_until_over(chat, analysing_core, random.Random(5))
    await asyncio.gather(*analysing_core._follow_ups)
    assert "; luck" not in out.getvalue() and analysing_core.service.analyses.runs == 0
