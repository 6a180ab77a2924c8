"""The real ``python -m bot`` process against the fake Bot API and a real Redis: ``kill -9`` between a
move's commit and its board edit, then a restart (a rollout): the board converges and the player to move
is told, with no user action; SIGTERM in the middle of a burst: exit 0 and every update is handled (now
or by the next process)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.storage.local_redis import LocalRedis
from tests.fakes.telegram import FakeTelegram

from .harness import actor_ref, game_view, group_place, make_core
from .scenes import a_legal_play

pytestmark = pytest.mark.timeout(120)
CONVERGE_SECONDS = 15.0


async def until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll ``check`` until it returns something truthy (AssertionError naming ``what`` on timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def webhooks_set_and_listening(fake: FakeTelegram, urls: list[str], timeout: float = 40) -> None:
    """Every pod set its webhook AND listens on it: python-telegram-bot calls setWebhook before its webhook server
    accepts connections, so a delivery right after setWebhook could find the port still closed."""
    await until(lambda: len([c for c in fake.calls_of("setWebhook") if c.ok]) >= len(urls), timeout,
                "every pod to set its webhook")
    deadline = time.monotonic() + timeout
    for url in urls:
        port = int(url.split(":")[2].split("/")[0])
        while True:
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                assert time.monotonic() < deadline, f"timed out waiting for the webhook server at {url}"
                await asyncio.sleep(0.05)
                continue
            writer.close()
            await writer.wait_closed()
            break


class BotProcess:
    """One ``python -m bot`` child polling the fake, with its own instance id."""

    def __init__(self, fake: FakeTelegram, redis_url: str, workdir: Path) -> None:
        self.env = {
            **os.environ, "TELEGRAM_TOKEN": fake.token, "TELEGRAM_API_BASE_URL": fake.base_url, "REDIS_URL": redis_url,
            "FEVGA_DATA_DIR": str(workdir / "data"), "LOG_LEVEL": "WARNING", "PYTHONPATH": str(Path.cwd()),
            "FEVGA_PING_AFTER_SECONDS": "0",  # the player to move is told at once (these tests are about crashes)
        }  # fmt: skip
        self.workdir = workdir
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self, instance: str) -> None:
        env = {**self.env, "FEVGA_INSTANCE_ID": instance}
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=self.workdir, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip

    async def signal(self, sig: int, timeout: float = 30.0) -> int:
        assert self.proc is not None
        self.proc.send_signal(sig)
        return await asyncio.wait_for(self.proc.wait(), timeout)

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[FakeTelegram, BotProcess, Any]]:
    with LocalRedis(tmp_path / "redis") as server:
        async with FakeTelegram() as fake:
            core = await make_core(server.url)
            bot = BotProcess(fake, server.url, tmp_path)
            try:
                yield fake, bot, core
            finally:
                await bot.stop()
                await core.close()


def photos(fake: FakeTelegram, room: Any) -> list[Any]:
    return [m for m in fake.bot_messages(room) if m.kind == "photo"]


async def group_game_on(fake: FakeTelegram, bot: BotProcess) -> tuple[Any, Any, Any, Any]:
    """Start ``bot`` and a game between Alice and Bob in a group, by text; (alice, bob, room, board)."""
    alice, bob = fake.user(101, "Alice", "alice_tavli"), fake.user(102, "Bob", "bob_tavli")
    room = fake.group(-1001, "Tavli")
    await bot.start("pod-a")
    await fake.send_text(bob, room, "/rules")
    await until(lambda: fake.bot_messages(room), 30, "the bot to answer")
    await fake.send_text(alice, room, "/challenge@fevga_test_bot @bob_tavli")
    await until(lambda: len(fake.bot_messages(room)) >= 2, 15, "the challenge")
    await fake.send_text(bob, room, "/accept")
    [board] = await until(lambda: photos(fake, room), 15, "the board")
    return alice, bob, room, board


async def test_kill_9_between_commit_and_edit_then_restart_converges(world: Any) -> None:
    fake, bot, core = world
    alice, _bob, room, board = await group_game_on(fake, bot)
    where = (actor_ref(alice), group_place(room))
    view = await game_view(core, *where)
    mover = fake.users[int(view.players[view.turn].user_id)]

    fake.fail_next("editMessageMedia", times=10_000, error_code=502, description="Bad Gateway")
    await fake.send_text(mover, room, a_legal_play(view, random.Random(3)))
    moved = await until(lambda: fake.calls and [c for c in fake.calls if c.method == "editMessageMedia"], 15,
                        "the refused board edit")
    assert moved
    after = await game_view(core, *where)
    assert after.version > view.version  # committed, the board still old
    bot.proc.kill()  # kill -9 between the commit and the edit  # type: ignore[union-attr]
    await bot.proc.wait()  # type: ignore[union-attr]
    fake.clear_failures()

    started = time.monotonic()
    await bot.start("pod-b")  # the rollout's new pod
    next_mover = after.players[after.turn].name
    line = f"{next_mover} to play {after.dice[0]}-{after.dice[1]}"
    await until(lambda: line in board.content.splitlines()[0], CONVERGE_SECONDS, "the board to converge")
    told = await until(lambda: [m for m in fake.bot_messages(room) if "your turn" in m.content
                                and m.content.startswith(next_mover)],  # (the first mover's ping may linger)
                       CONVERGE_SECONDS, "the player to move to be told")
    assert time.monotonic() - started < CONVERGE_SECONDS
    assert len(told) == 1 and len(photos(fake, room)) == 1  # told once; the same board message, edited
    assert not [m for m in fake.bot_messages(room) if "nothing was changed" in m.content]
    assert await bot.signal(signal.SIGTERM) == 0


async def test_sigterm_mid_burst_exits_0_and_every_update_is_handled(world: Any) -> None:
    fake, bot, _ = world
    users = [fake.user(200 + i, f"P{i}", f"p{i}") for i in range(6)]
    room = fake.group(-1002, "Burst")
    await bot.start("pod-a")
    await fake.send_text(users[0], room, "/rules")
    await until(lambda: fake.bot_messages(room), 30, "the bot to answer")
    for user in users:
        await fake.send_text(user, room, "/help")
    await asyncio.sleep(0.05)
    assert await bot.signal(signal.SIGTERM) == 0
    await bot.start("pod-b")
    await until(lambda: len(fake.bot_messages(room)) >= 1 + len(users), 30, "every update handled")
    assert len(fake.bot_messages(room)) == 1 + len(users)  # each handled exactly once
    await fake.send_text(users[0], room, "/rules")  # the new process is up
    await until(lambda: len(fake.bot_messages(room)) >= 2 + len(users), 30, "the new process to answer")
    assert await bot.signal(signal.SIGTERM) == 0
