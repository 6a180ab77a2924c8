"""Pub/sub for the Redis Cluster store. Classic PUBLISH/SUBSCRIBE is cluster-wide (a message published on
any node reaches subscribers on every node), but messages published on *different* nodes may arrive out
of order. So an instance publishes after its commits and subscribes through the same node (the first
reachable startup node), and moves to the next node when that one goes away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from .redis_store import LOST

log = logging.getLogger(__name__)


class ClusterPubSub:
    """Publishing and subscribing through one node of the cluster at a time (``nodes``: (host, port)), with
    clients made with ``options`` (``redis.asyncio.Redis`` keywords: auth, and ``ssl=True`` with the ``ssl_*``
    options for TLS, as the command pools')."""

    def __init__(self, nodes: list[tuple[str, int]], options: dict[str, Any]) -> None:
        self.nodes = nodes
        self.options = options
        self._client: aioredis.Redis | None = None
        self._turn = 0

    async def publish(self, pubs: list[tuple[Any, ...]]) -> None:
        """Publish after the commit, always through the same node as the subscriptions (the first reachable
        startup node), so subscribers see one instance's events in commit order (the cluster bus does not
        keep the order of messages published on different nodes). Fire and forget, as on one node."""
        if not self.nodes:
            return
        for attempt in range(len(self.nodes)):
            client = self._client
            if client is None:
                host, port = self.nodes[(self._turn + attempt) % len(self.nodes)]
                client = self._client = aioredis.Redis(host=host, port=port, decode_responses=False, **self.options)
            try:
                for op in pubs:
                    await client.publish(op[1], op[2])
                return
            except Exception as exc:  # a lost node, or a connection closed under a concurrent publish
                log.debug("publish failed (%s); trying the next node", exc)
                if self._client is client:  # the first to fail moves everyone on and closes the old client
                    self._client = None
                    self._turn += 1
                    await client.aclose()
        log.warning("publishing %d event(s) failed on every node; dropped", len(pubs))

    async def subscribe(self, channel: str, pattern: bool = False) -> AsyncIterator[bytes]:
        delay = 0.05
        for attempt in range(len(self.nodes) * 3):
            try:
                client, pubsub = await self._subscribe_on(attempt, channel, pattern)
            except LOST:
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
                continue
            return self._messages(pubsub, client, channel, pattern, attempt)
        raise RedisConnectionError("no cluster node accepts a subscription")

    async def _subscribe_on(self, turn: int, channel: str, pattern: bool) -> tuple[aioredis.Redis, Any]:
        """Subscribe through node ``turn`` (modulo the nodes); on failure close what was opened and raise."""
        host, port = self.nodes[turn % len(self.nodes)]
        client = aioredis.Redis(host=host, port=port, decode_responses=False, **self.options)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        try:
            await (pubsub.psubscribe(channel) if pattern else pubsub.subscribe(channel))
        except LOST:
            await pubsub.aclose()
            await client.aclose()
            raise
        return client, pubsub

    async def _resubscribe(self, turn: int, channel: str, pattern: bool) -> tuple[aioredis.Redis, Any, int]:
        """Subscribe on the next nodes in turn until one accepts (a node that failed is skipped)."""
        while True:
            await asyncio.sleep(0.1)
            turn += 1
            with contextlib.suppress(*LOST):
                client, pubsub = await self._subscribe_on(turn, channel, pattern)
                return client, pubsub, turn

    async def _messages(self, pubsub: Any, client: aioredis.Redis, channel: str, pattern: bool,
                        turn: int) -> AsyncIterator[bytes]:
        """Yield messages; when the node goes away, subscribe again on the next node."""
        try:
            while True:
                try:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                except LOST:
                    await pubsub.aclose()
                    await client.aclose()
                    client, pubsub, turn = await self._resubscribe(turn, channel, pattern)
                    continue
                if message is not None and message.get("type") in ("message", "pmessage"):
                    yield message["data"]
        finally:
            await pubsub.aclose()
            await client.aclose()

    async def close(self) -> None:
        """Close the publishing connection."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None
