import { LuaScript } from './lua-script';

/*
 * Concurrency slots shared by the instances. A token's slots are a sorted set: each member a
 * slot id "<instanceId>/<n>", its score the end of its lease on Redis' own clock. The instance
 * holding a slot renews its lease while the request runs (RENEW_SLOTS, every third of a lease);
 * a slot whose holder died, or lost track of it, stops counting when its lease ends — never a
 * counter left too high. An acquire carries the time its caller stops waiting for it, on Redis'
 * clock: run later than that (held back by the network), it takes no slot. An instance that knows
 * a slot id is dead (its acquire timed out yet may have run in time, its release failed) has it
 * removed by the next acquire of that token, in the same script, so a Redis blip leaves nothing
 * to wait out.
 */
const REDIS_NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * KEYS: the token's slots. ARGV: limit, slotId, leaseMs, keyTtlMs, notAfter, then slot ids known
 * dead. Removes the dead and the expired, then takes a slot if fewer than `limit` are held — unless
 * Redis' clock is past `notAfter` (0: no deadline): the caller gave up waiting by then, so a script
 * held back by the network (a partition, a blackhole) and run late takes nothing for nobody.
 * Returns {1, now} when the slot was taken, {0, now} when all `limit` are held, {-1, now} too late.
 */
export const ACQUIRE_SLOT = new LuaScript(`${REDIS_NOW}
for i = 6, #ARGV do
  redis.call('ZREM', KEYS[1], ARGV[i])
end
local not_after = tonumber(ARGV[5])
if not_after > 0 and now > not_after then return {-1, now} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return {0, now} end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))
return {1, now}
`);

/**
 * KEYS: slot sets. ARGV: leaseMs, then for each key in order the number of its slot ids and the
 * ids. Extends the lease of each slot still there (XX: one that expired or was removed is not
 * brought back). Returns the number of slots renewed.
 */
export const RENEW_SLOTS = new LuaScript(`${REDIS_NOW}
local until_ = now + tonumber(ARGV[1])
local at = 2
local renewed = 0
for k = 1, #KEYS do
  local count = tonumber(ARGV[at])
  for i = 1, count do
    renewed = renewed + redis.call('ZADD', KEYS[k], 'XX', 'CH', until_, ARGV[at + i])
  end
  at = at + count + 1
end
return renewed
`);
