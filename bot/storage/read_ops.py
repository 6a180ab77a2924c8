"""The read requests both Redis stores share (see base.py's ``Read``): the command each sends and how its answer is
shaped and decoded, so the single-node and the Cluster store read the same way."""

from __future__ import annotations

from typing import Any

from redis.exceptions import ResponseError

from .base import MAX_VERSION_DIGITS, DamagedKey, Read


def text(value: Any) -> str:
    """Redis bytes (or a number) as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


def read_command(req: Read) -> tuple[Any, ...] | None:
    """The Redis command of one of the common reads (its answer, raw or through redis-py's reply callbacks, then
    shaped by :func:`shaped`); None when ``req`` is a kind the caller handles itself."""
    kind, key = req[0], req[1]
    if kind == "get":
        return ("GET", key)
    if kind == "head":
        return ("GETRANGE", key, 0, MAX_VERSION_DIGITS)
    if kind == "hget":
        return ("HGET", key, req[2])
    if kind == "hgetall":
        return ("HGETALL", key)
    if kind == "ztop":
        return ("ZREVRANGE", key, 0, req[2] - 1, "WITHSCORES")
    if kind == "zrank":
        return ("ZREVRANK", key, req[2])
    if kind == "zscore":
        return ("ZSCORE", key, req[2])
    if kind == "zcard":
        return ("ZCARD", key)
    if kind == "due":
        return ("ZRANGEBYSCORE", key, "-inf", req[2], "LIMIT", 0, req[3])
    return None


def shaped(kind: str, raw: Any) -> Any:
    """A raw answer to :func:`read_command` shaped as redis-py's reply callbacks shape it: a hash as a dict, members
    with scores as (member, score) pairs, whether the connection speaks RESP3 (maps, nested pairs: redis-py's
    default) or RESP2 (flat arrays); errors and the rest as they are."""
    if kind == "hgetall" and isinstance(raw, list):
        return dict(zip(raw[::2], raw[1::2], strict=True))
    if kind == "ztop" and isinstance(raw, list):
        if raw and isinstance(raw[0], list):
            return [(member, score) for member, score in raw]
        return list(zip(raw[::2], raw[1::2], strict=True))
    return raw


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
