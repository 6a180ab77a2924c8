"""The prefix form (``!fevga ...`` with the message-content intent, or by mentioning the bot) reads
exactly like the command language: the same lines give the same answers as the slash commands."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from bot.discord.frontend import DiscordFrontend
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


async def test_closing_waits_for_commands_still_being_answered_but_not_forever() -> None:
    """The bot's close drains in-flight handlers first, so it never closes the core under a reply."""
    frontend = DiscordFrontend(cast(Any, None), cast(Any, None))
    release = asyncio.Event()
    steps: list[str] = []

    async def handler() -> None:
        with frontend._handling():
            await release.wait()
            steps.append("answered")

    running = asyncio.create_task(handler())
    await asyncio.sleep(0)
    draining = asyncio.create_task(frontend.drain(timeout=5))
    await asyncio.sleep(0.05)
    assert not draining.done()  # still waiting for the handler
    release.set()
    await draining
    steps.append("drained")
    assert steps == ["answered", "drained"] and running.done()

    stuck = asyncio.create_task(_forever(frontend))
    await asyncio.sleep(0)
    started = asyncio.get_running_loop().time()
    await frontend.drain(timeout=0.1)  # bounded: a stuck handler does not hold the shutdown
    assert asyncio.get_running_loop().time() - started < 2 and not stuck.done()
    stuck.cancel()


async def _forever(frontend: DiscordFrontend) -> None:
    with frontend._handling():
        await asyncio.Event().wait()
