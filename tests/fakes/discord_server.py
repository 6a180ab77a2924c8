"""Entry point for the fake Discord server; the code lives in tests/fakes/discord/."""

from .discord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    InteractionHandle,
    InteractionResponse,
    RestCall,
    StoredAttachment,
    StoredMessage,
    point_discord_py_at,
    running_bot,
)

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
    "point_discord_py_at",
    "running_bot",
]
