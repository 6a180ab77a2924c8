"""The Redis Cluster store (``redis+cluster://host:port,host:port,...``): same API as :class:`RedisStore`.

Commands go to the master of their key's slot over redis-py's asyncio ``RedisCluster`` node connections
(topology refreshed on MOVED, ASK followed, TRYAGAIN and "not sent" connection failures retried for up to
``failover_wait`` seconds, so a commit rides out a failover). A commit whose keys all share a slot is one
EVALSHA, as on a single node. A commit spanning slots is split (see :mod:`bot.storage.spill`): the part in
the slot of its first check commits atomically together with a *pending* record of the rest, which is
then applied, each slot once (a marker key per slot), and dropped; :meth:`sweep` finishes what a crash
left. After every commit the store waits for ``wait_replicas`` replicas (``WAIT``) up to ``wait_ms``;
when they do not confirm in time the commit still stands but :func:`bot.storage.durability.lagged` tells
the caller, and ``wait_timeouts`` counts it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any
from urllib.parse import urlsplit

from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import AskError, ClusterDownError, MovedError, NoScriptError, ResponseError, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError

from . import durability
from .base import Commit, CommitOutcomeUnknown, DamagedKey, Entry, Read, split_versioned
from .cluster_pubsub import ClusterPubSub
from .cluster_reads import read_once
from .redis_store import LOST, RedisStore, _entries, _text, group_answer, read_group_args
from .scripts import CLAIM_LUA, COMMIT_LUA, VIA_LUA, VIA_SHA
from .spill import PENDING_PATTERN, Spill, first_wrong_type, split_commit, validate_inputs

log = logging.getLogger(__name__)
SCHEME = "redis+cluster"
NOT_SENT = (RedisConnectionError, ConnectionRefusedError, ClusterDownError, TryAgainError)


def parse_cluster_url(url: str) -> tuple[list[tuple[str, int]], dict[str, Any]]:
    """``redis+cluster://[user:pass@]host:port,host:port/`` -> startup nodes and auth options."""
    parts = urlsplit(url)
    if parts.scheme != SCHEME:
        raise ValueError(f"a cluster URL starts with {SCHEME}://")
    auth, _, hosts = parts.netloc.rpartition("@")
    nodes: list[tuple[str, int]] = []
    for item in hosts.split(","):
        host, _, port = item.strip().rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"cluster node {item!r} is not host:port")
        nodes.append((host.strip("[]"), int(port)))
    options: dict[str, Any] = {}
    if auth:
        user, colon, password = auth.partition(":")
        options.update(username=user or None, password=password if colon else user)
        if not colon:
            options["username"] = None
    return nodes, options


class ClusterStore(RedisStore):
    """Store on a Redis Cluster: one slot per atomic commit, spills across slots, WAIT for replicas."""

    def __init__(self, client: RedisCluster, *, wait_replicas: int = 1, wait_ms: int = 500,
                 failover_wait: float = 10.0, sub_nodes: Sequence[tuple[str, int]] = (),
                 sub_options: dict[str, Any] | None = None) -> None:
        self.client = client  # type: ignore[assignment]
        self.cluster = client
        self.wait_replicas, self.wait_ms = wait_replicas, wait_ms
        self.failover_wait = failover_wait
        self.wait_timeouts = 0  # commits not confirmed by a replica within wait_ms
        self.commits = 0
        self.spills = 0  # commits that spanned slots
        self.pubsub = ClusterPubSub(list(sub_nodes) or [(n.host, int(n.port)) for n in client.get_nodes()],
                                    sub_options or {})
        self._socket_timeout = 5.0
        self._shas: dict[str, str] = {}
        self._read_retries = 3
        self._via_ok = True
        self.via_fallbacks = 0  # index lookups that needed two round trips (first use per node, failover)

    @classmethod
    def from_cluster_url(cls, url: str, *, wait_replicas: int = 1, wait_ms: int = 500, max_connections: int = 64,
                         socket_timeout: float = 5.0, socket_connect_timeout: float = 2.0,
                         failover_wait: float = 10.0) -> ClusterStore:
        """A store on the cluster whose startup nodes ``url`` lists (any reachable node is enough)."""
        nodes, auth = parse_cluster_url(url)
        client = RedisCluster(startup_nodes=[ClusterNode(h, p) for h, p in nodes], decode_responses=False,
                              socket_timeout=socket_timeout, socket_connect_timeout=socket_connect_timeout,
                              max_connections=max_connections, **auth)
        return cls(client, wait_replicas=wait_replicas, wait_ms=wait_ms, failover_wait=failover_wait,
                   sub_nodes=nodes, sub_options=dict(auth, socket_connect_timeout=socket_connect_timeout))

    # --- routing -------------------------------------------------------------------------------------
    async def _node_call(self, key: str, *args: Any, timeout: float | None = None, unknown: bool = False,
                         wait: bool = False) -> Any:
        """Run one command on the master of ``key``'s slot, on one connection (then ``WAIT`` on that same
        connection when ``wait``). Redirections and failures before sending are retried (new topology)
        for up to ``failover_wait`` s; an answer lost after sending raises CommitOutcomeUnknown (``unknown``)."""
        deadline = time.monotonic() + self.failover_wait
        asking: ClusterNode | None = None
        delay = 0.05
        while True:
            await self.cluster.initialize()  # no-op once initialised; rebuilds after a reset below
            node = asking or self.cluster.get_node_from_key(key)
            if node is None:  # the slot's master is being replaced: ask again shortly
                if time.monotonic() + delay > deadline:
                    raise ClusterDownError(f"no node serves the slot of {key!r}")
                await self._reset_topology()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)
                continue
            conn = node.acquire_connection()
            sent = False
            try:
                if asking is not None:
                    await conn.send_command("ASKING")
                    await conn.read_response()
                await conn.send_command(*args)
                sent = True
                answer = await conn.read_response(timeout=timeout)
                if wait and self.wait_replicas > 0:
                    await conn.send_command("WAIT", self.wait_replicas, self.wait_ms)
                    acked = int(await conn.read_response(timeout=self.wait_ms / 1000 + self._socket_timeout))
                    if acked < self.wait_replicas:
                        self.wait_timeouts += 1
                        durability.mark_lagged()
                        log.warning("commit not confirmed by %d replica(s) within %d ms (%d so far)",
                                    self.wait_replicas, self.wait_ms, self.wait_timeouts)
                return answer
            except MovedError:
                await self._reset_topology()
                asking = None
            except AskError as exc:
                asking = self.cluster.nodes_manager.get_node(host=exc.host, port=exc.port)
            except ResponseError:
                raise
            except (*LOST, *NOT_SENT) as exc:
                await conn.disconnect()
                if sent and unknown and not isinstance(exc, TryAgainError | ClusterDownError):
                    raise CommitOutcomeUnknown(f"{args[0]} sent but its answer was lost: {exc}") from exc
                if sent and not unknown and not isinstance(exc, TryAgainError | ClusterDownError):
                    raise
                if time.monotonic() + delay > deadline:
                    raise
                await self._reset_topology()
                asking = None
            except BaseException:
                await conn.disconnect()
                raise
            finally:
                node.release(conn)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.5)

    async def _reset_topology(self) -> None:
        """Forget the slot map: the next command asks the cluster again (after a failover or resharding)."""
        try:
            await self.cluster.nodes_manager.initialize()
        except Exception as exc:  # a dead startup node: the next attempt tries again
            log.debug("cluster topology refresh failed: %s", exc)

    async def _script(self, script: str, key: str, keys: Sequence[str], args: Sequence[Any], *,
                      unknown: bool = False, wait: bool = False) -> Any:
        """EVALSHA (loading the script on that node when it is missing there)."""
        sha = self._shas.get(script)
        if sha is None:
            sha = _text(await self._node_call(key, "SCRIPT", "LOAD", script))
            self._shas[script] = sha
        try:
            return await self._node_call(key, "EVALSHA", sha, len(keys), *keys, *args, unknown=unknown, wait=wait)
        except NoScriptError:  # a new master (failover) or a node that never saw it: not run at all
            await self._node_call(key, "SCRIPT", "LOAD", script)
            return await self._node_call(key, "EVALSHA", sha, len(keys), *keys, *args, unknown=unknown, wait=wait)

    # --- reads --------------------------------------------------------------------------------------
    async def read(self, requests: Sequence[Read]) -> list[Any]:
        """Every read in one cluster pipeline (one round trip per master); an index lookup ("via") runs the
        lookup script in the index's slot (the games of a channel live in its home). Should that fail (a node
        without the script, a game in another slot), the lookups go first, then the rest."""
        vias = [i for i, r in enumerate(requests) if r[0] == "via"]
        if vias and self._via_ok:
            try:
                return await self._pipeline([("via_lua", *r[1:], VIA_SHA) if r[0] == "via" else r for r in requests])
            except ResponseError as exc:
                self.via_fallbacks += 1
                log.debug("index lookup script failed (%s); two round trips", exc)
                await self._load_via()
        resolved = list(requests)
        if vias:
            found = await self._pipeline([("hget", requests[i][1], requests[i][2]) for i in vias])
            for i, value in zip(vias, found, strict=True):
                resolved[i] = ("via_get", requests[i][3] + value + requests[i][4] if value else None, value)
        return await self._pipeline(resolved)

    async def _load_via(self) -> None:
        """Load the lookup script on every master (after a failover a new master may lack it); stop using
        it when even that fails."""
        try:
            for node in self.cluster.get_primaries():
                await node.execute_command("SCRIPT", "LOAD", VIA_LUA)
        except Exception as exc:
            log.warning("cannot load the index lookup script (%s); index lookups take two round trips", exc)
            self._via_ok = False

    async def _pipeline(self, requests: Sequence[Read]) -> list[Any]:
        """A non-transactional cluster pipeline, retried with a fresh slot map (reads are idempotent) for up to
        ``failover_wait`` seconds, so reads ride out a failover like commits do."""
        deadline = time.monotonic() + self.failover_wait
        delay = 0.05
        while True:
            try:
                return await read_once(self.cluster, requests)
            except (*LOST, *NOT_SENT, MovedError, AskError):
                if time.monotonic() + delay > deadline:
                    raise
                await self._reset_topology()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)

    # --- commit -------------------------------------------------------------------------------------
    async def commit(self, commit: Commit) -> bool:
        self.commits += 1
        plan = split_commit(commit, self.cluster.keyslot)
        if plan.spill is None:
            return await self._commit_one(plan.home)
        self.spills += 1
        await self._validate_spill(commit, plan.spill)
        if not await self._foreign_checks_hold(plan.spill):
            return False
        if not await self._commit_one(plan.home):
            return False
        await self.finish_spill(plan.spill)
        return True

    async def _commit_one(self, commit: Commit) -> bool:
        """One single-slot commit (EVALSHA of the commit script on the slot's master, then WAIT)."""
        pubs = [op for op in commit.ops if op[0] == "pub"]
        if len(pubs) < len(commit.ops) or commit.checks:
            commit = Commit(list(commit.checks), [op for op in commit.ops if op[0] != "pub"])
            keys, argv = self.encode_commit(commit)
            result = await self._script(COMMIT_LUA, keys[0], keys, argv, unknown=True, wait=True)
            if not self.decode_result(commit, result):
                return False
        await self.pubsub.publish(pubs)
        return True

    async def _validate_spill(self, commit: Commit, spill: Spill) -> None:
        """What the commit script validates before its first write, for the parts outside the home slot
        (inputs of every op, key types of the spilled keys), so a malformed or wrong-typed commit writes
        nothing here either: ValueError / DamagedKey before the home commit."""
        validate_inputs(commit)
        keys = sorted({c[1] for p in spill.parts for c in p.checks} | {o[1] for p in spill.parts for o in p.ops})
        found = dict(zip(keys, await self.read([("type", k) for k in keys]), strict=True))
        for part in spill.parts:
            bad = first_wrong_type(part.checks, part.ops, found)
            if bad is not None:
                raise DamagedKey(bad)

    async def _foreign_checks_hold(self, spill: Spill) -> bool:
        """Check the spilled parts' checks before the home commit (they are checked again, atomically, with
        their own part; only a write racing in between can still refuse a part, which is logged)."""
        checks = [c for part in spill.parts for c in part.checks]
        if not checks:
            return True
        found = await self.read([("get", c[1]) if c[0] == "v" else ("hget", c[1], c[2]) for c in checks])
        for check, value in zip(checks, found, strict=True):
            if check[0] == "h" and value is not None:
                return False
            if check[0] == "v":
                try:
                    version = split_versioned(value)[0] if value is not None else 0
                except ValueError:
                    version = -1
                if version != check[2]:
                    return False
        return True

    async def finish_spill(self, spill: Spill) -> None:
        """Apply each slot's part of a spilled commit once (its marker), then drop the pending record."""
        for part in spill.parts:
            marked = Commit(list(part.checks), list(part.ops)).expect(part.marker, 0)
            marked.put(part.marker, b"1", 7 * 86400)
            if not await self._commit_one(marked):
                marker = (await self.read([("get", part.marker)]))[0]
                if marker is None:
                    log.error("spilled writes to %s refused by their checks; dropped", part.marker)
        await self._commit_one(Commit().hdel(spill.pending_key, spill.field))

    async def sweep(self, older_than: float = 5.0) -> int:
        """Finish spilled commits whose writer died before applying them (pending for ``older_than`` s);
        the number finished. Run now and then by every instance (each part applies once)."""
        done = 0
        for key in await self.scan(PENDING_PATTERN):
            fields = (await self.read([("hgetall", key)]))[0]
            for name, blob in fields.items():
                spill = Spill.decode(key, name, blob)
                if spill is None or time.time() - spill.created < older_than:
                    continue
                await self.finish_spill(spill)
                done += 1
        return done

    async def scan(self, pattern: str) -> list[str]:
        """Keys matching ``pattern`` on every master (for sweeps; not for the hot path)."""
        found: set[str] = set()
        for node in self.cluster.get_primaries():
            cursor = b"0"
            while True:
                cursor, batch = await node.execute_command("SCAN", cursor, "MATCH", pattern, "COUNT", 500)
                found.update(_text(k) for k in batch)
                if _text(cursor) == "0":
                    break
        return sorted(found)

    # --- timers -------------------------------------------------------------------------------------
    async def due(self, key: str, now: float, limit: int) -> list[str]:
        try:
            members = await self._node_call(key, "ZRANGE", key, "-inf", repr(now), "BYSCORE", "LIMIT", 0, limit)
        except ResponseError as exc:
            if "WRONGTYPE" in str(exc):
                raise DamagedKey(key) from None
            raise
        return [_text(m) for m in members]

    async def claim(self, key: str, member: str, now: float, lease: float) -> bool:
        return int(await self._script(CLAIM_LUA, key, [key], [member, repr(now), repr(now + lease)])) == 1

    # --- pub/sub (classic pub/sub is cluster-wide: see cluster_pubsub.py) --------------------------
    async def subscribe(self, channel: str, pattern: bool = False) -> AsyncIterator[bytes]:
        return await self.pubsub.subscribe(channel, pattern)

    # --- outbox -------------------------------------------------------------------------------------
    async def ensure_group(self, stream: str, group: str) -> None:
        try:
            await self._node_call(stream, "XGROUP", "CREATE", stream, group, "0", "MKSTREAM")
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    async def consume(self, stream: str, group: str, consumer: str, count: int = 10,
                      block_ms: int = 0) -> list[Entry]:
        raw = await self._node_call(stream, *read_group_args(group, consumer, count, block_ms), "STREAMS", stream,
                                    ">", timeout=block_ms / 1000 + self._socket_timeout)
        return group_answer(raw)

    async def consume_many(self, streams: Sequence[str], group: str, consumer: str, count: int = 10,
                           block_ms: int = 0) -> list[tuple[str, Entry]]:
        """Every stream in one cluster pipeline (one round trip per master; a stream per slot, so no
        multi-stream command), polled until something comes or ``block_ms`` runs out."""
        deadline = time.monotonic() + block_ms / 1000
        pause = 0.01
        while True:
            pipe = self.cluster.pipeline()
            for stream in streams:
                pipe.execute_command(*read_group_args(group, consumer, count, 0), "STREAMS", stream, ">")
            try:
                raw = await pipe.execute(raise_on_error=True) if streams else []
            except (*LOST, *NOT_SENT):
                await self._reset_topology()
                raw = [None] * len(streams)
            out: list[tuple[str, Entry]] = []
            for stream, answer in zip(streams, raw, strict=True):
                out += [(stream, e) for e in group_answer(answer)]
            left = deadline - time.monotonic()
            if out or left <= 0:
                return out
            await asyncio.sleep(min(pause, left))
            pause = min(pause * 2, 0.1)

    async def ack(self, stream: str, group: str, *ids: str) -> int:
        if not ids:
            return 0
        return int(await self._node_call(stream, "XACK", stream, group, *ids))

    async def reclaim(self, stream: str, group: str, consumer: str, min_idle_ms: int,
                      count: int = 10) -> list[Entry]:
        out: list[Entry] = []
        cursor = "0-0"
        for _ in range(100):
            raw = await self._node_call(stream, "XAUTOCLAIM", stream, group, consumer, min_idle_ms, cursor,
                                        "COUNT", count - len(out))
            out += _entries(raw[1])
            cursor = _text(raw[0])
            if cursor == "0-0" or len(out) >= count:
                break
        return out

    def pool_stats(self) -> dict[str, int]:
        return {"in_use": 0, "idle": 0}

    def health(self) -> dict[str, int]:
        """Counters for /healthz: commits, spilled commits, and WAIT timeouts (saved, not yet replicated)."""
        return {"commits": self.commits, "spills": self.spills, "wait_timeouts": self.wait_timeouts}

    async def close(self) -> None:
        await self.cluster.aclose()
        await self.pubsub.close()


__all__ = ["ClusterStore", "parse_cluster_url"]
