"""Fixtures for the Discord frontend: the shared real redis-server, the real BotCore on it, the fake Discord
server with discord.py pointed at it (by the product's own code), and the bot logged in there."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import pytest
import redis

from bot.chat.core import BotCore
from bot.config import Settings
from bot.delivery.budgets import PlaceBudgets
from bot.discord import AnyFevgaBot, build_bot
from bot.discord.endpoints import point_discord_py
from bot.storage import LocalRedis
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeGuild, FakeMember, running_bot


@pytest.fixture
def redis_url(redis_server: LocalRedis) -> str:
    """The session's shared redis-server (tests/conftest.py), emptied first: tests never share games."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    client.close()
    return redis_server.url


async def make_core(redis_url: str) -> Any:
    """The real BotCore on the test's Redis database (call again for a second instance or a restart)."""
    core = await BotCore.create(redis_url=redis_url)
    core.ping_after = 0.0  # pings at once unless a test sets the idle time (tests/discord/test_fast_group.py)
    return core


@pytest.fixture
async def core(redis_url: str) -> AsyncIterator[Any]:
    made = await make_core(redis_url)
    try:
        yield made
    finally:
        await made.close()


@pytest.fixture
async def fake(caplog: pytest.LogCaptureFixture) -> AsyncIterator[FakeDiscord]:
    """A running fake Discord; fails the test if anything (discord.py or the bot) logged an error."""
    async with FakeDiscord() as server:
        yield server
    records = [*caplog.get_records("setup"), *caplog.get_records("call"), *caplog.records]
    errors = [r.getMessage() for r in records if r.levelno >= logging.ERROR]
    assert not errors, errors


def settings_for(fake: FakeDiscord, **extra: Any) -> Settings:
    """Settings as the environment would give them, pointing at the fake."""
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token=fake.token,
        discord_api_base_url=fake.api_base,
        discord_gateway_url=fake.gateway_url,
        **extra,
    )


@dataclass
class World:
    """One guild with a #general channel and three members; alice has Manage Server."""

    guild: FakeGuild
    general: FakeChannel
    alice: FakeMember
    bob: FakeMember
    carol: FakeMember


@pytest.fixture
async def world(fake: FakeDiscord) -> World:
    guild = await fake.add_guild("Tavli Club")
    general = await fake.add_channel(guild, "general")
    alice = await fake.add_member(guild, "alice", admin=True)
    bob = await fake.add_member(guild, "bob")
    carol = await fake.add_member(guild, "carol")
    return World(guild, general, alice, bob, carol)


FAST = (10_000, 5.0)  # tests not about budgets are not slowed by a channel's 5 messages per 5 s
BotFactory = Callable[..., contextlib.AbstractAsyncContextManager[AnyFevgaBot]]


@pytest.fixture
async def start_bot(fake: FakeDiscord) -> AsyncIterator[BotFactory]:
    """``async with start_bot(core) as bot``: the product's bot, pointed at the fake, commands synced."""
    restore = await point_discord_py(settings_for(fake))

    @contextlib.asynccontextmanager
    async def start(core: Any, *, budgets: PlaceBudgets | None = None, **options: Any) -> AsyncIterator[AnyFevgaBot]:
        options.setdefault("guild_ready_timeout", 0.05)
        bot = build_bot(core, settings_for(fake), **options)
        bot.frontend.boards.budgets = budgets or PlaceBudgets(*FAST)  # real budgets only where a test asks
        async with running_bot(bot, fake.token) as running:
            await running.commands_synced.wait()
            yield running

    try:
        yield start
    finally:
        restore()


@pytest.fixture
async def bot(start_bot: BotFactory, core: Any, world: World) -> AsyncIterator[AnyFevgaBot]:
    async with start_bot(core) as running:
        yield running
