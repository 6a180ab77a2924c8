"""What the fake Discord knows and records, with the accessors and waiting helpers tests use."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..budget import Budget
from . import payloads
from .faults import Faults
from .gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, INTENT_MESSAGE_CONTENT, GatewaySession
from .models import (
    EPHEMERAL,
    LOADING,
    FakeChannel,
    FakeGuild,
    FakeUser,
    InteractionResponse,
    RestCall,
    StoredAttachment,
    StoredMessage,
    snowflake,
)

T = TypeVar("T")
_MENTION = re.compile(r"<@!?(\d+)>")
KEEP_FLAGS = EPHEMERAL  # flags a message keeps across edits
POLL_SECONDS = 0.02


@dataclass
class InteractionRecord:
    """An interaction the fake dispatched, and everything the bot answered to it."""

    id: int
    token: str
    type: int
    payload: dict[str, Any]
    user: FakeUser
    channel_id: int
    guild_id: int | None
    source_message_id: int | None = None
    source_edits: int = 0  # edits of the source message when the interaction was dispatched
    responses: list[InteractionResponse] = field(default_factory=list)
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    created: float = field(default_factory=time.monotonic)


class FakeState:
    """Guilds, channels, messages, synced commands, interactions and the REST log of one fake Discord."""

    def __init__(self, bot_user: FakeUser) -> None:
        self.bot_user = bot_user
        self.base_url = ""  # http://127.0.0.1:PORT, set on start
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.stored_messages: dict[int, StoredMessage] = {}
        self.attachments: dict[int, StoredAttachment] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.rest_log: list[RestCall] = []
        self.unknown_routes: list[RestCall] = []
        self.synced_commands: dict[int | None, list[dict[str, Any]]] = {}
        self.sessions: list[GatewaySession] = []
        self.faults = Faults()  # injected errors (429 with retry_after, 5xx), see faults.py
        self.budget: Budget | None = None  # each channel's message budget (enforce_budget), off by default
        self._cond = asyncio.Condition()

    # ---- waiting -------------------------------------------------------------------------
    async def notify(self) -> None:
        """Wake every wait_for (called after each change)."""
        async with self._cond:
            self._cond.notify_all()

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "") -> T:
        """Wait until predicate() is truthy and return its value. It is re-checked after every change
        in the fake and every 20 ms, so it may also look at the bot's side (e.g. its guild cache).

        Raises AssertionError naming `what` on timeout, so a test fails with a readable message.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        async with self._cond:
            while not (result := predicate()):
                left = deadline - loop.time()
                if left <= 0:
                    msg = f"fake Discord: timed out after {timeout}s waiting for {what or predicate}"
                    raise AssertionError(msg)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._cond.wait(), min(left, POLL_SECONDS))
        return result

    async def wait_for_message(
        self,
        channel: FakeChannel | int,
        predicate: Callable[[StoredMessage], bool] | None = None,
        *,
        after: int = 0,
        timeout: float = 5.0,
        include_ephemeral: bool = False,
    ) -> StoredMessage:
        """The first message in `channel` with id > `after` matching predicate (waits for it)."""

        def find() -> StoredMessage | None:
            for msg in self.messages(channel, include_ephemeral=include_ephemeral):
                if msg.id > after and (predicate is None or predicate(msg)):
                    return msg
            return None

        return await self.wait_for(find, timeout, f"a message in channel {_id(channel)}")

    # ---- accessors -----------------------------------------------------------------------
    def messages(self, channel: FakeChannel | int, *, include_ephemeral: bool = False) -> list[StoredMessage]:
        """Live (not deleted) messages of a channel in creation order; ephemeral ones only on request."""
        cid = _id(channel)
        return [
            m
            for m in self.stored_messages.values()
            if m.channel_id == cid and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]

    def message(self, message_id: int) -> StoredMessage:
        return self.stored_messages[message_id]

    def last_message(self, channel: FakeChannel | int, *, include_ephemeral: bool = False) -> StoredMessage:
        msgs = self.messages(channel, include_ephemeral=include_ephemeral)
        if not msgs:
            raise AssertionError(f"no messages in channel {_id(channel)}")
        return msgs[-1]

    def calls(self, method: str | None = None, path_contains: str = "") -> list[RestCall]:
        """REST calls the bot made, optionally filtered by method and a path substring."""
        return [c for c in self.rest_log if (method is None or c.method == method.upper()) and path_contains in c.path]

    def enforce_budget(self, limit: int = 5, window: float = 5.0) -> Budget:
        """From now on a channel takes at most ``limit`` message calls (send, edit, delete) in any ``window``
        seconds; beyond, 429 with ``retry_after`` (seconds, fractional, as Discord answers)."""
        self.budget = Budget(limit, window)
        return self.budget

    def failed_calls(self) -> list[RestCall]:
        """REST calls the fake answered with an error (bad bodies, unknown routes, unknown messages...)."""
        return [c for c in self.rest_log if c.status >= 400]

    def commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]:
        """The command tree the bot last synced (global, or for one guild)."""
        return self.synced_commands.get(None if guild is None else _id(guild), [])

    def bot_sessions(self) -> list[GatewaySession]:
        """Gateway sessions that are identified and still open."""
        return [s for s in self.sessions if s.identified.is_set() and not s.closed]

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and `user` (created on first use, as Discord does)."""
        for ch in self.channels.values():
            if ch.type == 1 and ch.recipients == [user]:
                return ch
        ch = FakeChannel(id=snowflake(), name="", type=1, recipients=[user])
        self.channels[ch.id] = ch
        return ch

    # ---- messages --------------------------------------------------------------------------
    def guild_of(self, channel_id: int) -> FakeGuild | None:
        ch = self.channels.get(channel_id)
        return self.guilds.get(ch.guild_id) if ch is not None and ch.guild_id else None

    def message_payload(self, msg: StoredMessage) -> dict[str, Any]:
        return payloads.message(msg, base_url=self.base_url, guild=self.guild_of(msg.channel_id))

    def create_message(
        self, channel_id: int, author: FakeUser, body: dict[str, Any], files: list[StoredAttachment], **extra: Any
    ) -> StoredMessage:
        """Store a new message built from a create-message JSON body and uploaded files."""
        ch = self.channels[channel_id]
        msg = StoredMessage(
            id=snowflake(),
            channel_id=channel_id,
            author=author,
            guild_id=ch.guild_id,
            flags=int(body.get("flags") or 0),
            **extra,
        )
        ref = body.get("message_reference")
        if ref and ref.get("message_id"):
            msg.reference_id = int(ref["message_id"])
            msg.type = 19 if msg.type == 0 else msg.type
        self.apply_edit(msg, body, files, creating=True)
        self.stored_messages[msg.id] = msg
        return msg

    def apply_edit(
        self, msg: StoredMessage, body: dict[str, Any], files: list[StoredAttachment], *, creating: bool = False
    ) -> None:
        """Apply an edit body the way Discord does: only given fields change; `attachments` lists
        the existing attachments to keep plus the new uploads (by index); files not listed are appended."""
        if "content" in body:
            msg.content = body["content"] or ""
            msg.mentions = [self.users[int(u)] for u in _MENTION.findall(msg.content) if int(u) in self.users]
        if creating or "allowed_mentions" in body:
            msg.allowed_mentions = body.get("allowed_mentions")
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        elif "embed" in body:
            msg.embeds = [body["embed"]] if body["embed"] else []
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "flags" in body and not creating:
            msg.flags = (msg.flags & KEEP_FLAGS) | (int(body["flags"] or 0) & ~KEEP_FLAGS & ~LOADING)
        if not creating:
            msg.flags &= ~LOADING
            msg.edits += 1
        uploads = {i: f for i, f in enumerate(files)}
        if "attachments" in body and body["attachments"] is not None:
            existing = {a.id: a for a in msg.attachments}
            kept: list[StoredAttachment] = []
            used: set[int] = set()
            for entry in body["attachments"]:
                aid = int(entry["id"])
                if aid in existing:
                    kept.append(existing[aid])
                elif aid in uploads:
                    att = uploads[aid]
                    att.filename = entry.get("filename") or att.filename
                    att.description = entry.get("description", att.description)
                    kept.append(att)
                    used.add(aid)
            kept.extend(f for i, f in uploads.items() if i not in used)
            msg.attachments = kept
        else:
            msg.attachments = msg.attachments + list(uploads.values())
        for att in msg.attachments:
            self.attachments[att.id] = att

    async def announce(self, event: str, msg: StoredMessage) -> None:
        """Send MESSAGE_CREATE/UPDATE/DELETE to bot sessions allowed to see it (ephemeral: nobody)."""
        if msg.ephemeral:
            return
        guild_id = msg.guild_id
        intent = INTENT_GUILD_MESSAGES if guild_id else INTENT_DIRECT_MESSAGES
        for session in self.bot_sessions():
            if not session.covers_guild(guild_id) or not session.has_intent(intent):
                continue
            if event == "MESSAGE_DELETE":
                data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
                if guild_id:
                    data["guild_id"] = str(guild_id)
            else:
                data = self.message_payload(msg)
                bot_id = self.bot_user.id
                mentioned = any(u.id == bot_id for u in msg.mentions)
                if not (
                    session.has_intent(INTENT_MESSAGE_CONTENT) or msg.author.id == bot_id or mentioned or not guild_id
                ):
                    data.update(content="", embeds=[], attachments=[], components=[])
            await session.dispatch(event, data)


def _id(obj: Any) -> int:
    return obj if isinstance(obj, int) else int(obj.id)
