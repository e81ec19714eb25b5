import { LuaScript } from './lua-script';

/*
 * Concurrency slots shared by the instances. A token's slots are a set of slot ids
 * "<instanceId>/<n>"; an instance is alive while its heartbeat (a score in the instances sorted
 * set, Redis' own clock) is younger than the lease. Slots of an instance that stopped beating —
 * it crashed, or lost Redis — stop counting `leaseMs` after its last beat, so a dead instance
 * cannot hold a token's slots for longer than that. They are only looked at when the token is at
 * its limit: the usual acquire is O(1).
 */
const REDIS_NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * KEYS: the token's slot set, the instances' heartbeats. ARGV: limit, slotId, instanceId,
 * leaseMs, keyTtlMs. Returns 1 when the slot was taken, 0 when all `limit` are held.
 */
export const ACQUIRE_SLOT = new LuaScript(`${REDIS_NOW}
local limit = tonumber(ARGV[1])
local lease = tonumber(ARGV[4])
redis.call('ZADD', KEYS[2], now, ARGV[3])
local held = redis.call('SCARD', KEYS[1])
if held >= limit then
  local alive = {}
  for _, slot in ipairs(redis.call('SMEMBERS', KEYS[1])) do
    local instance = string.match(slot, '^(.*)/[^/]*$')
    local ok = false
    if instance then
      ok = alive[instance]
      if ok == nil then
        local beat = redis.call('ZSCORE', KEYS[2], instance)
        ok = beat ~= false and tonumber(beat) + lease > now
        alive[instance] = ok
      end
    end
    if not ok then
      redis.call('SREM', KEYS[1], slot)
      held = held - 1
    end
  end
  if held >= limit then return 0 end
end
redis.call('SADD', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[5]))
return 1
`);

/**
 * KEYS: the instances' heartbeats. ARGV: instanceId, forgetAfterMs. This instance is alive;
 * instances silent for `forgetAfterMs` are dropped from the set (their slots were dead long ago).
 */
export const HEARTBEAT = new LuaScript(`${REDIS_NOW}
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
return 1
`);
