"""Issue 22 with real ``python -m bot`` processes on Discord: ``kill -9`` between a move's commit and its board
edit, the edit held in flight by the stand-in. The board lease dies with its holder, so the saved game is shown
and the player to move is told within 10 s: after an immediate restart, and on a second live process (the other
shard of the bot) with no restart. After a restart the 10 s count from the new process being up (its log says
"starting"): a Python process's own start-up is the machine's. Never two edits of the same version (the stand-in's
recorded calls)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.storage.local_redis import LocalRedis
from tests.fakes.discord import FakeChannel, FakeDiscord, StoredMessage

from .playing import legal_play_texts, place_ref, player_ref
from .test_process_two_shards import PREFIX, Table, said_and_answered, shard_of, until_ready

pytestmark = pytest.mark.timeout(150)
TAKEOVER_SECONDS = 10.0
HOLD_SECONDS = 60.0  # the stand-in holds the killed process's edit far longer than any takeover


class Processes:
    """``python -m bot`` children on one fake Discord and one Redis (each start gets its own log folder)."""

    def __init__(self, fake: FakeDiscord, redis_url: str, workdir: Path) -> None:
        self.fake, self.redis_url, self.workdir = fake, redis_url, workdir
        self.procs: list[asyncio.subprocess.Process] = []
        self.logs: dict[int, Path] = {}

    async def start(self, instance: str, shard: int | None = None) -> asyncio.subprocess.Process:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
        env.update(
            DISCORD_TOKEN=self.fake.token, DISCORD_API_BASE_URL=self.fake.api_base,
            DISCORD_GATEWAY_URL=self.fake.gateway_url, REDIS_URL=self.redis_url, FEVGA_INSTANCE_ID=instance,
            FEVGA_DATA_DIR=str(self.workdir / "data"), LOG_LEVEL="INFO", PYTHONPATH=str(Path.cwd()),
            FEVGA_PING_AFTER_SECONDS="0",  # the player to move is told at once (this test is about a crash)
        )  # fmt: skip
        if shard is not None:
            env.update(DISCORD_SHARD_COUNT="2", DISCORD_SHARD_IDS=str(shard))
        folder = self.workdir / f"{instance}-{len(self.procs)}"
        folder.mkdir()
        with open(folder / "log", "wb") as log:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=folder, env=env,
                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log,
            )  # fmt: skip
        self.procs.append(proc)
        self.logs[proc.pid] = folder / "log"
        return proc

    async def up(self, proc: asyncio.subprocess.Process) -> None:
        """Wait until ``proc`` says it is starting its frontends (its imports and Redis done): the start-up of a
        Python process is the machine's (about 1 s here, 6 s once on a loaded CI machine), not the takeover's."""
        log = self.logs[proc.pid]
        await until(lambda: b"starting" in log.read_bytes() or proc.returncode is not None, 60, "the process to start")
        assert proc.returncode is None, log.read_text(errors="replace")

    async def stop(self) -> None:
        for proc in self.procs:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()

    def print_logs(self) -> None:
        """Each process's log (INFO: its takeovers, timed), shown beside a failure: what a slow takeover waited on."""
        for log in sorted(self.workdir.glob("*-*/log")):
            print(f"--- {log.parent.name}:\n{log.read_text(errors='replace')[-4000:]}")


async def table_on(fake: FakeDiscord, shard: int | None = None) -> Table:
    """A server (on ``shard`` of two, if given) with a channel and two members."""
    while True:
        guild = await fake.add_guild("Tavli")
        if shard is None or shard_of(guild) == shard:
            channel = await fake.add_channel(guild, "general")
            alice, bob = await fake.add_member(guild, "alice"), await fake.add_member(guild, "bob")
            return Table(guild, channel, alice, bob)


def pings_of(fake: FakeDiscord, channel: FakeChannel, member: Any, since: int = 0) -> list[StoredMessage]:
    """The bot's turn pings for ``member`` anywhere in the channel's server (its threads too), those after message
    ``since`` only when given (the player to move next may be the one who just moved: the other's roll a pass)."""
    channels = {c.id for c in fake.channels.values() if c.guild_id == channel.guild_id}
    return [m for m in fake.stored_messages.values() if m.channel_id in channels and m.author.id == fake.bot_user.id
            and "your turn" in m.content and f"<@{member.id}>" in m.content and m.id > since]


def board_patches(fake: FakeDiscord, board: StoredMessage, since: int) -> list[Any]:
    """Edits of the board message the stand-in answered with success, from call ``since`` on."""
    return [c for c in fake.rest_log[since:]
            if c.method == "PATCH" and c.path.endswith(f"/messages/{board.id}") and 200 <= c.status < 300]


async def until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll ``check`` until truthy; AssertionError naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)
    return found


async def start_game(fake: FakeDiscord, table: Table, core: Any) -> None:
    await until_ready(fake, table)
    await said_and_answered(fake, table, table.alice, f"challenge {table.bob.mention}")
    table.board = await said_and_answered(fake, table, table.bob, "accept")
    assert [a.filename for a in table.board.attachments] == ["board.png"]
    view = (await core.service.board(player_ref(table.alice), place_ref(table.channel))).view
    first = table.alice if view.players[view.turn].same(player_ref(table.alice)) else table.bob
    await until(lambda: pings_of(fake, table.channel, first), 15, "the first ping")


async def move_with_edit_held(fake: FakeDiscord, table: Table, core: Any) -> tuple[Any, Any, int, int]:
    """The player to move plays; the stand-in holds the board's edit in flight. The game after the (committed)
    move, the member to move next, the call index from which edits are counted and the last message before."""
    board = table.board
    assert board is not None
    where = (player_ref(table.alice), place_ref(table.channel))
    before = (await core.service.board(*where)).view
    member = next(m for m in (table.alice, table.bob) if before.players[before.turn].same(player_ref(m)))
    plays = await legal_play_texts(core, member, table.channel)
    fake.faults.add("PATCH", rf"/messages/{board.id}$", times=1, status=502, delay=HOLD_SECONDS)
    mark = len(fake.rest_log)
    last = max((m.id for m in fake.stored_messages.values()), default=0)
    await fake.send_message(member, table.channel, f"{PREFIX}move {plays[0]}")
    await until(lambda: [c for c in fake.rest_log[mark:] if c.method == "PATCH" and c.status == 0
                         and c.path.endswith(f"/messages/{board.id}")], 15, "the board edit in flight")
    after = (await core.service.board(*where)).view
    assert after.version > before.version  # committed; the board still shows the old position
    following = next(m for m in (table.alice, table.bob) if after.players[after.turn].same(player_ref(m)))
    return after, following, mark, last


async def converged(fake: FakeDiscord, table: Table, edits: int, following: Any, started: float, last: int) -> float:
    """Wait (at most TAKEOVER_SECONDS from ``started``) until the board was edited once more and the player to move
    was told; the seconds it took."""
    board = table.board
    assert board is not None
    await until(lambda: board.edits > edits, TAKEOVER_SECONDS - (time.monotonic() - started), "the board edit")
    await until(lambda: pings_of(fake, table.channel, following, last), TAKEOVER_SECONDS - (time.monotonic() - started),
                "the player to move to be told")
    return time.monotonic() - started


@pytest.fixture
async def world(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[tuple[FakeDiscord, Processes, Any]]:
    """A Redis, the stand-in (telling the bot to run ``request.param`` shards) and the bot's processes."""
    from bot.chat.core import BotCore

    with LocalRedis(tmp_path / "redis") as server:
        async with FakeDiscord(shard_count=request.param) as fake:
            core = await BotCore.create(redis_url=server.url)
            processes = Processes(fake, server.url, tmp_path)
            try:
                yield fake, processes, core
            finally:
                await processes.stop()
                processes.print_logs()
                await core.close()


async def settled_once(fake: FakeDiscord, table: Table, after: Any, following: Any, mark: int, last: int) -> None:
    """Nothing more happens: the saved version was drawn once and its player told once."""
    assert table.board is not None
    await asyncio.sleep(5.0)  # past the consumers' grace and a reclaim round: no second edit, no second ping
    assert len(board_patches(fake, table.board, mark)) == 1
    assert len(pings_of(fake, table.channel, following, last)) == 1
    [embed] = table.board.embeds  # the board shows the saved version and its player to move
    assert embed["footer"]["text"].endswith(f" v{after.version}")
    assert embed["title"].endswith(f"{after.players[after.turn].name} to play {after.dice[0]}-{after.dice[1]}")


@pytest.mark.parametrize("world", [1], indirect=True)
async def test_kill_9_mid_edit_then_restart_shows_and_tells_within_10_s(world: Any) -> None:
    fake, processes, core = world
    table = await table_on(fake)
    proc = await processes.start("pod-a")
    await fake.wait_until_connected(1, timeout=60)
    await start_game(fake, table, core)
    assert table.board is not None
    edits = table.board.edits
    after, following, mark, last = await move_with_edit_held(fake, table, core)
    proc.kill()  # kill -9 while the edit is in flight
    await proc.wait()

    spawned = time.monotonic()
    await processes.up(await processes.start("pod-b"))  # restarted at once
    started = time.monotonic()  # the 10 s count from the restarted process being up
    took = await converged(fake, table, edits, following, started, last)
    print(f"discord restart takeover: {took:.2f} s after the restarted process was up "
          f"({took + started - spawned:.2f} s after its spawn)")
    await settled_once(fake, table, after, following, mark, last)


@pytest.mark.parametrize("world", [2], indirect=True)
async def test_kill_9_mid_edit_the_other_live_shard_shows_and_tells_within_10_s(world: Any) -> None:
    fake, processes, core = world
    table = await table_on(fake, shard=0)
    procs = [await processes.start(f"shard-{i}", shard=i) for i in (0, 1)]
    await fake.wait_until_connected(2, timeout=60)
    await start_game(fake, table, core)
    assert table.board is not None
    edits = table.board.edits
    after, following, mark, last = await move_with_edit_held(fake, table, core)
    procs[0].kill()  # kill -9 of the shard drawing the board; the other shard's process lives on
    await procs[0].wait()

    started = time.monotonic()
    took = await converged(fake, table, edits, following, started, last)
    print(f"discord second-instance takeover: {took:.2f} s after the kill")
    await settled_once(fake, table, after, following, mark, last)
