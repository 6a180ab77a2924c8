"""A challenge message never keeps live-looking buttons (issue 14): after a typed accept or a cancel, the
outbox consumer of the real stack edits it to say how the challenge ended, without buttons; a challenge
accepted by its button has become the board and is left alone. Bots cannot be challenged."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

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
