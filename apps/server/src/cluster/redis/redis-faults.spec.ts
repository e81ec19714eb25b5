import { RelayError } from '@chat-relay/wire';
import type { TcpProxy } from '../../../test/testing/tcp-proxy';
import { CallCounter, ClusterFixture, sleep } from '../../../test/cluster/redis/testing/cluster-fixture';
import { describeWithRedis, eventually } from '../../../test/cluster/redis/testing/redis-test-env';

const LIMITS = { rpm: 100, tpm: 10_000 };
/** A request must be decided within this however Redis fails (command timeout 400 ms). */
const DECIDED_WITHIN_MS = 1_500;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: PromiseSettledResult<T> }> {
  const started = Date.now();
  const [result] = await Promise.allSettled([work()]);
  return { ms: Date.now() - started, result: result as PromiseSettledResult<T> };
}

function rejection(settled: PromiseSettledResult<unknown>): unknown {
  if (settled.status === 'fulfilled') throw new Error(`expected a rejection, got ${JSON.stringify(settled.value)}`);
  return settled.reason;
}

describeWithRedis('Redis away (through a proxy that cuts or blackholes it)', (url) => {
  let fixture: ClusterFixture;
  let proxy: TcpProxy;
  beforeEach(async () => {
    fixture = new ClusterFixture(url);
    proxy = await fixture.proxy();
  });
  afterEach(() => fixture.cleanup());

  const takeAway = (how: 'cut' | 'blackhole') => (how === 'cut' ? proxy.cut() : proxy.blackhole());

  describe.each(['cut', 'blackhole'] as const)('%s', (how) => {
    it('mode open: requests are admitted without headers, in bounded time; writes never throw', async () => {
      const cluster = await fixture.open('a', { proxy, failureMode: 'open' });
      expect((await Promise.resolve(cluster.rateLimiter.checkRequest(1, LIMITS))).headers['x-ratelimit-limit-requests']).toBe('100');
      takeAway(how);

      const check = await timed(() => Promise.resolve(cluster.rateLimiter.checkRequest(1, LIMITS)));
      expect(check.ms).toBeLessThan(DECIDED_WITHIN_MS);
      expect(check.result).toEqual({ status: 'fulfilled', value: { allowed: true, headers: {} } });

      const slot = await timed(() => cluster.rateLimiter.acquireSlot(1, 1));
      expect(slot.ms).toBeLessThan(DECIDED_WITHIN_MS);
      expect(slot.result).toEqual({ status: 'fulfilled', value: true });
      // A second one too: the first was admitted without a slot, so it holds none.
      expect(await cluster.rateLimiter.acquireSlot(1, 1)).toBe(true);

      const record = await timed(() => cluster.rateLimiter.recordTokens(1, 50));
      const release = await timed(() => cluster.rateLimiter.releaseSlot(1));
      for (const { ms, result } of [record, release]) {
        expect(ms).toBeLessThan(DECIDED_WITHIN_MS);
        expect(result.status).toBe('fulfilled');
      }
      await cluster.rateLimiter.releaseSlot(1);
    });

    it('mode closed: requests are refused with a 503 saying limits cannot be checked, in bounded time', async () => {
      const cluster = await fixture.open('a', { proxy, failureMode: 'closed' });
      takeAway(how);
      const attempts: Array<() => Promise<unknown>> = [() => Promise.resolve(cluster.rateLimiter.checkRequest(1, LIMITS)), () => cluster.rateLimiter.acquireSlot(1, 2)];
      for (const attempt of attempts) {
        const { ms, result } = await timed(attempt);
        expect(ms).toBeLessThan(DECIDED_WITHIN_MS);
        const error = rejection(result);
        expect(error).toBeInstanceOf(RelayError);
        expect(error).toMatchObject({ status: 503, type: 'service_unavailable', code: 'store_unavailable' });
        expect((error as RelayError).message).toMatch(/rate limits cannot be checked/);
      }
      // Tokens without limits do not need Redis: still admitted.
      expect(await Promise.resolve(cluster.rateLimiter.checkRequest(1, { rpm: null, tpm: null }))).toEqual({ allowed: true, headers: {} });
      // After the answer: never a rejection, whatever the mode.
      await expect(cluster.rateLimiter.recordTokens(1, 10)).resolves.toBeUndefined();
      await expect(cluster.rateLimiter.releaseSlot(1)).resolves.toBeUndefined();
    });

    it('publish, announce and openCircuits neither throw nor wait; ping rejects in bounded time', async () => {
      const cluster = await fixture.open('a', { proxy });
      const calls = new CallCounter();
      cluster.changes.subscribe('tokens', calls.listener('tokens'));
      takeAway(how);
      await sleep(50);
      expect(() => cluster.changes.publish('tokens')).not.toThrow();
      expect(calls.count('tokens')).toBe(1);
      expect(() => cluster.circuits.announce(3, Date.now() + 10_000)).not.toThrow();
      const read = await timed(() => cluster.circuits.openCircuits());
      expect(read.ms).toBeLessThan(DECIDED_WITHIN_MS);
      expect(read.result).toEqual({ status: 'fulfilled', value: new Map() });
      const ping = await timed(() => cluster.ping());
      expect(ping.ms).toBeLessThan(DECIDED_WITHIN_MS);
      expect(String(rejection(ping.result))).toMatch(/redis does not answer/);
    });

    it('once Redis is back, limits are shared again by themselves', async () => {
      const cluster = await fixture.open('a', { proxy, failureMode: 'closed' });
      takeAway(how);
      await expect(Promise.resolve(cluster.rateLimiter.checkRequest(1, { rpm: 2, tpm: null }))).rejects.toMatchObject({ status: 503 });
      proxy.restore();
      let decision = await Promise.resolve(cluster.rateLimiter.checkRequest(1, { rpm: 2, tpm: null })).catch(() => undefined);
      const deadline = Date.now() + 8_000;
      while (!decision && Date.now() < deadline) {
        await sleep(100);
        decision = await Promise.resolve(cluster.rateLimiter.checkRequest(1, { rpm: 2, tpm: null })).catch(() => undefined);
      }
      // A blackholed check timed out here but reached Redis once the network was back, and was
      // counted there: a delayed request errs on the strict side.
      expect(decision?.headers['x-ratelimit-remaining-requests']).toBe(how === 'cut' ? '1' : '0');
      await expect(cluster.ping()).resolves.toBeUndefined();
    });
  });

  it('a slot whose acquire timed out but ran late in Redis is given back by id, not leaked', async () => {
    const cluster = await fixture.open('a', { proxy, failureMode: 'closed', slotLeaseMs: 600 });
    proxy.blackhole();
    await expect(cluster.rateLimiter.acquireSlot(1, 1)).rejects.toMatchObject({ status: 503 });
    proxy.restore(); // the acquire reaches Redis now: too late it takes nothing; had it run in time, its id is removed
    await eventually(() => proxy.connections === 2, 1_000, 'connections');
    const other = await fixture.open('b', { slotLeaseMs: 600 });
    let freed = false;
    const deadline = Date.now() + 3_000;
    while (!freed && Date.now() < deadline) {
      freed = await other.rateLimiter.acquireSlot(1, 1);
      if (!freed) await sleep(50);
    }
    expect(freed).toBe(true);
    expect(cluster.rateLimiter.slotsHeldBy(1)).toBe(0);
  });

  it('an acquire that reaches Redis after its caller gave up takes no slot: another instance is not held out until this one cleans up (issue 26: 429 after a blackhole)', async () => {
    // The default lease: this instance's own clean-up (its next heartbeat) is 10 s away.
    const cluster = await fixture.open('a', { proxy });
    expect(await cluster.rateLimiter.acquireSlot(1, 1)).toBe(true);
    await cluster.rateLimiter.releaseSlot(1);
    proxy.blackhole();
    // Redis does not answer in time: admitted without a slot (mode open); the script waits in the socket.
    expect(await cluster.rateLimiter.acquireSlot(1, 1)).toBe(true);
    // Well after its caller gave up (so that a busy machine's timing cannot blur which side of it the script runs).
    await sleep(300);
    proxy.restore();
    // The late script ran once this instance's next command is answered (one connection, in order).
    await cluster.ping();
    const other = await fixture.open('b');
    expect(await other.rateLimiter.acquireSlot(1, 1)).toBe(true);
    await other.rateLimiter.releaseSlot(1);
    await cluster.rateLimiter.releaseSlot(1);
  });

  it('a slot given back while Redis was cut is removed by the first acquire after it is back, not at the next heartbeat (issue 26: 429s for seconds after a blip)', async () => {
    // The default lease: the next heartbeat is 10 s away.
    const cluster = await fixture.open('a', { proxy, failureMode: 'closed' });
    expect(await cluster.rateLimiter.acquireSlot(1, 1)).toBe(true);
    proxy.cut();
    await cluster.rateLimiter.releaseSlot(1);
    proxy.restore();
    await eventually(() => proxy.connections === 2, 5_000, 'connections');
    const back = Date.now();
    let taken = false;
    while (!taken && Date.now() - back < 3_000) {
      taken = await cluster.rateLimiter.acquireSlot(1, 1).catch(() => false);
      if (!taken) await sleep(20);
    }
    expect(taken).toBe(true);
    expect(Date.now() - back).toBeLessThan(1_000);
  });

  it('a failing Redis is logged, throttled, and the URL with its password never is', async () => {
    const secret = 's3cret-pw-9f2c';
    const withPassword = new URL(url);
    withPassword.username = 'default';
    withPassword.password = secret;
    const secretFixture = new ClusterFixture(withPassword.toString());
    try {
      const secretProxy = await secretFixture.proxy();
      const cluster = await secretFixture.open('a', { proxy: secretProxy });
      // Connected with the password (this Redis' default user takes any).
      expect((await Promise.resolve(cluster.rateLimiter.checkRequest(1, LIMITS))).headers['x-ratelimit-limit-requests']).toBe('100');
      secretProxy.cut();
      for (let i = 0; i < 50; i++) await Promise.resolve(cluster.rateLimiter.checkRequest(1, LIMITS));
      for (let i = 0; i < 20; i++) cluster.changes.publish('prices');
      await sleep(300);
      const lines = secretFixture.log.lines;
      expect(lines.filter((line) => line.includes('rate limits not checked'))).toHaveLength(1);
      expect(lines.filter((line) => line.includes('not published'))).toHaveLength(1);
      expect(lines.some((line) => line.includes('connection: not connected, retrying'))).toBe(true);
      expect(lines.join('\n')).not.toContain(secret);
    } finally {
      await secretFixture.cleanup();
    }
  });

  it('start-up with Redis away: resolves at once, runs degraded, connects by itself later', async () => {
    proxy.cut();
    const started = Date.now();
    const cluster = await fixture.open('a', { proxy, failureMode: 'closed' });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(cluster.kind).toBe('redis');
    expect(fixture.log.lines.some((line) => line.includes('redis not reachable at start'))).toBe(true);
    await expect(cluster.ping()).rejects.toThrow(/redis does not answer/);
    await expect(Promise.resolve(cluster.rateLimiter.checkRequest(1, LIMITS))).rejects.toMatchObject({ status: 503 });

    const calls = new CallCounter();
    cluster.changes.subscribe('channels', calls.listener('channels'));
    proxy.restore();
    // The subscriber's first subscription follows a gap: every topic fires once it is up.
    await eventually(() => calls.count('channels') === 1, 6_000, 'the subscriber up');
    await expect(cluster.ping()).resolves.toBeUndefined();
    expect((await Promise.resolve(cluster.rateLimiter.checkRequest(1, LIMITS))).allowed).toBe(true);
  });

  it('close ends every connection, even with Redis away, so the process can exit', async () => {
    const up = await fixture.open('up', { proxy });
    expect(proxy.connections).toBe(2);
    await up.close();
    await eventually(() => proxy.connections === 0, 1_000, 'connections closed');

    const down = await fixture.open('down', { proxy });
    expect(proxy.connections).toBe(2);
    proxy.blackhole();
    const started = Date.now();
    await down.close();
    expect(Date.now() - started).toBeLessThan(1_500);
    proxy.restore();
    await eventually(() => proxy.connections === 0, 1_000, 'connections closed');
    // Nothing reconnects afterwards.
    await sleep(500);
    expect(proxy.connections).toBe(0);
  });
});
