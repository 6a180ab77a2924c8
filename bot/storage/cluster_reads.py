"""Reads for the Redis Cluster store: a batch of read requests (see base.py) as one cluster pipeline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ResponseError

from .base import DamagedKey, Read
from .redis_store import _text


async def read_once(cluster: RedisCluster, requests: Sequence[Read]) -> list[Any]:
    """One attempt at a batch of reads as one non-transactional cluster pipeline (one round trip per master);
    ``("via_get", key or None, value)`` is the second half of an index lookup (see ClusterStore.read)."""
    pipe = cluster.pipeline()
    for req in requests:
        kind, key = req[0], req[1]
        if kind == "via_get":
            pipe.get(key) if key is not None else pipe.exists("fevga:{none}")
        elif kind == "via_lua":  # (kind, index key, field, prefix, suffix, sha): [id, GET(prefix + id + suffix)]
            pipe.execute_command("EVALSHA", req[5], 1, key, req[2], req[3], req[4])
        elif kind == "type":
            pipe.type(key)
        elif kind == "get":
            pipe.get(key)
        elif kind == "hget":
            pipe.hget(key, req[2])
        elif kind == "hgetall":
            pipe.hgetall(key)
        elif kind == "ztop":
            pipe.zrevrange(key, 0, req[2] - 1, withscores=True)
        elif kind == "zrank":
            pipe.zrevrank(key, req[2])
        elif kind == "zscore":
            pipe.zscore(key, req[2])
        elif kind == "zcard":
            pipe.zcard(key)
        else:
            raise ValueError(f"unknown read {kind!r}")
    raw = await pipe.execute(raise_on_error=False) if requests else []
    out: list[Any] = []
    for req, value in zip(requests, raw, strict=True):
        kind = req[0]
        if isinstance(value, ResponseError):
            if "WRONGTYPE" in str(value):
                raise DamagedKey(req[1])
            raise value
        if isinstance(value, Exception):  # a node lost mid-pipeline: retried with a new topology
            raise value
        if kind == "via_lua":
            out.append([None if value[0] is None else _text(value[0]), value[1]])
        elif kind == "via_get":
            out.append([None if req[2] is None else _text(req[2]), value if req[1] is not None else None])
        elif kind in ("hget", "type"):
            out.append(None if value is None else _text(value))
        elif kind == "hgetall":
            out.append({_text(k): _text(v) for k, v in value.items()})
        elif kind == "ztop":
            out.append([(_text(m), float(s)) for m, s in value])
        elif kind == "zscore":
            out.append(None if value is None else float(value))
        else:
            out.append(value)
    return out
