"""Discord JSON payloads (API v10 shapes) built from the fake's models, as discord.py expects them."""

from __future__ import annotations

import datetime
from typing import Any

from .models import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    StoredAttachment,
    StoredMessage,
)

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def iso(ts: datetime.datetime | None = None) -> str:
    """Discord's ISO-8601 timestamp format."""
    return (ts or datetime.datetime.now(datetime.UTC)).isoformat()


def user(u: FakeUser) -> dict[str, Any]:
    """A user object (also the bot's own, for /users/@me and READY)."""
    return {
        "id": str(u.id),
        "username": u.username,
        "global_name": u.global_name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "public_flags": 0,
        "flags": 0,
    }


def role(r: FakeRole) -> dict[str, Any]:
    """A role object; permissions travel as a decimal string."""
    return {
        "id": str(r.id),
        "name": r.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": r.position,
        "permissions": str(r.permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def member(m: FakeMember, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
    """A guild member; interactions add `permissions`, resolved members leave out `user`."""
    data: dict[str, Any] = {
        "roles": [str(r) for r in m.roles],
        "nick": m.nick,
        "avatar": None,
        "banner": None,
        "joined_at": m.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user(m.user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def channel(c: FakeChannel) -> dict[str, Any]:
    """A guild text channel, a thread (with thread_metadata) or a DM channel (with recipients)."""
    if c.type == 1:
        return {
            "id": str(c.id),
            "type": 1,
            "last_message_id": None,
            "flags": 0,
            "recipients": [user(r) for r in c.recipients],
        }
    data: dict[str, Any] = {
        "id": str(c.id),
        "type": c.type,
        "guild_id": str(c.guild_id),
        "name": c.name,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "parent_id": str(c.parent_id) if c.parent_id else None,
        "flags": 0,
    }
    if c.is_thread:
        data["owner_id"] = str(c.owner_id) if c.owner_id else None
        data["member_count"] = 1
        data["message_count"] = 0
        data["total_message_sent"] = 0
        data["thread_metadata"] = {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": iso(),
            "locked": False,
            "create_timestamp": iso(),
        }
    return data


def guild(g: FakeGuild, *, members: list[FakeMember]) -> dict[str, Any]:
    """GUILD_CREATE payload (the full, available guild)."""
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(g.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role(r) for r in g.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": iso(),
        "large": False,
        "unavailable": False,
        "member_count": len(g.members),
        "voice_states": [],
        "members": [member(m) for m in members],
        "channels": [channel(c) for c in g.channels.values() if not c.is_thread],
        "threads": [channel(c) for c in g.channels.values() if c.is_thread],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment(a: StoredAttachment, base_url: str) -> dict[str, Any]:
    """An attachment whose url serves the stored bytes from the fake itself."""
    url = f"{base_url}/attachments/{a.id}/{a.filename}"
    data: dict[str, Any] = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": url,
        "proxy_url": url,
        "content_type": a.content_type,
    }
    if a.description is not None:
        data["description"] = a.description
    return data


def resolve_media(value: Any, files: dict[str, dict[str, Any]]) -> Any:
    """Components with `attachment://name` media replaced by the uploaded file, as Discord returns them."""
    if isinstance(value, list):
        return [resolve_media(v, files) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: resolve_media(v, files) for k, v in value.items()}
    url = out.get("url")
    if isinstance(url, str) and url.startswith("attachment://") and url[13:] in files:
        att = files[url[13:]]
        out.update(
            url=att["url"], proxy_url=att["proxy_url"], content_type=att["content_type"], attachment_id=att["id"]
        )
    return out


def message(m: StoredMessage, *, base_url: str, guild: FakeGuild | None = None) -> dict[str, Any]:
    """A message object as REST answers and MESSAGE_CREATE/UPDATE carry it."""
    data: dict[str, Any] = {
        "id": str(m.id),
        "channel_id": str(m.channel_id),
        "author": user(m.author),
        "content": m.content,
        "timestamp": iso(datetime.datetime.fromtimestamp(((m.id >> 22) + 1420070400000) / 1000, datetime.UTC)),
        "edited_timestamp": iso() if m.edits else None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [user(u) for u in m.mentions],
        "mention_roles": [],
        "attachments": [attachment(a, base_url) for a in m.attachments],
        "embeds": m.embeds,
        "components": resolve_media(m.components, {a.filename: attachment(a, base_url) for a in m.attachments}),
        "pinned": False,
        "type": m.type,
        "flags": m.flags,
    }
    if m.reactions:
        data["reactions"] = [
            {
                "count": 1,
                "me": True,
                "emoji": {"id": None, "name": e},
                "burst_colors": [],
                "count_details": {"burst": 0, "normal": 1},
                "me_burst": False,
                "burst_me": False,
                "burst_count": 0,
            }
            for e in m.reactions
        ]
    if m.guild_id is not None:
        data["guild_id"] = str(m.guild_id)
        if guild is not None and m.author.id in guild.members:
            data["member"] = member(guild.members[m.author.id], with_user=False)
    if m.webhook_id is not None:
        data["webhook_id"] = str(m.webhook_id)
        data["application_id"] = str(m.webhook_id)
    if m.reference_id is not None:
        data["message_reference"] = {"type": 0, "message_id": str(m.reference_id), "channel_id": str(m.channel_id)}
    if m.interaction_id is not None:
        invoker = user(m.interaction_user) if m.interaction_user else data["author"]
        data["interaction_metadata"] = {
            "id": str(m.interaction_id),
            "type": m.interaction_type,
            "user": invoker,
            "authorizing_integration_owners": {},
        }
    return data


def application(app_id: int, bot: FakeUser, owner: FakeUser) -> dict[str, Any]:
    """GET /oauth2/applications/@me."""
    return {
        "id": str(app_id),
        "name": bot.username,
        "icon": None,
        "description": "fake application",
        "summary": "",
        "type": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": (1 << 19) | (1 << 15),  # GATEWAY_MESSAGE_CONTENT_LIMITED, GATEWAY_GUILD_MEMBERS_LIMITED
        "owner": user(owner),
        "team": None,
        "bot": user(bot),
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "integration_types_config": {"0": {}},
    }
