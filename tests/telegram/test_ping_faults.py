"""Turn pings under platform faults, exactly once: Bad Gateway on the ping's sendMessage (the handler's
try fails, the outbox consumer sends it after recovery) and ``kill -9`` of the real ``python -m bot``
process between a move's commit and its ping (the next process sends it). Never twice."""

from __future__ import annotations

import random
import signal
from typing import Any

import pytest

from tests.fakes.telegram import FakeTelegram

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place
from .scenes import a_legal_play, group_game
from .test_group_pings import mentioned, pings
from .test_process import CONVERGE_SECONDS, group_game_on, photos, until, world

__all__ = ["world"]  # the fixture: a Redis, the fake Bot API and a bot process

pytestmark = pytest.mark.timeout(120)


async def test_a_refused_ping_is_sent_once_after_recovery(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice, _bob, room, board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    mover = fake.users[int(view.players[view.turn].user_id)]
    fake.fail_next("sendMessage", times=3, error_code=502, description="Bad Gateway")
    before = len(pings(fake, room))  # the next mover may be the same (the opponent's roll a pass): count new ones
    await chat.say(mover, room, f"/m {a_legal_play(view, random.Random(2))}")
    after = await game_view(core, actor_ref(alice), group_place(room))
    assert after.version > view.version and len(board.history) >= 2  # the move and its board went through
    next_id = int(after.players[after.turn].user_id)
    live = await fake.wait_for(lambda: [m for m in pings(fake, room) if not m.deleted], timeout=20, what="the ping")
    assert [mentioned(m) for m in live] == [[next_id]]
    await fake.settle(timeout=10, quiet=4.0)  # past the consumer's grace: nothing more is sent
    sent = [m for m in pings(fake, room)[before:] if mentioned(m) == [next_id]]
    assert len(sent) == 1 and not sent[0].deleted, (view.turn, after.turn)


async def test_kill_9_between_commit_and_ping_then_restart_pings_once(world: Any) -> None:
    fake, bot, core = world
    alice, _bob, room, board = await group_game_on(fake, bot)
    await until(lambda: pings(fake, room), 15, "the first ping")
    where = (actor_ref(alice), group_place(room))
    view = await game_view(core, *where)
    mover = fake.users[int(view.players[view.turn].user_id)]

    fake.fail_next("sendMessage", times=10_000, error_code=502, description="Bad Gateway")
    edits = len(board.history)
    before = len(pings(fake, room))  # the next mover may be the same (the opponent's roll a pass): count new ones
    await fake.send_text(mover, room, a_legal_play(view, random.Random(3)))
    await until(lambda: len(board.history) > edits, 15, "the board edit")
    await until(lambda: [c for c in fake.calls if c.method == "sendMessage" and not c.ok], 15, "the refused ping")
    bot.proc.kill()  # kill -9 between the commit (and board) and the ping  # type: ignore[union-attr]
    await bot.proc.wait()  # type: ignore[union-attr]
    fake.clear_failures()
    after = await game_view(core, *where)
    next_id = int(after.players[after.turn].user_id)

    def told_next() -> list[Any]:
        return [m for m in pings(fake, room)[before:] if mentioned(m) == [next_id]]

    await bot.start("pod-b")
    await until(told_next, CONVERGE_SECONDS, "the ping from the next process")
    await fake.settle(timeout=15, quiet=4.0)
    assert len(told_next()) == 1  # once, not twice
    live = [m for m in pings(fake, room) if not m.deleted]
    assert live == told_next()
    assert len(photos(fake, room)) == 1
    assert await bot.signal(signal.SIGTERM) == 0
