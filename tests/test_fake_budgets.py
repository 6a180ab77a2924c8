"""The stand-ins enforce each platform's per-place budget when a test asks (off by default): Telegram 20 calls
a minute per group, edits and deletions included, answered 429 with a whole-second retry_after beyond it,
private chats not counted; Discord 5 message calls per 5 s per channel, answered 429 with retry_after, which
discord.py waits out and retries. Seen through the real python-telegram-bot and discord.py clients."""

from __future__ import annotations

import time

import discord
import pytest
from telegram import Bot
from telegram.error import RetryAfter

from tests.fakes.discord import FakeDiscord, point_discord_py_at, running_bot
from tests.fakes.telegram import FakeTelegram


async def test_telegram_groups_get_429_past_their_budget_and_private_chats_do_not() -> None:
    async with FakeTelegram() as fake:
        room, alice = fake.group(-1001, "Tavli"), fake.user(101, "Alice")
        fake.private_chat(alice)
        budget = fake.enforce_budget(3, 2.0)
        async with Bot(fake.token, base_url=fake.base_url) as bot:
            sent = [await bot.send_message(room.id, f"m{n}") for n in range(2)]
            await bot.edit_message_text("edited", chat_id=room.id, message_id=sent[0].message_id)  # edits count
            with pytest.raises(RetryAfter) as refused:
                await bot.send_message(room.id, "one too many")
            after = refused.value.retry_after
            assert after in (1, 2) or getattr(after, "total_seconds", lambda: 0)() in (1.0, 2.0)
            with pytest.raises(RetryAfter):
                await bot.delete_message(room.id, sent[1].message_id)  # deletions count too
            for n in range(5):
                await bot.send_message(alice.id, f"private {n}")  # not a group: no budget
        assert budget.refused == 2
        assert [m.content for m in fake.bot_messages(room)] == ["edited", "m1"]  # refused calls changed nothing


async def test_discord_channels_get_429_past_their_budget_and_discord_py_waits_it_out() -> None:
    async with FakeDiscord() as fake:
        restore = point_discord_py_at(fake.api_base, fake.gateway_url)
        try:
            guild = await fake.add_guild("Tavli Club")
            general = await fake.add_channel(guild, "general")
            budget = fake.enforce_budget(5, 1.0)
            async with running_bot(discord.Client(intents=discord.Intents.default()), fake.token) as client:
                channel = client.get_partial_messageable(general.id)
                started = time.monotonic()
                for n in range(7):
                    await channel.send(f"m{n}")
                waited = time.monotonic() - started
        finally:
            restore()
        assert budget.refused >= 1 and waited >= 0.5  # the 6th waited for the window to move on
        assert [m.content for m in fake.messages(general)] == [f"m{n}" for n in range(7)]
