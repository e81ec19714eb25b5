import type Redis from 'ioredis';
import { InMemoryRateLimiter } from '../../policy/rate-limiter';
import { closeConnection, createRedisConnection, untilReady } from './redis-connection';
import { RedisRateLimiter } from './redis-rate-limiter';
import { RATE_LIMIT_SCENARIOS, runScenario, T0 } from '../../../test/cluster/redis/testing/rate-limit-scenarios';
import { collectingLogger, deleteKeys, describeWithRedis, plainClient, uniqueKeyPrefix } from '../../../test/cluster/redis/testing/redis-test-env';

describeWithRedis('RedisRateLimiter', (url) => {
  const { logger } = collectingLogger();
  const connections: Redis[] = [];
  const limiters: RedisRateLimiter[] = [];
  let prefix: string;

  const connect = async () => {
    const redis = createRedisConnection({ url, name: 'test', logger });
    connections.push(redis);
    if (!(await untilReady(redis, 3_000))) throw new Error('not connected within 3000 ms');
    return redis;
  };
  const limiter = (redis: Redis, instanceId = 'instance-a', extra: { slotLeaseMs?: number } = {}) => {
    const created = new RedisRateLimiter({ redis, keyPrefix: prefix, instanceId, failureMode: 'closed', logger, ...extra });
    limiters.push(created);
    return created;
  };

  beforeEach(() => {
    prefix = uniqueKeyPrefix();
  });
  afterEach(async () => {
    await Promise.all(limiters.splice(0).map((created) => created.close()));
    await Promise.all(connections.splice(0).map(closeConnection));
    await deleteKeys(url, prefix);
  });

  describe('decides as InMemoryRateLimiter does', () => {
    it.each(RATE_LIMIT_SCENARIOS.map((scenario) => [scenario.name, scenario] as const))('%s', async (_name, scenario) => {
      const expected = await runScenario(new InMemoryRateLimiter(), scenario);
      const actual = await runScenario(limiter(await connect()), scenario);
      expect(actual).toEqual(expected);
      expect(actual.filter((decision) => !decision.allowed)).toHaveLength(scenario.refusals);
    });

    it('within one bucket it errs on the strict side, by less than a bucket', async () => {
      const redis = limiter(await connect());
      await redis.checkRequest(1, { rpm: 2, tpm: null }, T0 + 1_000);
      await redis.checkRequest(1, { rpm: 2, tpm: null }, T0 + 1_500);
      // In memory the first leaves at 61 s; in its bucket it leaves with the last one, at 61.5 s.
      expect((await redis.checkRequest(1, { rpm: 2, tpm: null }, T0 + 61_200)).allowed).toBe(false);
      expect((await redis.checkRequest(1, { rpm: 2, tpm: null }, T0 + 61_500)).allowed).toBe(true);
    });
  });

  it('keys expire a window and a bucket after the last write, and old buckets are deleted', async () => {
    const shared = limiter(await connect());
    for (let second = 0; second < 10; second++) await shared.checkRequest(1, { rpm: 100, tpm: null }, T0 + second * 1000);
    const client = await plainClient(url);
    try {
      const key = `${prefix}rl:1:requests`;
      expect(await client.hlen(key)).toBe(10);
      const ttl = await client.pttl(key);
      expect(ttl).toBeGreaterThan(55_000);
      expect(ttl).toBeLessThanOrEqual(61_000);
      await shared.checkRequest(1, { rpm: 100, tpm: null }, T0 + 65_000);
      // Seconds 0–5 have left the window (last addition + 60 s ≤ 65 s); 6–9 and the new one stay.
      expect(await client.hlen(key)).toBe(5);
    } finally {
      await client.quit();
    }
  });

  it('a token without limits never reaches Redis', async () => {
    const client = await plainClient(url);
    const away = new RedisRateLimiter({ redis: client, keyPrefix: prefix, instanceId: 'x', failureMode: 'closed', logger });
    await client.quit();
    // Mode closed on a closed connection: any command would have been refused with a 503.
    expect(await away.checkRequest(1, { rpm: null, tpm: null })).toEqual({ allowed: true, headers: {} });
    await expect(away.checkRequest(1, { rpm: 1, tpm: null })).rejects.toMatchObject({ status: 503 });
    await away.close();
  });

  describe('two instances share one window', () => {
    it('rpm 10: the eleventh is refused whichever instance it reaches', async () => {
      const [a, b] = [limiter(await connect(), 'a'), limiter(await connect(), 'b')];
      const limits = { rpm: 10, tpm: null };
      const remaining: string[] = [];
      for (let i = 0; i < 10; i++) {
        const decision = await (i % 2 === 0 ? a : b).checkRequest(7, limits);
        expect(decision.allowed).toBe(true);
        remaining.push(decision.headers['x-ratelimit-remaining-requests'] ?? '');
      }
      expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
      expect((await a.checkRequest(7, limits)).allowed).toBe(false);
      expect((await b.checkRequest(7, limits)).allowed).toBe(false);
    });

    it('tokens recorded on one instance count on the other', async () => {
      const [a, b] = [limiter(await connect(), 'a'), limiter(await connect(), 'b')];
      await a.recordTokens(3, 700);
      await b.recordTokens(3, 300);
      const decision = await b.checkRequest(3, { rpm: null, tpm: 1000 });
      expect(decision.allowed).toBe(false);
      expect(decision.headers['x-ratelimit-remaining-tokens']).toBe('0');
    });

    it('200 concurrent checks over two connections with rpm 50: exactly 50 admitted', async () => {
      const [a, b] = [limiter(await connect(), 'a'), limiter(await connect(), 'b')];
      const decisions = await Promise.all(
        Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).checkRequest(9, { rpm: 50, tpm: null })),
      );
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(50);
      // Each admitted one saw a different count: 49 … 0 remaining, each exactly once.
      const remaining = decisions.filter((decision) => decision.allowed).map((decision) => Number(decision.headers['x-ratelimit-remaining-requests']));
      expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    });
  });

  describe('concurrency slots', () => {
    it('are shared by the instances and given back', async () => {
      const [a, b] = [limiter(await connect(), 'a'), limiter(await connect(), 'b')];
      expect(await a.acquireSlot(5, 3)).toBe(true);
      expect(await a.acquireSlot(5, 3)).toBe(true);
      expect(await b.acquireSlot(5, 3)).toBe(true);
      expect(await b.acquireSlot(5, 3)).toBe(false);
      expect(await a.acquireSlot(5, 3)).toBe(false);
      expect(await b.acquireSlot(6, 3)).toBe(true);
      await a.releaseSlot(5);
      expect(await b.acquireSlot(5, 3)).toBe(true);
      expect(await a.acquireSlot(5, 3)).toBe(false);
      expect([a.slotsHeldBy(5), b.slotsHeldBy(5)]).toEqual([1, 2]);
      for (let i = 0; i < 3; i++) await b.releaseSlot(5);
      await a.releaseSlot(5);
      // A release without a slot taken gives nothing back twice.
      expect(await a.acquireSlot(5, 1)).toBe(true);
      expect(await b.acquireSlot(5, 1)).toBe(false);
    });

    it('concurrent acquires over two instances never exceed the limit', async () => {
      const [a, b] = [limiter(await connect(), 'a'), limiter(await connect(), 'b')];
      const taken = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).acquireSlot(8, 7)));
      expect(taken.filter(Boolean)).toHaveLength(7);
      expect(a.slotsHeldBy(8) + b.slotsHeldBy(8)).toBe(7);
    });

    it('a dead instance holds its slots no longer than the lease after its last heartbeat', async () => {
      const doomedConnection = await connect();
      const doomed = limiter(doomedConnection, 'doomed', { slotLeaseMs: 600 });
      const survivor = limiter(await connect(), 'survivor', { slotLeaseMs: 600 });
      expect(await doomed.acquireSlot(4, 2)).toBe(true);
      expect(await doomed.acquireSlot(4, 2)).toBe(true);
      // It dies without a word: no release, no goodbye, its heartbeats stop reaching Redis.
      doomedConnection.disconnect();
      const diedAt = Date.now();
      expect(await survivor.acquireSlot(4, 2)).toBe(false);
      let freedAfter = 0;
      while (!(await survivor.acquireSlot(4, 2))) {
        freedAfter = Date.now() - diedAt;
        expect(freedAfter).toBeLessThan(1_500);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(Date.now() - diedAt).toBeGreaterThanOrEqual(300);
      expect(await survivor.acquireSlot(4, 2)).toBe(true);
      expect(await survivor.acquireSlot(4, 2)).toBe(false);
    });

    it('a long request on a live instance keeps its slot past the lease (heartbeats)', async () => {
      const a = limiter(await connect(), 'a', { slotLeaseMs: 300 });
      const b = limiter(await connect(), 'b', { slotLeaseMs: 300 });
      expect(await a.acquireSlot(2, 1)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 900));
      expect(await b.acquireSlot(2, 1)).toBe(false);
      await a.releaseSlot(2);
      expect(await b.acquireSlot(2, 1)).toBe(true);
    });

    it('at the limit, a slot given back a moment later by another instance is taken, not refused (issue 26: spurious 429 at the limit)', async () => {
      const [a, b] = [limiter(await connect(), 'a'), limiter(await connect(), 'b')];
      expect(await a.acquireSlot(11, 1)).toBe(true);
      // B's caller sends its next request as A's answer ends; A's release reaches Redis 5 ms later.
      const next = b.acquireSlot(11, 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await a.releaseSlot(11);
      expect(await next).toBe(true);
      // Truly over the limit: refused, after looking again for at most some 50 ms.
      const started = Date.now();
      expect(await a.acquireSlot(11, 1)).toBe(false);
      expect(Date.now() - started).toBeLessThan(500);
    });

    it('a slot whose holder lost track of it counts only until its lease ends, not for the holder\'s life', async () => {
      const a = limiter(await connect(), 'a', { slotLeaseMs: 300 });
      const b = limiter(await connect(), 'b', { slotLeaseMs: 300 });
      // A slot in Redis no request holds (what a lost answer leaves): no one renews it.
      const raw = await connect();
      await raw.zadd(`${prefix}slot-leases:12`, Date.now() + 300, 'a/999');
      expect(await b.acquireSlot(12, 1)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await b.acquireSlot(12, 1)).toBe(true);
      expect(a.slotsHeldBy(12)).toBe(0);
    });

    it('closing an instance lets its slots go at once', async () => {
      const a = limiter(await connect(), 'a');
      const b = limiter(await connect(), 'b');
      expect(await a.acquireSlot(3, 1)).toBe(true);
      await a.close();
      expect(await b.acquireSlot(3, 1)).toBe(true);
    });
  });

  it('one round trip per checkRequest (MONITOR, this connection only)', async () => {
    const redis = await connect();
    const measured = limiter(redis);
    await measured.checkRequest(1, { rpm: 1000, tpm: 1000 }); // loads the script (EVALSHA, maybe EVAL)
    const address = `${redis.stream.localAddress}:${redis.stream.localPort}`;
    const monitor = await plainClient(url);
    const seen: string[] = [];
    const monitoring = await monitor.monitor();
    monitoring.on('monitor', (_time: string, args: string[], source: string) => {
      if (source.endsWith(address)) seen.push(String(args[0]).toLowerCase());
    });
    try {
      for (let i = 0; i < 20; i++) await measured.checkRequest(1, { rpm: 1000, tpm: 1000 });
      await measured.recordTokens(1, 5);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Commands the script runs show as "lua", not from this connection's address.
      expect(seen).toEqual([...Array.from({ length: 20 }, () => 'evalsha'), 'evalsha']);
    } finally {
      monitoring.disconnect();
      await monitor.quit();
    }
  });

  it('checkRequest latency against this Redis (1,000 sequential calls)', async () => {
    const measured = limiter(await connect());
    const limits = { rpm: 1_000_000, tpm: 1_000_000 };
    await measured.checkRequest(1, limits);
    const times: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const started = process.hrtime.bigint();
      await measured.checkRequest(1, limits);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    times.sort((x, y) => x - y);
    const [median, p99] = [times[499] ?? 0, times[989] ?? 0];
    process.stderr.write(`RedisRateLimiter.checkRequest: median ${median.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms over 1000 calls\n`);
    expect(median).toBeLessThan(20);
  });
});
