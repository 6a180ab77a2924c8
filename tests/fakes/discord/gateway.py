"""The fake gateway: one websocket session per bot connection (or shard), JSON payloads, zlib-stream."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import WSMsgType, web

log = logging.getLogger("fake_discord.gateway")

HELLO, IDENTIFY, RESUME, HEARTBEAT, HEARTBEAT_ACK, DISPATCH = 10, 2, 6, 1, 11, 0
REQUEST_MEMBERS, INVALID_SESSION = 8, 9

INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15


class GatewaySession:
    """One bot websocket: HELLO, then IDENTIFY/RESUME, heartbeats, and events dispatched in order.

    discord.py 2.7 connects with `?v=10&encoding=json&compress=zlib-stream` (or `zstd-stream` when
    zstandard is importable). zlib-stream is implemented for real (one shared compressobj per socket,
    each payload ending with Z_SYNC_FLUSH); for zstd-stream the session sends plain text frames,
    which discord.py also accepts because it only decompresses binary frames.
    """

    def __init__(self, ws: web.WebSocketResponse, compress: str | None, heartbeat_interval_ms: int) -> None:
        self.ws = ws
        self.compress = compress
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self.seq = 0
        self.session_id = secrets.token_hex(16)
        self.identify: dict[str, Any] | None = None
        self.identified = asyncio.Event()
        self.heartbeats = 0
        self.sent: list[dict[str, Any]] = []
        self.closed = False
        self._lock = asyncio.Lock()

    @property
    def intents(self) -> int:
        return int((self.identify or {}).get("intents", 0))

    @property
    def shard(self) -> tuple[int, int]:
        shard = (self.identify or {}).get("shard") or [0, 1]
        return int(shard[0]), int(shard[1])

    def has_intent(self, intent: int) -> bool:
        return bool(self.intents & intent)

    def covers_guild(self, guild_id: int | None) -> bool:
        """Whether this shard receives events for the guild (DMs go to shard 0)."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id

    async def send(self, payload: dict[str, Any]) -> None:
        """Send one gateway payload, compressed the way the client asked."""
        if self.closed or self.ws.closed:
            return
        async with self._lock:
            self.sent.append(payload)
            text = json.dumps(payload)
            try:
                if self._zlib is not None:
                    data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionResetError, RuntimeError) as exc:
                log.debug("send failed on closed socket: %s", exc)
                self.closed = True

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an op 0 DISPATCH event with the next sequence number."""
        self.seq += 1  # no await before send() queues on its FIFO lock, so order is kept
        await self.send({"op": DISPATCH, "t": event, "s": self.seq, "d": data})

    async def run(
        self,
        on_identify: Callable[[GatewaySession], Awaitable[None]],
        on_resume: Callable[[GatewaySession, dict[str, Any]], Awaitable[bool]],
        on_request_members: Callable[[GatewaySession, dict[str, Any]], Awaitable[None]],
    ) -> None:
        """Serve the socket until it closes."""
        await self.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for msg in self.ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type == WSMsgType.ERROR:
                        log.warning("gateway socket error: %s", self.ws.exception())
                    continue
                payload = json.loads(msg.data)
                op = payload.get("op")
                if op == HEARTBEAT:
                    self.heartbeats += 1
                    await self.send({"op": HEARTBEAT_ACK})
                elif op == IDENTIFY:
                    self.identify = payload["d"]
                    await on_identify(self)
                    self.identified.set()
                elif op == RESUME:
                    if await on_resume(self, payload["d"]):
                        self.identified.set()
                    else:
                        await self.send({"op": INVALID_SESSION, "d": False})
                elif op == REQUEST_MEMBERS:
                    await on_request_members(self, payload["d"])
                else:
                    log.debug("gateway ignores op %s", op)
        finally:
            self.closed = True
