"""Reads for the Redis Cluster store: a batch of read requests (see base.py) as one cluster pipeline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from redis.asyncio.cluster import RedisCluster

from .base import Read
from .read_ops import check_answer, decode_read, queue_read, text


async def read_once(cluster: RedisCluster, requests: Sequence[Read]) -> list[Any]:
    """One attempt at a batch of reads as one non-transactional cluster pipeline (one round trip per master);
    ``("via_get", key or None, value)`` is the second half of an index lookup (see ClusterStore.read)."""
    pipe = cluster.pipeline()
    for req in requests:
        kind, key = req[0], req[1]
        if queue_read(pipe, req):
            continue
        if kind == "via_get":
            pipe.get(key) if key is not None else pipe.exists("fevga:{none}")
        elif kind == "via_lua":  # (kind, index key, field, prefix, suffix, sha): [id, GET(prefix + id + suffix)]
            pipe.execute_command("EVALSHA", req[5], 1, key, req[2], req[3], req[4])
        elif kind == "type":
            pipe.type(key)
        else:
            raise ValueError(f"unknown read {kind!r}")
    raw = await pipe.execute(raise_on_error=False) if requests else []
    out: list[Any] = []
    for req, value in zip(requests, raw, strict=True):
        check_answer(req, value)
        if req[0] == "via_get":
            out.append([None if req[2] is None else text(req[2]), value if req[1] is not None else None])
        else:
            out.append(decode_read(req[0], value))
    return out
