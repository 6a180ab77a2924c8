"""Start-up: endpoints from the settings, the synced /fevga tree with Greek descriptions, sharding, and the
board renderer warmed up in a thread while the bot already answers."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

import discord.gateway
import discord.http
import pytest
from discord.ext import commands

import renderers
from bot.__main__ import serve
from bot.commands.grammar import COMMANDS
from bot.config import DEFAULT_DISCORD_API_BASE_URL, Settings
from bot.discord import FevgaBot, ShardedFevgaBot, build_bot, prepare_bot, run_discord
from bot.discord.endpoints import point_discord_py, recommended_shards
from tests.fakes.discord import FakeDiscord, running_bot

from .conftest import BotFactory, World, settings_for

pytestmark = pytest.mark.timeout(60)
EXPECTED = sorted(COMMANDS)


async def test_commands_synced_with_options_and_greek_descriptions(
    fake: FakeDiscord, start_bot: BotFactory, core: Any, world: World
) -> None:
    async with start_bot(core):
        groups = {c["name"]: c for c in fake.commands()}
        assert sorted(groups) == ["fevga", "fevga-more", "tournament"]
        group, more, form = groups["fevga"], groups["fevga-more"], groups["tournament"]
        assert group["description_localizations"]["el"] == "Παίξε τάβλι: Φεύγα, Πόρτες, Πλακωτό"
        tour = {o["name"]: o for o in form["options"]}
        assert list(tour) == ["create", "join", "leave", "start", "cancel", "remove", "standings", "list"]
        assert tour["create"]["description_localizations"]["el"].startswith("Άνοιξε τουρνουά")  # the form
        assert [(o["name"], o["type"], o["required"]) for o in tour["remove"]["options"]] == [("user", 6, True)]
        assert [(o["name"], o["type"], o.get("required", False)) for o in tour["standings"]["options"]] == [
            ("tournament", 3, False)
        ]
        subs = {o["name"]: o for o in group["options"]}
        extra = {o["name"]: o for o in more["options"]}
        assert set(subs) <= set(EXPECTED) and set(extra) <= set(EXPECTED) and not set(subs) & set(extra)
        assert all(o["type"] == 1 for g in groups.values() for o in g["options"])  # only subcommands
        assert len(subs) == 25  # Discord's limit of subcommands in a group: the rest are in /fevga-more
        # Every grammar command has a slash form: /fevga, /fevga-more, /tournament (list: ``tournaments``).
        assert set(subs) | set(extra) | {"tournament", "tournaments"} == set(EXPECTED)
        assert more["description_localizations"]["el"].startswith("Κι άλλα")
        assert [(o["name"], o["type"], o.get("required", False)) for o in extra["dice"]["options"]] == [
            ("user", 6, False),
            ("game", 3, False),
        ]
        assert [(o["name"], o["type"], o.get("required", False)) for o in extra["h2h"]["options"]] == [
            ("user", 6, True),
            ("other", 6, False),
        ]
        assert [(o["name"], o["type"], o.get("required", False)) for o in extra["puzzle"]["options"]] == [
            ("play", 3, False)
        ]
        challenge = {o["name"]: o for o in subs["challenge"]["options"]}
        assert [(n, o["type"], o.get("required", False)) for n, o in challenge.items()] == [
            ("user", 6, False),
            ("game", 3, False),
            ("points", 4, False),
            ("unlock", 4, False),
            ("strict", 5, False),
        ]
        assert (challenge["points"]["min_value"], challenge["points"]["max_value"]) == (1, 25)
        assert [c["value"] for c in challenge["unlock"]["choices"]] == [13, 14]
        assert challenge["user"]["description_localizations"]["el"].startswith("Ποιον")
        for name in ("challenge", "play", "rules", "top"):  # the game option: a choice of the four, Greek names too
            (game,) = [o for o in subs[name]["options"] if o["name"] == "game"]
            assert [c["value"] for c in game["choices"]] == ["fevga", "portes", "plakoto", "tavli"]
            assert [c["name_localizations"]["el"] for c in game["choices"]][:3] == ["Φεύγα", "Πόρτες", "Πλακωτό"]
            assert game["description_localizations"]["el"].startswith("Ποιο παιχνίδι")
        (level,) = [o for o in subs["play"]["options"] if o["name"] == "level"]  # the words a Greek board shows
        assert [c["value"] for c in level["choices"]] == ["easy", "medium", "hard", "expert"]
        assert [c["name_localizations"]["el"] for c in level["choices"]] == ["εύκολο", "μέτριο", "δύσκολο", "έμπειρο"]
        move = subs["move"]["options"][0]
        assert (move["name"], move["type"], move["required"], move["autocomplete"]) == ("play", 3, True, True)
        every = [g for g in groups.values()] + [o for g in groups.values() for o in g["options"]]
        every += [p for g in groups.values() for o in g["options"] for p in o.get("options", [])]
        assert all(1 <= len(o["description"]) <= 100 for o in every)
        assert all(1 <= len(o["description_localizations"]["el"]) <= 100 for o in every)  # each has its Greek


def _urls() -> tuple[str, object]:
    return discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


async def test_endpoints_follow_the_settings_and_are_restored(fake: FakeDiscord) -> None:
    before = _urls()
    official = await point_discord_py(Settings(_env_file=None))  # type: ignore[call-arg]
    assert _urls() == before
    official()
    assert discord.http.Route.BASE == DEFAULT_DISCORD_API_BASE_URL
    # No gateway URL: the stand-in API is asked for it.
    restore = await point_discord_py(Settings(_env_file=None, discord_api_base_url=fake.api_base + "/"))  # type: ignore[call-arg]
    try:
        api, gateway = _urls()
        assert (api, str(gateway)) == (fake.api_base, fake.gateway_url)
    finally:
        restore()
    assert _urls() == before


async def test_shard_count_setting_gives_an_auto_sharded_bot(fake: FakeDiscord, core: Any) -> None:
    plain = build_bot(core, settings_for(fake))
    assert type(plain) is FevgaBot and plain.intents.message_content
    sharded = build_bot(core, settings_for(fake, discord_shard_count=3), prefix_commands=False)
    assert isinstance(sharded, ShardedFevgaBot) and isinstance(sharded, commands.AutoShardedBot)
    assert sharded.shard_count == 3 and not sharded.intents.message_content
    assert await recommended_shards(settings_for(fake)) == 1


async def test_discord_recommending_shards_starts_a_sharded_bot(core: Any) -> None:
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    async with FakeDiscord(shard_count=2) as fake:
        guild = await fake.add_guild()
        channel = await fake.add_channel(guild, "general")
        member = await fake.add_member(guild, "alice")
        bot = await prepare_bot(core, settings_for(fake), guild_ready_timeout=0.05)
        try:
            assert isinstance(bot, ShardedFevgaBot)
            bot.before_identify_hook = _no_wait  # type: ignore[method-assign]
            async with running_bot(bot, fake.token):
                await fake.wait_until_connected(2)
                await asyncio.wait_for(bot.commands_synced.wait(), 20)  # READY of both shards: the tree synced
                assert bot.shard_count == 2
                handle = await fake.slash_command(member, channel, "fevga help")
                answer = await handle.original()
                assert answer.content or answer.embeds
        finally:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = before


async def _no_wait(shard_id: int | None, *, initial: bool = False) -> None:
    """The fake has no identify rate limit: no 5 s pause between shards."""


async def test_run_discord_serves_until_cancelled(fake: FakeDiscord, core: Any, world: World) -> None:
    before = _urls()
    task = asyncio.create_task(run_discord(core, settings_for(fake)))
    try:
        await fake.wait_until_connected(1)
        await fake.wait_for(lambda: fake.commands() or None)  # synced on READY
        handle = await fake.slash_command(world.carol, world.general, "fevga rules")
        assert (await handle.original()).content or (await handle.original()).embeds
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = before
    await fake.wait_for(lambda: not fake.bot_sessions() or None)


async def test_without_the_message_content_intent_it_runs_slash_only_with_one_warning(
    fake: FakeDiscord, core: Any, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fake.message_content_allowed = False  # the intent is not enabled in the Developer Portal
    before = _urls()
    task = asyncio.create_task(run_discord(core, settings_for(fake)))
    try:
        await fake.wait_until_connected(1)
        await fake.wait_for(lambda: fake.commands() or None)
        handle = await fake.slash_command(world.carol, world.general, "fevga rules")
        assert (await handle.original()).content or (await handle.original()).embeds
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = before
    warnings = [r for r in caplog.records if "Message Content intent" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelname == "WARNING"
    assert not [r for r in caplog.records if r.exc_info and "PrivilegedIntents" in repr(r.exc_info[1])]
    await fake.wait_for(lambda: not fake.bot_sessions() or None)


async def test_start_up_warms_the_renderer_in_a_thread_without_delaying_readiness(
    fake: FakeDiscord, world: World, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    release, warmed_in = threading.Event(), []

    def slow_warm_up(*args: Any, **kwargs: Any) -> None:  # held until the bot has answered a command
        warmed_in.append(threading.get_ident())
        release.wait(30)

    monkeypatch.setattr(renderers, "warm_up", slow_warm_up)
    before, stop = _urls(), asyncio.Event()
    task = asyncio.create_task(serve(settings_for(fake, redis_url=redis_url), stop))
    try:
        await fake.wait_until_connected(1)
        await fake.wait_for(lambda: fake.commands() or None)
        handle = await fake.slash_command(world.carol, world.general, "fevga rules")
        assert (await handle.original()).content or (await handle.original()).embeds
        assert warmed_in and warmed_in[0] != threading.get_ident()  # called at start-up, off the event loop
        assert not release.is_set() and not task.done()  # the bot was ready while it still warmed up
    finally:
        release.set()
        stop.set()
        await asyncio.wait_for(task, 30)
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = before
    assert len(warmed_in) == 1
