"""The prefix form (``!fevga ...`` with the message-content intent, or by mentioning the bot) reads
exactly like the command language: the same lines give the same answers as the slash commands."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakes.discord import FakeDiscord

from .conftest import BotFactory, World

pytestmark = pytest.mark.timeout(60)


async def test_prefix_challenge_accept_and_error_replies(fake: FakeDiscord, bot: Any, world: World) -> None:
    w = world
    said = await fake.send_message(w.alice, w.general, f"!fevga challenge {w.bob.mention} 3")
    challenge = await fake.wait_for_message(w.general, lambda m: m.author.bot, after=said.id)
    assert challenge.reference_id == said.id
    assert w.bob.user in challenge.mentions and len(challenge.custom_ids()) == 3
    assert all(cid.startswith("fv:") for cid in challenge.custom_ids())

    typo = await fake.send_message(w.bob, w.general, "!fevga acept")  # not a command: the core suggests one
    answer = await fake.wait_for_message(w.general, lambda m: m.author.bot, after=typo.id)
    assert "accept" in answer.content.lower() and answer.reference_id == typo.id

    accept = await fake.send_message(w.bob, w.general, "!fevga accept")
    board = await fake.wait_for_message(w.general, lambda m: m.author.bot, after=accept.id)
    assert [a.filename for a in board.attachments] == ["board.png"]
    assert board.embeds[0]["image"]["url"] == "attachment://board.png"
    assert not fake.failed_calls()


async def test_mentioning_the_bot_works_without_the_message_content_intent(
    fake: FakeDiscord, start_bot: BotFactory, core: Any, world: World
) -> None:
    w = world
    async with start_bot(core, prefix_commands=False) as bot:
        assert not bot.intents.message_content
        said = await fake.send_message(w.carol, w.general, f"{fake.bot_user.mention} top")
        top = await fake.wait_for_message(w.general, lambda m: m.author.bot, after=said.id)
        assert top.embeds and not top.content
        ignored = await fake.send_message(w.carol, w.general, "!fevga top")  # content is hidden from the bot
        await fake.send_message(w.carol, w.general, f"{fake.bot_user.mention} help")
        helped = await fake.wait_for_message(w.general, lambda m: m.author.bot, after=ignored.id)
        assert helped.reference_id != ignored.id
