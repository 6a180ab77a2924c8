"""Issue 13 with real processes on Discord: two ``python -m bot`` processes, two shards of one bot
(DISCORD_SHARD_COUNT=2, each process DISCORD_SHARD_IDS=its shard), on one Redis. Real Discord sends a
server's events to the one shard that owns it (the stand-in routes them the same way), so this is how two
processes share one bot; a game in a server of each shard, 30 moves each: exactly one board edit per
committed change, no duplicate message, every message handled exactly once."""

from __future__ import annotations

import asyncio
import os
import sys
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.storage.local_redis import LocalRedis
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeGuild, FakeMember, StoredMessage

from .playing import legal_play_texts, place_ref, player_ref

pytestmark = pytest.mark.timeout(120)
MOVES = 30
PREFIX = "!fevga "


def shard_of(guild: FakeGuild, count: int = 2) -> int:
    """The shard that owns a guild, by Discord's formula."""
    return (guild.id >> 22) % count


@dataclass
class Table:
    """A server on one shard, with a channel and two players (and, once accepted, the board message)."""

    guild: FakeGuild
    channel: FakeChannel
    alice: FakeMember
    bob: FakeMember
    board: StoredMessage | None = None


async def start_process(fake: FakeDiscord, redis_url: str, workdir: Path, shard: int) -> asyncio.subprocess.Process:
    """One ``python -m bot`` child running one shard of the bot (its log in ``workdir``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
    env.update(
        DISCORD_TOKEN=fake.token, DISCORD_API_BASE_URL=fake.api_base, DISCORD_GATEWAY_URL=fake.gateway_url,
        DISCORD_SHARD_COUNT="2", DISCORD_SHARD_IDS=str(shard), REDIS_URL=redis_url, FEVGA_INSTANCE_ID=f"shard-{shard}",
        FEVGA_DATA_DIR=str(workdir / "data"), LOG_LEVEL="WARNING", PYTHONPATH=str(Path.cwd()),
    )  # fmt: skip
    workdir.mkdir()
    with open(workdir / "log", "wb") as log:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=workdir, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log,
        )  # fmt: skip


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, list[Table], Any]]:
    from bot.chat.core import BotCore

    with LocalRedis(tmp_path / "redis") as server:
        async with FakeDiscord(shard_count=2) as fake:
            tables: dict[int, Table] = {}
            while len(tables) < 2:  # a server on each shard
                guild = await fake.add_guild(f"Tavli {len(tables)}")
                if shard_of(guild) not in tables:
                    channel = await fake.add_channel(guild, "general")
                    alice, bob = await fake.add_member(guild, "alice"), await fake.add_member(guild, "bob")
                    tables[shard_of(guild)] = Table(guild, channel, alice, bob)
            core = await BotCore.create(redis_url=server.url)
            procs = [await start_process(fake, server.url, tmp_path / f"shard{i}", i) for i in (0, 1)]
            try:
                yield fake, [tables[0], tables[1]], core
            finally:
                for proc in procs:
                    if proc.returncode is None:
                        proc.kill()
                        await proc.wait()
                await core.close()


async def said_and_answered(fake: FakeDiscord, table: Table, member: FakeMember, text: str) -> StoredMessage:
    """``member`` types a command; the bot's next message (its reply, or the board a game starts with)."""
    said = await fake.send_message(member, table.channel, PREFIX + text)
    return await fake.wait_for_message(table.channel, lambda m: m.author.bot, timeout=30, after=said.id)


async def until_ready(fake: FakeDiscord, table: Table, timeout: float = 60) -> None:
    """Say ``rules`` until the shard owning the server answers (a message sent before its shard has the server
    cached is dropped, as on Discord, so the first one may go unanswered)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        said = await fake.send_message(table.alice, table.channel, PREFIX + "rules")
        try:
            await fake.wait_for_message(table.channel, lambda m, i=said.id: m.author.bot and m.reference_id == i,
                                        timeout=3, after=said.id)
            return
        except AssertionError:
            assert loop.time() < deadline, "the shard never answered"


def checks(fake: FakeDiscord, message: StoredMessage) -> int:
    """How many times the bot acknowledged a message with its reaction (once per handling)."""
    return len(fake.calls("PUT", f"/messages/{message.id}/reactions/"))


async def test_two_shard_processes_30_moves_one_edit_per_change_no_duplicates(world: Any) -> None:
    fake, tables, core = world
    sessions = await fake.wait_until_connected(2, timeout=60)
    assert sorted(s.shard for s in sessions) == [(0, 2), (1, 2)]  # one shard in each process
    starts = {}
    for table in tables:
        await until_ready(fake, table)
        await said_and_answered(fake, table, table.alice, f"challenge {table.bob.mention}")
        table.board = await said_and_answered(fake, table, table.bob, "accept")
        assert [a.filename for a in table.board.attachments] == ["board.png"]
        starts[table.guild.id] = ((await core.service.board(player_ref(table.alice), place_ref(table.channel))).view,
                                  table.board.edits)
    moves: list[StoredMessage] = []
    for _ in range(MOVES):
        for table in tables:  # the two games, their moves interleaved
            board = table.board
            assert board is not None
            for member in (table.alice, table.bob):
                plays = await legal_play_texts(core, member, table.channel)
                if plays:
                    break
            else:
                raise AssertionError("nobody can move")
            before = (await core.service.board(player_ref(member), place_ref(table.channel))).view
            said = await fake.send_message(member, table.channel, f"{PREFIX}move {plays[0]}")
            moves.append(said)
            start_view, start_edits = starts[table.guild.id]
            await fake.wait_for(lambda m=said: checks(fake, m) or None, 30, "the move's acknowledgement")
            after = (await core.service.board(player_ref(member), place_ref(table.channel))).view
            assert after.version > before.version and after.status == "play"
            await fake.wait_for(lambda b=board, a=after, s=start_view, e=start_edits:  # the board shows it
                                b.edits - e >= a.version - s.version or None, 30, "the board edit")
    await asyncio.sleep(4.0)  # the outbox consumers of both processes look at every change too

    for table in tables:
        start_view, start_edits = starts[table.guild.id]
        end = (await core.service.board(player_ref(table.alice), place_ref(table.channel))).view
        assert end.version - start_view.version >= MOVES
        assert table.board is not None and table.board.edits - start_edits == end.version - start_view.version
        bot_messages = [m for m in fake.messages(table.channel) if m.author.bot]
        assert len([m for m in bot_messages if m.attachments]) == 1  # one board message per game
        answers = Counter((m.reference_id, m.content) for m in bot_messages)
        assert max(answers.values()) == 1, [k for k, n in answers.items() if n > 1]  # no duplicate message
    assert all(checks(fake, m) == 1 for m in moves)  # every move message handled exactly once
    assert not fake.failed_calls()
