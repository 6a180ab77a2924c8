"""The fast group game (``tests/fastgroup.py``) through the real discord.py stack against the fake Discord
enforcing a channel's budget (5 message calls per 5 s, scaled): the players type ``!fevga move <play>`` in the
channel; the board message there is edited and the idle player is pinged in the game's thread."""

from __future__ import annotations

import contextlib
import random

from bot.delivery.budgets import PlaceBudgets
from bot.discord import build_bot
from bot.discord.boards import CHANNEL_BUDGET
from bot.discord.endpoints import point_discord_py
from tests.fakes.discord import FakeDiscord, running_bot
from tests.fakes.discord.rest import MESSAGE_CALL
from tests.fastgroup import IDLE, Chat, Outcome, Scale, play_fast_game, warm_up

from .conftest import make_core, settings_for
from .playing import legal_play_texts, place_ref, player_ref


async def discord_fast_game(redis_url: str, *, plies: int, scale: Scale, instances: int = 1) -> tuple[Outcome, int]:
    """Play the fast group game on Discord; (what it measured, the 429s the fake answered). With 2 instances
    each runs one of 2 shards (the guild's events reach one; both consume the outbox)."""
    await warm_up()
    limit, window = CHANNEL_BUDGET
    async with FakeDiscord(shard_count=instances) as fake, contextlib.AsyncExitStack() as stack:
        restore = await point_discord_py(settings_for(fake))
        cores = [await make_core(redis_url) for _ in range(instances)]
        core = cores[0]
        for each in cores:
            each.ping_after = scale(IDLE)
        try:
            guild = await fake.add_guild("Tavli Club")
            general = await fake.add_channel(guild, "general")
            alice = await fake.add_member(guild, "alice", admin=True)
            bob = await fake.add_member(guild, "bob")
            bots = []
            for shard, each in enumerate(cores):
                shards = {"discord_shard_count": instances, "discord_shard_ids": (shard,)} if instances > 1 else {}
                bot = build_bot(each, settings_for(fake, **shards), guild_ready_timeout=0.05)
                bot.frontend.boards.budgets = PlaceBudgets(limit, scale(window))
                bots.append(await stack.enter_async_context(running_bot(bot, fake.token)))
            for running in bots:
                await running.commands_synced.wait()
            bot = bots[0]
            budget = fake.enforce_budget(limit, scale(window))
            await (await fake.slash_command(alice, general, "fevga challenge", {"user": bob})).original()
            await (await fake.slash_command(bob, general, "fevga accept")).original()
            view = (await core.service.board(player_ref(alice), place_ref(general))).view
            assert view is not None
            game, members, rng = view.game_id, {str(m.id): m for m in (alice, bob)}, random.Random(7)

            async def move() -> int:
                now = (await core.service.board(player_ref(alice), place_ref(general))).view
                if now is None or now.status != "play":
                    return 0
                member = members[now.players[now.turn].user_id]
                plays = await legal_play_texts(core, member, general)
                await fake.send_message(member, general, f"!fevga move {rng.choice(plays)}")
                return int(now.version) + 1

            async def shown() -> int:
                return (await bot.frontend.boards.tracker.shown(game))[0]

            async def committed() -> int:
                now = (await core.service.view_of(game)).view
                return int(now.version) if now is not None else 0

            def pings() -> int:
                return len([m for m in fake.stored_messages.values()
                            if m.author.id == fake.bot_user.id and "your turn" in m.content])

            def calls() -> int:  # the calls the channel's budget counts (reactions have their own)
                return len([c for c in fake.rest_log if c.method != "GET" and MESSAGE_CALL.search(c.path)
                            and c.status < 400])

            outcome = await play_fast_game(Chat(move, shown, pings, calls, committed), plies, scale)
            return outcome, budget.refused
        finally:
            await stack.aclose()
            for each in cores:
                await each.close()
            restore()
