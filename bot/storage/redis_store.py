"""The Redis store (``redis.asyncio``): pipelined reads, one Lua script per commit, pub/sub events.

A commit is one EVALSHA: the script checks every version and hash field, then applies every write,
so it is atomic and costs one round trip. Values are bytes (``decode_responses=False``).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

import redis.asyncio as aioredis

from .base import Commit, Read, Store

# KEYS are every key the commit touches; ARGV[1] is the JSON spec with key and argument indexes,
# the values (binary) follow in ARGV[2..]. Returns 0 when applied, else the 1-based failing check.
COMMIT_LUA = """
local spec = cjson.decode(ARGV[1])
for i, c in ipairs(spec[1]) do
  local k = KEYS[c[2]]
  if c[1] == 'v' then
    local s = redis.call('GET', k)
    local v = 0
    if s then v = tonumber(string.match(s, '^(%d+):')) or -1 end
    if v ~= c[3] then return i end
  elseif redis.call('HEXISTS', k, c[3]) == 1 then
    return i
  end
end
for _, o in ipairs(spec[2]) do
  local op = o[1]
  if op == 'set' then
    if o[4] > 0 then redis.call('SET', KEYS[o[2]], ARGV[o[3]], 'EX', o[4])
    else redis.call('SET', KEYS[o[2]], ARGV[o[3]]) end
  elseif op == 'del' then redis.call('DEL', KEYS[o[2]])
  elseif op == 'hset' then redis.call('HSET', KEYS[o[2]], o[3], o[4])
  elseif op == 'hdel' then
    if o[4] == '' or redis.call('HGET', KEYS[o[2]], o[3]) == o[4] then redis.call('HDEL', KEYS[o[2]], o[3]) end
  elseif op == 'zadd' then redis.call('ZADD', KEYS[o[2]], o[4], o[3])
  elseif op == 'zrem' then redis.call('ZREM', KEYS[o[2]], o[3])
  elseif op == 'pub' then redis.call('PUBLISH', o[2], ARGV[o[3]])
  end
end
return 0
"""

VIA_LUA = """
local id = redis.call('HGET', KEYS[1], ARGV[1])
if not id then return {false, false} end
return {id, redis.call('GET', ARGV[2] .. id .. ARGV[3])}
"""

CLAIM_LUA = """
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and tonumber(s) <= tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  return 1
end
return 0
"""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisStore(Store):
    """Store on a Redis server (standalone or Sentinel; keys carry hash tags for Cluster later)."""

    def __init__(self, client: aioredis.Redis) -> None:
        self.client = client
        self._commit = client.register_script(COMMIT_LUA)
        self._claim = client.register_script(CLAIM_LUA)
        self._via = client.register_script(VIA_LUA)

    @classmethod
    def from_url(cls, url: str) -> RedisStore:
        return cls(aioredis.Redis.from_url(url, decode_responses=False))

    async def read(self, requests: Sequence[Read]) -> list[Any]:
        pipe = self.client.pipeline(transaction=False)
        for req in requests:
            kind, key = req[0], req[1]
            if kind == "get":
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
            elif kind == "via":
                await self._via(keys=[key], args=[req[2], req[3], req[4]], client=pipe)
            else:
                raise ValueError(f"unknown read {kind!r}")
        raw = await pipe.execute()
        out: list[Any] = []
        for req, value in zip(requests, raw, strict=True):
            kind = req[0]
            if kind == "hget":
                out.append(None if value is None else _text(value))
            elif kind == "hgetall":
                out.append({_text(k): _text(v) for k, v in value.items()})
            elif kind == "ztop":
                out.append([(_text(m), float(s)) for m, s in value])
            elif kind == "zscore":
                out.append(None if value is None else float(value))
            elif kind == "via":
                out.append([None if value[0] is None else _text(value[0]), value[1]])
            else:
                out.append(value)
        return out

    async def commit(self, commit: Commit) -> bool:
        keys: list[str] = []
        index: dict[str, int] = {}
        argv: list[Any] = [""]

        def k(key: str) -> int:
            if key not in index:
                keys.append(key)
                index[key] = len(keys)
            return index[key]

        def arg(value: bytes) -> int:
            argv.append(value)
            return len(argv)

        checks = [[c[0], k(c[1]), c[2]] for c in commit.checks]
        ops: list[list[Any]] = []
        for op in commit.ops:
            kind = op[0]
            if kind == "set":
                ops.append(["set", k(op[1]), arg(op[2]), int(op[3])])
            elif kind == "del":
                ops.append(["del", k(op[1])])
            elif kind in ("hset", "hdel"):
                ops.append([kind, k(op[1]), op[2], op[3]])
            elif kind == "zadd":
                ops.append(["zadd", k(op[1]), op[2], repr(op[3])])
            elif kind == "zrem":
                ops.append(["zrem", k(op[1]), op[2]])
            elif kind == "pub":
                ops.append(["pub", op[1], arg(op[2])])
        argv[0] = json.dumps([checks, ops], separators=(",", ":"))
        failed = await self._commit(keys=keys, args=argv)
        return int(failed) == 0

    async def due(self, key: str, now: float, limit: int) -> list[str]:
        members = await self.client.zrangebyscore(key, "-inf", now, start=0, num=limit)
        return [_text(m) for m in members]

    async def claim(self, key: str, member: str, now: float, lease: float) -> bool:
        return int(await self._claim(keys=[key], args=[member, repr(now), repr(now + lease)])) == 1

    async def subscribe(self, channel: str, pattern: bool = False) -> AsyncIterator[bytes]:
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        if pattern:
            await pubsub.psubscribe(channel)
        else:
            await pubsub.subscribe(channel)

        async def messages() -> AsyncIterator[bytes]:
            try:
                while True:  # get_message with a timeout, not listen(): a cancel then always gets through
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is not None and message.get("type") in ("message", "pmessage"):
                        yield message["data"]
            finally:
                await pubsub.aclose()

        return messages()

    async def close(self) -> None:
        await self.client.aclose()
