"""The Redis Cluster's slot map and a bounded connection pool per node, on redis-py's standalone clients.

Why not redis-py's ``RedisCluster`` (8.1): when one command hits a connection error it disconnects the
node's idle connections (which other commands may pick up at that moment) and flags the client for a
re-initialisation that, if it fails mid-failover, closes *every* node's connections, including those of
commands in flight. With hundreds of concurrent commands a failover cascaded into tens of thousands of
failed attempts (tests/scale/test_failover.py). Here a failure only touches its own connection, each node
has its own bounded pool (as :class:`RedisStore` on one server), and one task at a time asks the cluster
for its slot map (``CLUSTER SHARDS``); callers arriving meanwhile share that answer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.connection import SSLConnection
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot
from redis.exceptions import ClusterDownError, ResponseError

from .connections import LeanPool, lean_connections
from .read_ops import text

log = logging.getLogger(__name__)
Address = tuple[str, int]
MIN_REFRESH_GAP = 0.1  # seconds: a refresh asked for within this of the last one reuses it


def parse_slots(answer: Any, asked: Address) -> tuple[list[Address | None], dict[Address, list[Address]]]:
    """A ``CLUSTER SLOTS`` answer -> (owner of each slot, each master's replicas). An empty host means the
    node that was asked; a replica without an address ("?" or empty port) is left out."""
    owners: list[Address | None] = [None] * REDIS_CLUSTER_HASH_SLOTS
    replicas: dict[Address, list[Address]] = {}
    for entry in answer or []:
        start, end, master, *others = entry
        host = text(master[0]) or asked[0]
        owner = (host, int(master[1]))
        for slot in range(int(start), int(end) + 1):
            owners[slot] = owner
        found = replicas.setdefault(owner, [])
        for node in others:
            if node[0] not in (b"", "", b"?", "?") and int(node[1] or 0) > 0 and (text(node[0]), int(node[1])) \
                    not in found:
                found.append((text(node[0]), int(node[1])))
    return owners, replicas


def _field(node: dict[Any, Any], name: str) -> Any:
    return node.get(name.encode(), node.get(name))


def _as_dict(value: Any) -> dict[Any, Any]:
    """A map as redis-py parsed it, or RESP2's flat [name, value, ...] list."""
    return value if isinstance(value, dict) else dict(zip(value[::2], value[1::2], strict=True))


def parse_shards(answer: Any, asked: Address, *, tls: bool = False) -> tuple[list[Address | None],
                                                                             dict[Address, list[Address]]]:
    """A ``CLUSTER SHARDS`` answer (Redis 7+) -> (owner of each slot, each master's replicas that are not
    failed). Unlike CLUSTER SLOTS it lists a replica that has not received any write yet. A node lists its
    ``port`` and/or its ``tls-port`` (a TLS-only node has no plain port): the client takes the one it speaks
    (``tls``), else the other one."""
    ports = ("tls-port", "port") if tls else ("port", "tls-port")

    def port_of(node: dict[Any, Any]) -> int:
        return next((int(p) for p in (_field(node, name) for name in ports) if p and int(p) > 0), 0)

    owners: list[Address | None] = [None] * REDIS_CLUSTER_HASH_SLOTS
    replicas: dict[Address, list[Address]] = {}
    for shard in answer or []:
        shard = _as_dict(shard)
        slots = [int(x) for x in _field(shard, "slots") or []]
        nodes = [_as_dict(n) for n in _field(shard, "nodes") or []]

        def address(node: dict[Any, Any]) -> Address:
            host = text(_field(node, "endpoint") or _field(node, "ip") or "")
            return (asked[0] if host in ("", "?") else host, port_of(node))

        masters = [n for n in nodes if text(_field(n, "role")) == "master"]
        if not slots or not masters:
            continue
        live = [n for n in masters if text(_field(n, "health")) == "online"] or masters
        owner = address(live[0])
        for start, end in zip(slots[::2], slots[1::2], strict=True):
            for slot in range(start, end + 1):
                owners[slot] = owner
        replicas[owner] = [address(n) for n in nodes if text(_field(n, "role")) == "replica"
                           and text(_field(n, "health")) != "failed" and port_of(n) > 0]
    return owners, replicas


class SlotMap:
    """Which master serves each slot, how many replicas it has, and a client (own pool) per node. ``options``
    are the connection options of every node (redis-py's pool keywords: with ``connection_class`` an
    SSLConnection and its ``ssl_*`` options, every node, including one first met in a MOVED answer or
    after a failover, is spoken to over TLS)."""

    def __init__(self, startup: Sequence[Address], options: dict[str, Any], *, max_connections: int = 64,
                 pool_timeout: float = 5.0) -> None:
        self.startup = list(startup)
        self.options = options
        self.tls = issubclass(options.get("connection_class", object), SSLConnection)
        self.max_connections, self.pool_timeout = max_connections, pool_timeout
        self._owners: list[Address | None] = [None] * REDIS_CLUSTER_HASH_SLOTS
        self._replicas: dict[Address, list[Address]] = {}
        self._clients: dict[Address, aioredis.Redis] = {}
        self._refreshing: asyncio.Future[None] | None = None
        self._refreshed_at = float("-inf")
        self._last_failed: set[Address] = set()
        self._shards = True  # CLUSTER SHARDS answered (Redis 7+); else CLUSTER SLOTS
        self.refreshes = 0  # slot maps loaded (for tests and health)

    @staticmethod
    def keyslot(key: str) -> int:
        """The hash slot of ``key`` (its ``{hash tag}`` when it has one)."""
        return key_slot(key.encode())

    def master_of(self, key: str) -> Address | None:
        """The master serving ``key``'s slot, as last known (None before the first refresh or while the
        slot has no master)."""
        return self._owners[self.keyslot(key)]

    def replicas_of(self, address: Address) -> int:
        """How many replicas the cluster last listed for the master at ``address``."""
        return len(self._replicas.get(address, ()))

    def masters(self) -> list[Address]:
        """Every master serving slots, as last known."""
        return sorted({a for a in self._owners if a is not None})

    def learn(self, slot: int, address: Address) -> None:
        """A ``MOVED`` answer: the slot is served by ``address`` now (the full map is refreshed soon)."""
        self._owners[slot] = address

    def client(self, address: Address) -> aioredis.Redis:
        """The client of the node at ``address``, with a bounded pool that waits up to ``pool_timeout``."""
        client = self._clients.get(address)
        if client is None:
            pool = lean_connections(LeanPool(host=address[0], port=address[1], max_connections=self.max_connections,
                                             timeout=self.pool_timeout, **self.options))
            client = self._clients[address] = aioredis.Redis.from_pool(pool)
        return client

    def clients(self) -> list[aioredis.Redis]:
        """Every node client opened so far."""
        return list(self._clients.values())

    async def refresh(self, *, force: bool = False) -> None:
        """Load the slot map. One load at a time: callers arriving meanwhile wait for it; without ``force``,
        a load finished less than MIN_REFRESH_GAP s ago is reused (a failover makes many callers ask at once)."""
        if self._refreshing is None:
            if not force and time.monotonic() - self._refreshed_at < MIN_REFRESH_GAP:
                return
            self._refreshing = asyncio.ensure_future(self._load())
            self._refreshing.add_done_callback(self._loaded)
        await asyncio.shield(self._refreshing)

    def _loaded(self, task: asyncio.Future[None]) -> None:
        self._refreshing = None
        self._refreshed_at = time.monotonic()
        if not task.cancelled() and task.exception() is not None:
            log.debug("cluster slot map refresh failed: %s", task.exception())

    async def _load(self) -> None:
        """Ask the known nodes in turn (those that failed last time last) until one answers with every slot
        covered; with no such answer, keep the best one. Raises when no node answers at all."""
        known = self.masters() + [r for rs in self._replicas.values() for r in rs] + self.startup
        order = list(dict.fromkeys(a for a in known if a not in self._last_failed))
        order += [a for a in dict.fromkeys(known) if a in self._last_failed]
        best: tuple[int, list[Address | None], dict[Address, list[Address]]] | None = None
        failed: set[Address] = set()
        error: Exception | None = None
        for address in order:
            try:
                owners, replicas = await self._ask(address)
            except Exception as exc:  # a dead or unreachable node: ask the next one
                failed.add(address)
                error = exc
                continue
            covered = sum(o is not None for o in owners)
            if best is None or covered > best[0]:
                best = (covered, owners, replicas)
            if covered == REDIS_CLUSTER_HASH_SLOTS:
                break
        self._last_failed = failed
        if best is None:
            raise ClusterDownError(f"no cluster node answered ({error})") from error
        _, self._owners, self._replicas = best
        self.refreshes += 1

    async def _ask(self, address: Address) -> tuple[list[Address | None], dict[Address, list[Address]]]:
        """One node's view: CLUSTER SHARDS, or CLUSTER SLOTS on a server older than Redis 7."""
        client = self.client(address)
        if self._shards:
            try:
                return parse_shards(await client.execute_command("CLUSTER", "SHARDS"), address, tls=self.tls)
            except ResponseError as exc:
                if "unknown" not in str(exc).lower():
                    raise
                self._shards = False
        return parse_slots(await client.execute_command("CLUSTER", "SLOTS"), address)

    async def aclose(self) -> None:
        """Close every node's pool."""
        clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            await client.aclose()


__all__ = ["Address", "SlotMap", "parse_shards", "parse_slots"]
