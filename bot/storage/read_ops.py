"""The read requests both Redis stores share (see base.py's ``Read``): how each is queued on a pipeline and
how its answer is decoded, so the single-node and the Cluster store read the same way."""

from __future__ import annotations

from typing import Any

from redis.exceptions import ResponseError

from .base import MAX_VERSION_DIGITS, DamagedKey, Read


def text(value: Any) -> str:
    """Redis bytes (or a number) as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


def queue_read(pipe: Any, req: Read) -> bool:
    """Queue one of the common reads on ``pipe``; False when ``req`` is a kind the caller handles itself."""
    kind, key = req[0], req[1]
    if kind == "get":
        pipe.get(key)
    elif kind == "head":
        pipe.getrange(key, 0, MAX_VERSION_DIGITS)
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
    elif kind == "due":
        pipe.zrangebyscore(key, "-inf", req[2], start=0, num=req[3])
    else:
        return False
    return True


def check_answer(req: Read, value: Any) -> None:
    """Raise what a pipeline answered instead of a value: a WRONGTYPE as :class:`DamagedKey`, else as is."""
    if isinstance(value, ResponseError):
        if "WRONGTYPE" in str(value):
            raise DamagedKey(req[1])
        raise value
    if isinstance(value, Exception):  # e.g. a Cluster node lost mid-pipeline: the caller retries
        raise value


def decode_read(kind: str, value: Any) -> Any:
    """The answer to a read of ``kind`` as the Store interface gives it (text, floats, pairs)."""
    if kind == "head":
        return value or None  # GETRANGE answers b"" for a missing key
    if kind in ("hget", "type"):
        return None if value is None else text(value)
    if kind == "hgetall":
        return {text(k): text(v) for k, v in value.items()}
    if kind == "ztop":
        return [(text(m), float(s)) for m, s in value]
    if kind == "due":
        return [text(m) for m in value]
    if kind == "zscore":
        return None if value is None else float(value)
    if kind in ("via", "via_lua"):  # [id found in the index, the value it points to]
        return [None if value[0] is None else text(value[0]), value[1]]
    return value
