"""A challenge message never keeps live-looking buttons (issue 14): after a typed accept or a cancel, the
outbox consumer of the real stack edits it to say how the challenge ended, without buttons; a challenge
accepted by its button has become the board and is left alone. Bots cannot be challenged."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.chat.buttons import decode
from bot.commands.intents import Accept
from bot.delivery.challenges import claim_key
from tests.fakes.discord import FakeDiscord, StoredMessage

from .conftest import World

pytestmark = pytest.mark.timeout(120)


async def ended(message: StoredMessage, words: str, timeout: float = 10.0) -> None:
    """Wait until the outbox consumer (after its grace) has edited the challenge message."""
    deadline = time.monotonic() + timeout
    while words not in message.content:
        assert time.monotonic() < deadline, (message.content, message.custom_ids())
        await asyncio.sleep(0.05)
    assert message.custom_ids() == [] and not message.embeds


async def test_slash_accept_and_cancel_edit_the_challenge_message(fake: FakeDiscord, bot: Any,
                                                                  world: World) -> None:
    w = world
    challenge = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
    assert [c.split(":")[1] for c in challenge.custom_ids()] == ["accept", "decline", "cancel"]
    await (await fake.slash_command(w.bob, w.general, "fevga accept")).original()  # typed: no button pressed
    await ended(challenge, "Challenge by alice: accepted by bob.")
    edits = challenge.edits
    await asyncio.sleep(0.5)
    assert challenge.edits == edits  # edited once

    room = await fake.add_channel(w.guild, "second")
    other = await (await fake.slash_command(w.carol, room, "fevga challenge", {"user": w.alice})).original()
    duplicate = await (await fake.slash_command(w.carol, room, "fevga challenge", {"user": w.alice})).original()
    assert duplicate.ephemeral and "You already challenged alice here" in duplicate.content
    await (await fake.slash_command(w.carol, room, "fevga cancel")).original()
    await ended(other, "Challenge by carol: withdrawn.")


async def test_a_challenge_accepted_by_its_button_stays_the_board(fake: FakeDiscord, bot: Any,
                                                                  world: World) -> None:
    w = world
    challenge = await (await fake.slash_command(w.bob, w.general, "fevga challenge", {"user": w.carol})).original()
    accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))
    await (await fake.press_button(w.carol, challenge, accept)).response()
    await asyncio.sleep(4.0)  # past the outbox consumer's grace
    assert challenge.embeds and challenge.attachments[0].filename == "board.png"  # still the board


async def test_a_bot_cannot_be_challenged(fake: FakeDiscord, bot: Any, world: World) -> None:
    w = world
    robot = await fake.add_member(w.guild, fake.create_user("helperbot", bot=True))
    refused = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": robot})).original()
    assert refused.ephemeral and "is a bot and cannot play a match" in refused.content


CHALLENGE_EDIT = r"^/api/v10/channels/\d+/messages/\d+$"


async def typed_accept(fake: FakeDiscord, w: World) -> StoredMessage:
    """alice challenges bob, who accepts by typing (no button pressed): the challenge message."""
    challenge = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
    assert challenge.custom_ids()
    accepted = await fake.slash_command(w.bob, w.general, "fevga accept")
    assert not (await accepted.response()).ephemeral
    return challenge


async def test_a_typed_accept_edits_the_challenge_message_at_once(fake: FakeDiscord, bot: Any,
                                                                  world: World) -> None:
    """The accepting handler edits it: with the outbox's grace made a minute long, only that edit can show
    it within the wait (however loaded the machine), and the outbox never edits it again."""
    consumer = bot.background.consumer()
    consumer.grace = 60.0
    challenge = await typed_accept(fake, world)
    await ended(challenge, "Challenge by alice: accepted by bob.", timeout=20.0)
    assert challenge.edits == 1
    await in_hand(fake, consumer)
    await consumer.stop(timeout=10.0)  # the entries in their grace go on now: the message is edited already
    assert consumer.handled >= 2  # the game's board and the challenge's end, both acked
    assert challenge.edits == 1 and not fake.failed_calls()


async def test_a_failed_immediate_edit_is_repaired_by_the_outbox(fake: FakeDiscord, bot: Any, core: Any,
                                                                 world: World) -> None:
    """Discord refuses the handler's edit (503): the outbox entry, once its grace is over, edits it (once). The
    grace is a minute until the handler's try was seen, so that try can only be the handler's."""
    consumer = bot.background.consumer()
    consumer.grace = 60.0
    fake.faults.add("PATCH", CHALLENGE_EDIT, times=1, status=503)
    challenge = await typed_accept(fake, world)
    await fake.wait_for(lambda: fake.faults.hits == 1 or None, 20.0, "the handler's edit")
    assert challenge.custom_ids() and challenge.edits == 0  # refused: still the challenge
    await released(core, challenge)
    await in_hand(fake, consumer)
    await consumer.stop(timeout=10.0)  # the grace ends now: the outbox entry repairs it
    await ended(challenge, "Challenge by alice: accepted by bob.", timeout=10.0)
    assert challenge.edits == 1


async def test_a_slow_immediate_edit_is_not_made_twice(fake: FakeDiscord, bot: Any, world: World) -> None:
    """The handler's edit is rate-limited (429, retry_after 3 s; discord.py waits and tries again) while the
    outbox entry's grace ends: the entry finds the message in the handler's hands and leaves it to him, so it
    is edited once."""
    consumer = bot.background.consumer()
    consumer.grace = 60.0
    fake.faults.add("PATCH", CHALLENGE_EDIT, times=1, status=429, retry_after=3.0)
    challenge = await typed_accept(fake, world)
    await fake.wait_for(lambda: fake.faults.hits == 1 or None, 20.0, "the handler's edit")
    await in_hand(fake, consumer)
    await consumer.stop(timeout=10.0)  # the entry looks now, while the handler waits out the 429
    await ended(challenge, "Challenge by alice: accepted by bob.", timeout=20.0)
    await asyncio.sleep(0.5)
    assert fake.faults.hits == 1 and challenge.edits == 1


async def in_hand(fake: FakeDiscord, consumer: Any) -> None:
    """Wait until the outbox consumer holds the accept's two entries (the board's, the challenge's) in their
    grace, so that stopping it hands them on at once."""
    await fake.wait_for(lambda: sum(map(len, consumer._in_hand.values())) >= 2 or None, 20.0, "the entries in hand")


async def released(core: Any, challenge: StoredMessage) -> None:
    """Wait until the handler that failed to edit the challenge's message has let go of it."""
    cid = next(c.split(":")[2] for c in challenge.custom_ids() if c.startswith("fv:accept:"))
    intent = decode(cid)
    assert isinstance(intent, Accept) and intent.challenge_id
    claim = claim_key(intent.challenge_id)
    deadline = time.monotonic() + 10.0
    while (await core.store.read([("get", claim)]))[0] is not None:
        assert time.monotonic() < deadline, "the failed edit kept its claim"
        await asyncio.sleep(0.05)
