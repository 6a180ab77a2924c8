"""The fake's REST API under /api/v10: the routes discord.py uses for a bot with slash commands,
components, messages with attachments, threads, interaction callbacks and webhook follow-ups."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import payloads
from .edits import delete_message, edit_message
from .models import FakeChannel, RestCall, snowflake
from .responses import error, invalid, jresp, parse_body
from .validation import message_problems
from .webhooks import InteractionRoutes

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger("fake_discord.rest")
API = "/api/v10"
MESSAGE_CALL = re.compile(r"/channels/(\d+)/messages(?:/\d+)?$")  # send, edit, delete: the channel's budget
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class RestApi(InteractionRoutes):
    """Route table and handlers; all state lives in the FakeDiscord."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self._calls: dict[int, RestCall] = {}  # id(request) -> its decoded call, while it is handled

    def install(self, app: web.Application) -> None:
        r = app.router
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{user_id}", self.get_user),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/applications/{app_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/commands", self.put_commands),
            ("POST", "/applications/{app_id}/commands", self.post_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self.post_command),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            ("GET", "/channels/{channel_id}/messages", self.get_history),
            ("POST", "/channels/{channel_id}/messages", self.post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.react),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.react),
            ("POST", "/channels/{channel_id}/threads", self.create_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.create_thread),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.callback),
            ("POST", "/webhooks/{app_id}/{token}", self.followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.get_webhook_message),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self.patch_webhook_message),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self.delete_webhook_message),
        ]
        for method, path, handler in routes:
            r.add_route(method, API + path, handler)
        r.add_get("/attachments/{attachment_id}/{filename}", self.get_attachment)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Decode and log every API call; refuse bad tokens; answer unknown routes with a 404 JSON."""
        if not request.path.startswith("/api/"):
            return await handler(request)
        body, files = await parse_body(request)
        call = RestCall(request.method, request.path, dict(request.query), body, files)
        self._calls[id(request)] = call
        self.fake.rest_log.append(call)
        public = (API + "/webhooks/", API + "/interactions/")
        needs_auth = not request.path.startswith(public) and request.path != API + "/gateway"
        if needs_auth and request.headers.get("Authorization") != f"Bot {self.fake.token}":
            resp: web.StreamResponse = error(401, 0, "401: Unauthorized")
        elif request.match_info.http_exception is not None:
            log.warning("fake Discord: unknown route %s %s", request.method, request.path)
            self.fake.unknown_routes.append(call)
            resp = error(404, 0, f"404: Not Found (fake has no route {request.method} {request.path})")
        elif (injected := await self.fake.faults.answer(request.method, request.path)) is not None:
            resp = injected
            del self._calls[id(request)]
        elif (limited := self.over_budget(request)) is not None:
            resp = limited
            del self._calls[id(request)]
        else:
            try:
                resp = await handler(request)
            finally:
                del self._calls[id(request)]
        call.status = resp.status
        await self.fake.notify()
        return resp

    def over_budget(self, request: web.Request) -> web.Response | None:
        """429 for a message call (send, edit, delete) in a channel past its budget, else None."""
        found = MESSAGE_CALL.search(request.path)
        if self.fake.budget is None or request.method == "GET" or found is None:
            return None
        after = self.fake.budget.take(found.group(1))
        if after is None:
            return None
        body = {"message": "You are being rate limited.", "retry_after": after, "global": False}
        return web.Response(status=429, body=json.dumps(body).encode(), headers={
            "Content-Type": "application/json", "Retry-After": str(after), "X-RateLimit-Scope": "shared",
            "Via": "1.1 google",  # as Discord answers (discord.py takes a 429 without it for a Cloudflare ban)
            "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": str(after)})

    # ---- identity -----------------------------------------------------------------------------
    async def get_me(self, request: web.Request) -> web.Response:
        return jresp(payloads.user(self.fake.bot_user))

    async def get_user(self, request: web.Request) -> web.Response:
        u = self.fake.users.get(int(request.match_info["user_id"]))
        return jresp(payloads.user(u)) if u else error(404, 10013, "Unknown User")

    async def get_application(self, request: web.Request) -> web.Response:
        f = self.fake
        return jresp(payloads.application(f.application_id, f.bot_user, f.owner))

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return jresp({"url": self.fake.gateway_url, "shards": self.fake.shard_count, "session_start_limit": limit})

    async def get_gateway(self, request: web.Request) -> web.Response:
        return jresp({"url": self.fake.gateway_url})

    # ---- application commands ----------------------------------------------------------------
    def _scope(self, request: web.Request) -> int | None:
        gid = request.match_info.get("guild_id")
        return int(gid) if gid else None

    def _register(self, scope: int | None, cmd: dict[str, Any], old: list[dict[str, Any]]) -> dict[str, Any]:
        same = [c for c in old if c["name"] == cmd["name"] and c.get("type", 1) == cmd.get("type", 1)]
        stored = {"type": 1, "description": "", "options": [], "default_member_permissions": None, "nsfw": False, **cmd}
        stored.update(
            id=same[0]["id"] if same else str(snowflake()),
            application_id=str(self.fake.application_id),
            version=str(snowflake()),
        )
        if scope is not None:
            stored["guild_id"] = str(scope)
        return stored

    async def get_commands(self, request: web.Request) -> web.Response:
        return jresp(self.fake.synced_commands.get(self._scope(request), []))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        old = self.fake.synced_commands.get(scope, [])
        new = [self._register(scope, c, old) for c in self._call(request).json or []]
        self.fake.synced_commands[scope] = new
        return jresp(new)

    async def post_command(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        old = self.fake.synced_commands.get(scope, [])
        cmd = self._register(scope, self._call(request).json, old)
        self.fake.synced_commands[scope] = [c for c in old if c["name"] != cmd["name"]] + [cmd]
        return jresp(cmd, 201)

    # ---- guilds and channels -----------------------------------------------------------------
    async def get_guild(self, request: web.Request) -> web.Response:
        g = self.fake.guilds.get(int(request.match_info["guild_id"]))
        return jresp(payloads.guild(g, members=[])) if g else error(404, 10004, "Unknown Guild")

    async def get_member(self, request: web.Request) -> web.Response:
        g = self.fake.guilds.get(int(request.match_info["guild_id"]))
        m = g.members.get(int(request.match_info["user_id"])) if g else None
        return jresp(payloads.member(m)) if m else error(404, 10007, "Unknown Member")

    def _channel(self, request: web.Request) -> FakeChannel | None:
        return self.fake.channels.get(int(request.match_info["channel_id"]))

    async def get_channel(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        return jresp(payloads.channel(ch)) if ch else error(404, 10003, "Unknown Channel")

    async def create_dm(self, request: web.Request) -> web.Response:
        user = self.fake.users.get(int(self._call(request).json["recipient_id"]))
        if user is None:
            return error(404, 10013, "Unknown User")
        return jresp(payloads.channel(self.fake.dm_channel(user)))

    async def typing(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        if parent is None or parent.guild_id is None:
            return error(404, 10003, "Unknown Channel")
        body = self._call(request).json or {}
        from_message = "message_id" in request.match_info
        thread = FakeChannel(
            id=int(request.match_info["message_id"]) if from_message else snowflake(),
            name=body.get("name", "thread"),
            type=11 if from_message else int(body.get("type", 11)),
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.fake.bot_user.id,
        )
        await self.fake.register_channel(thread)
        return jresp(payloads.channel(thread), 201)

    # ---- messages ----------------------------------------------------------------------------
    def _message(self, request: web.Request) -> Any:
        msg = self.fake.stored_messages.get(int(request.match_info["message_id"]))
        if msg is None or msg.deleted or msg.channel_id != int(request.match_info["channel_id"]):
            return None
        return msg

    async def get_history(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if ch is None:
            return error(404, 10003, "Unknown Channel")
        limit = int(request.query.get("limit", 50))
        msgs = list(reversed(self.fake.messages(ch)))[:limit]
        return jresp([self.fake.message_payload(m) for m in msgs])

    async def post_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if ch is None:
            return error(404, 10003, "Unknown Channel")
        call = self._call(request)
        body = call.json or {}
        if bad := invalid(message_problems(body, call.files, creating=True)):
            return bad
        msg = self.fake.create_message(ch.id, self.fake.bot_user, body, call.files)
        await self.fake.announce("MESSAGE_CREATE", msg)
        return jresp(self.fake.message_payload(msg))

    async def get_message(self, request: web.Request) -> web.Response:
        msg = self._message(request)
        return jresp(self.fake.message_payload(msg)) if msg else error(404, 10008, "Unknown Message")

    async def patch_message(self, request: web.Request) -> web.Response:
        msg = self._message(request)
        if msg is None:
            return error(404, 10008, "Unknown Message")
        if msg.author.id != self.fake.bot_user.id:
            return error(403, 50005, "Cannot edit a message authored by another user")
        return await edit_message(self.fake, msg, self._call(request))

    async def delete_message(self, request: web.Request) -> web.Response:
        msg = self._message(request)
        if msg is None:
            return error(404, 10008, "Unknown Message")
        return await delete_message(self.fake, msg)

    async def react(self, request: web.Request) -> web.Response:
        msg = self._message(request)
        if msg is None:
            return error(404, 10008, "Unknown Message")
        emoji = request.match_info["emoji"]
        if request.method == "PUT" and emoji not in msg.reactions:
            msg.reactions.append(emoji)
        elif request.method == "DELETE" and emoji in msg.reactions:
            msg.reactions.remove(emoji)
        return web.Response(status=204)

    async def get_attachment(self, request: web.Request) -> web.Response:
        att = self.fake.attachments.get(int(request.match_info["attachment_id"]))
        if att is None:
            return web.Response(status=404)
        return web.Response(body=att.data, headers={"Content-Type": att.content_type or "application/octet-stream"})
