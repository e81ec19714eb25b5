import { LuaScript } from './lua-script';

/*
 * The sliding minute in Redis. Each token has two hashes — requests and tokens — whose fields are
 * buckets of `bucketMs` (field = floor(at / bucketMs)) holding "amount:lastAt". A bucket leaves
 * the window `windowMs` after its LAST addition (as SlidingWindow's slots do): exact for traffic
 * sparser than a bucket, never early for bursts (strict by under one bucket). A hash holds at most
 * windowMs / bucketMs + 1 live buckets; older ones are deleted when read, and a key nobody wrote
 * to for a window plus a bucket expires (PEXPIRE) — idle tokens leave nothing behind.
 *
 * `now` is an argument (the caller's clock, so specs drive time); -1 means Redis' own TIME.
 */
const WINDOW_FUNCTIONS = `
local window = tonumber(ARGV[2])
local bucketMs = tonumber(ARGV[3])
local ttl = tonumber(ARGV[4])
local now = tonumber(ARGV[1])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The live buckets as {lastAt, amount} ordered by lastAt, and their sum; expired ones deleted.
local function load(key)
  local raw = redis.call('HGETALL', key)
  local live, expired, total = {}, {}, 0
  for i = 1, #raw, 2 do
    local amount, last = string.match(raw[i + 1], '^(%d+):(%d+)$')
    amount, last = tonumber(amount), tonumber(last)
    if amount == nil or last == nil or last + window <= now then
      expired[#expired + 1] = raw[i]
    else
      live[#live + 1] = { last, amount }
      total = total + amount
    end
  end
  if #expired > 0 then redis.call('HDEL', key, unpack(expired)) end
  table.sort(live, function(a, b) return a[1] < b[1] end)
  return live, total
end

-- Counts amount at now; a clock that stepped back (another instance's, a little behind) joins the
-- newest bucket, as SlidingWindow's newest slot takes it: buckets stay ordered by lastAt.
local function add(key, amount, live)
  local at = now
  local tail = live[#live]
  if tail ~= nil and tail[1] > at then at = tail[1] end
  local field = string.format('%d', math.floor(at / bucketMs))
  local sum, last = amount, at
  local current = redis.call('HGET', key, field)
  if current then
    local a, l = string.match(current, '^(%d+):(%d+)$')
    if a and l then
      sum = sum + tonumber(a)
      last = math.max(last, tonumber(l))
    end
  end
  redis.call('HSET', key, field, string.format('%d:%d', sum, last))
  redis.call('PEXPIRE', key, ttl)
end

-- Milliseconds until the sum drops below limit (SlidingWindow.msUntilBelow).
local function untilBelow(live, total, limit)
  local remaining = total
  for _, bucket in ipairs(live) do
    if remaining < limit then break end
    remaining = remaining - bucket[2]
    if remaining < limit then return bucket[1] + window - now end
  end
  return 0
end

-- Milliseconds until everything counted has left the window (SlidingWindow.msUntilEmpty).
local function untilEmpty(live)
  local tail = live[#live]
  if tail == nil then return 0 end
  return math.max(0, tail[1] + window - now)
end
`;

/**
 * KEYS: requests hash, tokens hash. ARGV: now, windowMs, bucketMs, ttlMs, rpm, tpm (-1 = no limit).
 * Expires old buckets, sums both windows, decides, counts an admitted request (only when the
 * token has an rpm, as the in-memory limiter does) — atomically, in one round trip.
 * Returns {allowed 0|1, exceeded (1 requests + 2 tokens), requestsUsed (before this request),
 * tokensUsed, waitMs, requestsResetMs (after this request), tokensResetMs}.
 */
export const CHECK_REQUEST = new LuaScript(`${WINDOW_FUNCTIONS}
local rpm = tonumber(ARGV[5])
local tpm = tonumber(ARGV[6])
local requests, requestsUsed, tokens, tokensUsed = {}, 0, {}, 0
if rpm >= 0 then requests, requestsUsed = load(KEYS[1]) end
if tpm >= 0 then tokens, tokensUsed = load(KEYS[2]) end

local exceeded, wait = 0, 0
if rpm >= 0 and requestsUsed >= rpm then
  exceeded = exceeded + 1
  wait = math.max(wait, untilBelow(requests, requestsUsed, rpm))
end
if tpm >= 0 and tokensUsed >= tpm then
  exceeded = exceeded + 2
  wait = math.max(wait, untilBelow(tokens, tokensUsed, tpm))
end

local allowed = 0
local requestsReset = untilEmpty(requests)
if exceeded == 0 then
  allowed = 1
  if rpm >= 0 then
    add(KEYS[1], 1, requests)
    requestsReset = math.max(requestsReset, window)
  end
end
return { allowed, exceeded, requestsUsed, tokensUsed, wait, requestsReset, untilEmpty(tokens) }
`);

/** KEYS: tokens hash. ARGV: now, windowMs, bucketMs, ttlMs, tokens (a positive integer). */
export const RECORD_TOKENS = new LuaScript(`${WINDOW_FUNCTIONS}
local live = load(KEYS[1])
add(KEYS[1], tonumber(ARGV[5]), live)
return 1
`);
