"""Plain data kept by the fake Discord server: users, guilds, channels, messages and what the bot sent."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
ALL_PERMISSIONS = (1 << 51) - 1
ADMINISTRATOR = 1 << 3
# add reactions, view channel, send, embed links, attach files, read history, external emojis,
# use application commands, create public threads, send in threads
DEFAULT_PERMISSIONS = sum(1 << bit for bit in (6, 10, 11, 14, 15, 16, 18, 31, 35, 38))

_counter = itertools.count(1)


def snowflake() -> int:
    """A fresh Discord-style snowflake (timestamp in the high bits, so discord.py dates stay sane)."""
    return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(_counter) & 0x3FFFFF)


@dataclass
class FakeUser:
    """A Discord user (a player, or the bot itself)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class FakeRole:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int = DEFAULT_PERMISSIONS
    position: int = 0


@dataclass
class FakeChannel:
    """A guild text channel, a thread (type 11/12) or a DM channel (type 1)."""

    id: int
    name: str
    type: int = 0
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipients: list[FakeUser] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class FakeMember:
    """A user's membership of one guild."""

    user: FakeUser
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = "2024-01-01T00:00:00+00:00"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def mention(self) -> str:
        return self.user.mention


@dataclass
class FakeGuild:
    """A guild with its roles, channels and members, all keyed by id."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)

    def permissions_of(self, member: FakeMember) -> int:
        """Guild-level permissions of a member (owner and administrators get everything)."""
        if member.id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.roles[self.id].permissions
        for role_id in member.roles:
            perms |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms


@dataclass
class StoredAttachment:
    """A file the bot uploaded, with its bytes."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class StoredMessage:
    """A message as the fake holds it (bot messages, interaction responses, user messages)."""

    id: int
    channel_id: int
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    guild_id: int | None = None
    webhook_id: int | None = None
    interaction_id: int | None = None
    interaction_type: int = 2
    interaction_user: FakeUser | None = None
    reference_id: int | None = None
    edits: int = 0
    deleted: bool = False
    mentions: list[FakeUser] = field(default_factory=list)
    reactions: list[str] = field(default_factory=list)  # emoji the bot reacted with, in order
    allowed_mentions: dict[str, Any] | None = None  # as sent; None: Discord's default (every mention pings)

    @property
    def notified(self) -> list[FakeUser]:
        """The mentioned users Discord would notify: those ``allowed_mentions`` lets through."""
        allowed = self.allowed_mentions
        if allowed is None:
            return list(self.mentions)
        users = {str(u) for u in allowed.get("users") or []}
        every = "users" in (allowed.get("parse") or [])
        return [u for u in self.mentions if every or str(u.id) in users]

    @property
    def pings_everyone(self) -> bool:
        """True when the message would notify @everyone/@here or roles."""
        allowed = self.allowed_mentions
        parse = (allowed.get("parse") or []) if allowed is not None else ["everyone", "roles"]
        return "everyone" in parse or "roles" in parse or bool(allowed and allowed.get("roles"))

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a deferred response still shows 'thinking'."""
        return bool(self.flags & LOADING)

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Every component, depth first (action rows, buttons, selects, v2 containers...)."""
        stack = list(reversed(self.components))
        while stack:
            comp = stack.pop()
            yield comp
            children = list(comp.get("components", []))
            if "accessory" in comp:
                children.append(comp["accessory"])
            stack.extend(reversed(children))

    def attachment(self, filename: str) -> StoredAttachment:
        """The attachment called `filename` (what `attachment://filename` in components points at)."""
        for att in self.attachments:
            if att.filename == filename:
                return att
        raise KeyError(
            f"message {self.id} has no attachment {filename!r}; it has {[a.filename for a in self.attachments]}"
        )

    def custom_ids(self) -> list[str]:
        """custom_id of every interactive component, in display order."""
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def buttons(self) -> list[dict[str, Any]]:
        """Button components (type 2), in display order."""
        return [c for c in self.iter_components() if c.get("type") == 2]

    def component(self, custom_id: str) -> dict[str, Any]:
        """The component with this custom_id; KeyError if there is none."""
        for comp in self.iter_components():
            if comp.get("custom_id") == custom_id:
                return comp
        raise KeyError(f"message {self.id} has no component {custom_id!r}; it has {self.custom_ids()}")


@dataclass
class RestCall:
    """One REST request the bot made, decoded (JSON body or multipart payload_json plus files)."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[StoredAttachment]
    status: int = 0


@dataclass
class InteractionResponse:
    """The bot's answer to an interaction callback (types 4-9; flags 64 = ephemeral)."""

    type: int
    data: dict[str, Any]
    files: list[StoredAttachment]
    message: StoredMessage | None = None
    delay: float = 0.0  # seconds from dispatch to callback (Discord allows 3)

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags", 0) or 0) & EPHEMERAL)

    @property
    def content(self) -> str | None:
        return self.data.get("content")

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (type 8)."""
        return list(self.data.get("choices", []))
