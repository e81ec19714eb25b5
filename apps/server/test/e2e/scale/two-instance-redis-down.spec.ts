import { adminCall } from '../../testing/spawned-setup';
import { chat, errorOf, pollUntil, probe, type ChatOutcome } from './relay-calls';
import { openRedisFault, type RedisFault } from './redis-fault';
import { describeTwoInstances, TEST_REDIS_URL, useTwoInstances } from './two-instances';

/** A request never waits on an absent Redis longer than this. */
const LATENCY_BOUND_MS = 2_000;
const NOT_READY = 'Redis does not answer and limits fail closed (RELAY_REDIS_FAILURE_MODE=closed)';

const slowest = (outcomes: ChatOutcome[]) => Math.round(Math.max(...outcomes.map((outcome) => outcome.ms)));

describeTwoInstances('two relays while Redis is away: A fails open, B fails closed; neither crashes, and sharing resumes after', () => {
  // The proxy first (hooks run in order): the relays dial Redis through it.
  let fault: RedisFault | undefined;
  beforeAll(async () => {
    fault = await openRedisFault(TEST_REDIS_URL!);
  });
  afterAll(async () => {
    await fault?.close();
  });
  const cluster = useTwoInstances(() => {
    if (!fault) throw new Error('no Redis proxy');
    return { redisUrl: fault.url, envOf: { a: { RELAY_REDIS_FAILURE_MODE: 'open' }, b: { RELAY_REDIS_FAILURE_MODE: 'closed' } } };
  });

  for (const how of ['cut', 'blackhole'] as const) {
    it(`Redis ${how === 'cut' ? 'cut (connections reset, new ones refused)' : 'blackholed (connections open, nothing answers)'}: limited tokens admitted on A and 503 on B, quickly; unlimited ones 200; probes say so`, async () => {
      const { relay, createToken } = cluster();
      const [a, b] = [relay('a'), relay('b')];
      const limited = await createToken({ rate_limit: { rpm: 1000, concurrency: 50 } });
      const unlimited = await createToken();
      // Disabled on A while Redis is away: the message is lost, B must reload once Redis is back.
      const disabledMeanwhile = await createToken();
      expect((await chat(b, disabledMeanwhile.key)).status).toBe(200);
      for (const target of [a, b]) {
        expect((await chat(target, limited.key)).status).toBe(200);
        expect((await probe(target, '/readyz')).status).toBe(200);
      }

      fault![how]();
      const open: ChatOutcome[] = [];
      const closed: ChatOutcome[] = [];
      const unlimitedOnB: ChatOutcome[] = [];
      for (let i = 0; i < 5; i += 1) {
        open.push(await chat(a, limited.key));
        closed.push(await chat(b, limited.key));
        unlimitedOnB.push(await chat(b, unlimited.key));
      }
      await adminCall(a, 'PATCH', `/api/tokens/${disabledMeanwhile.id}`, { status: 'disabled' });
      const [healthA, readyA, readyB] = [await probe(a, '/healthz'), await probe(a, '/readyz'), await probe(b, '/readyz')];
      console.info(
        `two-instance Redis ${how}: A (open) limited token ${open.map((outcome) => outcome.status).join(',')} slowest ${slowest(open)} ms; ` +
          `B (closed) limited ${closed.map((outcome) => outcome.status).join(',')} slowest ${slowest(closed)} ms, unlimited ${unlimitedOnB.map((outcome) => outcome.status).join(',')} slowest ${slowest(unlimitedOnB)} ms; ` +
          `A /healthz ${healthA.status} ${String(healthA.body['status'])} in ${Math.round(healthA.ms)} ms, A /readyz ${readyA.status}, B /readyz ${readyB.status}`,
      );
      expect(open.map((outcome) => outcome.status)).toEqual(Array(5).fill(200));
      expect(closed.map((outcome) => ({ status: outcome.status, code: errorOf(outcome)?.code }))).toEqual(Array(5).fill({ status: 503, code: 'store_unavailable' }));
      expect(unlimitedOnB.map((outcome) => outcome.status)).toEqual(Array(5).fill(200));
      expect(slowest([...open, ...closed, ...unlimitedOnB])).toBeLessThan(LATENCY_BOUND_MS);
      expect(healthA.status).toBe(200);
      expect(healthA.body).toMatchObject({ status: 'degraded', redis: { status: 'unavailable', failure_mode: 'open' } });
      expect(readyA.status).toBe(200);
      expect(readyB.status).toBe(503);
      expect(readyB.body['reasons']).toEqual([NOT_READY]);

      fault!.restore();
      const restored = performance.now();
      const back = await pollUntil(async () => (await probe(a, '/healthz')).body['status'] === 'ok' && (await probe(b, '/readyz')).status === 200, { withinMs: 10_000, everyMs: 100 });
      // The change made meanwhile (RELAY_REFRESH_MS is 60 s): B reloads its caches when Redis is back.
      const lostMessageSeen = await pollUntil(async () => (await chat(b, disabledMeanwhile.key)).status === 401, { since: restored, withinMs: 3_000 });
      console.info(
        `two-instance Redis ${how}: both instances saw Redis again ${Math.round(back ?? -1)} ms after the restore; ` +
          `a token disabled on A while Redis was away was refused by B ${Math.round(lostMessageSeen ?? -1)} ms after the restore`,
      );
      expect(back).toBeDefined();
      expect(lostMessageSeen).toBeLessThan(1_000);

      // Limits are shared again: rpm 4 over both, the 5th refused on either.
      const rpm4 = await createToken({ rate_limit: { rpm: 4 } });
      const statuses = [];
      for (const target of [a, b, a, b]) statuses.push((await chat(target, rpm4.key)).status);
      expect(statuses).toEqual([200, 200, 200, 200]);
      expect((await chat(a, rpm4.key)).status).toBe(429);
      expect((await chat(b, rpm4.key)).status).toBe(429);

      // A change travels by message again (RELAY_REFRESH_MS is 60 s): disabled on A, refused by B within 1 s.
      const changed = performance.now();
      await adminCall(a, 'PATCH', `/api/tokens/${unlimited.id}`, { status: 'disabled' });
      const refusedAfter = await pollUntil(async () => (await chat(b, unlimited.key)).status === 401, { since: changed, withinMs: 3_000 });
      console.info(`two-instance Redis ${how}: after the restore, a token disabled on A was refused by B after ${Math.round(refusedAfter ?? -1)} ms`);
      expect(refusedAfter).toBeLessThan(1_000);

      // Neither process crashed nor logged an unhandled error.
      for (const target of [a, b]) {
        expect(target.child.exitCode).toBeNull();
        expect(target.output()).not.toContain('unhandled promise rejection');
        expect(target.output()).not.toMatch(/uncaught|Unhandled error event/i);
      }
    }, 40_000);
  }
});
