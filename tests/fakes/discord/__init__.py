"""A local fake Discord (REST + gateway on 127.0.0.1) to test a real discord.py bot end to end.

    async with FakeDiscord() as fake:
        restore = point_discord_py_at(fake.api_base, fake.gateway_url)   # process-wide; restore() after
        guild = await fake.add_guild("Tavli Club")
        general = await fake.add_channel(guild, "general")
        alice, bob = await fake.add_member(guild, "alice"), await fake.add_member(guild, "bob")
        async with running_bot(MyBot(guild_ready_timeout=0.05, ...), fake.token) as bot:
            await bot.tree.sync()                        # lets the fake type and check options
            handle = await fake.slash_command(alice, general, "fevga challenge", {"opponent": bob})
            board = await handle.original()              # StoredMessage: content, embeds, components, files
            press = await fake.press_button(bob, board, board.custom_ids()[0])
            assert (await press.response()).type == 7    # UPDATE_MESSAGE; board now holds the edit

Everything the bot did is kept: fake.messages(channel), fake.rest_log / calls() / failed_calls(),
fake.interactions, fake.commands(guild); fake.wait_for(predicate) waits without blind sleeps.
"""

from .interactions import InteractionHandle
from .models import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    InteractionResponse,
    RestCall,
    StoredAttachment,
    StoredMessage,
)
from .pointing import point_discord_py_at
from .running import modal_held, running_bot
from .server import FakeDiscord

__all__ = [
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "InteractionHandle",
    "InteractionResponse",
    "RestCall",
    "StoredAttachment",
    "StoredMessage",
    "modal_held",
    "point_discord_py_at",
    "running_bot",
]
