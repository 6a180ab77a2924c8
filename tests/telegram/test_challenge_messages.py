"""A challenge message never keeps live-looking buttons (issue 14): after a typed accept, a cancel or its
expiry, the outbox consumer of the real stack edits it to say how the challenge ended, without buttons. And
the bot itself cannot be challenged."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.botkit import OffsetClock as Clock
from tests.fakes.telegram import FakeTelegram

from .harness import Chat, CoreSpy, make_core
from .scenes import start_group_game


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def core(redis_url: str, clock: Clock) -> AsyncIterator[CoreSpy]:
    real = await make_core(redis_url, clock=clock)
    try:
        yield CoreSpy(real)
    finally:
        await real.close()


async def ended(message: Any, words: str, timeout: float = 10.0) -> None:
    """Wait until the outbox consumer (after its grace) has edited the challenge message."""
    deadline = time.monotonic() + timeout
    while words not in message.content:
        assert time.monotonic() < deadline, (message.content, message.buttons)
        await asyncio.sleep(0.05)
    assert message.buttons == [] and message.history[-1].method == "editMessageText"


async def test_typed_accept_edits_the_challenge_message(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    _alice, bob, room, invitation = await start_group_game(fake, chat, core)
    assert invitation.callback_datas  # Accept / Decline / Cancel
    await chat.say(bob, room, "/accept")  # typed: no button was pressed
    await ended(invitation, "Challenge by Alice: accepted by Bob.")
    edits = len(invitation.history)
    await asyncio.sleep(0.5)
    assert len(invitation.history) == edits  # edited once


async def test_a_typed_accept_edits_the_challenge_message_at_once(fake: FakeTelegram, core: CoreSpy, chat: Chat,
                                                                  app: Any) -> None:
    """The accepting handler edits it: with the outbox's grace made a minute long, only that edit can show it
    when the handler is done (it was shown only after the grace, ~3 s later)."""
    consumer = app.bot_data["fevga"].background.outbox
    consumer.grace = 60.0
    _alice, bob, room, invitation = await start_group_game(fake, chat, core)
    mark = fake.mark()
    await chat.say(bob, room, "/accept")  # returns once the handler is done: the outbox still holds its entry
    assert "Challenge by Alice: accepted by Bob." in invitation.content and invitation.buttons == []
    assert len(chat.sent_since(mark, "editMessageText")) == 1


async def test_a_failed_immediate_edit_is_repaired_by_the_outbox(fake: FakeTelegram, core: CoreSpy, chat: Chat,
                                                                 app: Any) -> None:
    """Telegram refuses the handler's edit (500): the outbox entry, once its grace is over, edits the message
    (once). The grace is a minute until the handler's try was seen, so nothing else can have edited it by then."""
    consumer = app.bot_data["fevga"].background.outbox
    consumer.grace = 60.0
    _alice, bob, room, invitation = await start_group_game(fake, chat, core)
    fake.fail_next("editMessageText", times=1, error_code=500, description="Internal Server Error")
    await chat.say(bob, room, "/accept")
    assert "accepted" not in invitation.content  # the handler's try was refused
    deadline = time.monotonic() + 20
    while sum(map(len, consumer._in_hand.values())) < 2:  # the accept's entries (board, challenge) in their grace
        assert time.monotonic() < deadline, "the outbox entries were never read"
        await asyncio.sleep(0.05)
    await consumer.stop(timeout=10.0)  # their grace ends now: the challenge's entry repairs the message
    await ended(invitation, "Challenge by Alice: accepted by Bob.")
    await asyncio.sleep(0.5)
    edits = [c for c in fake.calls_of("editMessageText") if c.ok]
    assert len(edits) == 1 and len([c for c in fake.calls_of("editMessageText") if c.status == 500]) == 1


async def test_cancel_and_expiry_edit_the_challenge_message(fake: FakeTelegram, core: CoreSpy, chat: Chat,
                                                          clock: Clock) -> None:
    alice, _bob, room, invitation = await start_group_game(fake, chat, core)
    await chat.say(alice, room, "/cancel")
    await ended(invitation, "Challenge by Alice: withdrawn.")
    await chat.say(alice, room, "/challenge @bob_tavli")
    again = fake.last_bot_message(room)
    assert again is not invitation and again.callback_datas
    await chat.say(alice, room, "/challenge @bob_tavli")  # the same challenge twice: refused, naming it
    assert "You already challenged Bob here" in fake.last_bot_message(room).content
    clock.offset += 601
    await core.tick("telegram")
    await ended(again, "Challenge by Alice: expired")


async def test_the_bot_cannot_be_challenged(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    alice = fake.user(101, "Alice", "alice_tavli")
    room = fake.group(-1001, "Tavli")
    await chat.say(alice, room, "/challenge @fevga_test_bot")
    assert "is a bot and cannot play a match" in fake.last_bot_message(room).content
