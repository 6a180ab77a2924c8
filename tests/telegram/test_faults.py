"""Delivery that converges, through the real PTB stack: the Bot API refusing the board edit after a move
(500s, 429 storms) never makes the bot claim that nothing changed, and the board catches up on its own."""

from __future__ import annotations

import asyncio
import random
import time

from tests.fakes.telegram import FakeMessage, FakeTelegram

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place
from .scenes import a_legal_play, check_board, group_game, seats

CONVERGE_SECONDS = 10.0


async def converged(core: CoreSpy, board: FakeMessage, view_of: object, timeout: float = CONVERGE_SECONDS) -> float:
    """Seconds until the board photo shows the stored game (AssertionError after ``timeout``)."""
    started = time.monotonic()
    while True:
        view = await game_view(core, *view_of)  # type: ignore[misc]
        try:
            check_board(board, view)
            return time.monotonic() - started
        except AssertionError:
            if time.monotonic() - started > timeout:
                raise
        await asyncio.sleep(0.05)


def false_failures(fake: FakeTelegram, room: object) -> list[str]:
    return [m.content for m in fake.bot_messages(room) if "nothing was changed" in m.content
            or m.content.startswith("Something went wrong")]


async def test_a_500_storm_on_the_board_edit_after_a_move(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    alice, _, room, board = await group_game(fake, chat, core)
    view, mover, _ = await seats(core, fake, alice, room)
    fake.fail_next("editMessageMedia", times=5, error_code=500, description="Internal Server Error")
    await chat.say(mover, room, a_legal_play(view, random.Random(1)))
    assert false_failures(fake, room) == []
    assert any("board will be updated" in m.content for m in fake.bot_messages(room))  # the truth, said once
    moved = await game_view(core, actor_ref(alice), group_place(room))
    assert moved.version > view.version  # the move is saved
    await converged(core, board, (actor_ref(alice), group_place(room)), timeout=40)
    refused = [c for c in fake.calls_of("editMessageMedia") if c.status == 500]
    shown = next(c for c in fake.calls_of("editMessageMedia") if c.ok and c.index > refused[-1].index)
    assert len(refused) == 5 and shown.finished - refused[-1].finished < CONVERGE_SECONDS  # after recovery
    assert false_failures(fake, room) == []


async def test_a_429_storm_converges_and_each_change_is_edited_once(
    fake: FakeTelegram, core: CoreSpy, chat: Chat
) -> None:
    alice, _, room, board = await group_game(fake, chat, core)
    rng = random.Random(2)
    fake.fail_next("editMessageMedia", times=8, error_code=429, description="Too Many Requests: retry after 1",
                   retry_after=0.2)
    for _ in range(2):
        view, mover, _ = await seats(core, fake, alice, room)
        await chat.say(mover, room, a_legal_play(view, rng))
    assert false_failures(fake, room) == []
    await converged(core, board, (actor_ref(alice), group_place(room)))
    mark = fake.mark()
    view, mover, _ = await seats(core, fake, alice, room)
    await chat.say(mover, room, a_legal_play(view, rng))
    await converged(core, board, (actor_ref(alice), group_place(room)))
    await asyncio.sleep(0.5)  # let the outbox consumer look at the change too
    assert len(chat.sent_since(mark, "editMessageMedia")) == 1  # handler and consumer: one edit
