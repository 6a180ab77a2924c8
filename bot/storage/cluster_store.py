"""The Redis Cluster store (``redis+cluster://host:port,host:port,...``, or ``rediss+cluster://...`` for TLS
to every node): same API as :class:`RedisStore`.

Commands go to the master of their key's slot, each node with its own pool (:mod:`bot.storage.cluster_nodes`
says why not redis-py's ``RedisCluster``): MOVED updates the slot map, ASK is followed, and CLUSTERDOWN,
TRYAGAIN and failures before sending are retried with a fresh slot map for up to ``failover_wait`` seconds,
so a commit rides out a failover. A commit whose keys all share a slot is one
EVALSHA, as on a single node. A commit spanning slots is split (see :mod:`bot.storage.spill`): the part in
the slot of its first check commits atomically together with a *pending* record of the rest, which is
then applied, each slot once (a marker key per slot), and dropped; :meth:`sweep` finishes what a crash
left. After every commit the store waits for ``wait_replicas`` replicas (``WAIT``) up to ``wait_ms``;
when they do not confirm in time the commit still stands but :func:`bot.storage.durability.lagged` tells
the caller, and ``wait_timeouts`` counts it. A master the cluster lists without replicas (its replica was
promoted after a failover and nothing replaced it) is not waited on; ``unreplicated`` counts those commits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

from redis.exceptions import AskError, ClusterDownError, MovedError, NoScriptError, ResponseError, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError

from . import durability
from .base import Commit, CommitOutcomeUnknown, DamagedKey, Entry, Read, Store, split_versioned
from .cluster_nodes import Address, SlotMap
from .cluster_pubsub import ClusterPubSub
from .cluster_reads import per_master, read_once
from .cluster_url import SCHEMES, TLS_OPTIONS, check_tls_files, client_options, parse_cluster_url, tls_hint
from .redis_store import LOST, RedisStore, _text, command_options, group_answer, read_group_args
from .scripts import CLAIM_LUA, COMMIT_LUA, VIA_LUA, VIA_SHA
from .spill import PENDING_PATTERN, Spill, first_wrong_type, split_commit, validate_inputs

log = logging.getLogger(__name__)
NOT_SENT = (RedisConnectionError, ConnectionRefusedError, ClusterDownError, TryAgainError)


class _Retryable(Exception):
    """Nothing reached the node (no connection, or the write failed), or the command is safe to repeat."""


class ClusterStore(RedisStore):
    """Store on a Redis Cluster: one slot per atomic commit, spills across slots, WAIT for replicas."""

    kind = "cluster"

    def __init__(self, nodes: SlotMap, *, wait_replicas: int = 1, wait_ms: int = 500, failover_wait: float = 10.0,
                 sub_options: dict[str, Any] | None = None, socket_timeout: float = 5.0) -> None:
        self.nodes = nodes
        self.wait_replicas, self.wait_ms = wait_replicas, wait_ms
        self.failover_wait = failover_wait
        self.wait_timeouts = 0  # commits not confirmed by a replica within wait_ms
        self.unreplicated = 0  # commits on a master the cluster lists no replica for (not waited for)
        self.commits = 0
        self.spills = 0  # commits that spanned slots
        self.pubsub = ClusterPubSub(list(nodes.startup), sub_options or {})
        self._socket_timeout = socket_timeout
        self._shas: dict[str, str] = {}
        self._via_ok = True
        self.via_fallbacks = 0  # index lookups that needed two round trips (first use per node, failover)
        self._warned_at = float("-inf")

    @classmethod
    def from_cluster_url(cls, url: str, *, wait_replicas: int = 1, wait_ms: int = 500, max_connections: int = 64,
                         socket_timeout: float = 5.0, socket_connect_timeout: float = 2.0,
                         failover_wait: float = 10.0, pool_timeout: float = 5.0) -> ClusterStore:
        """A store on the cluster whose startup nodes ``url`` lists (any reachable node is enough); each node
        gets a pool of up to ``max_connections``."""
        nodes, connect = parse_cluster_url(url)  # auth, and TLS for rediss+cluster://
        check_tls_files(connect)
        options = dict(connect, **command_options(socket_timeout, socket_connect_timeout))
        slot_map = SlotMap(nodes, options, max_connections=max_connections, pool_timeout=pool_timeout)
        return cls(slot_map, wait_replicas=wait_replicas, wait_ms=wait_ms, failover_wait=failover_wait,
                   sub_options=dict(client_options(connect), socket_connect_timeout=socket_connect_timeout),
                   socket_timeout=socket_timeout)

    async def connect(self) -> None:
        """Load the slot map once, asking each startup node once (at start-up: a cluster that no node of
        answers, a TLS mismatch, a certificate refused stop start-up at once, with a hint, rather than on
        the first command after ``failover_wait``). Raises redis's ConnectionError."""
        try:
            await self.nodes.refresh(force=True)
        except ClusterDownError as exc:
            raise RedisConnectionError(f"{exc}{tls_hint(exc, self.nodes.tls)}") from exc

    # --- routing -------------------------------------------------------------------------------------
    async def _node_call(self, key: str, *args: Any, timeout: float | None = None, unknown: bool = False,
                         wait: bool = False) -> Any:
        """Run one command on the master of ``key``'s slot, on one pooled connection (then ``WAIT`` on that
        same connection when ``wait``). Redirections, a cluster that is down or failing over, and failures
        before sending are retried (with a fresh slot map) for up to ``failover_wait`` s; an answer lost after
        sending raises CommitOutcomeUnknown for a commit (``unknown``) and is retried for anything else."""
        deadline = time.monotonic() + self.failover_wait
        asking: Address | None = None
        delay = 0.05
        while True:
            with contextlib.suppress(Exception):  # no node answered: handled as "no master known" below
                await self._ready()
            address = asking or self.nodes.master_of(key)
            if address is None:  # no slot map yet, or the slot has no master right now
                error: Exception = ClusterDownError(f"no master known for the slot of {key!r}")
            else:
                try:
                    return await self._call_on(address, args, timeout=timeout, unknown=unknown, wait=wait,
                                               asking=asking is not None)
                except AskError as exc:  # ASK, or MOVED (its subclass): resent at once, within the deadline
                    if isinstance(exc, MovedError):
                        self.nodes.learn(exc.slot_id, (exc.host, int(exc.port)))
                        asking = None
                    else:
                        asking = (exc.host, int(exc.port))
                    if time.monotonic() < deadline:
                        continue
                    raise
                except (ClusterDownError, TryAgainError, _Retryable) as exc:
                    cause = exc.__cause__
                    error = cause if isinstance(exc, _Retryable) and isinstance(cause, Exception) else exc
                    asking = None
            if time.monotonic() + delay > deadline:
                raise error
            await self._reset_topology()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.5)

    async def _call_on(self, address: Address, args: Sequence[Any], *, timeout: float | None, unknown: bool,
                       wait: bool, asking: bool) -> Any:
        """One exchange on a connection of ``address``'s pool. Raises _Retryable when nothing was sent, or
        when a command other than a commit (``unknown``) lost its answer."""
        pool = self.nodes.client(address).connection_pool
        try:
            conn = await pool.get_connection()
        except (*LOST, *NOT_SENT) as exc:  # no connection (refused, pool exhausted): nothing was sent
            raise _Retryable() from exc
        sent = False
        try:
            await self._drop_if_stale(conn)
            try:
                if asking:
                    await conn.send_command("ASKING")
                    await conn.read_response()
                await conn.send_command(*args)
            except (*LOST, *NOT_SENT) as exc:  # the connect or the write failed: not executed
                await conn.disconnect()
                raise _Retryable() from exc
            sent = True
            answer = await conn.read_response(timeout=timeout)
            if wait and self.wait_replicas > 0:
                await self._wait_for_replicas(conn, address)
            return answer
        except (ResponseError, _Retryable):
            raise
        except LOST as exc:
            await conn.disconnect()
            if sent and unknown:
                raise CommitOutcomeUnknown(f"{args[0]} sent but its answer was lost: {exc}") from exc
            raise _Retryable() from exc  # not a commit: reads, acks, claims may be sent again
        except BaseException:
            await conn.disconnect()  # a cancelled exchange may leave an answer in the socket
            raise
        finally:
            await pool.release(conn)

    async def _wait_for_replicas(self, conn: Any, address: Address) -> None:
        """``WAIT`` after a commit, when its master has replicas (WAIT on a master without any could only time
        out, slowing every command: the commit is then counted as unreplicated). A commit no replica
        confirmed in time, or whose WAIT answer was lost, stands but is marked (see durability.py)."""
        replicas = min(self.wait_replicas, self.nodes.replicas_of(address))
        if replicas == 0:
            self.unreplicated += 1
            durability.mark_lagged()
            if time.monotonic() - self._warned_at > 60:
                self._warned_at = time.monotonic()
                log.warning("master %s:%d has no replica: commits there are not replicated (%d so far)",
                            *address, self.unreplicated)
            return
        try:
            await self._wait_replicas(conn, replicas)
        except LOST as exc:
            await conn.disconnect()
            self._lagged(f"stands, but its WAIT failed ({exc})")

    async def _ready(self) -> None:
        """Load the slot map before the first command."""
        if self.nodes.refreshes == 0:
            await self.nodes.refresh()

    async def _reset_topology(self) -> None:
        """Load the slot map again (after a failover or resharding); a failure is left to the next attempt."""
        try:
            await self.nodes.refresh()
        except Exception as exc:
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
            for address in self.nodes.masters():
                await self.nodes.client(address).execute_command("SCRIPT", "LOAD", VIA_LUA)
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
                await self._ready()
                return await read_once(self.nodes, requests)
            except (*LOST, *NOT_SENT, MovedError, AskError):
                if time.monotonic() + delay > deadline:
                    raise
                await self._reset_topology()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)

    # --- commit -------------------------------------------------------------------------------------
    async def commit(self, commit: Commit) -> bool:
        self.commits += 1
        plan = split_commit(commit, self.nodes.keyslot)
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
        if not self.nodes.masters():
            await self.nodes.refresh()
        for address in self.nodes.masters():
            found.update([_text(k) async for k in self.nodes.client(address).scan_iter(match=pattern, count=500)])
        return sorted(found)

    # --- timers -------------------------------------------------------------------------------------
    async def _due_members(self, key: str, now: float, limit: int) -> list[Any]:
        return list(await self._node_call(key, "ZRANGE", key, "-inf", repr(now), "BYSCORE", "LIMIT", 0, limit))

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
        """Every stream in one exchange per master (one round trip each; a stream per slot, so no
        multi-stream command), polled until something comes or ``block_ms`` runs out."""
        deadline = time.monotonic() + block_ms / 1000
        pause = 0.01
        words = read_group_args(group, consumer, count, 0)
        commands = [(*words, "STREAMS", stream, ">") for stream in streams]  # the same each poll
        while True:
            await self._ready()
            try:
                raw = await per_master(self.nodes, streams, commands)
                for answer in raw:
                    if isinstance(answer, Exception):
                        raise answer
            except (*LOST, *NOT_SENT, MovedError, AskError):  # nothing this round; the slot map is loaded again
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

    # one stream per slot: the outbox's calls go stream by stream, as the Store's defaults make them
    reclaim_many = Store.reclaim_many
    ack_many = Store.ack_many
    touch_many = Store.touch_many

    async def ack(self, stream: str, group: str, *ids: str) -> int:
        if not ids:
            return 0
        return int(await self._node_call(stream, "XACK", stream, group, *ids))

    async def _keyed_call(self, key: str, *args: Any) -> Any:
        return await self._node_call(key, *args)

    def pool_stats(self) -> dict[str, int]:
        """Connections over every node's pool: ``in_use`` and ``idle``."""
        pools = [c.connection_pool for c in self.nodes.clients()]
        return {"in_use": sum(len(getattr(p, "_in_use_connections", ())) for p in pools),
                "idle": sum(len(getattr(p, "_available_connections", ())) for p in pools)}

    def health(self) -> dict[str, int]:
        """Counters for /healthz: commits, spilled commits, WAIT timeouts (saved, not yet replicated), commits
        on a master without a live replica, and slot map loads."""
        return {"commits": self.commits, "spills": self.spills, "wait_timeouts": self.wait_timeouts,
                "unreplicated": self.unreplicated, "slot_map_loads": self.nodes.refreshes}

    async def close(self) -> None:
        await self.nodes.aclose()
        await self.pubsub.close()


__all__ = ["SCHEMES", "TLS_OPTIONS", "ClusterStore", "check_tls_files", "client_options", "parse_cluster_url"]
