"""``tournament demo`` in the terminal chat: a local Swiss among AI levels, played by the bot; each round's
pairings, results and text standings are printed, the table agrees with the results, nothing is stored."""

from __future__ import annotations

import asyncio
import io
import random
import re
from pathlib import Path

from bot.chat.core import BotCore
from bot.console import ConsoleChat
from bot.console.demo import play_match, run_demo
from bot.service.ai import RandomAI
from bot.service.models import Msg
from bot.service.tournaments.standings import standings
from tests.console.test_terminal_chat import play_until_over


async def test_typed_demo_prints_rounds_and_tables(core: BotCore, tmp_path: Path) -> None:
    out = io.StringIO()
    chat = ConsoleChat(core, board_dir=tmp_path, out=out)
    await chat.command("tournament demo")
    text = out.getvalue()
    assert text.startswith("A demo Swiss of 5 players (3 rounds")
    for rnd in (1, 2, 3):
        assert len(re.findall(rf"^Round {rnd}: AI \w+ \d v AI \w+ \d…$", text, re.M)) == 2  # five players: 2 + a bye
        assert len(re.findall(rf"^Round {rnd}: AI \w+ \d has a bye", text, re.M)) == 1
    assert len(re.findall(r"^  won: AI \w+ \d \(against AI \w+ \d\)$", text, re.M)) == 6
    assert text.count("standings after round") == 2 and "final standings" in text
    assert len(re.findall(r"^\d\. AI ", text, re.M)) == 15  # three tables of five rows
    assert re.search(r"The demo is over\. The winner: AI \w+ \d!", text)
    assert (await core.store.read([("get", "fevga:{h:0}:t:demo")]))[0] is None


async def test_demo_standings_follow_the_results(core: BotCore) -> None:
    said: list[Msg] = []
    t = await run_demo(core.service.tournaments, RandomAI(seed=1), said.append, rounds=4, seed=5,
                       levels=("easy", "medium", "hard", "easy"))
    assert t.status == "done" and len(t.results) == 6  # four players meet anew in 3 rounds only: the event ends
    assert len({frozenset((r.a, r.b)) for r in t.results}) == 6
    assert [m.key for m in said if m.key.startswith("tournament_table_")].count("tournament_table_final") == 1
    table = standings(t.players, t.results)
    assert t.winner == table[0].player
    final = [m for m in said if m.key == "tournament_table_row"][-4:]
    assert [m.args["name"] for m in final] == [t.name_of(row.player) for row in table]
    assert sum(m.args["score"] for m in final) == len(t.results)


def test_ai_match_has_a_winner() -> None:
    wins = {play_match(RandomAI(seed=n), ("easy", "easy"), 3, random.Random(n)) for n in range(6)}
    assert wins <= {0, 1} and wins == {0, 1}


async def test_the_terminal_player_joins_the_demo(core: BotCore, tmp_path: Path) -> None:
    out = io.StringIO()
    chat = ConsoleChat(core, board_dir=tmp_path, out=out)
    await chat.command("tournament demo join")
    assert chat.demo_task is not None
    rng = random.Random(8)
    for _ in range(3):  # his match of each round: a game against the AI of his opponent's level, typed here
        for _wait in range(200):
            if await core.has_game(chat.place, chat.you) or chat.demo_task.done():
                break
            await asyncio.sleep(0.05)
        assert await core.has_game(chat.place, chat.you)
        await chat.command("tournament demo join")  # refused while he is in it
        assert await play_until_over(chat, core, rng) > 0
    await asyncio.wait_for(chat.demo_task, 60)
    text = out.getvalue()
    assert text.startswith("A demo Swiss of 6 players")
    assert text.count("! Finish the game you are playing") == 3
    assert len(re.findall(r"^Round \d: (You v AI \w+ \d|AI \w+ \d v You)…$", text, re.M)) == 3
    (final,) = re.findall(r"final standings.*?\n((?:\d\. .*\n){6})", text, re.S)
    assert "You:" in final  # he is ranked with the AI players
    mine = [line for line in text.splitlines() if line.startswith("  won: ") and "You" in line]
    assert len(mine) == 3


async def test_a_called_off_demo_match_is_judged_and_told(core: BotCore, tmp_path: Path) -> None:
    """Calling off his demo match (allowed before both have moved) judges it as a stored event judges a stopped
    match: the player who never moved loses (both lose when neither did); he is told why, and the round's result
    agrees."""
    out = io.StringIO()
    chat = ConsoleChat(core, board_dir=tmp_path, out=out)
    await chat.command("tournament demo join")
    assert chat.demo_task is not None
    for _wait in range(200):
        if await core.has_game(chat.place, chat.you):
            break
        await asyncio.sleep(0.05)
    await chat.command("abort")
    start = out.getvalue()
    assert re.search(r"^Your demo match was called off(\. One player never moved: AI \(\w+\) wins| before either "
                     r"player moved: both lose)", start, re.M), start[-600:]
    rng = random.Random(3)
    while not chat.demo_task.done():
        if await core.has_game(chat.place, chat.you):
            await play_until_over(chat, core, rng)
        await asyncio.sleep(0.05)
    text = out.getvalue()
    first = re.search(r"^Round 1: (.*)…$\n(?:.*\n)*?^  won: (.*) \(against (.*)\)$", text, re.M)
    assert first is not None and "You" in first.group(1) and first.group(3) == "You", text[:800]
