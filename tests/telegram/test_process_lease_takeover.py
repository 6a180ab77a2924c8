"""Issue 22 with real ``python -m bot`` processes on Telegram: ``kill -9`` between a move's commit and its board
edit, the edit held in flight by the stand-in. The board lease dies with its holder, so the saved game is shown
and the player to move is told within 10 s: after an immediate restart, and on a second live instance with no
restart. Never two edits of the same version (the stand-in's recorded calls)."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.storage.local_redis import LocalRedis
from tests.fakes.telegram import FakeTelegram

from .harness import actor_ref, game_view, group_place, make_core
from .scenes import a_legal_play
from .test_process import BotProcess, group_game_on, photos, until, webhooks_set_and_listening, world
from .test_process_two_webhooks import SECRET, free_port

__all__ = ["world"]  # the fixture: a Redis, the fake Bot API and a bot process

pytestmark = pytest.mark.timeout(120)
TAKEOVER_SECONDS = 10.0
HOLD_SECONDS = 60.0  # the stand-in holds the killed process's edit far longer than any takeover


def board_edits(fake: FakeTelegram, since: int) -> list[Any]:
    """Board edits the stand-in answered with success, from call ``since`` on."""
    return [c for c in fake.calls[since:] if c.method == "editMessageMedia" and c.ok]


def told(fake: FakeTelegram, room: Any, name: str, since: int = 0) -> list[Any]:
    """The turn pings telling ``name`` to move, among the bot's messages from the ``since``-th on (the player to move
    next may be the one who just moved: the other's roll a pass)."""
    return [m for m in fake.bot_messages(room, include_deleted=True)[since:]
            if "your turn" in m.content and m.content.startswith(name)]


async def move_with_edit_held(fake: FakeTelegram, core: Any, alice: Any, room: Any,
                              send: Any) -> tuple[Any, int, int]:
    """The player to move plays (through ``send``); the stand-in holds its board edit in flight. The game after
    the (committed) move, the call index from which edits are counted and the bot's messages before it."""
    where = (actor_ref(alice), group_place(room))
    view = await game_view(core, *where)
    mover = fake.users[int(view.players[view.turn].user_id)]
    fake.fail_next("editMessageMedia", times=1, error_code=502, description="Bad Gateway", delay=HOLD_SECONDS)
    mark = fake.mark()
    sent = len(fake.bot_messages(room, include_deleted=True))
    await send(mover, a_legal_play(view, random.Random(3)))
    await until(lambda: [c for c in fake.calls[mark:] if c.method == "editMessageMedia" and c.finished is None],
                15, "the board edit in flight")
    after = await game_view(core, *where)
    assert after.version > view.version  # committed; the board still shows the old position
    return after, mark, sent


async def converged(fake: FakeTelegram, room: Any, board: Any, after: Any, started: float, sent: int) -> float:
    """Wait (at most TAKEOVER_SECONDS from ``started``) until the board shows ``after`` and its player to move was
    told; the seconds it took."""
    mover = after.players[after.turn].name
    line = f"{mover} to play {after.dice[0]}-{after.dice[1]}"
    left = TAKEOVER_SECONDS - (time.monotonic() - started)
    await until(lambda: line in board.content.splitlines()[0], left, "the board to show the saved game")
    print(f"board shown after {time.monotonic() - started:.2f} s")
    await until(lambda: told(fake, room, mover, sent), TAKEOVER_SECONDS - (time.monotonic() - started),
                "the player to move to be told")
    return time.monotonic() - started


async def test_kill_9_mid_edit_then_restart_shows_and_tells_within_10_s(world: Any) -> None:
    fake, bot, core = world
    alice, _bob, room, board = await group_game_on(fake, bot)
    await until(lambda: [m for m in fake.bot_messages(room) if "your turn" in m.content], 15, "the first ping")
    after, mark, sent = await move_with_edit_held(fake, core, alice, room,
                                                  lambda who, text: fake.send_text(who, room, text))
    bot.proc.kill()  # kill -9 while the edit is in flight
    await bot.proc.wait()

    started = time.monotonic()
    await bot.start("pod-b")  # restarted at once
    took = await converged(fake, room, board, after, started, sent)
    print(f"telegram restart takeover: {took:.2f} s after the restart")
    await fake.settle(timeout=20, quiet=4.0)
    assert len(board_edits(fake, mark)) == 1  # the saved game drawn once, no version twice
    assert len(told(fake, room, after.players[after.turn].name, sent)) == 1 and len(photos(fake, room)) == 1
    assert await bot.signal(signal.SIGTERM) == 0


@pytest.fixture
async def two_pods(tmp_path: Path) -> AsyncIterator[tuple[FakeTelegram, list[BotProcess], list[str], Any]]:
    """Two webhook processes on one Redis (as behind a load balancer: the test delivers each update itself)."""
    with LocalRedis(tmp_path / "redis") as server:
        async with FakeTelegram() as fake:
            core = await make_core(server.url)
            pods, urls = [], []
            for name in ("pod-a", "pod-b"):
                port = free_port()
                (tmp_path / name).mkdir()
                pod = BotProcess(fake, server.url, tmp_path / name)
                urls.append(f"http://127.0.0.1:{port}/tg")
                pod.env.update(TELEGRAM_WEBHOOK_URL=urls[-1], TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
                               TELEGRAM_WEBHOOK_PORT=str(port), TELEGRAM_WEBHOOK_SECRET=SECRET)
                pods.append(pod)
            try:
                for pod, name in zip(pods, ("pod-a", "pod-b"), strict=True):
                    await pod.start(name)
                await webhooks_set_and_listening(fake, urls)
                fake.webhook = None  # the test delivers each update to one pod
                yield fake, pods, urls, core
            finally:
                for pod in pods:
                    await pod.stop()
                await core.close()


async def test_kill_9_mid_edit_a_second_live_instance_shows_and_tells_within_10_s(two_pods: Any) -> None:
    fake, pods, urls, core = two_pods
    alice, bob = fake.user(101, "Alice", "alice_tavli"), fake.user(102, "Bob", "bob_tavli")
    room = fake.group(-1001, "Tavli")

    async def to_pod_a(user: Any, text: str) -> None:
        update_id = await fake.send_text(user, room, text)
        update = next(u for u in fake.pending_updates if u["update_id"] == update_id)
        deadline = time.monotonic() + 30
        while True:  # the listener may open a moment after the pod set its webhook
            try:
                assert await fake.deliver_webhook(urls[0], update, SECRET) == 200
                return
            except aiohttp.ClientConnectorError:
                assert time.monotonic() < deadline, "pod-a never listened"
                await asyncio.sleep(0.2)

    await to_pod_a(bob, "/rules")  # the bot learns Bob's username
    await until(lambda: fake.bot_messages(room), 15, "the rules")
    await to_pod_a(alice, "/challenge@fevga_test_bot @bob_tavli")
    await until(lambda: len(fake.bot_messages(room)) >= 2, 15, "the challenge")
    await to_pod_a(bob, "/accept")
    [board] = await until(lambda: photos(fake, room), 15, "the board")
    await until(lambda: [m for m in fake.bot_messages(room) if "your turn" in m.content], 15, "the first ping")
    after, mark, sent = await move_with_edit_held(fake, core, alice, room, to_pod_a)
    pods[0].proc.kill()  # kill -9 of the pod drawing the board; pod-b lives on
    await pods[0].proc.wait()
    started = time.monotonic()

    took = await converged(fake, room, board, after, started, sent)
    print(f"telegram second-instance takeover: {took:.2f} s after the kill")
    await fake.settle(timeout=20, quiet=4.0)
    assert len(board_edits(fake, mark)) == 1  # drawn once by pod-b, no version twice
    assert len(told(fake, room, after.players[after.turn].name, sent)) == 1 and len(photos(fake, room)) == 1
    assert await pods[1].signal(signal.SIGTERM) == 0
