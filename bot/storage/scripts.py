"""The Lua scripts of the Redis store: the all-or-nothing commit, the index lookup and the timer claim.

Redis does not roll a script back when a command inside it fails, so the commit script validates
everything a write could trip on (key types, versions, inputs) before its first write.
"""

from __future__ import annotations

import hashlib

# KEYS are every key the commit touches; ARGV[1] is the JSON spec [checks, ops] with key and argument
# indexes, binary values follow in ARGV[2..]. Returns 0 when applied, the 1-based index of the failing
# check, {'type', key} when a key has the wrong type, or {'input', op index} for a malformed op.
# Each key's type is tracked through the ops in order (a SET then an HSET on one key is refused too).
COMMIT_LUA = """
local spec = cjson.decode(ARGV[1])
local planned = {}
local function fits(i, want)
  local t = planned[i]
  if t == nil then
    t = redis.call('TYPE', KEYS[i]).ok
    planned[i] = t
  end
  return t == 'none' or t == want
end
local function count(x)
  return type(x) == 'number' and x >= 0 and x == math.floor(x) and x < 1e15
end
for _, c in ipairs(spec[1]) do
  local want = 'hash'
  if c[1] == 'v' then want = 'string' end
  if not fits(c[2], want) then return {'type', KEYS[c[2]]} end
end
for n, o in ipairs(spec[2]) do
  local op = o[1]
  if op == 'set' then
    if not fits(o[2], 'string') then return {'type', KEYS[o[2]]} end
    if not count(o[4]) then return {'input', n} end
    planned[o[2]] = 'string'
  elseif op == 'del' then
    fits(o[2], 'none')
    planned[o[2]] = 'none'
  elseif op == 'hset' or op == 'hdel' then
    if not fits(o[2], 'hash') then return {'type', KEYS[o[2]]} end
    if type(o[3]) ~= 'string' or type(o[4]) ~= 'string' then return {'input', n} end
    if op == 'hset' then planned[o[2]] = 'hash' end
  elseif op == 'zadd' or op == 'zrem' then
    if not fits(o[2], 'zset') then return {'type', KEYS[o[2]]} end
    if type(o[3]) ~= 'string' then return {'input', n} end
    if op == 'zadd' then
      local s = tonumber(o[4])
      if s == nil or s ~= s then return {'input', n} end
      planned[o[2]] = 'zset'
    end
  elseif op == 'xadd' then
    if not fits(o[2], 'stream') then return {'type', KEYS[o[2]]} end
    if not count(o[3]) or not count(o[5]) or o[5] < 1 then return {'input', n} end
    planned[o[2]] = 'stream'
  elseif op ~= 'pub' then
    return {'input', n}
  end
end
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
  elseif op == 'xadd' then
    local args = {KEYS[o[2]]}
    if o[3] > 0 then
      args[#args + 1] = 'MAXLEN'; args[#args + 1] = '~'; args[#args + 1] = o[3]
    end
    args[#args + 1] = '*'
    for j = o[4], o[4] + 2 * o[5] - 1 do args[#args + 1] = ARGV[j] end
    redis.call('XADD', unpack(args))
  end
end
return 0
"""

VIA_LUA = """
local id = redis.call('HGET', KEYS[1], ARGV[1])
if not id then return {false, false} end
return {id, redis.call('GET', ARGV[2] .. id .. ARGV[3])}
"""

VIA_SHA = hashlib.sha1(VIA_LUA.encode()).hexdigest()  # EVALSHA inside cluster pipelines

CLAIM_LUA = """
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and tonumber(s) <= tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  return 1
end
return 0
"""
