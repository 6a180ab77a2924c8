"""FakeDiscord: an aiohttp server on 127.0.0.1 speaking enough of Discord's REST API and gateway for a
real discord.py 2.x bot, with a test API to build guilds and to act as users (slash commands, buttons)."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from aiohttp import web

from . import payloads
from .gateway import INTENT_GUILD_MEMBERS, INTENT_MESSAGE_CONTENT, GatewaySession
from .interactions import Actor, InteractionHandle, actor_user, base_payload, command_data
from .models import (
    ADMINISTRATOR,
    DEFAULT_PERMISSIONS,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    StoredMessage,
    snowflake,
)
from .rest import API, RestApi
from .state import FakeState, InteractionRecord

log = logging.getLogger("fake_discord")


class FakeDiscord(FakeState):
    """Start with `async with FakeDiscord() as fake:` (or await start()/stop()); point discord.py at
    `fake.api_base` (see point_discord_py_at) and log the bot in with `fake.token`."""

    def __init__(
        self,
        *,
        bot_name: str = "FevgaBot",
        shard_count: int = 1,
        heartbeat_interval_ms: int = 41250,
        response_deadline: float | None = 3.0,
    ):
        super().__init__(FakeUser(id=snowflake(), username=bot_name, bot=True))
        self.token = "fake." + secrets.token_urlsafe(24)
        self.application_id = self.bot_user.id
        self.owner = FakeUser(id=snowflake(), username="app-owner")
        self.shard_count = shard_count
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.response_deadline = response_deadline  # Discord drops interactions not answered in 3 s
        self.message_content_allowed = True  # False: the app lacks the privileged Message Content intent
        self.gateway_queries: list[dict[str, str]] = []
        self._identities: dict[str, dict[str, Any]] = {}
        self._runner: web.AppRunner | None = None
        for user in (self.bot_user, self.owner):
            self.users[user.id] = user

    # ---- lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        rest = RestApi(self)
        app = web.Application(middlewares=[rest.middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        rest.install(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}"

    async def stop(self) -> None:
        self.faults.release()
        for session in self.sessions:
            await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        """REST base to give discord.py, e.g. http://127.0.0.1:PORT/api/v10."""
        return self.base_url + API

    @property
    def gateway_url(self) -> str:
        """Websocket URL, also returned by GET /gateway/bot and as READY's resume_gateway_url."""
        return self.base_url.replace("http://", "ws://") + "/gateway"

    async def wait_until_connected(self, sessions: int = 1, timeout: float = 10.0) -> list[GatewaySession]:
        """Wait until `sessions` identified gateway sessions are open (one per shard)."""

        def enough() -> list[GatewaySession] | None:
            live = self.bot_sessions()
            return live if len(live) >= sessions else None

        return await self.wait_for(enough, timeout, f"{sessions} identified gateway session(s)")

    async def disconnect_bots(self, code: int = 4000) -> None:
        """Close every bot websocket with `code` (4000 = discord.py reconnects and RESUMEs)."""
        for session in self.bot_sessions():
            await session.ws.close(code=code)

    # ---- gateway ----------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        self.gateway_queries.append(dict(request.query))
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(ws, request.query.get("compress"), self.heartbeat_interval_ms)
        self.sessions.append(session)
        try:
            await session.run(self._on_identify, self._on_resume, self._on_request_members)
        finally:
            await self.notify()
        return ws

    async def _on_identify(self, session: GatewaySession) -> None:
        assert session.identify is not None
        if session.identify.get("token") != self.token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        if not self.message_content_allowed and session.intents & INTENT_MESSAGE_CONTENT:
            await session.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        self._identities[session.session_id] = session.identify
        shard_id, count = session.shard
        covered = [g for g in self.guilds.values() if session.covers_guild(g.id)]
        me = {**payloads.user(self.bot_user), "verified": True, "mfa_enabled": False}
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": me,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in covered],
                "session_id": session.session_id,
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": (1 << 19) | (1 << 15)},
                "shard": [shard_id, count],
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
                "_trace": ["fake"],
            },
        )
        for guild in covered:
            await session.dispatch("GUILD_CREATE", self._guild_create(session, guild))
        await self.notify()

    def _guild_create(self, session: GatewaySession, guild: FakeGuild) -> dict[str, Any]:
        members = (
            list(guild.members.values())
            if session.has_intent(INTENT_GUILD_MEMBERS)
            else [guild.members[self.bot_user.id]]
        )
        return payloads.guild(guild, members=members)

    async def _on_resume(self, session: GatewaySession, data: dict[str, Any]) -> bool:
        identify = self._identities.get(data.get("session_id", ""))
        if identify is None or data.get("token") != self.token:
            return False
        session.identify, session.session_id = identify, data["session_id"]
        session.seq = int(data.get("seq") or 0)
        await session.dispatch("RESUMED", {})
        await self.notify()
        return True

    async def _on_request_members(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        members = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.id in wanted]
        elif data.get("query"):
            members = [m for m in members if m.user.username.lower().startswith(str(data["query"]).lower())]
        members = members[: int(data.get("limit") or 0) or None]
        chunk = {
            "guild_id": str(guild.id),
            "members": [payloads.member(m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def _broadcast(self, event: str, data: dict[str, Any], guild_id: int | None, intent: int = 0) -> None:
        for session in self.bot_sessions():
            if session.covers_guild(guild_id) and (not intent or session.has_intent(intent)):
                await session.dispatch(event, data)

    # ---- building the world ------------------------------------------------------------------
    def create_user(self, username: str, *, bot: bool = False, global_name: str | None = None) -> FakeUser:
        """A user known to the fake (not yet in any guild)."""
        user = FakeUser(id=snowflake(), username=username, global_name=global_name, bot=bot)
        self.users[user.id] = user
        return user

    async def add_guild(self, name: str = "Tavli Club", *, owner: FakeUser | None = None) -> FakeGuild:
        """A guild with an @everyone role, the bot as a member (role 'Bot'), no channels yet."""
        guild = FakeGuild(id=snowflake(), name=name, owner_id=(owner or self.owner).id)
        guild.roles[guild.id] = FakeRole(id=guild.id, name="@everyone")
        bot_role = FakeRole(id=snowflake(), name="Bot", permissions=DEFAULT_PERMISSIONS, position=1)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, guild.id, roles=[bot_role.id])
        if owner is not None:
            guild.members[owner.id] = FakeMember(owner, guild.id)
        self.guilds[guild.id] = guild
        for session in self.bot_sessions():
            if session.covers_guild(guild.id):
                await session.dispatch("GUILD_CREATE", self._guild_create(session, guild))
        await self.notify()
        return guild

    async def add_role(self, guild: FakeGuild, name: str, permissions: int = DEFAULT_PERMISSIONS) -> FakeRole:
        role = FakeRole(id=snowflake(), name=name, permissions=permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        await self._broadcast("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": payloads.role(role)}, guild.id)
        return role

    async def add_channel(self, guild: FakeGuild, name: str = "general", *, type: int = 0) -> FakeChannel:
        """A text channel (type 0) in the guild, announced with CHANNEL_CREATE to connected bots."""
        channel = FakeChannel(id=snowflake(), name=name, type=type, guild_id=guild.id)
        await self.register_channel(channel)
        return channel

    async def register_channel(self, channel: FakeChannel) -> None:
        self.channels[channel.id] = channel
        if channel.guild_id is not None:
            self.guilds[channel.guild_id].channels[channel.id] = channel
            event = "THREAD_CREATE" if channel.is_thread else "CHANNEL_CREATE"
            data = payloads.channel(channel)
            if channel.is_thread:
                data["newly_created"] = True
            await self._broadcast(event, data, channel.guild_id)
        await self.notify()

    async def add_member(
        self,
        guild: FakeGuild,
        user: FakeUser | str,
        *,
        nick: str | None = None,
        roles: list[FakeRole] | None = None,
        admin: bool = False,
    ) -> FakeMember:
        """Make a user (or a new user of that name) a member; admin=True adds an Administrator role."""
        if isinstance(user, str):
            user = self.create_user(user)
        role_ids = [r.id for r in roles or []]
        if admin:
            role_ids.append((await self.add_role(guild, "Admin", ADMINISTRATOR)).id)
        member = FakeMember(user, guild.id, roles=role_ids, nick=nick)
        guild.members[user.id] = member
        await self._broadcast(
            "GUILD_MEMBER_ADD", {**payloads.member(member), "guild_id": str(guild.id)}, guild.id, INTENT_GUILD_MEMBERS
        )
        await self.notify()
        return member

    async def remove_member(self, guild: FakeGuild, user: FakeUser) -> None:
        """The user leaves the guild (GUILD_MEMBER_REMOVE, to sessions with the Server Members intent)."""
        guild.members.pop(user.id, None)
        await self._broadcast(
            "GUILD_MEMBER_REMOVE", {"guild_id": str(guild.id), "user": payloads.user(user)}, guild.id,
            INTENT_GUILD_MEMBERS,
        )
        await self.notify()

    # ---- acting as users ---------------------------------------------------------------------
    async def _interact(
        self,
        kind: int,
        actor: Actor,
        channel: FakeChannel,
        data: dict[str, Any],
        message: StoredMessage | None = None,
        locale: str = "en-US",
    ) -> InteractionHandle:
        payload = base_payload(self, kind, actor, channel, data, locale)
        if message is not None:
            payload["message"] = self.message_payload(message)
        sessions = [s for s in self.bot_sessions() if s.covers_guild(channel.guild_id)]
        if not sessions:
            raise AssertionError("fake Discord: no bot is connected to receive the interaction")
        record = InteractionRecord(
            id=int(payload["id"]),
            token=payload["token"],
            type=kind,
            payload=payload,
            user=actor_user(actor),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            source_message_id=message.id if message else None,
            source_edits=message.edits if message else 0,
        )
        self.interactions[record.id] = record
        await sessions[0].dispatch("INTERACTION_CREATE", payload)
        await self.notify()
        return InteractionHandle(self, record)

    async def slash_command(
        self,
        actor: Actor,
        channel: FakeChannel,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        group: str | None = None,
        locale: str = "en-US",
    ) -> InteractionHandle:
        """Run `/name [group] [subcommand] opt:value...` as `actor`. name may also be "fevga challenge".
        Option values: str/int/float/bool, or FakeMember/FakeUser/FakeChannel/FakeRole (resolved like
        Discord does). Types come from the synced command when the bot has synced it."""
        path = name.split() + [p for p in (group, subcommand) if p]
        data = command_data(self, channel, path, options or {})
        return await self._interact(2, actor, channel, data, locale=locale)

    async def autocomplete(
        self,
        actor: Actor,
        channel: FakeChannel,
        name: str,
        options: dict[str, Any],
        focused: str,
        *,
        subcommand: str | None = None,
        group: str | None = None,
    ) -> InteractionHandle:
        """An APPLICATION_COMMAND_AUTOCOMPLETE while `actor` types option `focused` (value as typed)."""
        path = name.split() + [p for p in (group, subcommand) if p]
        data = command_data(self, channel, path, options, focused=focused)
        return await self._interact(4, actor, channel, data)

    def _check_component(self, message: StoredMessage, custom_id: str, strict: bool) -> dict[str, Any]:
        if not strict:
            return {}
        component = message.component(custom_id)
        if component.get("disabled"):
            raise AssertionError(f"component {custom_id!r} is disabled; Discord would not let a user use it")
        return component

    async def press_button(
        self, actor: Actor, message: StoredMessage, custom_id: str, *, strict: bool = True, locale: str = "en-US"
    ) -> InteractionHandle:
        """Click a button of a stored message (strict: it must exist there and be enabled), as a user whose
        Discord client speaks ``locale``."""
        self._check_component(message, custom_id, strict)
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(3, actor, self.channels[message.channel_id], data, message, locale=locale)

    async def select(
        self, actor: Actor, message: StoredMessage, custom_id: str, values: list[str], *, strict: bool = True
    ) -> InteractionHandle:
        """Choose `values` in a string select menu (component_type 3) of a stored message."""
        component = self._check_component(message, custom_id, strict)
        data = {"custom_id": custom_id, "component_type": int(component.get("type", 3)), "values": list(values)}
        return await self._interact(3, actor, self.channels[message.channel_id], data, message)

    async def submit_modal(
        self,
        actor: Actor,
        channel: FakeChannel,
        custom_id: str,
        values: dict[str, str],
        message: StoredMessage | None = None,
    ) -> InteractionHandle:
        """Submit a modal: `values` maps each text input's custom_id to what the user typed."""
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in values.items()]
        data = {"custom_id": custom_id, "components": rows}
        return await self._interact(5, actor, channel, data, message)

    async def send_message(self, actor: Actor, channel: FakeChannel, content: str) -> StoredMessage:
        """A user posts `content` (MESSAGE_CREATE; bots get the content only with the message_content
        intent, in DMs, or when mentioned, as on Discord)."""
        msg = self.create_message(channel.id, actor_user(actor), {"content": content}, [])
        await self.announce("MESSAGE_CREATE", msg)
        await self.notify()
        return msg
