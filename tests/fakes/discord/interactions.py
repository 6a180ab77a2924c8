"""INTERACTION_CREATE payloads built like Discord's, and the handle tests await answers on."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from . import payloads
from .models import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    InteractionResponse,
    StoredMessage,
    snowflake,
)
from .state import InteractionRecord

if TYPE_CHECKING:
    from .server import FakeDiscord

SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = (
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
)

Actor = FakeMember | FakeUser


class InteractionHandle:
    """What a test gets back from slash_command/press_button/...: await the bot's answers on it."""

    def __init__(self, fake: FakeDiscord, record: InteractionRecord) -> None:
        self.fake = fake
        self.record = record

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def payload(self) -> dict[str, Any]:
        """The INTERACTION_CREATE data exactly as dispatched."""
        return self.record.payload

    @property
    def responses(self) -> list[InteractionResponse]:
        return self.record.responses

    async def response(self, timeout: float = 5.0) -> InteractionResponse:
        """The interaction callback (types 4-9), waiting for it."""
        await self.fake.wait_for(lambda: self.record.responses, timeout, f"a response to interaction {self.id}")
        return self.record.responses[0]

    async def original(self, timeout: float = 5.0, *, settled: bool = True) -> StoredMessage:
        """The @original message (created by type 4/5, or the clicked message for 6/7). With
        settled=True a deferred ('thinking...') original is awaited until the bot has filled it in."""

        def ready() -> StoredMessage | None:
            msg = self.fake.stored_messages.get(self.record.original_message_id or 0)
            return msg if msg is not None and not (settled and msg.loading) else None

        return await self.fake.wait_for(ready, timeout, f"the original response of interaction {self.id}")

    async def followup(self, index: int = 0, timeout: float = 5.0) -> StoredMessage:
        """The index-th follow-up message (webhook POST) of this interaction, waiting for it."""
        ids = self.record.followup_ids
        await self.fake.wait_for(lambda: len(ids) > index, timeout, f"follow-up #{index} of interaction {self.id}")
        return self.fake.stored_messages[ids[index]]

    async def answer(self, timeout: float = 5.0) -> StoredMessage:
        """The visible answer whatever way the bot chose: the settled original for 4/5, the updated
        message for 7, and after a DEFERRED_UPDATE (6) the clicked message once edited or the first
        follow-up, whichever comes first."""
        resp = await self.response(timeout)
        if resp.type != 6:
            return await self.original(timeout)
        rec = self.record

        def visible() -> StoredMessage | None:
            if rec.followup_ids:
                return self.fake.stored_messages[rec.followup_ids[0]]
            source = self.fake.stored_messages.get(rec.source_message_id or 0)
            return source if source is not None and source.edits > rec.source_edits else None

        return await self.fake.wait_for(visible, timeout, f"an answer to interaction {self.id}")


def actor_user(actor: Actor) -> FakeUser:
    return actor.user if isinstance(actor, FakeMember) else actor


def base_payload(
    fake: FakeDiscord, kind: int, actor: Actor, channel: FakeChannel, data: dict[str, Any], locale: str
) -> dict[str, Any]:
    """Fields every interaction carries (member or user, channel object, token, permissions, context...)."""
    guild = fake.guilds.get(channel.guild_id) if channel.guild_id else None
    payload: dict[str, Any] = {
        "id": str(snowflake()),
        "application_id": str(fake.application_id),
        "type": kind,
        "data": data,
        "channel_id": str(channel.id),
        "channel": payloads.channel(channel),
        "token": "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
        "version": 1,
        "locale": locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": payloads.ATTACHMENT_SIZE_LIMIT,
    }
    if guild is not None:
        member = actor if isinstance(actor, FakeMember) else guild.members[actor.id]
        bot_member = guild.members[fake.bot_user.id]
        payload.update(
            guild_id=str(guild.id),
            guild={"id": str(guild.id), "locale": "en-US", "features": []},
            guild_locale="en-US",
            member=payloads.member(member, permissions=guild.permissions_of(member)),
            app_permissions=str(guild.permissions_of(bot_member)),
            authorizing_integration_owners={"0": str(guild.id)},
            context=0,
        )
    else:
        payload.update(
            user=payloads.user(actor_user(actor)),
            app_permissions="0",
            authorizing_integration_owners={"0": "0"},
            context=1,
        )
    return payload


def find_command(fake: FakeDiscord, name: str, guild: FakeGuild | None) -> dict[str, Any] | None:
    """The synced chat-input command `name` (guild commands shadow global ones)."""
    scopes = ([guild.id] if guild else []) + [None]
    for scope in scopes:
        for cmd in fake.synced_commands.get(scope, []):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd
    return None


def infer_type(value: Any) -> int:
    if isinstance(value, FakeMember | FakeUser):
        return USER
    if isinstance(value, FakeChannel):
        return CHANNEL
    if isinstance(value, FakeRole):
        return ROLE
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    return NUMBER if isinstance(value, float) else STRING


def encode_options(
    fake: FakeDiscord,
    guild: FakeGuild | None,
    spec: list[dict[str, Any]] | None,
    values: dict[str, Any],
    resolved: dict[str, dict[str, Any]],
    focused: str | None,
) -> list[dict[str, Any]]:
    """Option list for the given values, typed from the synced spec when there is one, with
    `resolved` users/members/channels/roles filled in the way Discord does."""
    by_name = {o["name"]: o for o in spec or []}
    if spec is not None:
        unknown = set(values) - set(by_name)
        missing = {o["name"] for o in spec if o.get("required") and o["name"] not in values and o["name"] != focused}
        if unknown or missing:
            raise ValueError(f"options do not match the synced command: unknown {unknown}, missing {missing}")
    out = []
    for name, value in values.items():
        kind = int(by_name[name]["type"]) if name in by_name else infer_type(value)
        option: dict[str, Any] = {"name": name, "type": kind, "value": value}
        if isinstance(value, FakeMember | FakeUser):
            user = actor_user(value)
            option["value"] = str(user.id)
            resolved.setdefault("users", {})[str(user.id)] = payloads.user(user)
            member = guild.members.get(user.id) if guild else None
            if member is not None and guild is not None:
                resolved.setdefault("members", {})[str(user.id)] = payloads.member(
                    member, with_user=False, permissions=guild.permissions_of(member)
                )
        elif isinstance(value, FakeChannel):
            option["value"] = str(value.id)
            resolved.setdefault("channels", {})[str(value.id)] = {
                "id": str(value.id),
                "name": value.name,
                "type": value.type,
                "permissions": "0",
                "parent_id": str(value.parent_id) if value.parent_id else None,
            }
        elif isinstance(value, FakeRole) and guild is not None:
            option["value"] = str(value.id)
            resolved.setdefault("roles", {})[str(value.id)] = payloads.role(value)
        if name == focused:
            option["focused"] = True
            option["value"] = str(value)
        out.append(option)
    return out


def command_data(
    fake: FakeDiscord,
    channel: FakeChannel,
    path: list[str],
    options: dict[str, Any],
    focused: str | None = None,
) -> dict[str, Any]:
    """`data` of an APPLICATION_COMMAND / AUTOCOMPLETE interaction for /path[0] [path[1] [path[2]]]."""
    guild = fake.guilds.get(channel.guild_id) if channel.guild_id else None
    cmd = find_command(fake, path[0], guild)
    if (
        cmd is not None
        and channel.type == 1
        and (cmd.get("dm_permission") is False or 1 not in (cmd.get("contexts") or [0, 1, 2]))
    ):
        raise ValueError(f"/{path[0]} is not available in DMs, so Discord would not let a user run it")
    resolved: dict[str, dict[str, Any]] = {}
    spec = cmd.get("options", []) if cmd else None
    nesting: list[tuple[str, int]] = []
    for depth, part in enumerate(path[1:]):
        sub = next((o for o in spec or [] if o["name"] == part and o["type"] in (1, 2)), None)
        if cmd is not None and sub is None:
            raise ValueError(f"/{' '.join(path[: depth + 1])} has no subcommand {part!r}")
        nesting.append((part, int(sub["type"]) if sub else (SUB_COMMAND if depth == len(path) - 2 else 2)))
        spec = sub.get("options", []) if sub else None
    opts = encode_options(fake, guild, spec, options, resolved, focused)
    for name, kind in reversed(nesting):
        opts = [{"name": name, "type": kind, "options": opts}]
    data: dict[str, Any] = {"id": cmd["id"] if cmd else str(snowflake()), "name": path[0], "type": 1}
    if opts:
        data["options"] = opts
    if resolved:
        data["resolved"] = resolved
    if cmd is not None and cmd.get("guild_id"):
        data["guild_id"] = cmd["guild_id"]
    return data
